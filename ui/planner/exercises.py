"""The planner's exercises, each answered by the section it sits in.

- halve: under “The plan”, halve a Laplace row's target: its ε_i doubles (ε_i = Δ ln 20 / t).
- minimax: which split gives the smallest worst relative error, at the page's total ε.
- accountants: under “What it costs”, what privacy loss distributions charge for the same
  noise that basic composition charges the plan's total for.
"""

from __future__ import annotations

from dp_core import planner
from ui.common import formatting
from ui.common.exercises import Answer, Exercise
from ui.common.i18n import N_, _
from ui.planner import summary
from ui.planner.settings import Costs, Settings


def _halved_row(s: Settings) -> planner.RowPlan | None:
    """The first Laplace row with a target (the one the answer quotes), if any."""
    return next(
        (
            row
            for row in s.plan.rows
            if row.statistic.spec.mechanism == "laplace"
            and row.statistic.target_half_width is not None
            and row.statistic.target_half_width > 0
        ),
        None,
    )


def _halve(s: Settings) -> Answer:
    """ε_i for the row's target and for half of it (Laplace: exactly twice as much)."""
    row = _halved_row(s)
    if row is None:
        return Answer(2.0, _("planner.exercise.halve.answer_general"))
    stat = row.statistic
    target = stat.target_half_width
    now = planner.epsilon_for_target(stat, half_width=target)
    halved = planner.epsilon_for_target(stat, half_width=target / 2)
    return Answer(
        halved / now,
        _(
            "planner.exercise.halve.answer",
            name=row.name,
            target=formatting.significant(target),
            half=formatting.significant(target / 2),
            now=formatting.epsilon(now),
            halved=formatting.epsilon(halved),
            factor=formatting.significant(halved / now),
        ),
    )


def worst_relative(s: Settings, rule: str) -> float:
    """The widest 95% ± of the value (a fraction) when the page's total is split by ``rule``."""
    try:
        plan = planner.split_budget(
            s.controls.statistics, s.plan.epsilon, s.plan.delta, rule, s.calibration
        )
    except ValueError:  # e.g. no relative error to even out on a true value of 0
        return float("inf")
    return summary.widest(plan).relative_half_width


SPLITS = ("equal", "weight", "minimax")


def _minimax(s: Settings) -> Answer:
    worst = {rule: worst_relative(s, rule) for rule in SPLITS}
    return Answer(
        "minimax",
        _(
            "planner.exercise.minimax.answer",
            epsilon=formatting.epsilon(s.plan.epsilon),
            equal=summary.percent(worst["equal"]),
            weight=summary.percent(worst["weight"]),
            minimax=summary.percent(worst["minimax"]),
        ),
    )


def _accountants(c: Costs) -> Answer:
    by_key = {total.key: total for total in c.totals}
    basic, pld = by_key["basic"], by_key["pld"]
    return Answer(
        pld.epsilon,
        _(
            "planner.exercise.accountants.answer",
            basic=formatting.epsilon(basic.epsilon),
            pld=formatting.epsilon(pld.epsilon),
            delta=formatting.power_of_ten(c.delta),
        ),
    )


EXERCISES = (
    Exercise(
        key="planner.halve",
        page="planner",
        section="plan",
        question=N_("planner.exercise.halve.question"),
        kind="number",
        solve=_halve,
        tolerance=0.01,
    ),
    Exercise(
        key="planner.minimax",
        page="planner",
        section="plan",
        question=N_("planner.exercise.minimax.question"),
        kind="choice",
        choices=tuple((rule, summary.HOW[rule]) for rule in SPLITS),
        solve=_minimax,
    ),
    Exercise(
        key="planner.accountants",
        page="planner",
        section="cost",
        question=N_("planner.exercise.accountants.question"),
        kind="number",
        solve=_accountants,
        tolerance=0.01,
    ),
)
