"""The exponential mechanism: exact probabilities, sampling and the utility bound.

Candidate r is returned with probability proportional to exp(lambda * score_r), where
lambda = epsilon / (2 Delta), or epsilon / Delta for monotonic scores (McSherry &
Talwar 2007; Dwork & Roth 2014, Def 3.4 and Thm 3.10). It equals report-noisy-max
with Gumbel noise of scale 1 / lambda (the Gumbel-max trick), see dp_core.noisy_max.
Probabilities are computed in log space (log-sum-exp), so scores in the thousands
with a large epsilon stay finite; epsilon = 0 gives every candidate the same chance.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dp_core.selection import check_scores, scaled_gaps, selection_rate
from dp_core.validation import check_positive_int


def exponential_log_weights(
    scores: ArrayLike, epsilon: float, sensitivity: float, *, monotonic: bool = False
) -> np.ndarray:
    """Log weight lambda * score_r (unnormalised; natural log)."""
    return selection_rate(epsilon, sensitivity, monotonic=monotonic) * check_scores(scores)


def exponential_log_probabilities(
    scores: ArrayLike, epsilon: float, sensitivity: float, *, monotonic: bool = False
) -> np.ndarray:
    """log P(r) = lambda * score_r - logsumexp_j(lambda * score_j); finite for any score."""
    log_w = exponential_log_weights(scores, epsilon, sensitivity, monotonic=monotonic)
    shifted = log_w - log_w.max()
    return shifted - np.log(np.exp(shifted).sum())


def exponential_probabilities(
    scores: ArrayLike, epsilon: float, sensitivity: float, *, monotonic: bool = False
) -> np.ndarray:
    """P(r) = exp(lambda * score_r) / sum_j exp(lambda * score_j); sums to 1.

    McSherry & Talwar 2007; Dwork & Roth 2014, Def 3.4.
    """
    return np.exp(exponential_log_probabilities(scores, epsilon, sensitivity, monotonic=monotonic))


def exponential_probabilities_by_epsilon(
    scores: ArrayLike, epsilons: ArrayLike, sensitivity: float, *, monotonic: bool = False
) -> np.ndarray:
    """One row of exponential-mechanism probabilities per epsilon (shape: epsilons x n)."""
    weights = np.exp(scaled_gaps(scores, epsilons, sensitivity, monotonic=monotonic))
    return weights / weights.sum(axis=1, keepdims=True)


def exponential_mechanism(
    rng: np.random.Generator,
    scores: ArrayLike,
    epsilon: float,
    sensitivity: float,
    *,
    monotonic: bool = False,
    size: int = 1,
) -> np.ndarray:
    """Indices of ``size`` independent runs of the mechanism (inverse-CDF sampling)."""
    n = check_positive_int(size, "the number of draws")
    p = exponential_probabilities(scores, epsilon, sensitivity, monotonic=monotonic)
    return rng.choice(p.size, size=n, p=p)


def exponential_score_shortfall_bound(
    n_candidates: int,
    epsilon: float,
    sensitivity: float,
    *,
    t: float,
    n_best: int = 1,
    monotonic: bool = False,
) -> float:
    """Shortfall g with P(score of the output <= OPT - g) <= exp(-t).

    g = (ln(|R| / |R_OPT|) + t) / lambda, i.e. 2 Delta / epsilon * (ln(|R| / |R_OPT|) + t)
    (Dwork & Roth 2014, Thm 3.11; Cor 3.12 with |R_OPT| = 1). Infinite for epsilon = 0.
    """
    n = check_positive_int(n_candidates, "the number of candidates")
    best = check_positive_int(n_best, "the number of best candidates")
    if best > n:
        raise ValueError("there cannot be more best candidates than candidates.")
    rate = selection_rate(epsilon, sensitivity, monotonic=monotonic)
    if rate == 0:
        return float("inf")
    return float((np.log(n / best) + t) / rate)
