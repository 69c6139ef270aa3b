"""Report-noisy-max: add independent noise to every score and return the arg max.

With noise of scale 1 / lambda (lambda as in dp_core.selection) it is epsilon-DP
(Dwork & Roth 2014, Claim 3.9 for Laplace noise; McKenna & Sheldon 2020 and Ding et
al. 2021 for exponential noise). Which noise gives which mechanism:
- Gumbel noise: exactly the exponential mechanism (the Gumbel-max trick; Dwork & Roth
  2014, Sec 3.4): use dp_core.exponential for its probabilities.
- Exponential noise: exactly permute-and-flip (Ding et al. 2021): use
  dp_core.permute_and_flip for its probabilities.
- Laplace noise: a third mechanism; its exact probabilities are computed here by
  numerical integration: P(r) = integral f_r(y) prod_{j != r} F_j(y) dy.
Both the arg max and the integral depend only on the differences between scores, so the
scores are shifted by their maximum first: the nodes and the noise then stay small, and
counts near 1e13 or 1e20 lose no digits to the size of the scores.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from dp_core.errors import CodedError
from dp_core.selection import check_scores, leave_one_out_polynomial_integral, selection_rate
from dp_core.validation import check_positive_int

Noise = Literal["gumbel", "exponential", "laplace"]
_TAIL_SCALES = 40.0  # below OPT - 40 b every candidate's mass is < exp(-40) / 2 ~ 2e-18
_NODES = 12  # Gauss-Legendre nodes per piece on which the log-integrand moves by <= 1
_LOG_HALF = np.log(0.5)


def report_noisy_max(
    rng: np.random.Generator,
    scores: ArrayLike,
    epsilon: float,
    sensitivity: float,
    *,
    noise: Noise = "laplace",
    monotonic: bool = False,
    size: int = 1,
) -> np.ndarray:
    """Indices of ``size`` runs: arg max of score + noise of scale 1 / lambda.

    The scores are shifted by their maximum first (the arg max does not change), so noise
    added to huge scores is not rounded away. Source: Dwork & Roth 2014, Claim 3.9.
    """
    values = _gaps(check_scores(scores))
    n_draws = check_positive_int(size, "the number of draws")
    rate = selection_rate(epsilon, sensitivity, monotonic=monotonic)
    if rate == 0:  # infinite noise: every candidate equally likely
        return rng.integers(values.size, size=n_draws)
    draw = {"gumbel": rng.gumbel, "exponential": rng.exponential, "laplace": rng.laplace}
    if noise not in draw:
        raise CodedError(
            "choice", name="noise", choices="'gumbel', 'exponential', 'laplace'", got=repr(noise)
        )
    rows = max(1, 2_000_000 // values.size)  # bound memory: about 16 MB of noise at a time
    chunks = [
        np.argmax(
            values + draw[noise](scale=1.0 / rate, size=(min(rows, n_draws - i), values.size)),
            axis=1,
        )
        for i in range(0, n_draws, rows)
    ]
    return np.concatenate(chunks)


def _gaps(values: np.ndarray) -> np.ndarray:
    """score - max score (<= 0): what the mechanisms depend on; -inf where it overflows."""
    with np.errstate(over="ignore"):
        return values - values.max()


def _log_laplace_cdf(z: np.ndarray) -> np.ndarray:
    """log F(z) for the standard Laplace distribution, stable in both tails."""
    return np.where(z < 0, _LOG_HALF + np.minimum(z, 0), np.log1p(-0.5 * np.exp(-np.abs(z))))


def _laplace_nodes(values: np.ndarray, b: float) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes and weights covering [max(min score, OPT - 40 b), OPT].

    Pieces break at every distinct score. A piece [a, c] whose mass is below 1e-18 for
    every candidate ((c - a) / (2 b) * max_r prod_{j != r} F_j(c)) is dropped; the others
    are cut so that the log-integrand moves by at most about 1 on each (its slope is at
    most (#scores above + 1 + sum over scores below of exp(-(a - s_j) / b)) / b).
    """
    start = max(values.min(), values.max() - _TAIL_SCALES * b)
    cuts = np.unique(np.concatenate([[start], values[values > start]]))
    lo, hi = cuts[:-1], cuts[1:]
    log_cdf_hi = _log_laplace_cdf((hi[:, None] - values[None, :]) / b)
    log_mass = np.log((hi - lo) / (2 * b)) + log_cdf_hi.sum(axis=1) - log_cdf_hi.min(axis=1)
    keep = log_mass > np.log(1e-18)
    lo, hi = lo[keep], hi[keep]
    above = (values[None, :] >= hi[:, None]).sum(axis=1)
    below = np.where(
        values[None, :] <= lo[:, None], np.exp(-(lo[:, None] - values[None, :]) / b), 0
    )
    slope = (above + 1 + below.sum(axis=1)) / b
    parts = np.maximum(1, np.ceil((hi - lo) * slope)).astype(int)
    widths = np.repeat((hi - lo) / parts, parts)
    starts = (
        np.repeat(lo, parts)
        + (np.arange(parts.sum()) - np.repeat(np.cumsum(parts) - parts, parts)) * widths
    )
    x, w = np.polynomial.legendre.leggauss(_NODES)
    nodes = (starts[:, None] + widths[:, None] * 0.5 * (x + 1.0)).ravel()
    weights = (widths[:, None] * 0.5 * w).ravel()
    return nodes, weights


def report_noisy_max_laplace_probabilities(
    scores: ArrayLike, epsilon: float, sensitivity: float, *, monotonic: bool = False
) -> np.ndarray:
    """Exact (to about 1e-12) P(report-noisy-max with Laplace(1 / lambda) noise returns r).

    Three parts of P(r) = integral f_r(y) prod_{j != r} F_j(y) dy (b = 1 / lambda):
    y >= OPT: (1/2) p_r integral_0^1 prod_{j != r} (1 - p_j u / 2) du, p_j = exp((s_j - OPT) / b),
    a polynomial integral, exact; y < min score: 2^-n / n * exp((n min - sum s) / b), exact;
    in between: Gauss-Legendre on pieces between the scores (mass below OPT - 40 b dropped).
    Computed on the gaps s_r - OPT (so OPT = 0): only differences matter, and the nodes and
    z = (y - s_j) / b stay small whatever the size of the scores. A gap below -1.8e308 is -inf,
    a candidate that never wins.
    """
    values = _gaps(check_scores(scores))
    rate = selection_rate(epsilon, sensitivity, monotonic=monotonic)
    n = values.size
    if rate == 0 or n == 1:
        return np.full(n, 1.0 / n)
    b = 1.0 / rate
    top = values.max()  # 0
    # a gap of -1e308 over a small b overflows to -inf: a candidate that never wins
    with np.errstate(over="ignore"):
        upper = 0.5 * leave_one_out_polynomial_integral(np.exp((values - top) / b), factor=0.5)
        lowest = 0.0
        if top - _TAIL_SCALES * b <= values.min():
            lowest = np.exp(n * _LOG_HALF - np.log(n) + (n * values.min() - values.sum()) / b)
        nodes, weights = _laplace_nodes(values, b)
        z = (nodes[None, :] - values[:, None]) / b  # (n, nodes)
        log_cdf = _log_laplace_cdf(z)
        log_pdf = -np.log(2.0 * b) - np.abs(z)
        middle = np.exp(log_pdf + log_cdf.sum(axis=0) - log_cdf) @ weights
    return upper + middle + lowest


def report_noisy_max_laplace_probabilities_by_epsilon(
    scores: ArrayLike, epsilons: ArrayLike, sensitivity: float, *, monotonic: bool = False
) -> np.ndarray:
    """One row of report-noisy-max-with-Laplace probabilities per epsilon (epsilons x n)."""
    return np.array(
        [
            report_noisy_max_laplace_probabilities(scores, e, sensitivity, monotonic=monotonic)
            for e in np.atleast_1d(np.asarray(epsilons, dtype=float))
        ]
    )
