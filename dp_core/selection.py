"""Facts shared by every private selection mechanism ("which candidate scores best?").

A selection mechanism gets one score per candidate (e.g. a count) with sensitivity
Delta (the most one person can move any score) and returns one candidate. The
exponential mechanism, permute-and-flip and report-noisy-max all use the rate
lambda = epsilon / (2 Delta), or epsilon / Delta when the scores are monotonic
(adding a person never lowers a score, e.g. counts) (McSherry & Talwar 2007;
Dwork & Roth 2014, Sec 3.4). Scores are in the units of the score function.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dp_core.errors import CodedError
from dp_core.validation import check_epsilon, check_positive_int, check_sensitivity


def check_scores(scores: ArrayLike) -> np.ndarray:
    """Scores as a 1-D float array: at least one candidate, all finite."""
    try:
        values = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise CodedError("selection_scores_numbers") from None
    if values.ndim != 1:
        raise CodedError("selection_scores_flat")
    if values.size == 0:
        raise CodedError("selection_no_candidates")
    if not np.all(np.isfinite(values)):
        raise CodedError("selection_scores_finite")
    return values


def selection_rate(epsilon: float, sensitivity: float, *, monotonic: bool = False) -> float:
    """lambda = epsilon / (2 Delta), or epsilon / Delta for monotonic scores; epsilon 0 -> 0.

    Dwork & Roth 2014, Def 3.4 and the remark after Thm 3.10 (monotonic case).
    """
    eps = check_epsilon(epsilon, allow_zero=True)
    delta_u = check_sensitivity(sensitivity)
    return eps / (delta_u if monotonic else 2.0 * delta_u)


def scaled_gaps(
    scores: ArrayLike, epsilons: ArrayLike, sensitivity: float, *, monotonic: bool = False
) -> np.ndarray:
    """lambda * (score_r - OPT) <= 0, one row per epsilon (shape: epsilons x n)."""
    values = check_scores(scores)
    eps = np.atleast_1d(np.asarray(epsilons, dtype=float))
    rates = np.array([selection_rate(e, sensitivity, monotonic=monotonic) for e in eps])
    return rates[:, None] * (values - values.max())


def best_mask(scores: ArrayLike) -> np.ndarray:
    """True for every candidate whose score equals the largest score (ties all count)."""
    values = check_scores(scores)
    return values == values.max()


def probability_of_best(probabilities: ArrayLike, scores: ArrayLike) -> np.ndarray:
    """P(the mechanism returns a best-scoring candidate) = sum of p over the best ones.

    ``probabilities`` may hold several rows (e.g. one per epsilon); the sum runs over
    the last axis.
    """
    return np.sum(np.asarray(probabilities, dtype=float) * best_mask(scores), axis=-1)


def expected_score_lost(probabilities: ArrayLike, scores: ArrayLike) -> np.ndarray:
    """OPT - E[score of the returned candidate], in score units (0 is perfect)."""
    values = check_scores(scores)
    return values.max() - np.asarray(probabilities, dtype=float) @ values


def probability_of_shortfall(probabilities: ArrayLike, scores: ArrayLike, gap: float) -> float:
    """Exact P(score of the returned candidate <= OPT - gap)."""
    values = check_scores(scores)
    return float(np.sum(np.asarray(probabilities, dtype=float)[values <= values.max() - gap]))


def log_probability_of_shortfall(
    log_probabilities: ArrayLike, scores: ArrayLike, gap: float
) -> float | None:
    """Exact log P(score of the returned candidate <= OPT - gap), summed in log space, so a
    tail below what a float holds (10⁻⁹³³) keeps its exponent instead of reading 0.

    None when no candidate falls that short: then the probability is exactly 0.
    """
    values = check_scores(scores)
    inside = np.asarray(log_probabilities, dtype=float)[values <= values.max() - gap]
    if not inside.size:
        return None
    top = float(inside.max())
    if top == -np.inf:  # every log beyond a float: the tail is as small as its largest
        return top
    return top + float(np.log(np.sum(np.exp(inside - top))))


def sample_counts(rng: np.random.Generator, probabilities: ArrayLike, n_draws: int) -> np.ndarray:
    """How often each candidate is returned in ``n_draws`` independent runs (multinomial)."""
    n = check_positive_int(n_draws, "the number of draws")
    p = np.asarray(probabilities, dtype=float)
    return rng.multinomial(n, p / p.sum())


def leave_one_out_polynomial_integral(weights: ArrayLike, factor: float = 1.0) -> np.ndarray:
    """I_r = w_r * integral_0^1 prod_{j != r} (1 - factor * w_j * u) du, for every r.

    The integrand is a polynomial of degree n - 1, so Gauss-Legendre with
    ceil(n / 2) + 1 nodes integrates it exactly (up to rounding); every term is
    positive, so there is no cancellation. Needs 0 <= factor * w_j <= 1.
    ``weights`` may have leading axes (e.g. one row per epsilon); the last axis is the
    candidates.
    """
    w = np.asarray(weights, dtype=float)
    nodes, node_weights = np.polynomial.legendre.leggauss(w.shape[-1] // 2 + 2)
    u = 0.5 * (nodes + 1.0)
    log_factors = np.log1p(-factor * w[..., :, None] * u)  # (..., n, nodes)
    log_all = log_factors.sum(axis=-2, keepdims=True)
    integrals = np.exp(log_all - log_factors) @ (0.5 * node_weights)
    return w * integrals
