"""One statistic with its share (eps_i, delta_i) of the budget: its noise and accuracy
(``row_plan``), and the smallest eps_i that meets its target (``epsilon_for_target``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from dp_core.accountants import NoiseRelease
from dp_core.errors import CodedError
from dp_core.planner import accuracy
from dp_core.planner.accuracy import Calibration
from dp_core.planner.statistic import Statistic
from dp_core.validation import check_delta

__all__ = [
    "MAX_EPSILON",
    "MIN_EPSILON",
    "RowPlan",
    "TargetUnreachable",
    "epsilon_for_target",
    "row_plan",
]

# A row's epsilon stays within the range the app's epsilon box accepts: beyond 100 the
# guarantee means nothing (e^100 ~ 10^43); below 10^-4 a target is met with room to spare.
MAX_EPSILON = 100.0
MIN_EPSILON = 1e-4


class TargetUnreachable(CodedError):
    """No epsilon up to MAX_EPSILON meets a row's target."""


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
    scale, count_scale = accuracy.noise_scales(stat, epsilon, d, calibration)
    if gaussian:
        half_width = accuracy.half_width(stat, scale, count_scale)
        expected = accuracy.expected_abs_error(stat, scale, count_scale)
    else:  # every Laplace scale here is c / eps, so are its half-width and mean error
        half_width, expected = (value / epsilon for value in accuracy.laplace_at_one(stat))
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
    epsilon = accuracy.epsilon_for_half_width(stat, wanted, delta, calibration)
    if epsilon > MAX_EPSILON:
        raise TargetUnreachable(
            "unreachable", name=spec.name, wanted=wanted, epsilon=epsilon, limit=MAX_EPSILON
        )
    return max(float(epsilon), MIN_EPSILON)
