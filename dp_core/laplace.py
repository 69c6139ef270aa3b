"""The Laplace mechanism: calibration, sampling and exact error facts.

Noise ~ Laplace(0, b) with scale b = sensitivity / epsilon gives epsilon-DP for a
query whose L1 sensitivity is ``sensitivity`` (Dwork, McSherry, Nissim, Smith 2006;
Dwork & Roth 2014, Thm 3.6). Density f(x) = exp(-|x| / b) / (2 b).
All error facts are in the units of the query's answer.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dp_core.validation import check_epsilon, check_probability, check_sensitivity

__all__ = [
    "laplace_average_std",
    "laplace_expected_abs_error",
    "laplace_half_width",
    "laplace_mechanism",
    "laplace_pdf",
    "laplace_scale",
    "laplace_std",
    "laplace_tail",
    "running_average_of_releases",
    "sample_laplace",
]


def laplace_scale(sensitivity: float, epsilon: float) -> float:
    """Scale b = sensitivity / epsilon (Dwork & Roth 2014, Def 3.3)."""
    return check_sensitivity(sensitivity) / check_epsilon(epsilon)


def sample_laplace(
    rng: np.random.Generator, scale: float, size: int | tuple[int, ...] | None = None
) -> np.ndarray:
    """Draw Laplace(0, scale) noise, vectorised."""
    return rng.laplace(0.0, check_sensitivity(scale, "scale"), size)


def laplace_mechanism(
    rng: np.random.Generator, true_values: ArrayLike, *, sensitivity: float, epsilon: float
) -> np.ndarray:
    """Return true_values + Laplace(sensitivity / epsilon) noise, one draw per value."""
    values = np.asarray(true_values, dtype=float)
    return values + sample_laplace(rng, laplace_scale(sensitivity, epsilon), values.shape)


def laplace_expected_abs_error(scale: float) -> float:
    """E|noise| = b."""
    return check_sensitivity(scale, "scale")


def laplace_std(scale: float) -> float:
    """Standard deviation sqrt(2) * b."""
    return float(np.sqrt(2.0) * check_sensitivity(scale, "scale"))


def laplace_half_width(scale: float, confidence: float = 0.95) -> float:
    """Half-width t with P(|noise| <= t) = confidence: t = -b ln(1 - confidence)."""
    c = check_probability(confidence, "confidence")
    return float(-check_sensitivity(scale, "scale") * np.log1p(-c))


def laplace_tail(scale: float, x: ArrayLike) -> np.ndarray:
    """P(|noise| > x) = exp(-x / b) for x >= 0 (1 for x < 0)."""
    b = check_sensitivity(scale, "scale")
    x = np.asarray(x, dtype=float)
    return np.where(x < 0, 1.0, np.exp(-np.clip(x, 0, None) / b))


def laplace_pdf(scale: float, x: ArrayLike) -> np.ndarray:
    """Density exp(-|x| / b) / (2 b)."""
    b = check_sensitivity(scale, "scale")
    return np.exp(-np.abs(np.asarray(x, dtype=float)) / b) / (2.0 * b)


def running_average_of_releases(
    rng: np.random.Generator, true_value: float, scale: float, repeats: int
) -> np.ndarray:
    """Averages of the first j noisy answers to one query, j = 1..repeats (the averaging attack).

    The average of j answers has standard deviation sqrt(2) b / sqrt(j): repeating a query
    undoes the noise, which is why each repeat must spend its own epsilon.
    """
    answers = true_value + sample_laplace(rng, scale, int(repeats))
    return np.cumsum(answers) / np.arange(1, int(repeats) + 1)


def laplace_average_std(scale: float, repeats: ArrayLike) -> np.ndarray:
    """Standard deviation of the mean of k independent Laplace(b) draws: sqrt(2) b / sqrt(k)."""
    return laplace_std(scale) / np.sqrt(np.asarray(repeats, dtype=float))
