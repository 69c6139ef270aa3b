"""Composition: the total (epsilon, delta) of k releases, each (epsilon, delta)-DP.

- Basic (sequential) composition: (k eps, k delta) (Dwork & Roth 2014, Thm 3.16);
  ``dp_core.group_budgets.sequential_epsilon`` adds up different epsilons, this is k equal ones.
- Advanced composition: for any delta' > 0, (eps', k delta + delta') with
      eps' = sqrt(2 k ln(1 / delta')) eps + k eps (e^eps - 1)
  (Dwork, Rothblum & Vadhan 2010; Dwork & Roth 2014, Thm 3.20). Its first term grows like
  sqrt(k), its second linearly in k: it is below k eps only when eps < ln 2 and k is large.
- Optimal composition: the exact smallest total epsilon at a total delta for k releases of
  any (eps, delta)-DP mechanisms, that of k-fold randomized response with a delta-chance of
  revealing the input (Kairouz, Oh & Viswanath 2015, Thm 3.3; the profile for every eps' as in
  Murtagh & Vadhan 2016):
      delta_total(eps') = 1 - (1 - delta)^k + (1 - delta)^k
          * sum_{l=0}^{k} C(k, l) max(0, e^((k-l) eps) - e^eps' e^(l eps)) / (1 + e^eps)^k.
- Gaussian mechanism, exact: k releases with noise sigma reveal exactly what one release with
  sigma / sqrt(k) does (their average is sufficient; mu-GDP composes to sqrt(k) mu-GDP, Dong,
  Roth & Su 2019, Cor 3.3), so the total epsilon at a total delta is read off the exact
  Gaussian privacy profile (Balle & Wang 2018, Thm 8) at sigma / sqrt(k).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import gammaln, logsumexp

from dp_core.errors import CodedError
from dp_core.gaussian import analytic_gaussian_sigma, gaussian_epsilons_for
from dp_core.validation import check_delta, check_epsilon, check_sensitivity

__all__ = [
    "CompositionCurves",
    "advanced_composition_crossover",
    "advanced_composition_epsilon",
    "basic_composition",
    "compose_releases",
    "gaussian_composed_epsilons",
    "gaussian_composed_sigma",
    "optimal_composition_delta",
    "optimal_composition_epsilon",
]

# totals within this relative distance of the smallest count as a tie (CompositionCurves.tightest)
TIE_TOLERANCE = 1e-4


def _release_counts(ks: ArrayLike) -> np.ndarray:
    k = np.asarray(ks, dtype=float)
    if np.any(~(k >= 1)) or np.any(k != np.round(k)):
        raise CodedError("composition_releases")
    return k


def basic_composition(epsilon: float, delta: float, ks: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """(k eps, k delta) for k releases of an (eps, delta)-DP mechanism (Dwork & Roth, Thm 3.16)."""
    k = _release_counts(ks)
    return k * check_epsilon(epsilon), k * check_delta(delta)


def advanced_composition_epsilon(epsilon: float, ks: ArrayLike, delta_prime: float) -> np.ndarray:
    """eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1), at total delta k delta + delta'.

    Source: Dwork, Rothblum & Vadhan 2010; Dwork & Roth 2014, Thm 3.20. Infinite when e^eps
    overflows (then it is far above k eps anyway).
    """
    eps = check_epsilon(epsilon)
    slack = check_delta(delta_prime, allow_zero=False)
    k = _release_counts(ks)
    with np.errstate(over="ignore"):
        return np.sqrt(2.0 * k * math.log(1.0 / slack)) * eps + k * eps * np.expm1(eps)


def advanced_composition_crossover(epsilon: float, delta_prime: float) -> float:
    """Number of releases beyond which advanced composition is below k eps: k > k*, with

        k* = 2 ln(1/delta') / (2 - e^eps)^2,   infinite when eps >= ln 2.

    sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1) < k eps  <=>  sqrt(2 ln(1/delta') / k) <
    2 - e^eps: the second term alone reaches k eps once e^eps - 1 >= 1, whatever k.
    Source: Dwork & Roth 2014, Thm 3.20, solved for k.
    """
    eps = check_epsilon(epsilon)
    slack = check_delta(delta_prime, allow_zero=False)
    if eps >= math.log(2.0):
        return math.inf
    return 2.0 * math.log(1.0 / slack) / (2.0 - math.exp(eps)) ** 2


def _log_binomial_pmfs(
    eps: float, k: np.ndarray, against: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """ln P1(l), ln P0(l) at l = ``against``: the pmfs of k-fold randomized response.

    l counts the releases whose report points away from the truth. P1(l) = C(k, l)
    e^((k-l) eps) / (1 + e^eps)^k (Alice in) and P0(l) = C(k, l) e^(l eps) / (1 + e^eps)^k
    (out), both Binomial pmfs, with gammaln and ln(1 + e^eps) = logaddexp(0, eps): no overflow.
    """
    log_choose = gammaln(k + 1) - gammaln(against + 1) - gammaln(k - against + 1)
    log_norm = k * np.logaddexp(0.0, eps)
    return log_choose + (k - against) * eps - log_norm, log_choose + against * eps - log_norm


def _log1mexp(x: np.ndarray) -> np.ndarray:
    """ln(1 - e^x) for x <= 0, accurate near 0 and far below it (-inf at x = 0)."""
    with np.errstate(divide="ignore"):
        return np.where(x > -math.log(2), np.log(-np.expm1(x)), np.log1p(-np.exp(x)))


def _randomized_response_target(delta: float, k: np.ndarray, total_delta: np.ndarray) -> np.ndarray:
    """The delta left for the randomized-response part: 1 - (1 - delta_total) / (1 - delta)^k.

    Negative when delta_total < 1 - (1 - delta)^k (no epsilon is enough).
    """
    return -np.expm1(np.log1p(-total_delta) - k * math.log1p(-delta))


def optimal_composition_delta(
    epsilon: float, delta: float, k: int, total_epsilon: ArrayLike
) -> np.ndarray:
    """Exact total delta of k releases of (eps, delta)-DP mechanisms at total epsilon eps'.

    delta_total(eps') = 1 - (1 - delta)^k (1 - sum_l max(0, P1(l) - e^eps' P0(l))), with
    P1, P0 the Binomial pmfs of ``_log_binomial_pmfs``; each positive term is summed in log
    space as ln P1(l) + ln(1 - e^(eps' - (k - 2l) eps)), so k = 1000 and eps = 100 stay finite.
    Dimensionless; vectorised over eps' >= 0. Source: Kairouz, Oh & Viswanath 2015, Thm 3.3.
    """
    eps = check_epsilon(epsilon)
    d = check_delta(delta)
    count = int(_release_counts(k))
    eps_total = np.asarray(total_epsilon, dtype=float)
    if np.any(~(eps_total >= 0)):
        raise CodedError("composition_total_epsilon")
    against = np.arange(count + 1, dtype=float)
    log_p1, _ = _log_binomial_pmfs(eps, np.float64(count), against)
    exponent = eps_total[..., None] - (count - 2 * against) * eps  # ln(e^eps' P0(l) / P1(l))
    terms = np.where(exponent < 0, log_p1 + _log1mexp(np.minimum(exponent, 0.0)), -np.inf)
    with np.errstate(divide="ignore"):
        rr = np.exp(logsumexp(terms, axis=-1))  # 0 where no term is positive (eps' >= k eps)
    return -np.expm1(count * math.log1p(-d) + np.log1p(-rr))


def optimal_composition_epsilon(
    epsilon: float, delta: float, ks: ArrayLike, total_delta: ArrayLike
) -> np.ndarray:
    """Exact smallest total epsilon of k releases of (eps, delta)-DP mechanisms at total delta.

    Inverts ``optimal_composition_delta`` exactly, vectorised over k (``total_delta``
    broadcasts against ``ks``). Between consecutive breakpoints c_m = (k - 2m) eps the terms
    l <= m are the positive ones, so the randomized-response part is A_m - e^eps' B_m with
    A_m, B_m the binomial CDFs up to m (cumulative log-sum-exp over gammaln pmfs); the target
    falls between two breakpoints' values, and there eps' = ln(A_m - target) - ln B_m. 0 when
    eps' = 0 already meets the total delta; infinite when the total delta is below
    1 - (1 - delta)^k. Dimensionless, natural log. Source: Kairouz, Oh & Viswanath 2015,
    "The composition theorem for differential privacy", Thm 3.3.
    """
    eps = check_epsilon(epsilon)
    d = check_delta(delta)
    k, target_total = np.broadcast_arrays(_release_counts(ks), np.asarray(total_delta, float))
    if np.any(~((target_total >= 0) & (target_total < 1))):
        raise CodedError("composition_total_delta")
    shape = k.shape
    k, target = k.ravel(), _randomized_response_target(d, k.ravel(), target_total.ravel())
    last = (k.astype(int) + 1) // 2 - 1  # terms l < k / 2 can be positive at eps' >= 0
    m_grid = np.arange(last.max() + 1, dtype=float)[None, :]
    valid = m_grid <= last[:, None]
    log_p1, log_p0 = _log_binomial_pmfs(eps, k[:, None], np.minimum(m_grid, last[:, None]))
    log_a = np.logaddexp.accumulate(np.where(valid, log_p1, -np.inf), axis=1)  # ln A_m
    log_b = np.logaddexp.accumulate(np.where(valid, log_p0, -np.inf), axis=1)  # ln B_m
    # value at the left end of segment m (eps' = max(c_(m+1), 0)): A_m - e^eps' B_m, where each
    # term's ratio e^eps' P0 / P1 is at most e^-eps, so the difference keeps its precision
    left = np.maximum((k[:, None] - 2 * (m_grid + 1)) * eps, 0.0)
    with np.errstate(invalid="ignore"):
        log_left = log_a + _log1mexp(np.minimum(left + log_b - log_a, 0.0))
    log_left = np.where(valid, log_left, np.inf)
    with np.errstate(divide="ignore"):
        log_target = np.log(np.maximum(target, 0.0))
    segment = (log_left <= log_target[:, None]).sum(axis=1)  # values rise with m
    inside = segment <= last
    m = np.minimum(segment, last)
    rows = np.arange(k.size)
    a_m, b_m = log_a[rows, m], log_b[rows, m]
    with np.errstate(divide="ignore", invalid="ignore"):
        solved = a_m + _log1mexp(np.minimum(log_target - a_m, 0.0)) - b_m
    high = (k - 2 * m) * eps
    solved = np.clip(solved, left[rows, m], high)
    result = np.where(inside, solved, 0.0)
    result = np.where(target < 0, np.inf, result)
    return result.reshape(shape)


def gaussian_composed_sigma(sigma: float, ks: ArrayLike) -> np.ndarray:
    """sigma / sqrt(k): the one Gaussian release equivalent to k releases with noise sigma."""
    return check_sensitivity(sigma, "sigma") / np.sqrt(_release_counts(ks))


def gaussian_composed_epsilons(
    sigma: float, ks: ArrayLike, deltas: ArrayLike, sensitivity: float = 1.0
) -> np.ndarray:
    """Exact total epsilon at total delta of k Gaussian releases with noise sigma, per k.

    ``deltas`` broadcasts against ``ks`` (one total delta, or one per k). The inverse of the
    exact profile at sigma / sqrt(k) (Balle & Wang 2018, Thm 8), by a bisection vectorised over
    k; like ``gaussian_epsilon_for`` it returns the upper end of the bracket, never an epsilon
    below the exact one. 0 where delta(0) <= delta already.
    """
    d = np.asarray(deltas, dtype=float)
    if np.any(~((d > 0) & (d < 1))):
        raise CodedError("composition_total_delta_open")
    return gaussian_epsilons_for(gaussian_composed_sigma(sigma, ks), d, sensitivity)


@dataclass(frozen=True)
class CompositionCurves:
    """Total epsilon of k releases of one (eps, delta) mechanism, by four accountings."""

    ks: np.ndarray
    basic_epsilon: np.ndarray  # k eps, at total delta k delta
    basic_delta: np.ndarray
    advanced_epsilon: np.ndarray  # Thm 3.20, at total delta k delta + delta'
    advanced_delta: np.ndarray  # k delta + delta', also the optimal and Gaussian totals' delta
    optimal_epsilon: np.ndarray  # Kairouz-Oh-Viswanath: tightest for all such mechanisms
    gaussian_epsilon: np.ndarray | None  # exact for the Gaussian mechanism, same total delta
    gaussian_sigma: float | None  # noise of one release (sensitivity 1), None when delta = 0

    def tightest(self, index: int, *, gaussian: bool = True, optimal: bool = True) -> str:
        """Which accounting gives the best total at ks[index]: the smallest epsilon.

        Totals within TIE_TOLERANCE (relative) of the smallest count as equal; among them the
        smaller total delta wins (basic's k delta is below the others' k delta + delta'), then
        the order basic, advanced, optimal, gaussian. ``gaussian=False`` leaves out the exact
        Gaussian total, which holds only when every release is the Gaussian mechanism;
        ``optimal=False`` leaves out the optimal one, to compare the two simple bounds.
        """
        totals = {
            "basic": (self.basic_epsilon[index], self.basic_delta[index]),
            "advanced": (self.advanced_epsilon[index], self.advanced_delta[index]),
        }
        if optimal:
            totals["optimal"] = (self.optimal_epsilon[index], self.advanced_delta[index])
        if gaussian and self.gaussian_epsilon is not None:
            totals["gaussian"] = (self.gaussian_epsilon[index], self.advanced_delta[index])
        smallest = min(eps for eps, _ in totals.values())
        near = [name for name, (eps, _) in totals.items() if eps <= smallest * (1 + TIE_TOLERANCE)]
        return min(near, key=lambda name: totals[name][1])


def compose_releases(
    epsilon: float, delta: float, ks: ArrayLike, delta_prime: float
) -> CompositionCurves:
    """Basic, advanced, optimal and (when delta > 0) exact Gaussian composition over ``ks``.

    The optimal total and the exact Gaussian one are taken at the advanced composition's total
    delta, k delta + delta'. The Gaussian release is the analytic Gaussian calibrated to
    (eps, delta) with sensitivity 1. Where a total delta reaches 1 the guarantee is void and
    the totals are NaN.
    """
    eps = check_epsilon(epsilon)
    d = check_delta(delta)
    k = _release_counts(ks)
    basic_eps, basic_delta = basic_composition(eps, d, k)
    advanced_delta = k * d + check_delta(delta_prime, allow_zero=False)
    void = advanced_delta >= 1
    advanced_eps = np.where(void, np.nan, advanced_composition_epsilon(eps, k, delta_prime))
    basic_eps = np.where(basic_delta >= 1, np.nan, basic_eps)
    optimal_eps = np.full(k.shape, np.nan)
    if np.any(~void):
        optimal_eps[~void] = optimal_composition_epsilon(eps, d, k[~void], advanced_delta[~void])
    gaussian_eps, sigma = None, None
    if d > 0:
        sigma = analytic_gaussian_sigma(1.0, eps, d)
        gaussian_eps = np.full(k.shape, np.nan)
        if np.any(~void):
            gaussian_eps[~void] = gaussian_composed_epsilons(sigma, k[~void], advanced_delta[~void])
    return CompositionCurves(
        ks=k,
        basic_epsilon=basic_eps,
        basic_delta=basic_delta,
        advanced_epsilon=advanced_eps,
        advanced_delta=advanced_delta,
        optimal_epsilon=optimal_eps,
        gaussian_epsilon=gaussian_eps,
        gaussian_sigma=sigma,
    )
