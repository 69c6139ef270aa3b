"""The exponential mechanism: exact probabilities, sampling and the utility bound.

Candidate r is returned with probability proportional to exp(lambda * score_r), where
lambda = epsilon / (2 Delta), or epsilon / Delta for monotonic scores (McSherry &
Talwar 2007; Dwork & Roth 2014, Def 3.4 and Thm 3.10). It equals report-noisy-max
with Gumbel noise of scale 1 / lambda (the Gumbel-max trick), see dp_core.noisy_max.
Probabilities are computed in log space (log-sum-exp) from the gaps to the best score,
lambda * (score_r - max score), shifted before they are scaled: lambda * score itself
overflows for counts near 1e308 (and inf - inf is NaN). Scores in the thousands with a large
epsilon, or counts up to 1e308, stay finite; epsilon = 0 gives every candidate the same chance.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dp_core.errors import CodedError
from dp_core.selection import check_scores, scaled_gaps, selection_rate
from dp_core.validation import check_positive_int


def exponential_unnormalised_log_weights(
    scores: ArrayLike, epsilon: float, sensitivity: float, *, monotonic: bool = False
) -> np.ndarray:
    """ln of the unnormalised weight exp(lambda * score_r): lambda * score_r itself.

    The weights before they are normalised, as the textbook's implementation step writes them
    (the disease counts at epsilon = 0.1 give 3.320, 1.492, 4.055, 1.284). Kept as logs: the
    weight overflows a float beyond lambda * score = 709.78 (a count of 4,140 at epsilon = 20);
    lambda * score_r beyond about 1.8e308 is inf. Source: Dwork & Roth 2014, Def 3.4.
    """
    values = check_scores(scores)
    rate = selection_rate(epsilon, sensitivity, monotonic=monotonic)
    if rate == 0:
        return np.zeros_like(values)
    with np.errstate(over="ignore"):
        return rate * values


def exponential_log_weights(
    scores: ArrayLike, epsilon: float, sensitivity: float, *, monotonic: bool = False
) -> np.ndarray:
    """Log weight relative to the best candidate: lambda * (score_r - max score) <= 0.

    Unnormalised, natural log; the best candidate gets 0. Every log weight lambda * score_r
    differs from this by the same lambda * max score, which cancels in the probabilities, and
    shifting before scaling keeps it from overflowing. A gap below about -1.8e308 is -inf
    (weight exactly 0). Source: Dwork & Roth 2014, Def 3.4.
    """
    values = check_scores(scores)
    rate = selection_rate(epsilon, sensitivity, monotonic=monotonic)
    if rate == 0:
        return np.zeros_like(values)
    with np.errstate(over="ignore"):
        return rate * (values - values.max())


def exponential_log_probabilities(
    scores: ArrayLike, epsilon: float, sensitivity: float, *, monotonic: bool = False
) -> np.ndarray:
    """log P(r) = lambda (s_r - max s) - log sum_j exp(lambda (s_j - max s)); never NaN.

    The scores are shifted by their maximum before they are scaled, so the sum is at least 1
    (the best candidate's term) and nothing overflows. -inf where P(r) is below e^(-1.8e308).
    Source: McSherry & Talwar 2007; Dwork & Roth 2014, Def 3.4.
    """
    gaps = exponential_log_weights(scores, epsilon, sensitivity, monotonic=monotonic)
    return gaps - np.log(np.exp(gaps).sum())


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
    """One row of exponential-mechanism probabilities per epsilon (shape: epsilons x n).

    From the scaled gaps lambda * (s_r - max s) <= 0, shifted before scaling like
    exponential_log_probabilities (a gap beyond -1.8e308 is -inf: weight 0).
    """
    with np.errstate(over="ignore"):
        gaps = scaled_gaps(scores, epsilons, sensitivity, monotonic=monotonic)
    weights = np.exp(gaps)
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
        raise CodedError("selection_best_count")
    rate = selection_rate(epsilon, sensitivity, monotonic=monotonic)
    if rate == 0:
        return float("inf")
    return float((np.log(n / best) + t) / rate)
