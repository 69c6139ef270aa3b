"""WCAG 2.2 AA in a real browser: axe-core finds no violation on any page, in the four languages
besides English (English is checked by every page's deep-link and presenter-mode tests in
tests/test_browser.py) and in English on a phone (390 x 844)."""

from __future__ import annotations

import pytest
from test_browser import axe_violations, settled

from ui.common.catalog import available_pages
from ui.common.i18n import LANGUAGES

PAGES = [entry.url_path for entry in available_pages()]
VIEWS = [(lang, (1400, 1000)) for lang in LANGUAGES if lang != "en"] + [("en", (390, 844))]


@pytest.mark.parametrize("url_path", PAGES)
@pytest.mark.parametrize(("lang", "size"), VIEWS, ids=lambda v: "x".join(map(str, v)) if
                         isinstance(v, tuple) else v)  # fmt: skip
def test_no_wcag_violation(app, browser, lang, size, url_path) -> None:
    width, height = size
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{app}/{url_path}?lang={lang}")
    settled(page)
    assert page.evaluate("document.documentElement.lang") == lang
    assert axe_violations(page) == []
    page.close()
