"""True answers of the queries the central-mechanism pages offer, and their noisy release.

Queries: count of a predicate, sum of values clipped to [L, U] per
category, and mean per category released as noisy clipped sum / noisy count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from dp_core.gaussian import gaussian_sigma, sample_gaussian
from dp_core.laplace import laplace_scale, sample_laplace
from dp_core.sensitivity import clipped_sum_sensitivity, count_sensitivity
from dp_core.validation import (
    check_bounds,
    check_delta,
    check_epsilon,
    check_positive_int,
    check_probability,
    check_sensitivity,
)

__all__ = [
    "MeanRelease",
    "clipped_sum_by_category",
    "count_where",
    "numeric_column",
    "release_clipped_mean",
]


def numeric_column(frame: pd.DataFrame, column: str) -> pd.Series:
    """The column as floats, or a ValueError saying it is not numeric."""
    if column not in frame.columns:
        raise ValueError(f"there is no column named “{column}”.")
    values = frame[column]
    if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        raise ValueError(f"column “{column}” is not numeric, so it cannot be summed.")
    return values.astype(float)


def count_where(mask: pd.Series | np.ndarray) -> float:
    """Rows where the predicate holds."""
    return float(np.count_nonzero(np.asarray(mask, dtype=bool)))


def clipped_sum_by_category(
    frame: pd.DataFrame, category: str, value: str, lower: float, upper: float
) -> pd.DataFrame:
    """Per category: rows, sum of values clipped to [L, U], and the unclipped sum."""
    lo, hi = check_bounds(lower, upper)
    values = numeric_column(frame, value)
    keep = values.notna() & frame[category].notna()
    groups = frame.loc[keep, category].astype(str)
    table = pd.DataFrame(
        {
            "rows": values[keep].groupby(groups).size().astype(float),
            "clipped_sum": values[keep].clip(lo, hi).groupby(groups).sum(),
            "raw_sum": values[keep].groupby(groups).sum(),
        }
    )
    if table.empty:
        raise ValueError(f"no row has both a “{category}” and a numeric “{value}”.")
    return table.sort_values("rows", ascending=False)


@dataclass(frozen=True)
class MeanRelease:
    """A noisy mean per category with the simulated spread of its error."""

    noisy_mean: np.ndarray
    true_mean: np.ndarray  # mean of the clipped values
    half_width: np.ndarray  # |error| <= half_width with the given confidence (simulated)
    expected_abs_error: np.ndarray  # simulated E|error|


def release_clipped_mean(
    rng: np.random.Generator,
    clipped_sums: np.ndarray,
    counts: np.ndarray,
    *,
    lower: float,
    upper: float,
    epsilon: float,
    records_per_person: int = 1,
    mechanism: str = "laplace",
    delta: float = 0.0,
    rows_l2: float = 1.0,
    confidence: float = 0.95,
    simulations: int = 4000,
) -> MeanRelease:
    """Mean = noisy clipped sum / noisy count, each with half the budget, clamped to [L, U].

    Two releases, each (epsilon/2, delta/2)-DP, compose sequentially to (epsilon, delta)-DP
    under add/remove-one (Dwork & Roth 2014, Thm 3.16); dividing and clamping are
    post-processing. ``mechanism`` "laplace" uses the L1 sensitivities (a person with up to
    ``records_per_person`` rows multiplies both); "classic" or "analytic" Gaussian noise uses
    the L2 ones (``rows_l2`` times a row's). The ratio has no closed-form error distribution,
    so its spread comes from ``simulations`` fresh draws.
    """
    lo, hi = check_bounds(lower, upper)
    eps = check_epsilon(epsilon)
    conf = check_probability(confidence, "confidence")
    sums = np.asarray(clipped_sums, dtype=float)
    n = np.asarray(counts, dtype=float)
    row_sum, row_count = clipped_sum_sensitivity(lo, hi), count_sensitivity()
    if mechanism == "laplace":
        m = check_positive_int(records_per_person, "records per person")
        sum_scale = laplace_scale(m * row_sum, eps / 2)
        count_scale = laplace_scale(m * row_count, eps / 2)
        sample = sample_laplace
    else:
        half_delta = check_delta(delta, allow_zero=False) / 2
        l2 = check_sensitivity(rows_l2, "rows per person (L2)")
        sum_scale = gaussian_sigma(l2 * row_sum, eps / 2, half_delta, mechanism)
        count_scale = gaussian_sigma(l2 * row_count, eps / 2, half_delta, mechanism)
        sample = sample_gaussian

    def estimate(sum_noise: np.ndarray, count_noise: np.ndarray) -> np.ndarray:
        return np.clip((sums + sum_noise) / np.maximum(n + count_noise, 1.0), lo, hi)

    true_mean = sums / np.maximum(n, 1.0)
    noisy = estimate(sample(rng, sum_scale, sums.shape), sample(rng, count_scale, sums.shape))
    shape = (simulations, *sums.shape)
    errors = np.abs(
        estimate(sample(rng, sum_scale, shape), sample(rng, count_scale, shape)) - true_mean
    )
    return MeanRelease(
        noisy_mean=noisy,
        true_mean=true_mean,
        half_width=np.quantile(errors, conf, axis=0),
        expected_abs_error=errors.mean(axis=0),
    )
