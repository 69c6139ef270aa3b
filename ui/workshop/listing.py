"""The Workshop page's listing: every page's exercises in teaching order, with links."""

from __future__ import annotations

import importlib

import streamlit as st

from ui.common.catalog import available_pages
from ui.common.exercises import Exercise
from ui.common.i18n import _
from ui.common.sections import address_key

# Each page package lists its exercises in ui/<package>/exercises.py (EXERCISES).
MODULES = {
    "home": "ui.home_exercises",
    "laplace": "ui.laplace.exercises",
    "gaussian": "ui.gaussian.exercises",
    "exponential": "ui.exponential.exercises",
    "randomized_response": "ui.local.exercises",
    "local_frequencies": "ui.local.exercises",
    "bounding": "ui.bounding.exercises",
    "attacker": "ui.attacker.exercises",
    "planner": "ui.planner.exercises",
    "dp_sgd": "ui.dp_sgd.exercises",
    "synthetic": "ui.synthetic.exercises",
}
# The module whose story() draws each page's sections. The address keeps the open section
# under the prefix that module gives story(), its PAGE ("rr" for randomized response, "lf"
# for local frequencies); a module without a PAGE gives the page's url path ("laplace").
STORIES = {
    "laplace": "ui.laplace.sections",
    "gaussian": "ui.gaussian.sections",
    "exponential": "ui.exponential.sections",
    "randomized_response": "ui.local.randomized_response",
    "local_frequencies": "ui.local.frequencies",
    "bounding": "ui.bounding.sections",
    "attacker": "ui.attacker.sections",
    "planner": "ui.planner.sections",
    "dp_sgd": "ui.dp_sgd.sections",
    "synthetic": "ui.synthetic.sections",
}


def all_exercises() -> list[Exercise]:
    """Every exercise, in the catalogue's page order, then in each page's own order."""
    found: list[Exercise] = []
    for entry in available_pages():
        module_name = MODULES.get(entry.url_path)
        if module_name is None:  # a page without exercises (the Workshop itself)
            continue
        module = importlib.import_module(module_name)
        found.extend(e for e in module.EXERCISES if e.page == entry.url_path)
    return found


def section_link(exercise: Exercise) -> dict[str, str] | None:
    """The address that opens the section answering ``exercise``: the parameter its page's
    story() reads (ui.common.sections.address_key of the page's prefix); None without tabs."""
    if not exercise.section:
        return None
    story = importlib.import_module(STORIES[exercise.page])
    return {address_key(getattr(story, "PAGE", exercise.page)): exercise.section}


def listing() -> None:
    """A numbered list: page, question, and a link to the section that answers it."""
    pages = {entry.url_path: entry for entry in available_pages()}
    current = None
    for number, exercise in enumerate(all_exercises(), start=1):
        entry = pages[exercise.page]
        if exercise.page != current:
            current = exercise.page
            st.subheader(entry.title)
        cols = st.columns([5, 2], vertical_alignment="center")
        cols[0].markdown(f"**{number}.** {_(exercise.question)}")
        cols[1].page_link(
            entry.path,
            label=_("workshop.open"),
            icon=":material/arrow_forward:",
            query_params=section_link(exercise),
        )
