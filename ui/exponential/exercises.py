"""The exponential-mechanism page's exercises, each answered by the section it sits in."""

from __future__ import annotations

from dp_core.selection_scores import floored_clipped_mean_sensitivity
from ui.common import formatting
from ui.common.exercises import TRUE_FALSE, Answer, Exercise
from ui.common.i18n import N_, _

# The shared catalogue's ids (common domain), not marked here: they are not this page's messages.
HALVED = (1.0, 0.5)  # the ε of the question, and half of it
HOURS = (20.0, 60.0, 200)  # the question's clipping bounds and smallest group


def _halve(s) -> Answer:
    """P(true best answer) at ε = 0.5 (the table's first metric), against ε = 1."""
    full, half = (s.probability_of_best(epsilon) for epsilon in HALVED)
    return Answer(
        half,
        _(
            "exponential.exercise.halve.answer",
            full=formatting.fixed(full, 3),
            half=formatting.fixed(half, 3),
        ),
    )


def _publishes(s) -> Answer:
    return Answer("false", _("exponential.exercise.publishes.answer"))


def _hours(h) -> Answer:
    """Δ = (U − L) / n_min for the question's bounds and floor (the section's Δ metric)."""
    lower, upper, floor = HOURS
    delta = floored_clipped_mean_sensitivity(lower, upper, floor)
    return Answer(
        delta,
        _(
            "exponential.exercise.hours.answer",
            lower=formatting.number(lower),
            upper=formatting.number(upper),
            floor=formatting.count(floor),
            delta=formatting.significant(delta),
        ),
    )


EXERCISES = (
    Exercise(
        key="exponential.halve",
        page="exponential",
        section="table",
        question=N_("exponential.exercise.halve.question"),
        kind="number",
        solve=_halve,
    ),
    Exercise(
        key="exponential.publishes",
        page="exponential",
        section="table",
        question=N_("exponential.exercise.publishes.question"),
        kind="choice",
        choices=TRUE_FALSE,
        solve=_publishes,
    ),
    Exercise(
        key="exponential.hours",
        page="exponential",
        section="hours",
        question=N_("exponential.exercise.hours.question"),
        kind="number",
        solve=_hours,
        tolerance=1e-9,
    ),
)
