"""The running app in a real browser (Debian's chromium driven by Playwright).

For every page: a fresh server, the page opened by its deep link as the first visit (the case
Streamlit 1.67 gets wrong with a pages/ folder), the app's own navigation from the first paint
on (never the legacy file-name list), and the main slider moved with the keyboard, after which
the page's numbers and charts change. Pages that take the user's own file get a CSV with a
one-person category uploaded; a shared address reopens the same view; presenter mode fits a
1920 x 1080 projector.
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
MAIN = "[data-testid='stMain']"
SLIDERS = f"{MAIN} [data-testid='stSlider'] input[type='range']"
OWN_DATA_PAGES = ["laplace", "gaussian", "exponential", "randomized_response", "local_frequencies",
                  "bounding", "planner"]  # fmt: skip
# 301 patients: "Rare" is held by p301 alone.
PATIENTS = (
    "patient_id,diagnosis,cost\n"
    + "".join(f"p{i},{'Flu' if i % 2 else 'Cold'},{i % 40}\n" for i in range(1, 301))
    + "p301,Rare,35\n"
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def server() -> Iterator[str]:
    """A fresh `streamlit run app.py` on a free port; its base URL."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.headless", "true", "--server.address", "127.0.0.1"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"},
    )  # fmt: skip
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


def settled(page: Page) -> None:
    """Wait until the app is connected and its script has stayed finished for half a second.

    A first visit runs twice (see ui.common.shell.use_app_navigation), so one "notRunning"
    moment is not enough; and the first time a widget appears its code loads (a skeleton).
    """
    page.wait_for_selector(
        "[data-testid='stApp'][data-test-connection-state='CONNECTED']", timeout=60_000
    )
    idle = "[data-testid='stApp'][data-test-script-state='notRunning']"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        page.wait_for_selector(idle, timeout=60_000)
        page.wait_for_timeout(500)
        loading = page.locator("[data-testid^='stSkeleton']").count()
        if page.locator(idle).count() == 1 and loading == 0:
            return
    pytest.fail("the app kept rerunning or loading for 90 s")


def main_text(page: Page) -> str:
    return page.locator(MAIN).inner_text()


def chart_pixels(page: Page) -> list[str]:
    """What every chart on the page shows (its canvas or SVG): it changes when the data do."""
    return page.locator(f"{MAIN} [data-testid='stVegaLiteChart']").evaluate_all(
        """charts => charts.map(chart => {
            const canvas = chart.querySelector('canvas');
            if (canvas) return canvas.toDataURL();
            const svg = chart.querySelector('svg');
            return svg ? svg.outerHTML : '';
        })"""
    )


def no_errors(page: Page, errors: list[str]) -> None:
    assert page.locator("[data-testid='stException']").count() == 0, main_text(page)[:2000]
    assert not errors, errors


@pytest.mark.parametrize("entry", available_pages(), ids=lambda e: e.url_path)
def test_deep_link_first_visit_shows_the_page_and_reacts(server, browser, entry) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/{entry.url_path}")
    # From the first paint on, the sidebar never shows Streamlit's file-name list.
    legacy = 0
    deadline = time.monotonic() + 6
    while time.monotonic() < deadline:
        legacy += page.locator("[data-testid='stSidebarNav']").count()
        page.wait_for_timeout(100)
    settled(page)
    assert legacy == 0
    sidebar = page.locator("[data-testid='stSidebar']").inner_text()
    for other in available_pages():
        assert other.title in sidebar, f"{other.title!r} missing from the sidebar: {sidebar!r}"
    assert "app" not in sidebar.split()
    assert page.get_by_role("button", name="Draw new noise").count() == 1
    heading = "DP Explorer" if entry.url_path == "home" else entry.title
    assert page.locator("h1").first.inner_text().strip() == heading

    before_text, before_charts = main_text(page), chart_pixels(page)
    page.locator(SLIDERS).first.focus()
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    settled(page)
    assert main_text(page) != before_text
    if before_charts:  # pages with charts redraw them
        assert chart_pixels(page) != before_charts
    no_errors(page, errors)
    page.close()


def test_home_answers_at_slash_home(server, browser) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{server}/home")
    settled(page)
    assert page.locator("h1").first.inner_text().strip() == "DP Explorer"
    assert "Page not found" not in page.locator("body").inner_text()
    page.close()


def test_a_shared_link_opens_with_its_settings_and_the_address_follows(server, browser) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{server}/laplace?laplace_epsilon=0.1&seed=7&draw=2")
    settled(page)
    assert "within ±30 of the true count 95% of the time" in main_text(page)
    assert "Draw number 2 with seed 7" in page.locator("[data-testid='stSidebar']").inner_text()
    page.locator(SLIDERS).first.focus()
    page.keyboard.press("ArrowRight")
    settled(page)
    assert "laplace_epsilon=0.12" in page.url
    assert "within ±25 of the true count" in main_text(page)
    page.close()


@pytest.mark.parametrize(
    "url_path", [p for p in OWN_DATA_PAGES if p in {e.url_path for e in available_pages()}]
)
def test_an_own_csv_with_a_one_person_category_never_shows_that_category(
    server, browser, url_path, tmp_path
) -> None:
    csv = tmp_path / "patients.csv"
    csv.write_text(PATIENTS)
    page = browser.new_page(viewport={"width": 1400, "height": 2400})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/{url_path}")
    settled(page)
    # The dataset picker: choose "Your own CSV file…".
    picker = page.locator(f"{MAIN} [data-testid='stSelectbox']").first
    picker.click()
    page.get_by_role("option", name="Your own CSV file…").click()
    settled(page)
    page.locator(f"{MAIN} input[type='file']").first.set_input_files(str(csv))
    settled(page)
    text = main_text(page)
    assert "patients.csv" in text or "patient_id" in text
    # Declare the categories where the page asks for them: the one-person "Rare" is left out.
    areas = page.locator(f"{MAIN} textarea")
    if areas.count():
        areas.first.fill("Flu\nCold")
        areas.first.press("Control+Enter")
        settled(page)
    assert "Rare" not in main_text(page)
    no_errors(page, errors)
    page.close()


@pytest.mark.parametrize("entry", available_pages(), ids=lambda e: e.url_path)
def test_presenter_mode_fits_a_projector(server, browser, entry, tmp_path) -> None:
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{server}/{entry.url_path}?present=1")
    settled(page)
    assert not page.locator("[data-testid='stSidebar']").is_visible()
    charts = page.locator(f"{MAIN} [data-testid='stVegaLiteChart']")
    if charts.count():
        box = charts.first.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 1080, box
    page.screenshot(path=str(tmp_path / f"{entry.url_path}-presenter.png"))
    page.close()
