"""The Laplace page's exercises, each answered by the section it sits in."""

from __future__ import annotations

from dp_core import laplace
from ui.common import formatting
from ui.common.exercises import TRUE_FALSE, Answer, Exercise
from ui.common.i18n import N_, _

# The choices' texts are the common catalogue's (ui/home_exercises.py lists them).


def _half_width(s) -> Answer:
    """The 95% half-width of a count at ε = 0.5, for this query's sensitivity."""
    width = laplace.laplace_half_width(laplace.laplace_scale(s.choice.query.sensitivity, 0.5))
    return Answer(
        width,
        _(
            "laplace.exercise.half_width.answer",
            width=formatting.significant(width),
            sensitivity=formatting.number(s.choice.query.sensitivity),
        ),
    )


def _same_noise(s) -> Answer:
    return Answer("false", _("laplace.exercise.same_noise.answer"))


def _spent(s) -> Answer:
    total = 100 * s.epsilon
    return Answer(
        total,
        _(
            "laplace.exercise.spent.answer",
            epsilon=formatting.number(s.epsilon),
            total=formatting.number(round(total, 9)),
        ),
    )


def _halving(s) -> Answer:
    """How the 95% half-width b · ln 20 grows when ε halves: from the page's own scale b."""
    halved = s.at(s.epsilon / 2)
    before, after = laplace.laplace_half_width(s.scale), laplace.laplace_half_width(halved.scale)
    values = {
        "epsilon": formatting.number(s.epsilon),
        "half": formatting.number(halved.epsilon),
        "before": formatting.significant(before),
        "after": formatting.significant(after),
        "scale": formatting.significant(s.scale),
        "scale_half": formatting.significant(halved.scale),
    }
    if s.choice.query.kind == "mean":
        return Answer(after / before, _("laplace.exercise.halving.answer_mean", **values))
    return Answer(after / before, _("laplace.exercise.halving.answer", **values))


EXERCISES = (
    Exercise(
        key="laplace.half_width",
        page="laplace",
        section="answers",
        question=N_("laplace.exercise.half_width.question"),
        kind="number",
        solve=_half_width,
    ),
    Exercise(
        key="laplace.same_noise",
        page="laplace",
        section="answers",
        question=N_("laplace.exercise.same_noise.question"),
        kind="choice",
        choices=TRUE_FALSE,
        solve=_same_noise,
    ),
    Exercise(
        key="laplace.halving",
        page="laplace",
        section="answers",
        question=N_("laplace.exercise.halving.question"),
        kind="number",
        solve=_halving,
    ),
    Exercise(
        key="laplace.spent",
        page="laplace",
        section="averaging",
        question=N_("laplace.exercise.spent.question"),
        kind="number",
        solve=_spent,
        tolerance=1e-9,
    ),
)
