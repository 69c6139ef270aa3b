"""Composition: the total (epsilon, delta) of k releases, each (epsilon, delta)-DP.

- Basic (sequential) composition: (k eps, k delta) (Dwork & Roth 2014, Thm 3.16);
  ``dp_core.accounting.sequential_epsilon`` adds up different epsilons, this is k equal ones.
- Advanced composition: for any delta' > 0, (eps', k delta + delta') with
      eps' = sqrt(2 k ln(1 / delta')) eps + k eps (e^eps - 1)
  (Dwork, Rothblum & Vadhan 2010; Dwork & Roth 2014, Thm 3.20).
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

from dp_core.gaussian import analytic_gaussian_sigma, gaussian_epsilons_for
from dp_core.validation import check_delta, check_epsilon, check_sensitivity

__all__ = [
    "CompositionCurves",
    "advanced_composition_epsilon",
    "basic_composition",
    "compose_releases",
    "gaussian_composed_epsilons",
    "gaussian_composed_sigma",
]


def _release_counts(ks: ArrayLike) -> np.ndarray:
    k = np.asarray(ks, dtype=float)
    if np.any(~(k >= 1)) or np.any(k != np.round(k)):
        raise ValueError("the number of releases k must be a whole number of at least 1.")
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
        raise ValueError("the total delta must lie strictly between 0 and 1.")
    return gaussian_epsilons_for(gaussian_composed_sigma(sigma, ks), d, sensitivity)


@dataclass(frozen=True)
class CompositionCurves:
    """Total epsilon of k releases of one (eps, delta) mechanism, by three accountings."""

    ks: np.ndarray
    basic_epsilon: np.ndarray  # k eps, at total delta k delta
    basic_delta: np.ndarray
    advanced_epsilon: np.ndarray  # Thm 3.20, at total delta k delta + delta'
    advanced_delta: np.ndarray
    gaussian_epsilon: np.ndarray | None  # exact for the Gaussian mechanism, same total delta
    gaussian_sigma: float | None  # noise of one release (sensitivity 1), None when delta = 0

    def tightest(self, index: int, *, gaussian: bool = True) -> str:
        """Which accounting gives the smallest total epsilon at ks[index].

        ``gaussian=False`` leaves out the exact Gaussian total, which holds only when every
        release is the Gaussian mechanism (basic and advanced hold for any mechanism).
        """
        totals = {
            "basic": self.basic_epsilon[index],
            "advanced": self.advanced_epsilon[index],
        }
        if gaussian and self.gaussian_epsilon is not None:
            totals["gaussian"] = self.gaussian_epsilon[index]
        return min(totals, key=lambda name: totals[name])


def compose_releases(
    epsilon: float, delta: float, ks: ArrayLike, delta_prime: float
) -> CompositionCurves:
    """Basic, advanced and (when delta > 0) exact Gaussian composition over ``ks``.

    The Gaussian release is the analytic Gaussian calibrated to (eps, delta) with sensitivity 1;
    its exact epsilon is taken at the advanced composition's total delta, k delta + delta'.
    Where that total reaches 1 the guarantee is void and the totals are NaN.
    """
    eps = check_epsilon(epsilon)
    d = check_delta(delta)
    k = _release_counts(ks)
    basic_eps, basic_delta = basic_composition(eps, d, k)
    advanced_delta = k * d + check_delta(delta_prime, allow_zero=False)
    void = advanced_delta >= 1
    advanced_eps = np.where(void, np.nan, advanced_composition_epsilon(eps, k, delta_prime))
    basic_eps = np.where(basic_delta >= 1, np.nan, basic_eps)
    gaussian_eps, sigma = None, None
    if d > 0:
        sigma = analytic_gaussian_sigma(1.0, eps, d)
        gaussian_eps = np.full(k.shape, np.nan)
        if np.any(~void):
            gaussian_eps[~void] = gaussian_composed_epsilons(sigma, k[~void], advanced_delta[~void])
    return CompositionCurves(
        k, basic_eps, basic_delta, advanced_eps, advanced_delta, gaussian_eps, sigma
    )
