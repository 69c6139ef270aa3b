"""Plan a release of several statistics: split a budget, or solve it from the accuracy wanted.

A plan is a list of statistics over one dataset (a count of rows, a clipped sum or mean of a
column, a histogram over a public domain), each released with Laplace or Gaussian noise. Each
gets its share (eps_i, delta_i) of the total; by basic composition the plan is
(sum eps_i, sum delta_i)-DP for one person added or removed with all their rows (Dwork & Roth
2014, Thm 3.16; dp_core.accountants gives tighter totals for the same noise).

Accuracy is the 95% half-width t of the noise on each released value:
- Laplace, scale b = Delta_1 / eps: t = b ln 20 (P(|Z| > t) = e^(-t/b));
- Gaussian: t = Phi^-1(0.975) sigma, sigma the analytic calibration at (eps, delta) (Balle &
  Wang 2018) or, with ``calibration="zcdp"``, sigma = Delta_2 / sqrt(2 rho) with rho the
  largest zCDP parameter whose Canonne-Kamath-Steinke conversion gives (eps, delta), as OpenDP
  certifies a Gaussian (dp_core.accountants.zcdp_rho_for);
- a mean is a noisy clipped sum over a noisy row count, eps/2 (and delta/2, or rho/2) each
  (as dp_core.queries.release_clipped_mean). Its error is, to first order in the noise,
  (Z_sum - mu Z_count) / N for the true clipped mean mu and row count N (the delta method):
  the difference of two Laplace variables (closed-form tail) or a Gaussian of standard
  deviation sqrt(sigma_sum^2 + mu^2 sigma_count^2) / N. Clamping the noisy mean to [L, U]
  can only bring it closer to the truth.

Splitting a total: equally, by weight, or to minimise the worst relative error (which
equalises every row's half-width relative to its true value). Working backwards: the
smallest eps_i that meets each row's target, solved exactly (Laplace in closed form, Gaussian
by inverting the exact profile or the zCDP conversion); their sum is the smallest total that
meets every target under basic composition. delta goes to the Gaussian rows in equal shares.

Relative targets and the minimax split read the true values: the eps they choose depends on
the data, so on confidential data that choice itself must be made on public or earlier
figures. The page says so.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd
from scipy.optimize import brentq
from scipy.stats import norm

from dp_core.accountants import NoiseRelease, zcdp_epsilon, zcdp_rho_for
from dp_core.domains import check_domain
from dp_core.errors import CodedError
from dp_core.gaussian import analytic_gaussian_sigma, gaussian_epsilon_for
from dp_core.queries import QuerySpec, answer, numeric_column, query_from_totals
from dp_core.sensitivity import clipped_sum_sensitivity
from dp_core.validation import (
    check_bounds,
    check_delta,
    check_epsilon,
    check_positive_int,
    check_sensitivity,
)

__all__ = [
    "CONFIDENCE",
    "MAX_EPSILON",
    "MIN_EPSILON",
    "Plan",
    "RowPlan",
    "Statistic",
    "StatisticSpec",
    "TargetUnreachable",
    "build_statistic",
    "certified_epsilon",
    "certified_total",
    "epsilon_for_target",
    "gaussian_deltas",
    "plan_for_targets",
    "row_plan",
    "simulate_release",
    "split_budget",
    "standard_draws",
    "statistic_from_totals",
]

Kind = Literal["count", "sum", "mean", "histogram"]
Mechanism = Literal["laplace", "gaussian"]
Calibration = Literal["analytic", "zcdp"]
Rule = Literal["equal", "weight", "minimax", "targets"]

CONFIDENCE = 0.95
Z95 = float(norm.ppf(0.5 + CONFIDENCE / 2))  # 1.959963984540054
LN20 = math.log(20.0)  # the Laplace 95% half-width in units of b
# A row's epsilon stays within the range the app's epsilon box accepts: beyond 100 the
# guarantee means nothing (e^100 ~ 10^43); below 10^-4 a target is met with room to spare.
MAX_EPSILON = 100.0
MIN_EPSILON = 1e-4
_SOLVE_TOLERANCE = 1e-12


class TargetUnreachable(CodedError):
    """No epsilon up to MAX_EPSILON meets a row's target."""


@dataclass(frozen=True)
class StatisticSpec:
    """One statistic as asked for, before looking at the data.

    ``target`` is the 95% half-width wanted: in the statistic's units, or with ``relative``
    a fraction of its true value (0.05 for ±5%). ``lower``/``upper`` clip a sum or mean.
    """

    name: str
    kind: Kind
    column: str | None = None
    lower: float | None = None
    upper: float | None = None
    mechanism: Mechanism = "laplace"
    weight: float = 1.0
    target: float | None = None
    relative: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("count", "sum", "mean", "histogram"):
            raise ValueError(f"unknown statistic {self.kind!r}: count, sum, mean or histogram.")
        if self.mechanism not in ("laplace", "gaussian"):
            raise ValueError(f"unknown mechanism {self.mechanism!r}: laplace or gaussian.")
        if self.kind != "count" and not self.column:
            raise ValueError(f"a {self.kind} needs a column.")
        if self.kind in ("sum", "mean"):
            if self.lower is None or self.upper is None:
                raise ValueError(f"a {self.kind} needs clipping bounds [L, U].")
            check_bounds(self.lower, self.upper)
        if not (math.isfinite(self.weight) and self.weight > 0):
            raise ValueError(f"the weight must be a number above 0 (got {self.weight:g}).")
        if self.target is not None and not (math.isfinite(self.target) and self.target > 0):
            raise ValueError(
                f"the target must be a number above 0 (got {self.target:g}): it is the ± "
                "half-width the statistic should be within, 95% of the time."
            )


@dataclass(frozen=True)
class Statistic:
    """A statistic's true values over its released labels and one person's effect on them.

    ``l1``/``l2``: the sensitivity of the release (for a mean, of its clipped sum);
    ``count_l1``/``count_l2`` that of a mean's row count; ``rows``: a mean's true row count N.
    """

    spec: StatisticSpec
    labels: tuple[str, ...]
    true_values: tuple[float, ...]
    l1: float
    l2: float
    count_l1: float = 0.0
    count_l2: float = 0.0
    rows: float = 0.0
    raw_values: tuple[float, ...] = ()  # unclipped (sum, mean): what clipping changed
    rows_outside: int = 0  # histogram rows outside the public domain (dropped)

    @property
    def sensitivity(self) -> float:
        """L1 for Laplace, L2 for Gaussian (the sum part's, for a mean)."""
        return self.l1 if self.spec.mechanism == "laplace" else self.l2

    @property
    def count_sensitivity(self) -> float:
        return self.count_l1 if self.spec.mechanism == "laplace" else self.count_l2

    @functools.cached_property
    def reference(self) -> float:
        """What a relative error is measured against: |true value|, or the median |cell| of a
        histogram (its typical category)."""
        values = np.abs(np.asarray(self.true_values, dtype=float))
        return float(np.median(values)) if self.spec.kind == "histogram" else float(values[0])

    @property
    def target_half_width(self) -> float | None:
        """The target as a half-width in the statistic's units (None without a target)."""
        spec = self.spec
        if spec.target is None:
            return None
        return spec.target * self.reference if spec.relative else spec.target

    @property
    def parts(self) -> int:
        """Noisy releases the statistic needs: 2 for a mean (sum and count), else 1."""
        return 2 if self.spec.kind == "mean" else 1


# --- noise and accuracy of one statistic ----------------------------------------------


def _unit_gaussian_sigma(epsilon: float, delta: float, calibration: Calibration) -> float:
    """sigma for a sensitivity of 1 at (eps, delta): analytic, or 1 / sqrt(2 rho) (zCDP)."""
    if calibration == "analytic":
        return analytic_gaussian_sigma(1.0, epsilon, delta)
    if calibration == "zcdp":
        return 1.0 / math.sqrt(2.0 * zcdp_rho_for(epsilon, delta))
    raise ValueError(f"calibration must be 'analytic' or 'zcdp' (got {calibration!r}).")


def _noise(
    stat: Statistic, epsilon: float, delta: float, calibration: Calibration
) -> tuple[float, float | None]:
    """(scale of the release or a mean's sum, scale of a mean's count or None)."""
    eps = check_epsilon(epsilon)
    laplace = stat.spec.mechanism == "laplace"
    if not laplace:
        check_delta(delta, allow_zero=False)
    if stat.spec.kind != "mean":
        if laplace:
            return stat.l1 / eps, None
        return stat.l2 * _unit_gaussian_sigma(eps, delta, calibration), None
    if laplace:
        return stat.l1 / (eps / 2), stat.count_l1 / (eps / 2)
    if calibration == "zcdp":  # rho/2 each: sigma = Delta / sqrt(rho)
        unit = 1.0 / math.sqrt(zcdp_rho_for(eps, delta))
    else:  # (eps/2, delta/2) each
        unit = _unit_gaussian_sigma(eps / 2, delta / 2, calibration)
    return stat.l2 * unit, stat.count_l2 * unit


def _two_laplace_tail(a: float, c: float, t: float) -> float:
    """P(|X + Y| > t) for independent Laplace(a), Laplace(c):
    (a^2 e^(-t/a) - c^2 e^(-t/c)) / (a^2 - c^2), and (1 + t / (2a)) e^(-t/a) when a = c."""
    if c == 0:
        return math.exp(-t / a)
    if abs(a - c) <= 1e-9 * max(a, c):
        return (1.0 + t / (2.0 * a)) * math.exp(-t / a)
    return (a * a * math.exp(-t / a) - c * c * math.exp(-t / c)) / (a * a - c * c)


def _mean_error_scales(stat: Statistic, scale: float, count_scale: float) -> tuple[float, float]:
    """The two noise terms of a mean's first-order error, (Z_sum - mu Z_count) / N."""
    n = max(stat.rows, 1.0)
    mu = abs(stat.true_values[0])
    return scale / n, mu * count_scale / n


def _half_width(stat: Statistic, scale: float, count_scale: float | None) -> float:
    laplace = stat.spec.mechanism == "laplace"
    if count_scale is None:
        return scale * (LN20 if laplace else Z95)
    a, c = _mean_error_scales(stat, scale, count_scale)
    if not laplace:
        return Z95 * math.hypot(a, c)
    a, c = max(a, c), min(a, c)
    hi = a * LN20 + 2.0 * c * LN20 + 1e-300
    return float(brentq(lambda t: _two_laplace_tail(a, c, t) - (1 - CONFIDENCE), 0.0, hi,
                        xtol=1e-14 * hi, rtol=1e-14))  # fmt: skip


def _expected_abs_error(stat: Statistic, scale: float, count_scale: float | None) -> float:
    laplace = stat.spec.mechanism == "laplace"
    if count_scale is None:
        return scale if laplace else scale * math.sqrt(2.0 / math.pi)
    a, c = _mean_error_scales(stat, scale, count_scale)
    if not laplace:
        return math.hypot(a, c) * math.sqrt(2.0 / math.pi)
    return (a * a + a * c + c * c) / (a + c)  # E|X + Y|, X ~ Lap(a), Y ~ Lap(c)


@dataclass(frozen=True)
class RowPlan:
    """One statistic with its share of the budget, its noise and its accuracy."""

    statistic: Statistic
    epsilon: float
    delta: float
    scale: float  # Laplace b or Gaussian sigma (of a mean's clipped sum)
    count_scale: float | None  # a mean's row count; None otherwise
    half_width: float  # 95% half-width of each released value (first order for a mean)
    expected_abs_error: float
    releases: tuple[NoiseRelease, ...] = field(repr=False)

    @property
    def name(self) -> str:
        return self.statistic.spec.name

    @property
    def relative_half_width(self) -> float:
        """half-width / reference (inf when the reference is 0)."""
        ref = self.statistic.reference
        return self.half_width / ref if ref > 0 else math.inf

    @property
    def expected_relative_error(self) -> float:
        ref = self.statistic.reference
        return self.expected_abs_error / ref if ref > 0 else math.inf

    @property
    def meets_target(self) -> bool | None:
        wanted = self.statistic.target_half_width
        if wanted is None:
            return None
        return self.half_width <= wanted * (1 + 1e-9)


@functools.lru_cache(maxsize=1024)
def _laplace_at_one(stat: Statistic) -> tuple[float, float]:
    """(95% half-width, E|error|) of a Laplace statistic at eps = 1: both are c / eps."""
    scale, count_scale = _noise(stat, 1.0, 0.0, "analytic")
    return _half_width(stat, scale, count_scale), _expected_abs_error(stat, scale, count_scale)


def _joint_zcdp_mean(stat: Statistic, scale: float, epsilon: float, delta: float) -> NoiseRelease:
    """A zCDP mean's sum and count as the one release they are for privacy.

    Both halves have noise Delta / sqrt(rho) (rho/2-zCDP each, Bun & Steinke 2016, Prop 1.6),
    so neither meets (eps/2, delta/2) alone; together, scaled by their noise, they are one
    Gaussian release of L2 sensitivity sqrt(2 rho) at sigma = 1: rho-zCDP, which the
    Canonne-Kamath-Steinke conversion makes the row's (eps, delta) (Lemma 2.3; CKS 2020,
    Cor 13). Their privacy loss distribution is exactly that one Gaussian's (Dong, Roth & Su
    2019, Cor 3.3).
    """
    mu = stat.sensitivity / scale * math.sqrt(2.0)  # sqrt(2 rho): Delta / sigma = sqrt(rho)
    return NoiseRelease("gaussian", 1.0, mu, epsilon, delta, f"{stat.spec.name}: sum and count")


def row_plan(
    stat: Statistic, epsilon: float, delta: float = 0.0, calibration: Calibration = "analytic"
) -> RowPlan:
    """The noise and accuracy of ``stat`` released with (epsilon, delta)."""
    gaussian = stat.spec.mechanism == "gaussian"
    d = check_delta(delta, allow_zero=False) if gaussian else 0.0
    scale, count_scale = _noise(stat, epsilon, d, calibration)
    if gaussian:
        half_width = _half_width(stat, scale, count_scale)
        expected = _expected_abs_error(stat, scale, count_scale)
    else:  # every Laplace scale here is c / eps, so are its half-width and mean error
        half_width, expected = (value / epsilon for value in _laplace_at_one(stat))
    name = stat.spec.name
    if stat.spec.kind == "mean" and gaussian and calibration == "zcdp":
        releases = (_joint_zcdp_mean(stat, scale, epsilon, d),)
    elif stat.spec.kind == "mean":
        share = (epsilon / 2, d / 2)
        releases = (
            NoiseRelease(stat.spec.mechanism, scale, stat.sensitivity, *share, f"{name}: sum"),
            NoiseRelease(
                stat.spec.mechanism, count_scale, stat.count_sensitivity, *share, f"{name}: count"
            ),
        )
    else:
        releases = (NoiseRelease(stat.spec.mechanism, scale, stat.sensitivity, epsilon, d, name),)
    return RowPlan(
        statistic=stat,
        epsilon=float(epsilon),
        delta=d,
        scale=scale,
        count_scale=count_scale,
        half_width=half_width,
        expected_abs_error=expected,
        releases=releases,
    )


def _epsilon_for_half_width(
    stat: Statistic, half_width: float, delta: float, calibration: Calibration
) -> float:
    """The exact eps at which the row's 95% half-width equals ``half_width`` (no limits)."""
    t = check_sensitivity(half_width, "the target half-width")
    laplace = stat.spec.mechanism == "laplace"
    if laplace:  # every Laplace half-width here is c / eps: solve at eps = 1
        return _laplace_at_one(stat)[0] / t
    d = check_delta(delta, allow_zero=False)
    if stat.spec.kind == "mean":
        a, c = _mean_error_scales(stat, stat.l2, stat.count_l2)  # per unit sigma
        unit = t / (Z95 * math.hypot(a, c))  # the unit sigma that gives t
        if calibration == "zcdp":
            return zcdp_epsilon(1.0 / unit**2, d)
        return 2.0 * gaussian_epsilon_for(unit, d / 2)
    sigma = t / Z95
    if calibration == "zcdp":
        return zcdp_epsilon(stat.l2**2 / (2.0 * sigma**2), d)
    return gaussian_epsilon_for(sigma, d, stat.l2)


def epsilon_for_target(
    stat: Statistic,
    delta: float = 0.0,
    calibration: Calibration = "analytic",
    *,
    half_width: float | None = None,
) -> float:
    """The smallest eps_i whose 95% half-width meets the row's target (or ``half_width``).

    Laplace: eps = Delta_1 ln 20 / t (a mean: its two-Laplace half-width at eps = 1, over t);
    Gaussian: sigma = t / 1.96, eps = the exact profile's epsilon at delta for that sigma
    (Balle & Wang 2018, Thm 8) or the zCDP conversion of rho = Delta^2 / (2 sigma^2) (Canonne,
    Kamath & Steinke 2020). At least MIN_EPSILON. Raises TargetUnreachable when the target
    is relative to a true value of 0 or needs more than MAX_EPSILON.
    """
    spec = stat.spec
    wanted = half_width if half_width is not None else stat.target_half_width
    if wanted is None:
        raise CodedError("no_target", name=spec.name)
    if wanted <= 0:
        if spec.relative and stat.reference == 0:
            raise TargetUnreachable("zero_value", name=spec.name)
        raise TargetUnreachable("zero_target", name=spec.name)
    epsilon = _epsilon_for_half_width(stat, wanted, delta, calibration)
    if epsilon > MAX_EPSILON:
        raise TargetUnreachable(
            "unreachable", name=spec.name, wanted=wanted, epsilon=epsilon, limit=MAX_EPSILON
        )
    return max(float(epsilon), MIN_EPSILON)


# --- whole plans -------------------------------------------------------------------------


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
        raise ValueError(f"the split must be 'equal', 'weight' or 'minimax' (got {rule!r}).")
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
            _epsilon_for_half_width(s, r * s.reference, d, calibration)
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


# --- what the OpenDP script certifies ------------------------------------------------------


def certified_epsilon(row: RowPlan) -> float:
    """The epsilon that OpenDP's privacy maps certify for the row at its delta_i, as the
    generated script (ui.planner.script) composes it.

    Laplace: each part's map is Delta_1 / b (the ``make_laplace`` map), and a mean's two parts
    add up (basic composition of pure DP); the scales were set from eps_i (a mean's from
    eps_i / 2 each), so this is eps_i.

    Gaussian: each part's ``make_gaussian`` map is rho_j = Delta_2j^2 / (2 sigma_j^2)-zCDP
    (Bun & Steinke 2016, Prop 1.6); a mean's sum and row count are composed in zCDP,
    rho = rho_sum + rho_count (Lemma 2.3), and the row is converted to (epsilon, delta_i) at
    the row's whole delta_i by ``make_zCDP_to_approxDP`` and ``make_fix_delta``:
    epsilon = inf_(alpha > 1) alpha rho + ln(1 - 1/alpha) + ln(1 / (alpha delta_i)) / (alpha - 1)
    (Canonne, Kamath & Steinke 2020, Cor 13; dp_core.accountants.zcdp_epsilon). With the zCDP
    calibration this is eps_i (up to the solver's rounding). With the analytic one (Balle &
    Wang 2018) it differs: larger for a single Gaussian release (the conversion is a bound;
    about +8% at eps_i = 1, delta_i = 10^-6), usually smaller for a mean (its halves were
    calibrated to (eps_i/2, delta_i/2) each, which zCDP composes more tightly).
    """
    if row.statistic.spec.mechanism == "laplace":
        return row.epsilon
    stat = row.statistic
    rho = stat.sensitivity**2 / (2.0 * row.scale**2)
    if row.count_scale is not None:
        rho += stat.count_sensitivity**2 / (2.0 * row.count_scale**2)
    return zcdp_epsilon(rho, row.delta)


def certified_total(plan: Plan) -> float:
    """The total epsilon the script's OpenDP composition certifies at delta = sum delta_i:
    ``make_composition`` of the rows' (epsilon, delta)-DP views adds them up (basic
    composition), so it is the sum of ``certified_epsilon`` over the rows."""
    return float(sum(certified_epsilon(row) for row in plan.rows))


# --- simulated releases ------------------------------------------------------------------


def standard_draws(rng: np.random.Generator, row: RowPlan) -> np.ndarray:
    """One standard draw per noisy value of the row (Laplace(1) or Normal(0, 1)); a mean's
    two parts in its last axis. Scaled by the row's noise in ``simulate_release``, so moving
    the budget rescales one draw."""
    size = (len(row.statistic.labels), row.statistic.parts)
    if row.statistic.spec.mechanism == "laplace":
        return rng.laplace(0.0, 1.0, size)
    return rng.normal(0.0, 1.0, size)


def simulate_release(row: RowPlan, draws: np.ndarray) -> np.ndarray:
    """The released values for standard ``draws``: truth + scale x draw; a mean as
    clip((S + b_s z_s) / max(N + b_c z_c, 1), L, U), as dp_core.queries.release_clipped_mean."""
    stat = row.statistic
    z = np.asarray(draws, dtype=float)
    truth = np.asarray(stat.true_values, dtype=float)
    if stat.spec.kind != "mean":
        return truth + row.scale * z[..., 0]
    n = stat.rows
    noisy_sum = truth * max(n, 1.0) + row.scale * z[..., 0]
    noisy_rows = n + row.count_scale * z[..., 1]
    return np.clip(noisy_sum / np.maximum(noisy_rows, 1.0), stat.spec.lower, stat.spec.upper)


# --- from the data -----------------------------------------------------------------------


def build_statistic(
    frame: pd.DataFrame,
    spec: StatisticSpec,
    *,
    cap: int = 1,
    labels: Sequence[str] | None = None,
    max_rows_per_category: int | None = None,
    count_column: str | None = None,
) -> Statistic:
    """The true values of ``spec`` on ``frame`` and its sensitivities from the caps and bounds.

    ``frame`` must already hold at most ``cap`` rows per person (ui.common.contributions), or
    be a count table (``count_column``: each row one category with its count of units).
    Sensitivities for one person with up to m = cap rows: a count m, a clipped sum
    m max(|L|, |U|), a mean's sum and count the same two; a histogram over the public
    ``labels`` m in L1 and sqrt(q g^2 + r^2), (q, r) = divmod(m, g), in L2 with at most
    g = ``max_rows_per_category`` rows in one category (dp_core.sensitivity). Rows missing
    the value are left out of a sum or mean (they change nothing).
    """
    check_positive_int(cap, "the cap on rows per person")
    name = spec.name
    if spec.kind == "histogram":
        if labels is None:
            raise CodedError("histogram_categories", name=name)
        query = answer(
            frame,
            QuerySpec(kind="count", category=spec.column, cap=cap),
            check_domain(tuple(labels)),
            count_column=count_column,
        )
        return statistic_from_totals(
            spec,
            cap=cap,
            labels=query.labels,
            counts=query.true_values,
            rows_outside=query.rows_outside,
            max_rows_per_category=max_rows_per_category,
        )
    if spec.kind == "count":
        value = float(frame[count_column].sum()) if count_column else float(len(frame))
        return statistic_from_totals(spec, cap=cap, counts=[value])
    if count_column is not None:
        raise CodedError("count_table_values", name=name)
    values = numeric_column(frame, spec.column)
    values = values[values.notna()].to_numpy(dtype=float)
    lower, upper = check_bounds(spec.lower, spec.upper)
    return statistic_from_totals(
        spec,
        cap=cap,
        counts=[float(values.size)],
        clipped_sum=float(np.clip(values, lower, upper).sum()),
        raw_sum=float(values.sum()),
    )


def statistic_from_totals(
    spec: StatisticSpec,
    *,
    cap: int,
    counts: Sequence[float] | np.ndarray,
    labels: Sequence[str] | None = None,
    clipped_sum: float = 0.0,
    raw_sum: float = 0.0,
    rows_outside: int = 0,
    max_rows_per_category: int | None = None,
) -> Statistic:
    """The Statistic of ``spec`` from totals computed wherever the rows are (``build_statistic``
    in memory; data.sources in a SQL engine for tables beyond memory).

    ``counts``: a histogram's rows per public label, or the one count (rows; for a sum or a
    mean, the rows with a value); ``clipped_sum`` and ``raw_sum`` the sum of the values
    clipped to [L, U] and unclipped. Sensitivities as in ``build_statistic``.
    """
    m = check_positive_int(cap, "the cap on rows per person")
    name = spec.name
    counts = np.asarray(counts, dtype=float)
    if spec.kind == "histogram":
        query = query_from_totals(
            QuerySpec(
                kind="count",
                category=spec.column,
                cap=m,
                max_rows_per_category=max_rows_per_category,
            ),
            labels=check_domain(tuple(labels or ())),
            counts=counts,
            n_persons=0,
            rows_outside=rows_outside,
        )
        return Statistic(
            spec,
            tuple(query.labels),
            tuple(float(v) for v in query.true_values),
            float(query.sensitivity),
            float(query.l2_sensitivity),
            rows_outside=query.rows_outside,
        )
    if spec.kind == "count":
        return Statistic(spec, (name,), (float(counts[0]),), float(m), float(m))
    lower, upper = check_bounds(spec.lower, spec.upper)
    row = clipped_sum_sensitivity(lower, upper) * m
    if spec.kind == "sum":
        return Statistic(spec, (name,), (float(clipped_sum),), row, row, raw_values=(raw_sum,))
    n = float(counts[0])
    mean = float(clipped_sum / max(n, 1.0))
    raw = float(raw_sum / n) if n else 0.0
    return Statistic(
        spec, (name,), (mean,), row, row, float(m), float(m), rows=n, raw_values=(raw,)
    )
