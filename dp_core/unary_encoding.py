"""Unary encoding: each person sends one noisy bit per category.

A person holding category v encodes a one-hot vector of k bits and reports each bit
independently: a 1 stays 1 with probability p, a 0 turns into 1 with probability q < p.
    epsilon = ln(p (1 - q) / ((1 - p) q))
Symmetric unary encoding (SUE, basic RAPPOR): p = e^(eps/2) / (e^(eps/2) + 1), q = 1 - p.
Optimised unary encoding (OUE): p = 1/2, q = 1 / (e^eps + 1), which minimises the variance.
(Wang, Blocki, Li, Jha 2017, "Locally differentially private protocols for frequency
estimation", USENIX Security; Erlingsson, Pihur, Korolova 2014 for RAPPOR.)
A person holding none of the categories (no value) encodes the all-zero vector and reports it
the same way: each bit turns into 1 with probability q. Such persons are reports too: with n
reports in all, the sum of bit v is Binomial(n_v, p) + Binomial(n - n_v, q), and the estimate
(C_v - n q) / (p - q) over all n reports stays unbiased (as in the local-DP chapter's notebook
on Adult, where the persons with no occupation answer with an all-zero vector).
The debiasing and the exact variances are in :mod:`dp_core.local_estimation`.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import expit

from dp_core.errors import CodedError
from dp_core.local_estimation import (
    check_category_codes,
    check_category_counts,
    check_report_probabilities,
)
from dp_core.validation import check_epsilon, check_positive_int, check_probability

__all__ = [
    "grr_oue_crossover_domain_size",
    "optimized_unary_encoding",
    "symmetric_unary_encoding",
    "unary_encode",
    "unary_encoding_epsilon",
    "unary_perturb",
    "unary_report_counts",
]

_ROWS_PER_CHUNK = 65_536  # bounds memory to about 65k x k random numbers at a time


def unary_encoding_epsilon(p: float, q: float) -> float:
    """epsilon = ln(p (1 - q) / ((1 - p) q)) (Wang et al. 2017); p=0.75, q=0.25 -> ln 9.

    Changing a person's category flips two bits, each contributing one likelihood ratio.
    """
    p = check_probability(p, "p (the chance a 1 bit is reported as 1)")
    q = check_probability(q, "q (the chance a 0 bit is reported as 1)")
    check_report_probabilities(p, q)
    return math.log(p) + math.log1p(-q) - math.log1p(-p) - math.log(q)


def symmetric_unary_encoding(epsilon: float) -> tuple[float, float]:
    """SUE (p, q) = (e^(eps/2) / (e^(eps/2) + 1), 1 - p) for a target epsilon."""
    eps = check_epsilon(epsilon)
    return float(expit(eps / 2)), float(expit(-eps / 2))


def optimized_unary_encoding(epsilon: float) -> tuple[float, float]:
    """OUE (p, q) = (1/2, 1 / (e^eps + 1)) for a target epsilon (Wang et al. 2017)."""
    return 0.5, float(expit(-check_epsilon(epsilon)))


def unary_encode(values: ArrayLike, k: int) -> np.ndarray:
    """Each person's one-hot vector, a boolean (n, k) array: bit v is 1 for category code v,
    and every bit is 0 for a person with no value (code -1)."""
    codes, k = check_category_codes(values, k, none_allowed=True)
    return codes[:, None] == np.arange(k)


def unary_perturb(
    rng: np.random.Generator, values: ArrayLike, k: int, p: float, q: float
) -> np.ndarray:
    """Every person's reported bits, a boolean (n, k) array (vectorised, in row chunks).

    ``values`` holds each person's category code 0..k-1, or -1 for a person with no value:
    their all-zero vector is perturbed like everyone's (each bit 1 with probability q).
    """
    unary_encoding_epsilon(p, q)  # validates p and q
    codes, k = check_category_codes(values, k, none_allowed=True)
    bits = np.empty((codes.size, k), dtype=bool)
    for start in range(0, codes.size, _ROWS_PER_CHUNK):
        chunk = codes[start : start + _ROWS_PER_CHUNK]
        draws = rng.random((chunk.size, k))
        bits[start : start + chunk.size] = np.where(unary_encode(chunk, k), draws < p, draws < q)
    return bits


def unary_report_counts(
    rng: np.random.Generator,
    true_counts: ArrayLike,
    p: float,
    q: float,
    repeats: int | None = None,
    *,
    n: int | None = None,
) -> np.ndarray:
    """Sum of reported bits per category, drawn exactly: Binomial(n_v, p) + Binomial(n - n_v, q).

    ``n``: the number of reports, persons holding none of the categories (an all-zero vector)
    included; by default the persons counted in ``true_counts``. Bits are perturbed
    independently, so the column sums are independent with exactly this law. Shape (k,), or
    (repeats, k) for ``repeats`` independent surveys.
    """
    unary_encoding_epsilon(p, q)
    counts = check_category_counts(true_counts)
    reports = int(counts.sum()) if n is None else check_positive_int(n, "the number of reports")
    if reports < counts.sum():
        raise CodedError("unary_reports", reports=f"{reports:,}", persons=f"{int(counts.sum()):,}")
    size = None if repeats is None else (check_positive_int(repeats, "repeats"), counts.size)
    return rng.binomial(counts, p, size) + rng.binomial(reports - counts, q, size)


def grr_oue_crossover_domain_size(epsilon: float) -> float:
    """k* = 3 e^eps + 2: below it GRR has the smaller variance, above it OUE does.

    Equating n (e^eps + k - 2) / (e^eps - 1)^2 (GRR) with 4 n e^eps / (e^eps - 1)^2 (OUE),
    the variances for a category nobody holds (Wang et al. 2017).
    """
    return 3.0 * math.exp(check_epsilon(epsilon)) + 2.0
