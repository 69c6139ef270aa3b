"""Debiasing counts reported under local differential privacy, with exact error facts.

Every local protocol here (yes/no randomized response, k-ary randomized response, unary
encoding) has the same shape: a person who holds value v reports "v" (or sets bit v) with
probability p, and a person who does not hold v does so with probability q < p. The reported
count of v is then C = Binomial(n_v, p) + Binomial(n - n_v, q), and
    estimate = (C - n q) / (p - q)
is unbiased for the true count n_v, with exact variance
    Var = (n_v p (1 - p) + (n - n_v) q (1 - q)) / (p - q)^2
(Wang, Blocki, Li, Jha 2017, "Locally differentially private protocols for frequency
estimation", USENIX Security: pure protocols and their variance).
All quantities are in persons (counts).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy import signal, stats

from dp_core.errors import CodedError
from dp_core.validation import check_positive_int, check_probability

__all__ = [
    "check_category_codes",
    "check_category_counts",
    "check_report_probabilities",
    "debiased_count",
    "estimate_distribution",
    "estimate_interval",
    "estimate_variance",
    "exact_count_interval",
    "expected_abs_error",
    "minimum_respondents",
]

_TAIL_SDS = 12.0  # binomial pmf mass beyond 12 standard deviations is below 1e-30


def check_report_probabilities(p: ArrayLike, q: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """p, q in [0, 1] with p > q (element-wise); returns them as float arrays."""
    p_arr = np.asarray(p, dtype=float)
    q_arr = np.asarray(q, dtype=float)
    for name, arr in (("p", p_arr), ("q", q_arr)):
        if np.any(np.isnan(arr)) or np.any((arr < 0) | (arr > 1)):
            raise CodedError("probability_closed", name=name, got=f"{arr}")
    if np.any(p_arr <= q_arr):
        raise CodedError("local_p_not_above_q", p=f"{p_arr}", q=f"{q_arr}")
    return p_arr, q_arr


def check_category_codes(
    values: ArrayLike, k: int, *, none_allowed: bool = False
) -> tuple[np.ndarray, int]:
    """Per-person category codes 0..k-1 (k >= 2) as an int array, and k.

    With ``none_allowed``, -1 marks a person who holds none of the categories.
    """
    k = check_positive_int(k, "the number of categories", minimum=2)
    codes = np.asarray(values, dtype=np.int64)
    lowest = -1 if none_allowed else 0
    if codes.size and (codes.min() < lowest or codes.max() >= k):
        raise CodedError("local_category_codes", lowest=f"{lowest}", highest=f"{k - 1}")
    return codes, k


def check_category_counts(true_counts: ArrayLike) -> np.ndarray:
    """Counts per category: whole numbers >= 0, at least 2 categories, at least 1 person."""
    counts = np.asarray(true_counts)
    if counts.ndim != 1 or counts.size < 2:
        raise CodedError("local_categories_two")
    if not np.issubdtype(counts.dtype, np.number) or np.any(counts < 0):
        raise CodedError("local_counts_negative")
    if np.any(counts != np.round(counts)) or counts.sum() < 1:
        raise CodedError("local_counts_total")
    return counts.astype(np.int64)


def _check_counts(true_count: ArrayLike, n: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    n_arr = np.asarray(n, dtype=float)
    c_arr = np.asarray(true_count, dtype=float)
    if np.any(n_arr < 1):
        raise CodedError("minimum", name="the number of respondents", minimum=1, got=f"{n_arr}")
    if np.any((c_arr < 0) | (c_arr > n_arr)):
        raise CodedError("local_true_count")
    return c_arr, n_arr


def debiased_count(count: ArrayLike, n: ArrayLike, p: ArrayLike, q: ArrayLike) -> np.ndarray:
    """Unbiased estimate (C - n q) / (p - q) of the true count (Wang et al. 2017).

    For the fair-coin yes/no scheme (p = 3/4, q = 1/4) this is 2 (C - n / 4).
    The estimate can fall below 0 or above n; it is left unclipped so that it stays unbiased.
    """
    p_arr, q_arr = check_report_probabilities(p, q)
    return (np.asarray(count, dtype=float) - np.asarray(n, dtype=float) * q_arr) / (p_arr - q_arr)


def estimate_variance(
    true_count: ArrayLike, n: ArrayLike, p: ArrayLike, q: ArrayLike
) -> np.ndarray:
    """Exact Var of the debiased count: (n_v p(1-p) + (n-n_v) q(1-q)) / (p-q)^2, persons^2.

    Equals Wang et al. 2017's form: n q(1-q)/(p-q)^2 + n_v (1-p-q)/(p-q).
    """
    p_arr, q_arr = check_report_probabilities(p, q)
    c_arr, n_arr = _check_counts(true_count, n)
    reported = c_arr * p_arr * (1 - p_arr) + (n_arr - c_arr) * q_arr * (1 - q_arr)
    return reported / (p_arr - q_arr) ** 2


def estimate_interval(
    estimate: ArrayLike, n: ArrayLike, p: ArrayLike, q: ArrayLike, confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Wald interval: estimate +/- z sqrt(Var(n_v = plug-in)), plug-in = estimate clipped to [0, n].

    A normal approximation (central limit theorem) with the exact variance formula of
    :func:`estimate_variance` evaluated at the estimate instead of the unknown true count, so
    its coverage is only approximately `confidence`; good once a few dozen respondents hold
    and lack the value.
    """
    c = check_probability(confidence, "confidence")
    n_arr = np.asarray(n, dtype=float)
    plug_in = np.clip(np.asarray(estimate, dtype=float), 0, n_arr)
    half = stats.norm.ppf(0.5 + c / 2) * np.sqrt(estimate_variance(plug_in, n_arr, p, q))
    return np.asarray(estimate, dtype=float) - half, np.asarray(estimate, dtype=float) + half


def _reported_pmf(true_count: int, n: int, p: float, q: float) -> np.ndarray:
    """P(C = c | n_v), c = 0..n, in full: Binomial(n_v, p) + Binomial(n - n_v, q)."""
    holding = stats.binom.pmf(np.arange(true_count + 1), true_count, p)
    lacking = stats.binom.pmf(np.arange(n - true_count + 1), n - true_count, q)
    return np.clip(np.convolve(holding, lacking), 0, None)


def exact_count_interval(
    count: int, n: int, p: float, q: float, confidence: float = 0.95
) -> tuple[int, int]:
    """Exact confidence interval for the true count n_v from a reported count C = ``count``.

    Every n_v in 0..n that neither one-sided test at level alpha / 2 rejects, alpha = 1 -
    confidence: P(C >= count | n_v) > alpha / 2 and P(C <= count | n_v) > alpha / 2, with C
    distributed exactly as Binomial(n_v, p) + Binomial(n - n_v, q). P(C >= c | n_v) grows with
    n_v (p > q), so the accepted n_v form an interval, and it covers the true count with
    probability at least ``confidence`` whatever it is (the Neyman construction; Clopper &
    Pearson 1934 invert the binomial's tests the same way). When the reported count is
    implausible under every true count (no "yes" at all from 40 people when a "no" is reported
    as "yes" a quarter of the time), no n_v passes and the interval is the end the estimate
    points to, (0, 0) or (n, n). Persons; O(n^2), for a room.
    """
    n = check_positive_int(n, "the number of respondents")
    count = check_positive_int(count, "the reported count", minimum=0)
    if count > n:
        raise CodedError("local_reported_count")
    p_arr, q_arr = check_report_probabilities(p, q)
    half_alpha = (1 - check_probability(confidence, "confidence")) / 2
    accepted = []
    for true_count in range(n + 1):
        pmf = _reported_pmf(true_count, n, float(p_arr), float(q_arr))
        at_least, at_most = pmf[count:].sum(), pmf[: count + 1].sum()
        if at_least > half_alpha and at_most > half_alpha:
            accepted.append(true_count)
    if not accepted:  # implausible under every true count: the end the estimate points to
        nearest = float(debiased_count(count, n, p_arr, q_arr))
        accepted = [int(min(max(round(nearest), 0), n))]
    return accepted[0], accepted[-1]


def _binomial_pmf_core(n: int, prob: float) -> tuple[int, np.ndarray]:
    """(first support point, pmf) of Binomial(n, prob) cut 12 sd from the mean."""
    mean, sd = n * prob, math.sqrt(n * prob * (1 - prob))
    lo = max(0, math.floor(mean - _TAIL_SDS * sd) - 1)
    hi = min(n, math.ceil(mean + _TAIL_SDS * sd) + 1)
    return lo, stats.binom.pmf(np.arange(lo, hi + 1), n, prob)


def estimate_distribution(
    true_count: int, n: int, p: float, q: float
) -> tuple[np.ndarray, np.ndarray]:
    """Exact distribution of the debiased count: (values, probabilities).

    C = Binomial(n_v, p) + Binomial(n - n_v, q) by convolution of the two pmfs; the support is
    cut where the tails carry less than 1e-30 of mass, so the probabilities sum to 1 - 1e-30.
    """
    n = check_positive_int(n, "the number of respondents")
    n_v = check_positive_int(true_count, "the true count", minimum=0)
    _check_counts(n_v, n)
    p_arr, q_arr = check_report_probabilities(p, q)
    p, q = float(p_arr), float(q_arr)
    lo_x, pmf_x = _binomial_pmf_core(n_v, p)
    lo_y, pmf_y = _binomial_pmf_core(n - n_v, q)
    pmf = np.clip(signal.convolve(pmf_x, pmf_y), 0, None)
    counts = lo_x + lo_y + np.arange(pmf.size)
    return (counts - n * q) / (p - q), pmf


def expected_abs_error(true_count: int, n: int, p: float, q: float) -> float:
    """Exact E|estimate - true count| in persons, from :func:`estimate_distribution`."""
    values, probs = estimate_distribution(true_count, n, p, q)
    return float(np.sum(probs * np.abs(values - true_count)))


def minimum_respondents(
    p: float, q: float, share_half_width: float = 0.25, confidence: float = 0.95
) -> int:
    """Smallest n whose worst-case interval on the estimated share is +/- share_half_width.

    Worst case over the true share: Var(share) <= max(p(1-p), q(1-q)) / (n (p-q)^2), so
    n >= z^2 max(p(1-p), q(1-q)) / ((p-q)^2 h^2) (normal approximation).
    """
    p_arr, q_arr = check_report_probabilities(p, q)
    h = check_probability(share_half_width, "the half-width of the share")
    z = stats.norm.ppf(0.5 + check_probability(confidence, "confidence") / 2)
    worst = max(float(p_arr * (1 - p_arr)), float(q_arr * (1 - q_arr)))
    return max(1, math.ceil(z**2 * worst / (float(p_arr - q_arr) ** 2 * h**2)))
