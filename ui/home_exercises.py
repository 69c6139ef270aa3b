"""The home page's exercises, answered by its tiny example (one noisy count of HIV cases)."""

from __future__ import annotations

from dataclasses import dataclass

from dp_core import laplace
from ui.common import formatting
from ui.common.exercises import TRUE_FALSE, Answer, Exercise
from ui.common.i18n import N_, _

TRUE_COUNT = 5


@dataclass(frozen=True)
class Example:
    """What the tiny example shows: ε and the one standard Laplace draw Z behind its answer."""

    epsilon: float
    draw: float

    def published(self, epsilon: float) -> float:
        """The answer published at ``epsilon`` from the same draw: 5 + Z / ε."""
        return TRUE_COUNT + self.draw / epsilon

    @staticmethod
    def half_width(epsilon: float) -> float:
        """95% of answers land within this of the true count (sensitivity 1)."""
        return laplace.laplace_half_width(laplace.laplace_scale(1, epsilon))


def _halve(example: Example) -> Answer:
    now, halved = example.half_width(example.epsilon), example.half_width(example.epsilon / 2)
    return Answer(
        halved / now,
        _(
            "home.exercise.halve.answer",
            epsilon=formatting.number(example.epsilon),
            band=formatting.fixed(now, 1),
            half=formatting.number(example.epsilon / 2),
            halved=formatting.fixed(halved, 1),
        ),
    )


def _two_releases(example: Example) -> Answer:
    first, second = example.published(example.epsilon), example.published(2 * example.epsilon)
    return Answer(
        "true",
        _(
            "home.exercise.two_releases.answer",
            epsilon=formatting.number(example.epsilon),
            doubled=formatting.number(2 * example.epsilon),
            first=formatting.fixed(first, 4),
            second=formatting.fixed(second, 4),
            truth=formatting.fixed(2 * second - first, 4),
        ),
    )


EXERCISES = (
    Exercise(
        key="home.halve",
        page="home",
        section="",
        question=N_("home.exercise.halve.question"),
        kind="number",
        solve=_halve,
    ),
    Exercise(
        key="home.two_releases",
        page="home",
        section="",
        question=N_("home.exercise.two_releases.question"),
        kind="choice",
        choices=TRUE_FALSE,
        solve=_two_releases,
    ),
)
