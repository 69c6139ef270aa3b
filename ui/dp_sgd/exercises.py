"""The DP-SGD page's exercises, each answered by the section it sits in.

``solve`` takes the page's settings (ui.dp_sgd.settings.Settings) and computes with the same
functions the sections draw from (the same cached trainings and accountants), so the numbers
in an answer are the ones the page shows.
"""

from __future__ import annotations

from dataclasses import replace

from dp_core import attacks
from ui.common import formatting
from ui.common.exercises import TRUE_FALSE, Answer, Exercise
from ui.common.i18n import N_, _
from ui.dp_sgd.declared import CLIPS
from ui.dp_sgd.training import clip_curve, epsilon_of, run, sigma_for

ONE_POINT = 0.01  # accuracy: "less than one point" of the cheap-ε question
CHEAP_EPSILON = 1.0  # the ε of the cheap-ε question and of the σ question
BOUND_EPSILON = 1.0  # the ε of the attack-bound question


def _cheap(s) -> Answer:
    """Whether ε = 1 costs less than a point of held-out accuracy (the first seed's model)."""
    sigma = sigma_for(CHEAP_EPSILON, s.training, s.rows)
    private = run(s.problem, s.training, sigma, (*s.seed, 0)).test_accuracy
    baseline = s.baseline.test_accuracy
    values = {
        "private": f"{formatting.fixed(100 * private, 1)}%",
        "baseline": f"{formatting.fixed(100 * baseline, 1)}%",
        "points": formatting.fixed(100 * (baseline - private), 1),
        "rows": formatting.count(s.rows),
    }
    if baseline - private < ONE_POINT:
        return Answer("true", _("dp_sgd.exercise.cheap.answer_true", **values))
    return Answer("false", _("dp_sgd.exercise.cheap.answer_false", **values))


def _best_clip(s) -> Answer:
    """The clipping norm of the chart with the best held-out accuracy."""
    frame = clip_curve(s.problem, s.training, s.sigma, (*s.seed, 0), CLIPS)
    best = frame.loc[frame["accuracy"].idxmax()]
    return Answer(
        float(best["clip"]),
        _(
            "dp_sgd.exercise.best_clip.answer",
            clip=formatting.number(float(best["clip"])),
            accuracy=f"{formatting.fixed(100 * float(best['accuracy']), 1)}%",
            clipped=formatting.percent(float(best["clipped"])),
        ),
    )


def _sigma(s) -> Answer:
    """The noise multiplier ε = 1 needs by the page's accountant."""
    sigma = sigma_for(CHEAP_EPSILON, s.training, s.rows)
    return Answer(
        sigma,
        _(
            "dp_sgd.exercise.sigma.answer",
            sigma=formatting.significant(sigma, 4),
            delta=formatting.power_of_ten(s.delta),
            steps=formatting.count(s.training.schedule(s.rows, sigma).steps),
        ),
    )


def _double_epochs(s) -> Answer:
    """False: twice the epochs at the same σ cost less than twice the ε (amplification and
    composition are sublinear)."""
    once = epsilon_of(s.sigma, s.training, s.rows, s.training.accountant)
    twice = epsilon_of(
        s.sigma, replace(s.training, epochs=2 * s.training.epochs), s.rows, s.training.accountant
    )
    values = {
        "once": formatting.significant(once, 3),
        "twice": formatting.significant(twice, 3),
        "ratio": formatting.fixed(twice / once, 2),
    }
    if twice >= 2 * once * (1 - 1e-9):
        return Answer("true", _("dp_sgd.exercise.double.answer_true", **values))
    return Answer("false", _("dp_sgd.exercise.double.answer_false", **values))


def _bound(s) -> Answer:
    """The most any membership attack can reach at ε = 1 and the page's δ, in percent."""
    bound = float(attacks.best_advantage(BOUND_EPSILON, s.delta))
    return Answer(
        100 * bound,
        _(
            "dp_sgd.exercise.bound.answer",
            bound=formatting.fixed(100 * bound, 1),
            delta=formatting.power_of_ten(s.delta),
            accuracy=formatting.fixed(100 * float(attacks.attacker_accuracy(bound)), 1),
        ),
    )


EXERCISES = (
    Exercise(
        key="dp_sgd.cheap",
        page="dp_sgd",
        section="accuracy",
        question=N_("dp_sgd.exercise.cheap.question"),
        kind="choice",
        choices=TRUE_FALSE,
        solve=_cheap,
    ),
    Exercise(
        key="dp_sgd.best_clip",
        page="dp_sgd",
        section="clipping",
        question=N_("dp_sgd.exercise.best_clip.question"),
        kind="number",
        solve=_best_clip,
        tolerance=1e-9,
    ),
    Exercise(
        key="dp_sgd.sigma",
        page="dp_sgd",
        section="accounting",
        question=N_("dp_sgd.exercise.sigma.question"),
        kind="number",
        solve=_sigma,
        tolerance=0.02,
    ),
    Exercise(
        key="dp_sgd.double",
        page="dp_sgd",
        section="accounting",
        question=N_("dp_sgd.exercise.double.question"),
        kind="choice",
        choices=TRUE_FALSE,
        solve=_double_epochs,
    ),
    Exercise(
        key="dp_sgd.bound",
        page="dp_sgd",
        section="membership",
        question=N_("dp_sgd.exercise.bound.question"),
        kind="number",
        solve=_bound,
        tolerance=0.01,
    ),
)
