"""WCAG 2.2 AA in a real browser: axe-core finds no violation on any page, in the four languages
besides English and in English on a phone (390 x 844), where ε, the headline number and the
first chart come on the first screens. English at 1400 x 1000 and on a 1920 x 1080 projector
is checked by every page's deep-link test in tests/test_browser.py (which also switches
presenter mode on).

A language's pages, and a phone's, are visited in one session, through the sidebar's links,
as a reader moves from page to page (the app is loaded once, not once a page); in Japanese
and Chinese the titles of two pages are checked for glyphs drawn as boxes."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page
from test_browser import MAIN, axe_violations, glyphs_drawn, main_text, settled, walked

from ui.common.catalog import available_pages
from ui.common.i18n import LANGUAGES

PAGES = [entry.url_path for entry in available_pages()]
GLYPHS = {"ja": ("laplace", "local_frequencies"), "zh": ("laplace", "local_frequencies")}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_no_wcag_violation_on_any_page_in_each_language(app, browser, lang) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    found = {}
    for url_path in walked(page, app, PAGES, f"?lang={lang}"):
        assert page.evaluate("document.documentElement.lang") == lang
        found[url_path] = axe_violations(page)
        if lang in GLYPHS and url_path in GLYPHS[lang]:
            glyphs_drawn(page, f"{url_path}-{lang}")
    assert found == {url_path: [] for url_path in PAGES}
    page.close()


# Every control the keyboard reaches on the screen, as the box a finger touches (WCAG 2.5.8),
# when under 24 x 24 px: a slider's thumb, a switch's or radio's label (their inputs are hidden),
# a text box's frame. Left out: a link inside a sentence (2.5.8's inline exception), what is
# hidden until focused (the skip link, 1 px) and the closed sidebar (off the screen).
SMALL_TARGETS = """() => {
    const small = [];
    const reached = "a[href], button, input, select, textarea, summary, [tabindex]";
    for (const element of document.querySelectorAll(reached)) {
        if (element.tabIndex < 0 || element.matches("main")) continue;
        if (element.closest("[aria-hidden='true']") || element.matches("p a, li a")) continue;
        let target = element;
        if (element.matches("[type='range']")) target = element.parentElement.parentElement;
        else if (element.matches("[type='checkbox'], [type='radio']")) {
            target = element.closest("label");
        } else if (element.matches("input, textarea")) target = element.parentElement;
        const box = target.getBoundingClientRect();
        if (box.width <= 1 || box.height <= 1 || box.right <= 0) continue;
        if (box.width < 24 || box.height < 24) {
            const name = element.getAttribute("aria-label") || element.innerText.slice(0, 40);
            small.push(`${element.tagName} ${name}: ${box.width} x ${box.height}`);
        }
    }
    return small;
}"""


# On a phone (390 x 844) a person alone finds the page's ε and its headline number on the
# first screen, and the open section's first chart within one and a half: the headline is the
# guarantee where the page states one next to ε, else the first metric (the home page's budget
# game has no chart). Local frequencies' first section shows what one person sends, bits in a
# table, not a chart: its first table is what comes within one and a half screens there.
SCREEN, CHART_BY = 844, 1266
HEADLINE = {
    "home": "metric",
    "laplace": "guarantee",
    "gaussian": "guarantee",
    "exponential": "guarantee",
    "synthetic": "guarantee",
    "planner": "guarantee",
    "bounding": "guarantee",
    "dp_sgd": "guarantee",
    "local_frequencies": "guarantee",
    "attacker": "metric",
}
CHART_LATER = {"home"}
FIGURE = {"local_frequencies": "table"}
PLACES = """(main) => {
  const top = (el) => el ? el.getBoundingClientRect().top : null;
  const epsilon = [...document.querySelectorAll(main + " [data-testid='stSlider']")]
    .find((slider) => slider.innerText.includes("ε"));
  const guarantee = [...document.querySelectorAll(main + " .dp-live-text, " + main +
    " [data-testid='stMarkdownContainer']")].find((el) => el.innerText.includes("Guarantee:"));
  return {epsilon: top(epsilon), guarantee: top(guarantee),
    metric: top(document.querySelector(main + " [data-testid='stMetric'], .dp-live-metric")),
    chart: top(document.querySelector(main + " [data-testid='stVegaLiteChart']")),
    table: top(document.querySelector(main + " [data-testid='stTable']"))};
}"""


def _on_a_phone(page: Page, url_path: str) -> list[str]:
    """What a phone's reader meets on this page, at its top: axe's violations, controls
    under 24 x 24 px, and ε, the headline or the first figure further down than allowed."""
    problems = axe_violations(page) + page.evaluate(SMALL_TARGETS)
    places = page.evaluate(PLACES, MAIN)  # the page is at its top: a top is a y on the page
    if places["epsilon"] is not None:
        wanted = {"epsilon": SCREEN}
        if url_path in HEADLINE:
            wanted[HEADLINE[url_path]] = SCREEN
        if url_path not in CHART_LATER:
            wanted[FIGURE.get(url_path, "chart")] = CHART_BY
        problems += [f"{what} at {places[what]}, not above {limit}: {places}"
                     for what, limit in wanted.items()
                     if places[what] is None or places[what] >= limit]  # fmt: skip
    return problems


def test_no_wcag_violation_on_a_phone(app, browser) -> None:
    """Every page on a phone, visited in one session through the sidebar's links as its
    reader moves from page to page (the first one loaded, as a link opens it)."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    found = {}
    for url_path in walked(page, app, PAGES):
        found[url_path] = _on_a_phone(page, url_path)
    assert found == {url_path: [] for url_path in PAGES}
    page.close()


# The focused element's ring (WCAG 2.4.7): an outline of at least 2 px or a box shadow, on the
# element or on the box drawn for it (a slider's thumb, a switch's label, an input's frame:
# up to four levels up), that the element does not show once focus has left it.
RING = """(element) => {
    const up = [];
    for (let node = element; node && up.length < 5; node = node.parentElement) up.push(node);
    return up.map((node) => {
        const style = getComputedStyle(node);
        const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
        return (outline ? "o" : "") + (style.boxShadow !== "none" ? "s" : "");
    }).join("|");
}"""
NOT_CONTROLS = {"MAIN", "BODY"}  # the skip link's target, and where Tab leaves the page


def _tab(page: Page, to: str, back: bool = False, limit: int = 80) -> list[str]:
    """Press Tab (Shift+Tab when ``back``) until the focused element matches ``to``; each
    control passed on the way shows a focus ring that leaves with the focus. Returns what
    was passed, as tag and accessible name."""
    passed = []
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        focused = page.evaluate_handle("document.activeElement")
        name = focused.evaluate("e => e.tagName + ' ' + (e.getAttribute('aria-label') || "
                                "e.innerText || '').slice(0, 40)")  # fmt: skip
        passed.append(name)
        if focused.evaluate("(e, css) => e.matches(css)", to):
            return passed
        if name.split()[0] not in NOT_CONTROLS:
            ring = focused.evaluate(RING)
            assert "o" in ring or "s" in ring, f"no focus ring on {name!r}"
            page.keyboard.press("Shift+Tab" if not back else "Tab")  # away and back again
            assert focused.evaluate(RING) != ring, f"{name!r} shows a ring unfocused"
            page.keyboard.press("Tab" if not back else "Shift+Tab")
            assert focused.evaluate(RING) == ring  # the same element, focused again
    raise AssertionError(f"{to} never took focus: {passed}")


def test_the_laplace_page_end_to_end_with_the_keyboard_alone(app, browser) -> None:
    """WCAG 2.1.1 and 2.4.7: ε, a section, a preset and the results' download, reached by Tab
    and worked by arrow keys, Enter and Space (no click, no fill), every control on the way
    showing where the focus is."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page.goto(f"{app}/laplace")
    settled(page)
    thumb = ".st-key-laplace_epsilon input[type='range']"
    passed = _tab(page, thumb)  # through the sidebar and the page's top controls
    assert any("Disease table, ε = 0.9" in name for name in passed)
    assert "Guarantee: 1-DP" in main_text(page)
    for _ in range(3):  # 1 -> 0.8 -> 0.6 -> 0.5
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => location.search.includes('laplace_epsilon=0.5')")
    settled(page)
    assert "Guarantee: 0.5-DP" in main_text(page)
    # An ε of 0 typed in its box is refused, in an alert a screen reader reads out (Streamlit's
    # st.error is role="alert"); ε stays where it was.
    _tab(page, ".st-key-laplace_epsilon__text input")
    page.keyboard.type("0")
    page.keyboard.press("Enter")
    page.locator(f"{MAIN} [role='alert']", has_text="Could not use “0”").wait_for()
    settled(page)
    assert "Guarantee: 0.5-DP" in main_text(page)

    # A section: the tabs take arrow keys, and the one focused opens.
    _tab(page, "[role='tab'][aria-selected='true']")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.search.includes('laplace_section=noise')")
    settled(page)
    tab = page.locator(f"{MAIN} [role='tab'][aria-selected='true']")
    assert tab.inner_text().startswith("2.")
    assert "of these 100,000 draws fall inside" in main_text(page)  # the noise itself

    # A preset, back up the page: ε 0.9 on the disease table, its section opened.
    _tab(page, ".st-key-laplace__preset_diseases_0_9 button", back=True)
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.search.includes('laplace_epsilon=0.9')")
    settled(page)
    assert "Guarantee: 0.9-DP" in main_text(page)
    assert page.locator(thumb).get_attribute("aria-valuetext") == "0.9"
    assert tab.inner_text().startswith("1.")

    # The results, downloaded with Space on their button.
    _tab(page, ".st-key-laplace_download button")
    with page.expect_download(timeout=120_000) as download:
        page.keyboard.press("Space")
    assert download.value.suggested_filename.endswith(".zip")
    archive = zipfile.ZipFile(Path(download.value.path()))
    settings = next(name for name in archive.namelist() if name.endswith(".json"))
    address = json.loads(archive.read(settings))["address"]
    assert parse_qs(urlsplit(address).query)["laplace_epsilon"] == ["0.9"]
    page.close()
