"""The Gaussian mechanism and approximate (epsilon, delta)-DP.

Noise ~ Normal(0, sigma^2) added to a query whose L2 sensitivity is ``sensitivity``.
Two calibrations of sigma:

- classic: sigma = sqrt(2 ln(1.25 / delta)) * sensitivity / epsilon
  (Dwork & Roth 2014, Thm A.1), proven only for 0 < epsilon < 1;
- analytic: the smallest sigma whose exact privacy profile meets (epsilon, delta),
  for any epsilon > 0 (Balle & Wang 2018, "Improving the Gaussian mechanism for
  differential privacy", Thm 8 and Alg. 1).

The exact privacy profile (Balle & Wang 2018, Thm 8), with a = sensitivity / (2 sigma)
and b = epsilon * sigma / sensitivity:

    delta(epsilon) = Phi(a - b) - e^epsilon * Phi(-a - b).

It depends on sigma / sensitivity only, so every sigma is linear in the sensitivity.
Sigma, errors and half-widths are in the units of the query's answer.
"""

from __future__ import annotations

import functools
import math
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import erfcx, log_ndtr, ndtr
from scipy.stats import norm

from dp_core.errors import CodedError
from dp_core.laplace import laplace_expected_abs_error, laplace_scale, laplace_std
from dp_core.validation import (
    check_delta,
    check_epsilon,
    check_positive_int,
    check_probability,
    check_sensitivity,
)

__all__ = [
    "Calibration",
    "NoiseMeasure",
    "analytic_gaussian_sigma",
    "analytic_gaussian_sigmas",
    "classic_gaussian_sigma",
    "first_k_gaussian_wins",
    "gaussian_delta_for",
    "gaussian_epsilon_for",
    "gaussian_epsilons_for",
    "gaussian_expected_abs_error",
    "gaussian_half_width",
    "gaussian_mechanism",
    "gaussian_pdf",
    "gaussian_privacy_loss_tail",
    "gaussian_sigma",
    "gaussian_tail",
    "gaussian_zcdp_rho",
    "k_statistics_sensitivities",
    "laplace_gaussian_crossover",
    "noise_per_statistic",
    "sample_gaussian",
]

Calibration = Literal["classic", "analytic"]
NoiseMeasure = Literal["std", "mean_abs"]

# Bisection stops when the bracket is narrower than this, relative to its upper end.
_RELATIVE_TOLERANCE = 1e-13
# The analytic sigma is solved against delta * (1 - _PROFILE_MARGIN): the profile's rounding
# error (below 1e-11 relative for epsilon >= 1e-4) then cannot push sigma below the exact one.
# It costs at most about 1.2e-10 relative in sigma.
_PROFILE_MARGIN = 1e-10
_SQRT2 = math.sqrt(2.0)
_LOG_HALF = math.log(0.5)


def classic_gaussian_sigma(sensitivity: float, epsilon: float, delta: float) -> float:
    """sigma = sqrt(2 ln(1.25 / delta)) * sensitivity / epsilon, for 0 < epsilon < 1 only.

    Source: Dwork & Roth 2014, The Algorithmic Foundations of DP, Thm A.1 (proof needs
    epsilon < 1). Raises ValueError for epsilon >= 1 rather than give an unproven guarantee.
    """
    s = check_sensitivity(sensitivity)
    eps = check_epsilon(epsilon)
    d = check_delta(delta, allow_zero=False)
    if eps >= 1:
        raise CodedError("gaussian_classic_epsilon", got=f"{eps:g}")
    return math.sqrt(2.0 * math.log(1.25 / d)) * s / eps


def _log_profile(unit_sigma: ArrayLike, epsilon: ArrayLike) -> np.ndarray:
    """ln delta(epsilon) for sensitivity 1, in log space (e^epsilon never overflows).

    With a = 1 / (2 sigma), b = epsilon * sigma and epsilon = 2ab (Balle & Wang 2018, Thm 8):
    for b >= a, Phi(x) = erfcx(-x / sqrt 2) e^(-x^2 / 2) / 2 cancels the exponentials exactly,
        delta = e^(-(b - a)^2 / 2) (erfcx((b - a) / sqrt 2) - erfcx((a + b) / sqrt 2)) / 2;
    for b < a (delta above 0.3),
        delta = Phi(a - b) (1 - e^(epsilon + ln Phi(-a - b) - ln Phi(a - b))).
    """
    sigma = np.asarray(unit_sigma, dtype=float)
    eps = np.asarray(epsilon, dtype=float)
    a = 0.5 / sigma
    b = eps * sigma
    # Both forms everywhere, each kept where it holds: no masks, so one sigma (a bisection's
    # step) costs half as much; the form not kept may overflow, and is dropped.
    with np.errstate(all="ignore"):
        gap = erfcx((b - a) / _SQRT2) - erfcx((a + b) / _SQRT2)
        tail = _LOG_HALF - 0.5 * (b - a) ** 2 + np.log(gap)
        log_first = log_ndtr(a - b)
        log_ratio = np.minimum(eps + log_ndtr(-a - b) - log_first, 0.0)
        head = log_first + np.log(-np.expm1(log_ratio))
    return np.where(b >= a, tail, head)


def gaussian_delta_for(sigma: float, epsilon: ArrayLike, sensitivity: float = 1.0) -> np.ndarray:
    """The exact privacy profile delta(epsilon) of Gaussian noise with std sigma.

    delta = Phi(s / (2 sigma) - epsilon sigma / s)
            - e^epsilon Phi(-s / (2 sigma) - epsilon sigma / s)
    (Balle & Wang 2018, Thm 8). Vectorised over epsilon (epsilon >= 0).
    """
    unit = check_sensitivity(sigma, "sigma") / check_sensitivity(sensitivity)
    eps = np.asarray(epsilon, dtype=float)
    if np.any(~np.isfinite(eps)) or np.any(eps < 0):
        raise CodedError("gaussian_epsilon_range")
    return np.exp(_log_profile(unit, eps))


def _bisect_unit_sigma(epsilon: float, log_delta: np.ndarray) -> np.ndarray:
    """Smallest unit-sensitivity sigma with ln delta(epsilon) <= log_delta, vectorised.

    The profile falls as sigma grows. Bisection in log sigma keeps the invariant
    profile(lo) > delta >= profile(hi) and returns hi, so the result is never below
    the exact answer (up to the rounding of the profile itself).
    """
    target = np.asarray(log_delta, dtype=float)
    lo = np.ones_like(target)
    hi = np.ones_like(target)
    while np.any(too_big := _log_profile(lo, epsilon) <= target):
        lo = np.where(too_big, lo / 2.0, lo)
    while np.any(too_small := _log_profile(hi, epsilon) > target):
        hi = np.where(too_small, hi * 2.0, hi)
    while np.any(hi - lo > _RELATIVE_TOLERANCE * hi):
        mid = np.sqrt(lo * hi)
        meets = _log_profile(mid, epsilon) <= target
        hi = np.where(meets, mid, hi)
        lo = np.where(meets, lo, mid)
    if np.any(_log_profile(hi, epsilon) > target):  # the invariant, checked once more
        raise ArithmeticError("analytic Gaussian calibration failed to meet delta.")
    return hi


def analytic_gaussian_sigmas(sensitivity: float, epsilon: float, deltas: ArrayLike) -> np.ndarray:
    """Analytic Gaussian sigma for each delta in ``deltas`` at one epsilon (vectorised).

    Source: Balle & Wang 2018, Thm 8 (exact profile) solved by bisection as in their Alg. 1.
    """
    s = check_sensitivity(sensitivity)
    eps = check_epsilon(epsilon)
    d = np.atleast_1d(np.asarray(deltas, dtype=float))
    for value in np.unique(d):
        check_delta(float(value), allow_zero=False)
    target = np.log(d) + math.log1p(-_PROFILE_MARGIN)
    return s * _bisect_unit_sigma(eps, target).reshape(np.shape(deltas))


@functools.lru_cache(maxsize=1024)
def analytic_gaussian_sigma(sensitivity: float, epsilon: float, delta: float) -> float:
    """The smallest sigma giving (epsilon, delta)-DP, for any epsilon > 0 (Balle & Wang 2018).

    Never below the exact value and at most about 1.2e-10 relative above it. Cached: a page
    asks for the same (sensitivity, epsilon, delta) several times per rerun.
    """
    d = check_delta(delta, allow_zero=False)
    return float(analytic_gaussian_sigmas(sensitivity, epsilon, d))


def gaussian_sigma(
    sensitivity: float, epsilon: float, delta: float, calibration: Calibration = "analytic"
) -> float:
    """sigma from the chosen calibration: "classic" (epsilon < 1 only) or "analytic"."""
    if calibration == "classic":
        return classic_gaussian_sigma(sensitivity, epsilon, delta)
    if calibration == "analytic":
        return analytic_gaussian_sigma(sensitivity, epsilon, delta)
    raise CodedError(
        "choice", name="calibration", choices="'classic', 'analytic'", got=repr(calibration)
    )


def gaussian_epsilons_for(
    sigmas: ArrayLike, deltas: ArrayLike, sensitivity: float = 1.0
) -> np.ndarray:
    """The exact epsilon that noise of std sigma achieves at delta, vectorised (broadcasting).

    Inverse of the exact profile (Balle & Wang 2018, Thm 8) by bisection on epsilon (the
    profile falls as epsilon grows); returns the upper end of the bracket, so never an epsilon
    smaller than the exact one. 0 where delta(0) <= delta already.
    """
    s = check_sensitivity(sensitivity)
    sig = np.asarray(sigmas, dtype=float)
    d = np.asarray(deltas, dtype=float)
    if np.any(~(sig > 0)) or not np.all(np.isfinite(sig)):
        raise CodedError("gaussian_sigma_positive")
    if np.any(~((d > 0) & (d < 1))):
        raise CodedError("gaussian_delta_open")
    unit, target = np.broadcast_arrays(sig / s, np.log(d) + math.log1p(-_PROFILE_MARGIN))
    lo, hi = np.zeros(unit.shape), np.ones(unit.shape)
    done = _log_profile(unit, 0.0) <= target
    while np.any(low := (_log_profile(unit, hi) > target) & ~done):
        lo, hi = np.where(low, hi, lo), np.where(low, 2.0 * hi, hi)
    while np.any((hi - lo > _RELATIVE_TOLERANCE * hi) & ~done):
        mid = 0.5 * (lo + hi)
        meets = _log_profile(unit, mid) <= target
        hi, lo = np.where(meets, mid, hi), np.where(meets, lo, mid)
    return np.where(done, 0.0, hi)


def gaussian_epsilon_for(sigma: float, delta: float, sensitivity: float = 1.0) -> float:
    """The exact epsilon that noise of std sigma achieves at delta (see gaussian_epsilons_for)."""
    check_sensitivity(sigma, "sigma")
    check_delta(delta, allow_zero=False)
    return float(gaussian_epsilons_for(sigma, delta, sensitivity))


def gaussian_zcdp_rho(sigma: float, sensitivity: float = 1.0) -> float:
    """rho = sensitivity^2 / (2 sigma^2): the mechanism is rho-zCDP.

    Source: Bun & Steinke 2016, Concentrated Differential Privacy, Prop 1.6.
    """
    return check_sensitivity(sensitivity) ** 2 / (2.0 * check_sensitivity(sigma, "sigma") ** 2)


def gaussian_privacy_loss_tail(sigma: float, epsilon: float, sensitivity: float = 1.0) -> float:
    """P(privacy loss > epsilon) = Phi(s / (2 sigma) - epsilon sigma / s), always >= delta(epsilon).

    The privacy loss of the Gaussian mechanism is Normal(rho, 2 rho), rho = s^2 / (2 sigma^2)
    (Balle & Wang 2018, Lemma 3 / Dwork & Roth 2014, App. A). delta(epsilon) is this chance
    minus e^epsilon times the same event's chance on the neighbouring dataset.
    """
    unit = check_sensitivity(sigma, "sigma") / check_sensitivity(sensitivity)
    eps = check_epsilon(epsilon, allow_zero=True)
    return float(ndtr(0.5 / unit - eps * unit))


def sample_gaussian(
    rng: np.random.Generator, sigma: float, size: int | tuple[int, ...] | None = None
) -> np.ndarray:
    """Draw Normal(0, sigma^2) noise, vectorised."""
    return rng.normal(0.0, check_sensitivity(sigma, "sigma"), size)


def gaussian_mechanism(
    rng: np.random.Generator,
    true_values: ArrayLike,
    *,
    sensitivity: float,
    epsilon: float,
    delta: float,
    calibration: Calibration = "analytic",
) -> np.ndarray:
    """Return true_values + Normal(0, sigma^2) noise, one draw per value."""
    values = np.asarray(true_values, dtype=float)
    sigma = gaussian_sigma(sensitivity, epsilon, delta, calibration)
    return values + sample_gaussian(rng, sigma, values.shape)


def gaussian_expected_abs_error(sigma: float) -> float:
    """E|noise| = sigma * sqrt(2 / pi) (mean of the half-normal distribution)."""
    return check_sensitivity(sigma, "sigma") * math.sqrt(2.0 / math.pi)


def gaussian_half_width(sigma: float, confidence: float = 0.95) -> float:
    """Half-width t with P(|noise| <= t) = confidence: t = sigma * Phi^-1((1 + confidence) / 2)."""
    c = check_probability(confidence, "confidence")
    return float(check_sensitivity(sigma, "sigma") * norm.ppf(0.5 + 0.5 * c))


def gaussian_tail(sigma: float, x: ArrayLike) -> np.ndarray:
    """P(|noise| > x) = 2 Phi(-x / sigma) for x >= 0 (1 for x < 0)."""
    sd = check_sensitivity(sigma, "sigma")
    x = np.asarray(x, dtype=float)
    return np.where(x < 0, 1.0, 2.0 * ndtr(-np.clip(x, 0, None) / sd))


def gaussian_pdf(sigma: float, x: ArrayLike) -> np.ndarray:
    """Density exp(-x^2 / (2 sigma^2)) / (sigma sqrt(2 pi))."""
    return norm.pdf(np.asarray(x, dtype=float), scale=check_sensitivity(sigma, "sigma"))


def k_statistics_sensitivities(k: int) -> tuple[float, float]:
    """(L1, L2) sensitivity when one person changes k statistics by at most 1 each: (k, sqrt k).

    Source: Dwork & Roth 2014, Def 3.1 (L1) and Thm A.1 (L2 sensitivity).
    """
    n = check_positive_int(k, "k")
    return float(n), math.sqrt(n)


def noise_per_statistic(
    ks: ArrayLike,
    epsilon: float,
    delta: float,
    *,
    calibration: Calibration = "analytic",
    measure: NoiseMeasure = "std",
) -> tuple[np.ndarray, np.ndarray]:
    """Noise on each of k statistics when one person changes each by at most 1.

    Laplace: scale k / epsilon (L1 sensitivity k); Gaussian: sigma(sensitivity = sqrt k)
    = sqrt(k) * sigma(1) (L2 sensitivity sqrt k; sigma is linear in the sensitivity).
    ``measure`` "std" gives standard deviations (Laplace sqrt(2) k / epsilon), "mean_abs"
    expected absolute errors (Laplace k / epsilon, Gaussian sigma sqrt(2 / pi)).
    Returns (laplace, gaussian) arrays over ``ks``.
    """
    k = np.asarray(ks, dtype=float)
    if np.any(k < 1):
        raise CodedError("gaussian_k_minimum")
    unit_sigma = gaussian_sigma(1.0, epsilon, delta, calibration)
    if measure == "std":
        return laplace_std(laplace_scale(1.0, epsilon)) * k, unit_sigma * np.sqrt(k)
    if measure == "mean_abs":
        laplace = laplace_expected_abs_error(laplace_scale(1.0, epsilon)) * k
        return laplace, gaussian_expected_abs_error(unit_sigma) * np.sqrt(k)
    raise CodedError("choice", name="measure", choices="'std', 'mean_abs'", got=repr(measure))


def laplace_gaussian_crossover(
    epsilon: float,
    delta: float,
    *,
    calibration: Calibration = "analytic",
    measure: NoiseMeasure = "std",
) -> float:
    """The k at which Gaussian and Laplace noise per statistic are equal (exact, real-valued).

    Laplace grows like c_L k, Gaussian like c_G sqrt(k) (see ``noise_per_statistic``), so
    they meet at k* = (c_G / c_L)^2; for k > k* the Gaussian noise is smaller.
    With measure "std": k* = (epsilon sigma(1))^2 / 2.
    """
    laplace, gaussian = noise_per_statistic(
        [1.0], epsilon, delta, calibration=calibration, measure=measure
    )
    return float((gaussian[0] / laplace[0]) ** 2)


def first_k_gaussian_wins(crossover: float) -> int:
    """The smallest whole k >= 1 with k > crossover, where Gaussian noise is strictly smaller."""
    return max(1, math.floor(crossover) + 1)
