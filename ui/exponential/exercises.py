"""The exponential-mechanism page's exercises, each answered by the section it sits in."""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

from data.registry import category_counts
from dp_core import selection as sel
from dp_core.exponential import exponential_probabilities
from dp_core.selection_scores import floored_clipped_mean_sensitivity
from ui.common import formatting
from ui.common.exercises import TRUE_FALSE, Answer, Exercise
from ui.common.i18n import N_, _
from ui.common.labels import category_label

# The shared catalogue's ids (common domain), not marked here: they are not this page's messages.
HALVED = (1.0, 0.5)  # the ε of the question, and half of it
HOURS = (20.0, 60.0, 200)  # the question's clipping bounds and smallest group
# The German notebook's control questions on the census' marital status: one row a person, so
# Δ = 1 (the page's candidates for census, marital status), the monotonic switch off.
MARITAL = ("census", "marital_status")
SMALL_EPSILON = 0.001  # the questions' small ε
NEAR_CERTAIN = 0.99  # "near certain": the true mode at least 99% of the time
# The choices, named by the common domain's category ids (ui.common.labels).
STATUSES = ("Married-civ-spouse", "Never-married", "Divorced")


def _marital() -> tuple[list[str], np.ndarray]:
    """The census' marital statuses and their counts, largest first."""
    counts = category_counts(*MARITAL)
    return [str(label) for label in counts.index], counts.to_numpy(dtype=float)


def _marital_best(epsilon: float) -> float:
    """P(the mechanism names the most common marital status) at ``epsilon``."""
    _labels, counts = _marital()
    return float(sel.probability_of_best(exponential_probabilities(counts, epsilon, 1.0), counts))


def _status(label: str) -> str:
    return category_label(MARITAL[1], label)


def _marital_likely(_s) -> Answer:
    """The most likely status at SMALL_EPSILON, with its chance and the runner-up's."""
    labels, counts = _marital()
    p = exponential_probabilities(counts, SMALL_EPSILON, 1.0)
    first, second = np.argsort(-p, kind="stable")[:2]
    return Answer(
        labels[first],
        _(
            "exponential.exercise.marital_likely.answer",
            best=_status(labels[first]),
            epsilon=formatting.number(SMALL_EPSILON),
            p=formatting.fixed(p[first], 3),
            second=_status(labels[second]),
            second_p=formatting.fixed(p[second], 3),
            count=formatting.count(counts[first]),
        ),
    )


def _marital_always(_s) -> Answer:
    """False: at SMALL_EPSILON the most common status comes out with chance below 1."""
    labels, _counts = _marital()
    p = _marital_best(SMALL_EPSILON)
    return Answer(
        "false",
        _(
            "exponential.exercise.marital_always.answer",
            best=_status(labels[0]),
            epsilon=formatting.number(SMALL_EPSILON),
            p=formatting.fixed(p, 3),
            others=formatting.percent(1 - p),
        ),
    )


def _marital_certain(_s) -> Answer:
    """The ε from which the most common status comes out NEAR_CERTAIN of the time (P(best)
    grows with ε: the root of P(best) − NEAR_CERTAIN)."""
    labels, counts = _marital()
    epsilon = brentq(lambda e: _marital_best(e) - NEAR_CERTAIN, 1e-9, 1.0, xtol=1e-12)
    return Answer(
        epsilon,
        _(
            "exponential.exercise.marital_certain.answer",
            epsilon=formatting.significant(epsilon),
            best=_status(labels[0]),
            second=_status(labels[1]),
            gap=formatting.count(counts[0] - counts[1]),
            small=formatting.number(SMALL_EPSILON),
            p_small=formatting.fixed(_marital_best(SMALL_EPSILON), 3),
        ),
    )


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
        key="exponential.marital_likely",
        page="exponential",
        section="right",
        question=N_("exponential.exercise.marital_likely.question"),
        kind="choice",
        choices=tuple((label, f"category.marital_status.{label}") for label in STATUSES),
        solve=_marital_likely,
    ),
    Exercise(
        key="exponential.marital_always",
        page="exponential",
        section="right",
        question=N_("exponential.exercise.marital_always.question"),
        kind="choice",
        choices=TRUE_FALSE,
        solve=_marital_always,
    ),
    Exercise(
        key="exponential.marital_certain",
        page="exponential",
        section="right",
        question=N_("exponential.exercise.marital_certain.question"),
        kind="number",
        solve=_marital_certain,
        tolerance=0.05,
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
