"""Permute-and-flip: never worse than the exponential mechanism, often better.

Visit the candidates in a random order and stop at candidate r with probability
p_r = exp(lambda * (score_r - OPT)) (the best always stops), with lambda as in
dp_core.selection (McKenna & Sheldon 2020, Alg 1; epsilon-DP, Thm 1). It equals
report-noisy-max with exponential noise of scale 1 / lambda (Ding, Kifer, Saghaian,
Steinke, Wang, Xiao, Zhang 2021), which gives the exact probabilities:
P(r) = p_r * integral_0^1 prod_{j != r} (1 - p_j u) du
(substitute u = exp(-lambda (y - OPT)) in the report-noisy-max integral), a polynomial
integral evaluated exactly. Epsilon = 0 gives every candidate the same chance.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dp_core.selection import leave_one_out_polynomial_integral, scaled_gaps
from dp_core.validation import check_positive_int


def permute_and_flip_stop_probabilities(
    scores: ArrayLike, epsilon: float, sensitivity: float, *, monotonic: bool = False
) -> np.ndarray:
    """p_r = exp(lambda * (score_r - OPT)): chance of stopping when candidate r comes up."""
    return np.exp(scaled_gaps(scores, epsilon, sensitivity, monotonic=monotonic)[0])


def permute_and_flip_probabilities(
    scores: ArrayLike, epsilon: float, sensitivity: float, *, monotonic: bool = False
) -> np.ndarray:
    """Exact P(permute-and-flip returns r) for every candidate; sums to 1."""
    stop = permute_and_flip_stop_probabilities(scores, epsilon, sensitivity, monotonic=monotonic)
    return leave_one_out_polynomial_integral(stop)


def permute_and_flip_probabilities_by_epsilon(
    scores: ArrayLike, epsilons: ArrayLike, sensitivity: float, *, monotonic: bool = False
) -> np.ndarray:
    """One row of permute-and-flip probabilities per epsilon (shape: epsilons x n)."""
    gaps = scaled_gaps(scores, epsilons, sensitivity, monotonic=monotonic)
    return leave_one_out_polynomial_integral(np.exp(gaps))


def permute_and_flip(
    rng: np.random.Generator,
    scores: ArrayLike,
    epsilon: float,
    sensitivity: float,
    *,
    monotonic: bool = False,
    size: int = 1,
) -> np.ndarray:
    """Indices of ``size`` runs of the algorithm itself: random order, coin flips, first stop."""
    n_draws = check_positive_int(size, "the number of draws")
    stop = permute_and_flip_stop_probabilities(scores, epsilon, sensitivity, monotonic=monotonic)
    order = np.argsort(rng.random((n_draws, stop.size)), axis=1)
    heads = rng.random((n_draws, stop.size)) < stop[order]  # a best one (p = 1) always stops
    return order[np.arange(n_draws), np.argmax(heads, axis=1)]
