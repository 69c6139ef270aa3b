"""WCAG 2.2 AA in a real browser: axe-core finds no violation on any page, in the four languages
besides English and in English on a phone (390 x 844). English at 1400 x 1000 and on a
1920 x 1080 projector is checked by every page's deep-link and presenter-mode tests in
tests/test_browser.py.

A language's pages are visited in one session, through the sidebar's links, as a reader moves
from page to page (the app is loaded once, not once a page)."""

from __future__ import annotations

import pytest
from test_browser import MAIN, axe_violations, settled

from ui.common.catalog import available_pages
from ui.common.i18n import LANGUAGES

PAGES = [entry.url_path for entry in available_pages()]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_no_wcag_violation_on_any_page_in_each_language(app, browser, lang) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{app}/{PAGES[0]}?lang={lang}")
    settled(page)
    found = {}
    for url_path in PAGES:
        if url_path != PAGES[0]:
            page.locator(f"[data-testid='stSidebar'] a[href='{url_path}']").first.click()
            page.wait_for_url(f"**/{url_path}*")
            page.locator(f"{MAIN} h1").first.wait_for()
            settled(page)
        assert page.evaluate("document.documentElement.lang") == lang
        found[url_path] = axe_violations(page)
    assert found == {url_path: [] for url_path in PAGES}
    page.close()


@pytest.mark.parametrize("url_path", PAGES)
def test_no_wcag_violation_on_a_phone(app, browser, url_path) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{app}/{url_path}")
    settled(page)
    assert axe_violations(page) == []
    page.close()
