"""Whole plans: a budget split over the statistics, or solved from their targets.

By basic composition a plan is (sum eps_i, sum delta_i)-DP for one person added or removed
with all their rows (Dwork & Roth 2014, Thm 3.16; dp_core.accountants gives tighter totals
for the same noise).

Splitting a total: equally, by weight, or to minimise the worst relative error (which
equalises every row's half-width relative to its true value). Working backwards: the
smallest eps_i that meets each row's target, solved exactly (Laplace in closed form, Gaussian
by inverting the exact profile or the zCDP conversion); their sum is the smallest total that
meets every target under basic composition. delta goes to the Gaussian rows in equal shares.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from scipy.optimize import brentq

from dp_core.accountants import NoiseRelease
from dp_core.errors import CodedError
from dp_core.planner.accuracy import Calibration, epsilon_for_half_width
from dp_core.planner.row import RowPlan, TargetUnreachable, epsilon_for_target, row_plan
from dp_core.planner.statistic import Statistic
from dp_core.validation import check_delta, check_epsilon

__all__ = ["Plan", "Rule", "gaussian_deltas", "plan_for_targets", "split_budget"]

Rule = Literal["equal", "weight", "minimax", "targets"]

_SOLVE_TOLERANCE = 1e-12


@dataclass(frozen=True)
class Plan:
    """A budget split over statistics; its total by basic composition."""

    rows: tuple[RowPlan, ...]
    rule: Rule
    calibration: Calibration

    @property
    def epsilon(self) -> float:
        return float(sum(row.epsilon for row in self.rows))

    @property
    def delta(self) -> float:
        return float(sum(row.delta for row in self.rows))

    @property
    def releases(self) -> tuple[NoiseRelease, ...]:
        return tuple(release for row in self.rows for release in row.releases)


def _statistics(stats: Sequence[Statistic]) -> tuple[Statistic, ...]:
    if len(stats) == 0:
        raise CodedError("plan_empty")
    return tuple(stats)


def gaussian_deltas(stats: Sequence[Statistic], total_delta: float) -> tuple[float, ...]:
    """delta_i: the total in equal shares over the Gaussian rows, 0 for Laplace rows."""
    items = _statistics(stats)
    gaussian = sum(s.spec.mechanism == "gaussian" for s in items)
    if gaussian == 0:
        return tuple(0.0 for _ in items)
    d = check_delta(total_delta, allow_zero=False)
    return tuple(d / gaussian if s.spec.mechanism == "gaussian" else 0.0 for s in items)


def split_budget(
    stats: Sequence[Statistic],
    epsilon: float,
    delta: float = 0.0,
    rule: Rule = "equal",
    calibration: Calibration = "analytic",
) -> Plan:
    """Split (epsilon, delta) over the statistics: "equal", by "weight", or "minimax".

    "minimax" minimises the largest 95% half-width relative to the true value: each row's
    relative half-width falls as its eps_i grows, so at the optimum they are all equal to
    some r, and r solves sum_i eps_i(r |x_i|) = epsilon (Brent's method on ln r, exact
    eps_i(t) per row); the eps_i are then scaled to add up to epsilon exactly.
    """
    items = _statistics(stats)
    total = check_epsilon(epsilon)
    deltas = gaussian_deltas(items, delta)
    if rule == "equal":
        shares = [total / len(items)] * len(items)
    elif rule == "weight":
        weights = [s.spec.weight for s in items]
        shares = [total * w / sum(weights) for w in weights]
    elif rule == "minimax":
        shares = _minimax_shares(items, total, deltas, calibration)
    else:
        raise CodedError(
            "choice", name="rule", choices="'equal', 'weight', 'minimax'", got=repr(rule)
        )
    rows = tuple(
        row_plan(s, e, d, calibration) for s, e, d in zip(items, shares, deltas, strict=True)
    )
    return Plan(rows, rule, calibration)


def _minimax_shares(
    items: tuple[Statistic, ...], total: float, deltas: tuple[float, ...], calibration: Calibration
) -> list[float]:
    zero = [s.spec.name for s in items if s.reference == 0]
    if zero:
        raise TargetUnreachable("zero_minimax", name=zero[0])

    def needed(r: float) -> list[float]:
        return [
            epsilon_for_half_width(s, r * s.reference, d, calibration)
            for s, d in zip(items, deltas, strict=True)
        ]

    def excess(log_r: float) -> float:
        return sum(needed(math.exp(log_r))) - total

    lo = hi = 0.0  # ln r: the epsilon needed falls as the relative half-width r grows
    while excess(hi) > 0:
        hi += 2.0
    while excess(lo) <= 0:
        lo -= 2.0
    log_r = brentq(excess, lo, hi, xtol=1e-13, rtol=_SOLVE_TOLERANCE)
    shares = needed(math.exp(log_r))
    factor = total / sum(shares)
    return [e * factor for e in shares]


def plan_for_targets(
    stats: Sequence[Statistic], delta: float = 0.0, calibration: Calibration = "analytic"
) -> Plan:
    """The smallest total that meets every row's target: each eps_i from epsilon_for_target.

    The sum is the smallest basic-composition total meeting every target for the given
    split of delta. Raises ValueError naming the rows without a target, TargetUnreachable for
    a target no eps_i <= MAX_EPSILON meets.
    """
    items = _statistics(stats)
    missing = [s.spec.name for s in items if s.spec.target is None]
    if missing:
        names = ", ".join(f"“{name}”" for name in missing)
        raise CodedError("no_targets", names=names)
    deltas = gaussian_deltas(items, delta)
    rows = tuple(
        row_plan(s, epsilon_for_target(s, d, calibration), d, calibration)
        for s, d in zip(items, deltas, strict=True)
    )
    return Plan(rows, "targets", calibration)
