"""Hostile links: every page opened with every setting the app declares set to a value a
careless or malicious link could carry (not a number, infinite, huge, empty, a path, markup,
an injection, 5,000 characters, digits of another script), in each of the five languages.
No page may raise: each value is refused (the setting keeps its default) or used as typed."""

from __future__ import annotations

import pytest
from apptest_helpers import open_page

from ui.common.catalog import available_pages
from ui.common.i18n import LANGUAGES
from ui.common.setting import DECLARED

PAGES = [entry.url_path for entry in available_pages()]
HOSTILE = (
    "nan", "inf", "-1e309", "1e400", "0", "-0", "", "' OR 1=1 --",
    "<script>alert(1)</script>", "../../../../etc/passwd", "x" * 5_000, "٣", "1,5", "🙂",
    "%00", "-5", "1e-400", "true,false", "0,0",
)  # fmt: skip


@pytest.fixture(scope="module")
def keys() -> list[str]:
    """Every setting's key: the pages declare them as they run (ui.common.setting.DECLARED)."""
    for page in PAGES:
        open_page(page)
    return sorted(k for k in DECLARED if k not in ("lang", "present"))


@pytest.mark.parametrize("page", PAGES)
def test_no_page_raises_on_a_hostile_link_in_any_language(page: str, keys: list[str]) -> None:
    for shift, language in enumerate(LANGUAGES):
        query = {key: HOSTILE[(number + shift) % len(HOSTILE)] for number, key in enumerate(keys)}
        at = open_page(page, query={**query, "lang": language})  # fails on any exception
        assert not at.exception, (language, at.exception)
