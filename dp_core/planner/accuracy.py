"""The noise and the accuracy of one planned statistic at (eps, delta), and back.

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

Working backwards: the exact eps at which a row's half-width is a given t (Laplace in
closed form, Gaussian by inverting the exact profile or the zCDP conversion).
"""

from __future__ import annotations

import functools
import math
from typing import Literal

from scipy.optimize import brentq
from scipy.stats import norm

from dp_core.accountants import zcdp_epsilon, zcdp_rho_for
from dp_core.errors import CodedError
from dp_core.gaussian import analytic_gaussian_sigma, gaussian_epsilon_for
from dp_core.planner.statistic import Statistic
from dp_core.validation import check_delta, check_epsilon, check_sensitivity

__all__ = [
    "CONFIDENCE",
    "LN20",
    "Z95",
    "Calibration",
    "epsilon_for_half_width",
    "expected_abs_error",
    "half_width",
    "laplace_at_one",
    "noise_scales",
]

Calibration = Literal["analytic", "zcdp"]

CONFIDENCE = 0.95
Z95 = float(norm.ppf(0.5 + CONFIDENCE / 2))  # 1.959963984540054
LN20 = math.log(20.0)  # the Laplace 95% half-width in units of b


def _unit_gaussian_sigma(epsilon: float, delta: float, calibration: Calibration) -> float:
    """sigma for a sensitivity of 1 at (eps, delta): analytic, or 1 / sqrt(2 rho) (zCDP)."""
    if calibration == "analytic":
        return analytic_gaussian_sigma(1.0, epsilon, delta)
    if calibration == "zcdp":
        return 1.0 / math.sqrt(2.0 * zcdp_rho_for(epsilon, delta))
    raise CodedError(
        "choice", name="calibration", choices="'analytic', 'zcdp'", got=repr(calibration)
    )


def noise_scales(
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


def half_width(stat: Statistic, scale: float, count_scale: float | None) -> float:
    """The 95% half-width t: b ln 20 (Laplace), 1.96 sigma (Gaussian); a mean's from its
    first-order error (the two-Laplace tail solved by Brent's method, or a Gaussian)."""
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


def expected_abs_error(stat: Statistic, scale: float, count_scale: float | None) -> float:
    """E|error|: b (Laplace), sigma sqrt(2 / pi) (Gaussian); a mean's to first order."""
    laplace = stat.spec.mechanism == "laplace"
    if count_scale is None:
        return scale if laplace else scale * math.sqrt(2.0 / math.pi)
    a, c = _mean_error_scales(stat, scale, count_scale)
    if not laplace:
        return math.hypot(a, c) * math.sqrt(2.0 / math.pi)
    return (a * a + a * c + c * c) / (a + c)  # E|X + Y|, X ~ Lap(a), Y ~ Lap(c)


@functools.lru_cache(maxsize=1024)
def laplace_at_one(stat: Statistic) -> tuple[float, float]:
    """(95% half-width, E|error|) of a Laplace statistic at eps = 1: both are c / eps."""
    scale, count_scale = noise_scales(stat, 1.0, 0.0, "analytic")
    return half_width(stat, scale, count_scale), expected_abs_error(stat, scale, count_scale)


def epsilon_for_half_width(
    stat: Statistic, half_width: float, delta: float, calibration: Calibration
) -> float:
    """The exact eps at which the row's 95% half-width equals ``half_width`` (no limits)."""
    t = check_sensitivity(half_width, "the target half-width")
    laplace = stat.spec.mechanism == "laplace"
    if laplace:  # every Laplace half-width here is c / eps: solve at eps = 1
        return laplace_at_one(stat)[0] / t
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
