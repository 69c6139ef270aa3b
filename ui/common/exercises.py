"""Exercises with answers, in the teaching notebooks' style, next to the chart that answers them.

    HALVE = Exercise(
        key="laplace.halve",
        page="laplace",
        section="answers",
        question=N_("laplace.exercise.halve.question"),
        kind="number",
        solve=lambda s: Answer(2.0, _("laplace.exercise.halve.answer", ...)),
        tolerance=0.05,
    )
    exercise_box(HALVE, settings)   # inside the section that answers it

A question is answered by moving the page's own controls. ``solve`` reads the page's settings
(the same object the section draws from) and returns the right answer with an explanation
that quotes the number the chart shows; so the stated answer is always the page's own. A
numeric answer can be typed and checked (within a relative tolerance); a choice (true/false,
"which mechanism") is picked and checked; the answer is revealed on request. Every page lists
its exercises in ``EXERCISES`` (ui/<page>/exercises.py, named by its ui.common.catalog entry);
the Workshop page lists them all in teaching order with a link to each page and section.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import streamlit as st

from ui.common.i18n import N_, _, display

Kind = Literal["number", "choice"]
Below = Callable[["Exercise", Any], None]
# Drawn below each exercise's answer, registered by what uses them (the room's "ask the room"
# button, for a trainer leading one), so that nothing shared imports the room.
_BELOW_ANSWERS: list[Below] = []
# The choices of a true/false statement.
TRUE_FALSE = (("true", N_("common.exercise.true")), ("false", N_("common.exercise.false")))


@dataclass(frozen=True)
class Answer:
    """The right answer (a number, or a choice's key) and why, in the reader's language."""

    value: float | str
    explanation: str


@dataclass(frozen=True)
class Exercise:
    """One question of a page, where it is answered, and how to find its answer."""

    key: str  # unique, e.g. "laplace.halve"; also the widgets' key prefix
    page: str  # url path of the page
    section: str  # key of the section that answers it (Section.key); "" on a page without tabs
    question: str  # message id
    kind: Kind
    solve: Callable[[Any], Answer]  # the page's settings -> the answer
    choices: Sequence[tuple[str, str]] = field(default_factory=tuple)  # (key, message id)
    tolerance: float = 0.02  # relative, for typed numbers

    def is_right(self, given: float | str, answer: Answer) -> bool:
        """Whether a typed number is within the tolerance, or the picked choice is the one."""
        if self.kind == "choice":
            return given == answer.value
        right = float(answer.value)
        return math.isclose(float(given), right, rel_tol=self.tolerance, abs_tol=1e-9)


def section_exercises(exercises: Sequence[Exercise], section: str, settings: Any) -> None:
    """The exercises of one section, each in its box, answered from ``settings``."""
    for exercise in exercises:
        if exercise.section == section:
            exercise_box(exercise, settings)


def exercise_box(exercise: Exercise, settings: Any) -> None:
    """The exercise in an expander: the question, a place to answer, the answer on request."""
    box = st.expander(
        _("common.exercise.title", question=_(exercise.question)),
        icon=":material/school:",
        key=f"exercise_{exercise.key}",
        on_change="rerun",
    )
    if not box.open:
        return
    answer = exercise.solve(settings)
    with box:
        given = _given(exercise)
        if given is not None:
            if exercise.is_right(given, answer):
                st.success(_("common.exercise.right"), icon=":material/check_circle:")
            else:
                st.warning(_("common.exercise.wrong"), icon=":material/help:")
        if st.toggle(_("common.exercise.show"), key=f"exercise_{exercise.key}_show"):
            st.info(answer.explanation, icon=":material/lightbulb:")
        for draw in _BELOW_ANSWERS:
            draw(exercise, settings)


def below_each_answer(draw: Below) -> None:
    """Draw ``draw(exercise, settings)`` below each exercise's answer from now on (once)."""
    if draw not in _BELOW_ANSWERS:
        _BELOW_ANSWERS.append(draw)


def _given(exercise: Exercise) -> float | str | None:
    """The participant's answer, once given (None before)."""
    return answer_input(exercise, f"exercise_{exercise.key}_given")


def answer_input(exercise: Exercise, key: str) -> float | str | None:
    """Where to answer ``exercise``: a number to type, or its choices (None until given)."""
    if exercise.kind == "choice":
        choices = dict(exercise.choices)
        picked = st.radio(
            _("common.exercise.pick"),
            list(choices),
            format_func=display(choices, lambda choice: _(choices[choice])),
            index=None,
            key=key,
            horizontal=True,
        )
        return picked
    typed = st.number_input(_("common.exercise.type"), value=None, format="%g", key=key)
    return None if typed is None else float(typed)


def solved(exercise: Exercise, settings: Any) -> Answer:
    """The answer the page states for these settings (what the tests compare with)."""
    return exercise.solve(settings)
