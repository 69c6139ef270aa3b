"""The survey's accuracy as the randomized-response page and its exercises compute it."""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import ArrayLike

from dp_core import local_estimation


@functools.lru_cache(maxsize=64)
def distribution(n_yes: int, n: int, p: float, q: float) -> tuple[np.ndarray, np.ndarray]:
    """The exact distribution of the debiased count (dp_core), kept for repeated settings."""
    return local_estimation.estimate_distribution(n_yes, n, p, q)


def expected_abs_error(n_yes: int, n: int, p: float, q: float) -> float:
    """Exact E|estimate − truth| of the count, in persons."""
    values, probs = distribution(n_yes, n, p, q)
    return float(np.sum(probs * np.abs(values - n_yes)))


def share_errors(p: float, q: float, share: float, n: ArrayLike) -> np.ndarray:
    """Exact standard error of the estimated share at each n, true count round(share · n)."""
    sizes = np.asarray(n)
    true_counts = np.round(share * sizes)
    return np.sqrt(local_estimation.estimate_variance(true_counts, sizes, p, q)) / sizes
