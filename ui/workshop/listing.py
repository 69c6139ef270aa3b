"""The Workshop page's listing: every page's exercises in teaching order, with links. Both come
from the catalogue (ui.common.catalog): each entry names the module of its exercises and the
prefix its story() keeps the open section under."""

from __future__ import annotations

import importlib

import streamlit as st

from ui.common.catalog import available_pages, entry
from ui.common.exercises import Exercise
from ui.common.i18n import _
from ui.common.sections import address_key


def all_exercises() -> list[Exercise]:
    """Every exercise, in the catalogue's page order, then in each page's own order."""
    found: list[Exercise] = []
    for page in available_pages():
        if page.exercises is None:  # a page without exercises (the Workshop itself)
            continue
        module = importlib.import_module(page.exercises)
        found.extend(e for e in module.EXERCISES if e.page == page.url_path)
    return found


def section_link(exercise: Exercise) -> dict[str, str] | None:
    """The address that opens the section answering ``exercise``: the parameter its page's
    story() reads (ui.common.sections.address_key of its catalogue prefix); None without tabs."""
    if not exercise.section:
        return None
    return {address_key(entry(exercise.page).prefix): exercise.section}


def listing() -> None:
    """A numbered list: page, question, and a link to the section that answers it."""
    current = None
    for number, exercise in enumerate(all_exercises(), start=1):
        page = entry(exercise.page)
        if exercise.page != current:
            current = exercise.page
            st.subheader(page.title)
        cols = st.columns([5, 2], vertical_alignment="center")
        cols[0].markdown(f"**{number}.** {_(exercise.question)}")
        cols[1].page_link(
            page.path,
            label=_("workshop.open"),
            icon=":material/arrow_forward:",
            query_params=section_link(exercise),
        )
