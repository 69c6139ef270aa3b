"""The running app in a real browser (Debian's chromium driven by Playwright).

For every page: a fresh server, the page opened by its deep link as the first visit (the case
Streamlit 1.67 gets wrong with a pages/ folder), the app's own navigation in the sidebar, and
the first slider moved with the keyboard, after which the page's numbers and charts change.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

from ui.common.catalog import available_pages

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def server() -> Iterator[str]:
    """A fresh `streamlit run app.py` on a free port; its base URL."""
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.port",
            str(port),
            "--server.headless",
            "true",
            "--server.address",
            "127.0.0.1",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"},
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    else:
        process.kill()
        pytest.fail("the streamlit server did not start within 60 s")
    yield base
    process.terminate()
    process.wait(timeout=20)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


def _settled(page: Page) -> None:
    """Wait until the app is connected and its script has stayed finished for half a second.

    A first visit runs twice (see ui.common.shell.use_app_navigation), so one "notRunning" moment
    is not enough; and the first time a widget appears its code loads, showing a skeleton.
    """
    page.wait_for_selector(
        "[data-testid='stApp'][data-test-connection-state='CONNECTED']", timeout=30_000
    )
    idle = "[data-testid='stApp'][data-test-script-state='notRunning']"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        page.wait_for_selector(idle, timeout=30_000)
        page.wait_for_timeout(500)
        # Widgets whose code is still loading show as skeletons: wait for them too.
        loading = page.locator("[data-testid^='stSkeleton']").count()
        if page.locator(idle).count() == 1 and loading == 0:
            return
    pytest.fail("the app kept rerunning or loading for 60 s")


def _main_text(page: Page) -> str:
    return page.locator("[data-testid='stMain']").inner_text()


def _chart_signature(page: Page) -> list[str]:
    """The drawn plotly SVG paths of every chart: they change when the data changes."""
    return page.locator(".js-plotly-plot .plot path").evaluate_all(
        "paths => paths.map(p => p.getAttribute('d'))"
    )


@pytest.mark.parametrize("entry", available_pages(), ids=lambda e: e.url_path)
def test_deep_link_first_visit_shows_the_page_and_reacts(server, browser, entry) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/{entry.url_path}")
    _settled(page)

    # The app's own navigation, not the legacy file-name list.
    nav = page.locator("[data-testid='stSidebarNav']").inner_text()
    for other in available_pages():
        assert other.title in nav, f"{other.title!r} missing from the sidebar: {nav!r}"
    assert "app" not in nav.split(), nav
    # The shared sidebar and the page itself.
    assert page.get_by_role("button", name="Draw new noise").count() == 1
    heading = "DP Explorer" if entry.url_path == "home" else entry.title
    assert page.locator("h1").first.inner_text().strip() == heading
    assert page.locator("[data-testid='stException']").count() == 0

    before_text, before_charts = _main_text(page), _chart_signature(page)
    slider = page.locator(
        "[data-testid='stMain'] [data-testid='stSlider'] input[type='range']"
    ).first
    slider.focus()
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    _settled(page)
    after_text, after_charts = _main_text(page), _chart_signature(page)
    assert after_text != before_text
    if before_charts:  # pages with charts redraw them
        assert after_charts != before_charts
    assert page.locator("[data-testid='stException']").count() == 0
    assert not errors, errors
    page.close()


def test_a_shared_link_opens_with_its_settings_and_the_address_follows(server, browser) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{server}/laplace?laplace_epsilon=0.1&seed=7&draw=2")
    _settled(page)
    assert "within ±30.0 of the true count 95% of the time" in _main_text(page)
    assert "Draw number 2 with seed 7" in page.locator("[data-testid='stSidebar']").inner_text()
    slider = page.locator("[data-testid='stMain'] [data-testid='stSlider'] input[type='range']")
    slider.first.focus()
    page.keyboard.press("ArrowRight")
    _settled(page)
    assert "laplace_epsilon=0.12" in page.url
    assert "within ±25.0 of the true count" in _main_text(page)
    page.close()
