"""Every page has one shape, and one runner draws it.

    PAGE = Page("gaussian", controls=data_controls, explore=explore,
                sections=story_sections, closing=closing, try_this=lambda chosen: ...)
    draw(PAGE)   # the whole of pages/gaussian.py

1. the header: the title and question (ui.common.catalog) and a "try this", which may name
   the data chosen (drawn above the controls, filled in once they ran);
2. ``controls()``: the settings that rerun the whole page (the data, the query, the plan),
   folded away on a projector by the page where it wants; None after they said why the page
   cannot go on (``stops=False``: the page goes on without them, as the coin game does);
3. ``explore(chosen, sections)``: the page's own controls (ε, δ, ...), the frozen Settings
   built from them and the story of ``sections(chosen)``, a section showing its exercises;
4. ``closing(chosen)``: the formulas and sources.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import streamlit as st

from ui.common.catalog import entry
from ui.common.live import relay
from ui.common.progress import statistic_progress
from ui.common.sections import Section
from ui.common.shell import page_header

C = TypeVar("C")


@dataclass(frozen=True)
class Page(Generic[C]):
    """A page: its catalogue key and its four parts (see the module's docstring)."""

    key: str
    controls: Callable[[], C | None]
    explore: Callable[[C, Sequence[Section]], None]
    sections: Callable[[C], Sequence[Section]]
    closing: Callable[[C], None]
    try_this: Callable[[C | None], str]
    stops: bool = True


def draw(page: Page[Any]) -> None:
    """Header, controls, the explored story, closing: the same order on every page."""
    shown = entry(page.key)
    header = st.container()
    with statistic_progress(header):  # a data path's statistics: a bar once one takes a second
        chosen = page.controls()
    with header:
        page_header(shown.title, shown.question, page.try_this(chosen))
    if chosen is None and page.stops:
        st.stop()
    page.explore(chosen, page.sections(chosen))
    page.closing(chosen)
    with header:  # what makes charts follow a thumb while it moves, with the stops they follow
        relay()  # (ui.common.live)
