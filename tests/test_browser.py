"""The running app in a real browser (Debian's chromium driven by Playwright).

For every page: a fresh server, the page opened by its deep link as the first visit (the case
Streamlit 1.67 gets wrong with a pages/ folder), the app's own navigation from the first paint
on (never the legacy file-name list), and the main slider moved with the keyboard, after which
the page's numbers and charts change. Pages that take the user's own file get a CSV with a
one-person category uploaded; a shared address reopens the same view; presenter mode fits a
1920 x 1080 projector.
"""

from __future__ import annotations

import collections
import contextlib
import json
import math
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pandas as pd
import pytest
from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from ui.common.catalog import available_pages
from ui.common.i18n import LANGUAGES

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
    # Playwright's own list (a second --disable-features replaces the first), and the omnibox
    # popup: headless chromium drew its two WebUI pages for every page a test opened, 0.56 s
    # of CPU a page, 20% of chromium's CPU for loading one of the app's pages.
    "--disable-features=AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,"
    "HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,"
    "ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,OptimizationHints,"
    "NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch,"
    "WebUIOmniboxPopup,WebUIOmniboxFullPopup,OmniboxFullPopup,WebUIOmniboxAimPopup",
]
# V8 without its optimising compiler (TurboFan), whose background compiles a page open for
# seconds does not repay: loads and axe cost chromium 8% and 13% less CPU (three pairs of runs
# of six loads). The language is the same; benchmarks/ measure the browser as shipped. Not in
# the room's tests (tests/conftest.py, STILL).
NO_TURBOFAN = "--js-flags=--no-opt"
SHOTS = ROOT / "tests" / "screenshots"  # written by the tests, to look at (git-ignored)
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


def start_app(script: str = "serve.py") -> tuple[subprocess.Popen, str]:
    """`streamlit run serve.py` (the README's command, or ``script``) started on a free port,
    and its base URL: ready once ``healthy``."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", script, "--server.port", str(port),
         "--server.headless", "true", "--server.address", "127.0.0.1"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"},
    )  # fmt: skip
    return process, f"http://127.0.0.1:{port}"


def healthy(base: str) -> bool:
    """Whether the server at ``base`` answers its health check within 60 s."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return True
        except OSError:
            time.sleep(0.3)
    return False


@contextlib.contextmanager
def running_app(script: str = "serve.py") -> Iterator[str]:
    """A fresh server (``start_app``), its base URL once it answers; stopped afterwards."""
    process, base = start_app(script)
    if not healthy(base):
        process.kill()
        pytest.fail("the streamlit server did not start within 60 s")
    try:
        yield base
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture
def server() -> Iterator[str]:
    """A server of its own: for what happens at a server's very first visit."""
    with running_app() as base:
        yield base


def settled(page: Page) -> None:
    """Wait until the app is connected and its script has stayed finished for half a second.

    A first visit runs twice (see ui.common.shell.use_app_navigation), so one "notRunning"
    moment is not enough; the first time a widget appears its code loads (a skeleton); and a
    live sentence is painted by the relay's script once that has loaded (ui.common.live); a
    phone's page is folded by the run that hears of its screen (ui.common.accessible).
    """
    page.wait_for_selector(
        "[data-testid='stApp'][data-test-connection-state='CONNECTED']", timeout=60_000
    )
    idle = "[data-testid='stApp'][data-test-script-state='notRunning']"
    waiting = {
        "a skeleton": "[data-testid^='stSkeleton']",
        "a live sentence not painted": ".dp-live-text[data-live]",
        # a phone's screen not yet reported to the server, which folds the page when it is
        "the screen not reported": "html:not([data-screen='known'])",
    }
    seen: collections.Counter[str] = collections.Counter()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        page.wait_for_selector(idle, timeout=60_000)
        page.wait_for_timeout(500)
        held = [name for name, css in waiting.items() if page.locator(css).count()]
        held += [] if page.locator(idle).count() == 1 else ["a run"]
        if not held:
            return
        seen.update(held)
    thrown = [str(error)[:300] for error in page.page_errors()]  # the relay's, say
    thrown += [
        f"{m.text[:200]} ({m.location.get('url', '')[-80:]})"
        for m in page.console_messages()
        if m.type == "error"
    ][-10:]
    # Whether this document was reloaded and how long ago, and the keyed elements it holds
    # (the relay's, the room's components), to tell an unsent relay from one never mounted.
    state = page.evaluate(
        """() => ({relay: !!window.__dpLive, mounted: document.querySelectorAll(
            ".st-key-dp_live_relay").length, exceptions: document.querySelectorAll(
            "[data-testid='stException']").length, componentErrors: document.body.innerText
            .split("BidiComponent Error").length - 1, unpainted: [...document.querySelectorAll(
            ".dp-live-text[data-live]")].map((e) => e.outerHTML.slice(0, 120)),
            loaded: [performance.getEntriesByType("navigation")[0]?.type,
                     Math.round(performance.now())], keys: [...document.querySelectorAll(
            "[class*='st-key-']")].map((e) => [...e.classList].find((c) => c.startsWith(
            "st-key-"))).filter((c) => c && !/_text$|__preset_/.test(c)).map((c) => c.slice(7))})"""
    )
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "unsettled.png"))
    pytest.fail(
        f"the app kept rerunning or loading for 90 s: {dict(seen)}; thrown: {thrown}; {state}"
    )


def walked(page: Page, base: str, paths: list[str], query: str = "") -> Iterator[str]:
    """Each of ``paths`` in turn, in one session as its reader moves: the first opened by its
    link (with ``query``), each next one through the sidebar (``visit``); each settled."""
    page.goto(f"{base}/{paths[0]}{query}")
    settled(page)
    yield paths[0]
    for url_path in paths[1:]:
        visit(page, url_path)
        yield url_path


def visit(page: Page, url_path: str) -> None:
    """Open another page of the app as its reader does, through the sidebar's link (clicked by
    script where the sidebar is closed, as on a phone), and wait for it to settle at its top."""
    link = page.locator(f"[data-testid='stSidebar'] a[href='{url_path}']").first
    if link.evaluate("a => a.getBoundingClientRect().right > 0"):  # on the screen
        link.click()
    else:
        link.evaluate("a => a.click()")
    page.wait_for_url(f"**/{url_path}*")
    page.locator(f"{MAIN} h1").first.wait_for()
    settled(page)
    page.locator(MAIN).evaluate("main => { main.scrollTop = 0; }")


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


# axe-core from the npm registry, installed by scripts/test.sh (git-ignored).
AXE = ROOT / "tests" / ".axe" / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]  # WCAG 2.0-2.2, A and AA


def axe_violations(page: Page) -> list[str]:
    """What axe-core finds against WCAG 2.2 A/AA on the page as it stands: one line per rule
    broken, with how many elements break it and the first of them."""
    if not AXE.exists():
        pytest.fail(f"axe-core is missing at {AXE}: scripts/test.sh installs it from npm")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async (tags) => {
            const result = await axe.run(document, {runOnly: {type: "tag", values: tags},
                                                    resultTypes: ["violations"]});
            return result.violations.map((v) => `${v.id} (${v.nodes.length}): ` +
                `${v.nodes[0].target.join(" ")}: ${v.nodes[0].failureSummary}`);
        }""",
        AXE_TAGS,
    )
    return [line[:600] for line in found]


def no_errors(page: Page, errors: list[str]) -> None:
    assert page.locator("[data-testid='stException']").count() == 0, main_text(page)[:2000]
    assert not errors, errors


LEGACY_WATCH = """
window.__legacyNavSeen = false;
new MutationObserver(() => {
    if (document.querySelector("[data-testid='stSidebarNav']")) window.__legacyNavSeen = true;
}).observe(document, {childList: true, subtree: true});
"""


def test_pages_opened_at_once_on_a_fresh_server_all_go_through_the_app(server, browser) -> None:
    """Four deep links opened in the same moment, each the first visit of its session on a
    server nobody has visited yet (a workshop's attendees arriving): each page has the app's
    sidebar, its language and its address. The first run switches the server out of the
    ``pages/`` mode; the others, begun before the switch, used to stay a page script alone
    (3 of 4: no sidebar, no ``lang`` in the address, the screen never reported)."""
    paths = ["laplace", "planner", "exponential", "gaussian"]
    pages = [browser.new_page(viewport={"width": 1400, "height": 1000}) for _ in paths]
    for page, path in zip(pages, paths, strict=True):
        page.goto(f"{server}/{path}", wait_until="commit")
    for page, path in zip(pages, paths, strict=True):
        settled(page)
        assert f"/{path}?" in page.url and "lang=en" in page.url, page.url
        assert page.locator("[data-testid='stSidebar'] .st-key-lang").count() == 1
        page.close()


def fits_a_projector(page: Page, url_path: str) -> None:
    """Presenter mode on a 1920 x 1080 projector: no sidebar, the open section's first chart
    on the screen, no heading under the element after it, WCAG 2.2 AA, the section pad in the
    top right corner and no focus trapped in it; a screenshot to look at."""
    assert not page.locator("[data-testid='stSidebar']").is_visible()
    # The open section's first chart (or the table that leads it) is wholly on the screen.
    shown = page.locator(
        f"{MAIN} [data-testid='stVegaLiteChart'], {MAIN} [data-testid='stTable'], "
        f"{MAIN} [data-testid='stDataFrame'], {MAIN} [data-testid='stMarkdown'] table"
    )
    if shown.count():
        box = shown.first.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 1080, box
    # No heading or live sentence runs under the element after it (Streamlit's negative margin
    # under a heading, with presenter mode's tight padding, once put the next chart over its
    # lower half; under a live sentence, the metrics' labels over its last line).
    overflow = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stMain"] :is(h3, .dp-live-text)')]
          .map((h) => {
            const box = h.closest('[data-testid="stElementContainer"]');
            return [h.getBoundingClientRect().bottom - box.getBoundingClientRect().bottom,
                    h.innerText.slice(0, 40)];
        }).filter(([under]) => under > 1)"""
    )
    assert overflow == [], overflow
    assert axe_violations(page) == []  # WCAG 2.2 AA on the projector too
    # The bounding page's answers charts keep a readable height (they were squeezed to 108 px,
    # with two y ticks), side by side so that both stay on the screen.
    if url_path == "bounding":
        charts = page.locator(f"{MAIN} [data-testid='stVegaLiteChart']")
        boxes = [charts.nth(i).bounding_box() for i in range(charts.count())]
        assert len(boxes) == 2 and all(box is not None for box in boxes), boxes
        assert all(box["height"] >= 240 for box in boxes), boxes
        assert all(box["y"] + box["height"] <= 1080 for box in boxes), boxes
    # The section pad sits in the top right corner, clear of the page's controls.
    pad = page.locator("[class*='__section__nav']")
    if pad.count():
        corner = pad.first.bounding_box()
        assert corner is not None and corner["y"] < 80 and corner["x"] > 1920 / 2, corner
        # Its keys (PageUp, PageDown) and Esc's button trap no focus (WCAG 2.1.2): Tab and
        # Shift+Tab leave the pad and the button as from any other.
        held = "(e, css) => e.closest(css) !== null"
        for button, key, css in (
            ("__section__previous", "Shift+Tab", "[class*='__section__nav']"),
            ("__section__next", "Tab", "[class*='__section__nav']"),
            ("presenter_leave", "Tab", ".st-key-presenter_leave"),
        ):
            page.locator(f"[class*='{button}'] button").focus()
            page.keyboard.press(key)
            assert page.evaluate_handle("document.activeElement").evaluate(held, css) is False
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{url_path}-presenter.png"))


# Pages whose deep link is the very first visit of a server of their own: Streamlit showed its
# file-name list at a server's first visit whatever the page (shared/README.md), so a page
# with sliders, the data page and the listing without sliders stand for the rest, which
# share the module's server (a server's start and first run cost ~5 s of CPU each).
FIRST_VISITS = {"laplace", "bounding", "workshop"}


@pytest.mark.parametrize("entry", available_pages(), ids=lambda e: e.url_path)
def test_deep_link_shows_the_page_and_reacts(request, browser, entry) -> None:
    base = request.getfixturevalue("server" if entry.url_path in FIRST_VISITS else "app")
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.emulate_media(reduced_motion="no-preference")  # the motion most readers see
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # The app asks no other host for anything (the tab's icon came from Google's servers).
    elsewhere: list[str] = []
    page.on("request", lambda r: elsewhere.extend([r.url] if _elsewhere(r.url, base) else []))
    # From the first paint on, the sidebar never shows Streamlit's file-name list: an observer
    # set before the page's own scripts notes every change of the document.
    page.add_init_script(LEGACY_WATCH)
    page.goto(f"{base}/{entry.url_path}")
    settled(page)
    assert not page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    assert page.evaluate("window.__legacyNavSeen") is False
    sidebar = page.locator("[data-testid='stSidebar']").inner_text()
    for other in available_pages():
        assert other.title in sidebar, f"{other.title!r} missing from the sidebar: {sidebar!r}"
    assert "app" not in sidebar.split()
    assert page.get_by_role("button", name="Draw new noise").count() == 1
    heading = "DP Explorer" if entry.url_path == "home" else entry.title
    assert page.locator("h1").first.inner_text().strip() == heading
    assert axe_violations(page) == []  # WCAG 2.2 AA, in English at 1400 x 1000
    # not a phone's screen: the data controls are drawn, not folded away (ui.common.shell)
    assert page.locator(f"{MAIN} .st-key-settings_area").count() == 0

    assert "Page not found" not in page.locator("body").inner_text()
    if page.locator(SLIDERS).count():  # not the workshop listing, which has none
        # Keys pressed while the first visit's second run (use_app_navigation) may still run:
        # the server never sends a slider's value back (ui.common.address), so none is undone:
        # on an ε slider, its thumb, box and address end three steps down (the first of the
        # three loads of test_arrow_keys_pressed_during_reruns_are_never_undone).
        before_text, before_charts = main_text(page), chart_pixels(page)
        slider = page.locator(SLIDERS).first
        if entry.url_path in THREE_STEPS_DOWN:  # its ε slider
            slider = _thumb(page, f"{entry.url_path}_epsilon")
        slider.focus()
        for _ in range(3):
            page.keyboard.press("ArrowLeft")
        _three_steps_landed(page, entry.url_path, lambda: main_text(page) != before_text)
        assert main_text(page) != before_text
        if before_charts:  # pages with charts redraw them
            assert chart_pixels(page) != before_charts
    # The projector: presenter mode, switched on in the sidebar, fits 1920 x 1080. Switched
    # from the keyboard: a click leaves the pointer where the sidebar was, over the download
    # button of the Laplace page, whose tooltip axe then read mid fade-in (contrast 2.27).
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.locator("[data-testid='stSidebar'] .st-key-present input").first.focus()
    page.keyboard.press("Space")
    page.wait_for_function("() => location.search.includes('present=1')")
    settled(page)
    page.locator(MAIN).evaluate("main => { main.scrollTop = 0; }")  # at the page's top again
    fits_a_projector(page, entry.url_path)
    no_errors(page, errors)
    assert elsewhere == []
    page.close()


def _elsewhere(url: str, base: str) -> bool:
    """Whether a request goes to another host than the app's (data:, blob: have none)."""
    host = urlsplit(url).hostname
    return host is not None and host != urlsplit(base).hostname


def _thumb(page: Page, key: str) -> Locator:
    """The thumb of the slider ``key`` in the page's main area."""
    return page.locator(f"{MAIN} .st-key-{key} input[type='range']").first


def _thumb_box_address(page: Page, key: str) -> list[str]:
    """What a slider's thumb, its typed-value box (placeholder) and the address say."""
    box = page.locator(f"{MAIN} .st-key-{key}__text input").first
    linked = parse_qs(urlsplit(page.url).query).get(key, [""])
    thumb = _thumb(page, key).get_attribute("aria-valuetext")
    return [thumb, box.get_attribute("placeholder"), *linked]


# Three steps down from each page's default ε (1 -> 0.8 -> 0.6 -> 0.5; 0.5 -> ... -> 0.25).
THREE_STEPS_DOWN = {"laplace": "0.5", "gaussian": "0.5", "bounding": "0.25"}


def _three_steps_landed(page: Page, url_path: str, shown: Callable[[], bool]) -> None:
    """After three quick steps down: wait until the page ``shown`` their effect and, on a page
    of THREE_STEPS_DOWN, its ε thumb, box and address all say three steps down (20 s on a busy
    machine), then until it has settled; and check those three."""
    key = f"{url_path}_epsilon"
    expected = [THREE_STEPS_DOWN[url_path]] * 3 if url_path in THREE_STEPS_DOWN else None
    deadline = time.monotonic() + 20  # until the last step's run has landed everywhere
    while time.monotonic() < deadline and not (
        shown() and (expected is None or _thumb_box_address(page, key) == expected)
    ):
        page.wait_for_timeout(100)
    settled(page)  # compare what the page shows once it has finished, not mid-run
    if expected is not None:
        assert _thumb_box_address(page, key) == expected


@pytest.mark.parametrize("url_path", sorted(THREE_STEPS_DOWN))
def test_arrow_keys_pressed_during_reruns_are_never_undone(app, browser, url_path) -> None:
    """The ε-thumb race, gone by design: three quick steps, each pressed while the run of the
    one before is under way, end with the thumb, its box and the address at the same ε, three
    steps down, on each of three loads (the first is the page's deep link, a first visit for
    two of them). The server sends a slider a value only when the app changes it, and never
    writes the box while the slider moves (ui.common.widgets), so nothing it sends undoes a
    step."""
    for _load in range(2):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{app}/{url_path}")
        settled(page)
        _thumb(page, f"{url_path}_epsilon").focus()
        for _ in range(3):
            page.keyboard.press("ArrowLeft")
        _three_steps_landed(page, url_path, lambda: True)
        page.close()


def test_a_shared_link_opens_with_its_settings_and_the_address_follows(app, browser) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{app}/laplace?laplace_epsilon=0.1&seed=7&draw=2")
    settled(page)
    assert "within ±30 of the true count 95% of the time" in main_text(page)
    assert "Draw number 2 with seed 7" in page.locator("[data-testid='stSidebar']").inner_text()
    page.locator(SLIDERS).first.focus()
    page.keyboard.press("ArrowRight")
    settled(page)
    assert "laplace_epsilon=0.12" in page.url
    assert "within ±25 of the true count" in main_text(page)
    page.close()


def test_an_own_csv_with_a_one_person_category_never_shows_that_category(
    app, browser, tmp_path
) -> None:
    """On each page that takes the user's own file, visited in one session through the
    sidebar's links: the file uploaded, its categories declared where the page asks, and the
    one-person category never shown."""
    csv = tmp_path / "patients.csv"
    csv.write_text(PATIENTS)
    shown = {e.url_path for e in available_pages()}
    paths = [p for p in OWN_DATA_PAGES if p in shown]
    page = browser.new_page(viewport={"width": 1400, "height": 2400})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    for url_path in walked(page, app, paths):
        # The dataset picker: choose "Your own CSV file…".
        picker = page.locator(f"{MAIN} [data-testid='stSelectbox']").first
        picker.click()
        page.get_by_role("option", name="Your own CSV file…").click()
        settled(page)
        page.locator(f"{MAIN} input[type='file']").first.set_input_files(str(csv))
        settled(page)
        text = main_text(page)
        assert "patients.csv" in text or "patient_id" in text, url_path
        # Declare the categories where the page asks for them: the one-person "Rare" is out.
        areas = page.locator(f"{MAIN} textarea")
        if areas.count():
            areas.first.fill("Flu\nCold")
            areas.first.press("Control+Enter")
            settled(page)
        assert "Rare" not in main_text(page), url_path
        no_errors(page, errors)
    page.close()


# --- Links and exports ------------------------------------------------------------------------
# Per page, three or more settings changed as a user would: (kind, widget key, value, the
# address parameter it must write). Kinds:
# "slider" (arrow-key steps), "select" and "radio" (the option's English label), "toggle",
# "tab" (the tab's label).
CENSUS = "Census (32,561 synthetic persons)"
LINKS: dict[str, list[tuple]] = {
    "laplace": [
        ("slider", "laplace_epsilon", -3, "laplace_epsilon"),
        ("select", "laplace_dataset", CENSUS, "laplace_dataset"),
        ("select", "laplace_category", "marital_status", "laplace_category"),
    ],
    "gaussian": [
        ("slider", "gaussian_epsilon", -2, "gaussian_epsilon"),
        ("radio", "gaussian_mechanism", "Classic Gaussian", "gaussian_mechanism"),
        ("slider", "gaussian_delta", -2, "gaussian_delta"),
    ],
    "exponential": [
        ("slider", "exponential_epsilon", -4, "exponential_epsilon"),
        ("select", "exponential_dataset", CENSUS, "exponential_dataset"),
        ("select", "exponential_column", "marital_status", "exponential_column"),
    ],
    "randomized_response": [
        ("slider", "rr_truth", 3, "rr_truth"),
        ("slider", "rr_random_yes", -2, "rr_random_yes"),
        ("select", "rr_column", "sex", "rr_column"),
    ],
    "local_frequencies": [
        ("slider", "lf_epsilon", 2, "lf_epsilon"),
        ("radio", "lf_protocol", "k-ary randomized response (GRR)", "lf_protocol"),
        ("select", "lf_column", "marital_status", "lf_column"),
    ],
    "bounding": [
        ("slider", "bounding_epsilon", 2, "bounding_epsilon"),
        ("toggle", "bounding_pre_aggregate", None, "bounding_pre_aggregate"),
        ("radio", "bounding_plan", "All days at once (cap on days as sensitivity)",
         "bounding_plan"),
        ("slider", "bounding_max_groups", -1, "bounding_max_groups"),
    ],
    "attacker": [
        ("slider", "attacker_epsilon", -2, "attacker_epsilon"),
        ("slider", "attacker_prior", 5, "attacker_prior"),
        ("toggle", "attacker_pure", None, "attacker_pure"),
        ("tab", None, "3. Many releases", "attacker_section"),
    ],
    "planner": [
        ("slider", "planner_epsilon", 2, "planner_epsilon"),
        ("select", "planner_dataset", "Diseases (65 persons)", "planner_dataset"),
        ("radio", "planner_mode", "… by weight", "planner_mode"),
    ],
}  # fmt: skip


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def _shown_number(text: str) -> float:
    """A slider's label as a number: 0.8, 0,8, 10⁻⁶, 2.5×10⁻⁷."""
    text = text.strip().replace(",", ".")
    if "10" in text and any(c in text for c in "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"):
        mantissa, _, power = text.rpartition("10")
        factor = float(mantissa.rstrip("×· ") or 1)
        return factor * 10.0 ** int(power.translate(_SUPERSCRIPTS))
    return float(text)


def _thumbs_and_address(page: Page, actions: list[tuple]) -> list[tuple[str, str, str]]:
    """(key, the slider's thumb as shown, the value the address holds) per slider action."""
    query = parse_qs(urlsplit(page.url).query)
    found = []
    for kind, key, _value, param in actions:
        if kind != "slider":
            continue
        thumb = page.locator(f"{MAIN} .st-key-{key} input[type='range']").first
        found.append((key, thumb.get_attribute("aria-valuetext") or "", query.get(param, [""])[0]))
    return found


def _pick_option(page: Page, box: Locator, name: str) -> None:
    """Open a select box's list (``box``: its input) and click the option ``name``."""
    option = page.get_by_role("option", name=name, exact=True)
    deadline = time.monotonic() + 90  # a click landing during a repaint may not open the list
    while True:  # (on a busy machine three tries of 3 s each all missed it, in a full run)
        box.click()
        try:
            option.wait_for(timeout=5000)
            break
        except PlaywrightTimeout:
            if time.monotonic() > deadline:
                raise
            page.keyboard.press("Escape")
    option.click()


def _step_slider(page: Page, key: str, presses: int) -> None:
    """Press an arrow key ``presses`` times on the slider ``key`` (negative: to the left)."""
    page.locator(f"{MAIN} .st-key-{key} input[type='range']").first.focus()
    for _press in range(abs(presses)):
        page.keyboard.press("ArrowRight" if presses > 0 else "ArrowLeft")


def act(page: Page, action: tuple) -> None:
    """Do one user action on a widget found by its key (Streamlit's st-key-<key> class)."""
    kind, key, value, param = action
    if kind == "tab":
        page.get_by_role("tab", name=value).click()
    else:
        box = page.locator(f"{MAIN} .st-key-{key}").first
        if kind == "slider":
            _step_slider(page, key, value)
        elif kind == "select":
            _pick_option(page, box.locator("input").first, value)
        elif kind == "radio":
            box.locator("label").filter(has_text=value).first.click()
        elif kind == "toggle":
            box.locator("label").first.click()
    settled(page)
    deadline = time.monotonic() + 10  # the address follows the widget once its run is done
    while f"{param}=" not in page.url and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    settled(page)


def shown_numbers(page: Page) -> list[str]:
    """Every number written in the main area outside the charts, in order (a chart's tick
    labels come in no fixed order: charts are compared by their pixels)."""
    text = page.locator(MAIN).evaluate(
        """main => {
            const copy = main.cloneNode(true);
            copy.querySelectorAll("[data-testid='stVegaLiteChart']").forEach(c => c.remove());
            document.body.appendChild(copy);
            const text = copy.innerText;
            copy.remove();
            return text;
        }"""
    )
    return re.findall(r"[−-]?\d[\d,.]*", text)


def chart_numbers(page: Page) -> list[list[str]]:
    """Each chart's numbers (ticks, text marks, legends), sorted: the same data and scales."""
    texts = page.locator(f"{MAIN} [data-testid='stVegaLiteChart']").evaluate_all(
        "charts => charts.map(c => [...c.querySelectorAll('text')].map(t => t.textContent))"
    )
    return [
        sorted(n for text in chart for n in re.findall(r"[−-]?\d[\d,.]*", text)) for chart in texts
    ]


def _downloaded(page: Page, button: Locator) -> Path:
    """The file a download button gives. The archive is built on the click (charts included):
    slow on a busy machine, and a click that lands while the page redraws may be lost, so the
    button is clicked again when no download has begun after a minute (three clicks at most)."""
    clicks = 3
    while True:
        clicks -= 1
        try:
            with page.expect_download(timeout=60_000) as download:
                button.click()
            return Path(download.value.path())
        except PlaywrightTimeout:
            if not clicks:
                raise


@pytest.mark.parametrize("url_path", sorted(LINKS))
def test_a_copied_address_reopens_the_same_view_and_its_export_reads(
    app, browser, url_path, tmp_path
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{app}/{url_path}")
    settled(page)
    for action in LINKS[url_path]:
        act(page, action)
    settled(page)
    assert all(math.isclose(_shown_number(shown), float(linked)) for _k, shown, linked in
               _thumbs_and_address(page, LINKS[url_path]) if linked)  # fmt: skip
    address, numbers, labels = page.url, shown_numbers(page), chart_numbers(page)
    for action in LINKS[url_path]:
        assert f"{action[3]}=" in address, (action, address)
    page.close()

    fresh = browser.new_context(viewport={"width": 1400, "height": 1000})  # another screen
    other = fresh.new_page()
    other.goto(address)
    settled(other)
    assert shown_numbers(other) == numbers
    assert chart_numbers(other) == labels
    button = other.locator(f".st-key-{url_path}_download button")
    if button.count():
        archive = zipfile.ZipFile(_downloaded(other, button.first))
        csv = next(name for name in archive.namelist() if name.endswith(".csv"))
        table = pd.read_csv(archive.open(csv))  # no options: a spreadsheet opens it as it is
        assert len(table) and not table.columns.str.startswith("#").any()
        settings = json.loads(archive.read(csv.removesuffix(".csv") + ".json"))
        assert parse_qs(urlsplit(settings["address"]).query) == parse_qs(urlsplit(address).query)
    fresh.close()


# --- Languages ----------------------------------------------------------------------------------


def test_a_link_with_lang_es_opens_in_spanish(app, browser) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{app}/laplace?lang=es")
    settled(page)
    assert page.locator("h1").first.inner_text().strip() == "Mecanismo de Laplace"
    assert "Pruebe esto" in main_text(page)  # the page's own sentences, not only its title
    assert page.evaluate("document.documentElement.lang") == "es"  # WCAG 3.1.1
    page.close()


def _choose_language(page: Page, name: str) -> None:
    """Pick a language in the sidebar's language box, as a reader does, and wait for its run
    to have written it to the address (on a busy machine the run may start after the page
    has looked idle for half a second: one CI run read the address before it)."""
    _pick_option(page, page.locator("[data-testid='stSidebar'] .st-key-lang input").first, name)
    code = next(code for code, shown in LANGUAGES.items() if shown == name)
    page.wait_for_function(
        "(code) => new URLSearchParams(location.search).get('lang') === code",
        arg=code,
        timeout=60_000,
    )
    settled(page)


def _type_value(page: Page, key: str, text: str) -> None:
    """Type ``text`` into the typed-value box beside the slider ``key`` and press Enter."""
    box = page.locator(f"{MAIN} .st-key-{key}__text input").first
    box.fill(text)
    box.press("Enter")


@pytest.mark.parametrize("url_path", ["laplace", "gaussian"])
def test_a_change_of_language_keeps_the_typed_epsilon(app, browser, url_path) -> None:
    """Typed ε = 0.5, then Deutsch, then 日本語: the thumb, the address and the next step all
    stay at 0.5 (the slider's labels change to 0,5 and back; the browser used to fall back to
    its first stop, 0,01, while the page still computed at 0.5, and the next step took 0.01)."""
    key = f"{url_path}_epsilon"
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{app}/{url_path}")
    settled(page)
    _type_value(page, key, "0.5")
    settled(page)
    thumb, _in_use, *linked = _thumb_box_address(page, key)
    assert _shown_number(thumb) == 0.5 and linked == ["0.5"]
    assert page.evaluate("document.documentElement.lang") == "en"
    _choose_language(page, "Deutsch")
    thumb, _in_use, *linked = _thumb_box_address(page, key)
    assert _shown_number(thumb) == 0.5 and linked == ["0.5"] and "lang=de" in page.url
    assert page.evaluate("document.documentElement.lang") == "de"
    assert "0,5" in thumb
    act(page, ("slider", key, 1, key))  # the next stop up from 0.5, not from 0.01
    # The address held ε already, so act() waited only for an idle page: on a busy machine
    # the step's run may start after that, and the thumb, box and address be read before it.
    thumb, _in_use, *linked = _agreeing(page, key)
    assert _shown_number(thumb) == 0.6 and linked == ["0.6"]
    _choose_language(page, "日本語")
    thumb, _in_use, *linked = _thumb_box_address(page, key)
    assert _shown_number(thumb) == 0.6 and linked == ["0.6"] and "lang=ja" in page.url
    assert page.evaluate("document.documentElement.lang") == "ja"  # the page declares it
    page.close()


TYPED_IN_CHROMIUM = ["0.5", "0,37", "7", "0", "abc", "1e9"]


def _random_step(page: Page, url_path: str, rng: random.Random) -> str:
    """One of a reader's steps, picked by ``rng``; what it did."""
    key = f"{url_path}_epsilon"
    step = rng.choice(["slider", "type", "preset", "language", "noise", "section"])
    if step == "slider":
        presses = rng.choice([-3, -1, 1, 2])
        _step_slider(page, key, presses)
        return f"slider {presses:+d}"
    if step == "type":
        typed = rng.choice(TYPED_IN_CHROMIUM)
        _type_value(page, key, typed)
        return f"type {typed}"
    if step == "preset":
        buttons = page.locator(f"{MAIN} [class*='st-key-{url_path}__preset_'] button")
        buttons = buttons.filter(visible=True)  # none in a closed settings box
        if not buttons.count():
            return "preset (none shown)"
        buttons.nth(rng.randrange(buttons.count())).click()
        return "preset"
    if step == "language":
        name = rng.choice(["English", "Deutsch", "Español", "日本語", "简体中文"])
        _choose_language(page, name)
        return f"language {name}"
    if step == "noise":
        page.locator("[data-testid='stSidebar'] .st-key-draw_new button").first.click()
        return "noise"
    tabs = page.get_by_role("tab")
    tabs.nth(rng.randrange(tabs.count())).click()
    return "section"


def _agreeing(page: Page, key: str) -> list[str]:
    """_thumb_box_address once the three agree, or as they stand after 20 s: on a busy
    machine a click's run may start after settled() has seen the page idle (a preset's thumb
    moves in the browser at once, its box and address with the run)."""
    deadline = time.monotonic() + 20
    while True:
        said = _thumb_box_address(page, key)
        if _agree(*said) or time.monotonic() > deadline:
            return said
        page.wait_for_timeout(100)


def _agree(thumb: str | None, in_use: str | None, *linked: str) -> bool:
    try:
        shown = _shown_number(thumb), _shown_number(in_use)
        return len(linked) == 1 and shown[0] == shown[1] == float(linked[0])
    except (AttributeError, ValueError):  # a box or address not yet written
        return False


# Seeds whose steps set a decimal ε and then switch between "0.5" and "0,5" languages, with a
# preset and a typed value among them.
@pytest.mark.parametrize(
    ("url_path", "seed"), [("laplace", 34), ("gaussian", 52), ("exponential", 58)]
)
def test_random_sessions_in_chromium(app, browser, url_path, seed) -> None:
    """A shorter tests/test_random_sessions.py in a real browser: eight random steps, after
    each the thumb, the value in use (the typed box's placeholder) and the address say the
    same ε; then the address opened on another screen shows the same numbers."""
    rng, key, done = random.Random(seed), f"{url_path}_epsilon", []
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{app}/{url_path}")
    settled(page)
    for _step in range(8):
        done.append(_random_step(page, url_path, rng))
        settled(page)
        thumb, in_use, *linked = _agreeing(page, key)
        assert len(linked) == 1, (done, linked)
        assert _shown_number(thumb) == _shown_number(in_use) == float(linked[0]), (
            done, thumb, in_use, linked
        )  # fmt: skip
    _type_value(page, key, "")  # a refused value's message stays with its box, not the address
    settled(page)
    address, numbers = page.url, shown_numbers(page)
    page.close()
    fresh = browser.new_context(viewport={"width": 1400, "height": 1000})
    other = fresh.new_page()
    other.goto(address)
    settled(other)
    assert shown_numbers(other) == numbers, done
    fresh.close()


def glyphs_drawn(page: Page, name: str) -> None:
    """The page's CJK title is drawn with a font that has its glyphs: no tofu boxes (a missing
    glyph is the font's one "no glyph" box, so each character must look unlike an unassigned
    one); a screenshot ``name`` to look at."""
    text = page.locator("h1").first.inner_text()
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text), text
    tofu = page.evaluate(
        """(text) => {
            const draw = (ch) => {
                const canvas = document.createElement('canvas');
                canvas.width = canvas.height = 40;
                const c = canvas.getContext('2d');
                c.font = '32px ' + getComputedStyle(document.querySelector('h1')).fontFamily;
                c.fillText(ch, 2, 32);
                return canvas.toDataURL();
            };
            const missing = draw('\u0378');
            return [...text].filter(ch => /[\u3040-\u30ff\u4e00-\u9fff]/.test(ch))
                            .filter(ch => draw(ch) === missing);
        }""",
        text,
    )
    assert not tofu, f"drawn as boxes: {tofu}"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
