"""The Gaussian page's exercises, each answered by the section it sits in.

``solve`` takes the page's settings (ui.gaussian.settings.Settings: ε, δ and the L2
sensitivity) and computes with the same dp_core functions the sections draw from, so the
numbers in an answer are the ones the page shows.
"""

from __future__ import annotations

import numpy as np

from dp_core import gaussian
from ui.common import formatting
from ui.common.exercises import TRUE_FALSE, Answer, Exercise
from ui.common.i18n import N_, _

MANY = 20  # statistics one person can change, in the "Laplace or Gauss?" question
HALF_EPSILON, FULL_EPSILON = 0.5, 1.0  # ε before and after doubling
SMALLEST_DELTA, LARGEST_DELTA = 1e-12, 1e-2  # the ends of the σ-against-δ chart


def _smaller_delta(s) -> Answer:
    """False: smaller δ is better; what it costs, read off the σ-against-δ chart."""
    small = gaussian.analytic_gaussian_sigma(s.l2, s.epsilon, SMALLEST_DELTA)
    large = gaussian.analytic_gaussian_sigma(s.l2, s.epsilon, LARGEST_DELTA)
    return Answer(
        "false",
        _(
            "gaussian.exercise.smaller_delta.answer",
            epsilon=formatting.number(s.epsilon),
            small=formatting.significant(small, 4),
            large=formatting.significant(large, 4),
            factor=formatting.fixed(small / large, 2),
        ),
    )


def _many_statistics(s) -> Answer:
    """Laplace or Gauss for one person in MANY statistics, from section 4's noise per statistic."""
    laplace_k, gaussian_k = gaussian.noise_per_statistic(np.array([MANY]), s.epsilon, s.delta)
    values = {
        "k": MANY,
        "epsilon": formatting.number(s.epsilon),
        "delta": formatting.power_of_ten(s.delta),
        "laplace": formatting.significant(float(laplace_k[0])),
        "gaussian": formatting.significant(float(gaussian_k[0])),
        "crossover": formatting.fixed(gaussian.laplace_gaussian_crossover(s.epsilon, s.delta), 2),
    }
    if gaussian_k[0] < laplace_k[0]:
        return Answer("gaussian", _("gaussian.exercise.many.answer_gaussian", **values))
    return Answer("laplace", _("gaussian.exercise.many.answer_laplace", **values))


def _double_epsilon(s) -> Answer:
    """The factor by which the analytic σ shrinks from ε = 0.5 to ε = 1, at the page's δ."""
    half = gaussian.analytic_gaussian_sigma(s.l2, HALF_EPSILON, s.delta)
    full = gaussian.analytic_gaussian_sigma(s.l2, FULL_EPSILON, s.delta)
    return Answer(
        half / full,
        _(
            "gaussian.exercise.double_epsilon.answer",
            ratio=formatting.fixed(half / full, 3),
            delta=formatting.power_of_ten(s.delta),
            half=formatting.significant(half, 4),
            full=formatting.significant(full, 4),
        ),
    )


def _other_name(s) -> Answer:
    """The normal distribution, with the page's σ and its 95% half-width (section 3's caption)."""
    return Answer(
        "normal",
        _(
            "gaussian.exercise.other_name.answer",
            sigma=formatting.significant(s.sigma),
            half=formatting.significant(gaussian.gaussian_half_width(s.sigma)),
        ),
    )


EXERCISES = (
    Exercise(
        key="gaussian.smaller_delta",
        page="gaussian",
        section="sigma",
        question=N_("gaussian.exercise.smaller_delta.question"),
        kind="choice",
        choices=TRUE_FALSE,
        solve=_smaller_delta,
    ),
    Exercise(
        key="gaussian.double_epsilon",
        page="gaussian",
        section="sigma",
        question=N_("gaussian.exercise.double_epsilon.question"),
        kind="number",
        solve=_double_epsilon,
        tolerance=0.01,
    ),
    Exercise(
        key="gaussian.other_name",
        page="gaussian",
        section="noise",
        question=N_("gaussian.exercise.other_name.question"),
        kind="choice",
        choices=(
            ("normal", N_("gaussian.exercise.other_name.normal")),
            ("laplace", N_("gaussian.exercise.other_name.laplace")),
            ("uniform", N_("gaussian.exercise.other_name.uniform")),
        ),
        solve=_other_name,
    ),
    Exercise(
        key="gaussian.many",
        page="gaussian",
        section="k",
        question=N_("gaussian.exercise.many.question"),
        kind="choice",
        choices=(
            ("laplace", N_("gaussian.exercise.many.laplace")),
            ("gaussian", N_("gaussian.exercise.many.gaussian")),
        ),
        solve=_many_statistics,
    ),
)
