"""The best cap and the best clipping bounds: the expected error of every setting at once.

Each sweep takes one ``Bounding`` and one ``NoisePlan`` and replaces the swept setting by
every value of its grid: every cap (l0), every upper bound U, every lower bound L (by
clip(v, L, U) = -clip(-v, -U, -L), the upper sweep on the negated values), and every pair
(L, U) (by clip(v, L, U) = max(v, L) + min(v, U) - v, and likewise squared). The error of
each is dp_core.bounding.error's RMSE, exact; the best is the smallest (the smallest
setting on ties).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from dp_core.bounding.bias import (
    bounded_totals_by_cap,
    bounded_totals_by_upper,
    check_caps,
    check_increasing,
    clipped_power_sums,
)
from dp_core.bounding.caps import Bounding, Statistic, release_sensitivity
from dp_core.bounding.error import error_summary, noise_std_by_cap
from dp_core.bounding.noise import NoisePlan, group_noise
from dp_core.bounding.spread import (
    record_sample_spread,
    selection_variance_by_cap,
    selection_variance_by_upper,
)
from dp_core.bounding.table import ContributionTable
from dp_core.validation import check_bounds

__all__ = [
    "best_bounds",
    "best_setting",
    "bounds_rmse_grid",
    "cap_tradeoff",
    "lower_tradeoff",
    "upper_tradeoff",
]

COLUMNS = ["bias", "selection_std", "noise_std", "rmse"]


def best_setting(summary: pd.DataFrame, settings: ArrayLike) -> tuple[float, float]:
    """The setting with the smallest RMSE (the smallest setting on ties) and that RMSE."""
    index = int(np.argmin(summary["rmse"].to_numpy()))
    return np.asarray(settings)[index].item(), float(summary["rmse"].iloc[index])


def cap_tradeoff(
    table: ContributionTable,
    statistic: Statistic,
    bounding: Bounding,
    plan: NoisePlan,
    *,
    caps: ArrayLike,
) -> pd.DataFrame:
    """Bias, selection sd, noise sd and RMSE (root mean square over groups) for each cap."""
    caps = check_caps(caps)
    bounded = bounded_totals_by_cap(table, statistic, bounding, caps=caps)
    spread = selection_variance_by_cap(table, statistic, bounding, caps=caps)
    noise = noise_std_by_cap(table, statistic, bounding, plan, caps)
    summary = error_summary(table.true_totals(statistic), bounded, noise, selection_variance=spread)
    return summary.assign(cap=caps)[["cap", *COLUMNS]]


def upper_tradeoff(
    table: ContributionTable, bounding: Bounding, plan: NoisePlan, *, uppers: ArrayLike
) -> pd.DataFrame:
    """Bias, selection sd, noise sd and RMSE of per-group sums for each upper bound U.

    ``bounding`` with each U in ``uppers`` in place of its ``upper``.
    """
    uppers = np.asarray(uppers, dtype=float)
    bounded = bounded_totals_by_upper(table, bounding, uppers=uppers)
    spread = selection_variance_by_upper(table, bounding, uppers=uppers)
    lower = bounding.lower
    widest = release_sensitivity("sum", bounding.with_bounds(lower, uppers[-1]))
    # the sensitivity, hence the noise (Laplace or Gaussian), is proportional to max(|L|, |U|)
    per_record = np.maximum(abs(lower), np.abs(uppers))
    n_groups = len(table.groups)
    widest_noise = group_noise(widest, plan, max_groups=bounding.max_groups, n_groups=n_groups)
    noise = widest_noise.std * per_record / per_record[-1]
    summary = error_summary(table.true_totals("sum"), bounded, noise, selection_variance=spread)
    return summary.assign(upper=uppers)[["upper", *COLUMNS]]


def lower_tradeoff(
    table: ContributionTable, bounding: Bounding, plan: NoisePlan, *, lowers: ArrayLike
) -> pd.DataFrame:
    """Bias, selection sd, noise sd and RMSE of per-group sums for each lower bound L.

    ``bounding`` with each L in ``lowers`` in place of its ``lower``.
    clip(v, L, U) = -clip(-v, -U, -L): the upper-bound sweep on the negated values, with
    upper bounds -L; biases change sign only, selection variances and noise not at all.
    """
    lowers = check_increasing(lowers, "lower")
    upper = bounding.upper
    check_bounds(lowers[-1], upper)
    negated = replace(
        table,
        row_value=-table.values(),
        unit_total=None if table.unit_total is None else -table.unit_total,
    )
    mirrored = upper_tradeoff(
        negated, bounding.with_bounds(-upper, -lowers[0]), plan, uppers=-lowers[::-1]
    )
    summary = mirrored.iloc[::-1].reset_index(drop=True).drop(columns="upper")
    return summary.assign(lower=lowers)[["lower", *COLUMNS]]


def _raised_and_capped(
    values: np.ndarray,
    weight: np.ndarray,
    index: np.ndarray,
    size: int,
    lowers: np.ndarray,
    uppers: np.ndarray,
    power: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Per index: sum w max(v, L)^p for each L (size, L), and sum w min(v, U)^p for each U.

    max(v, L) = -min(-v, -L): the clipped power sums of the negated values, by increasing -L.
    """
    raised = clipped_power_sums(-values, weight, index, size, -np.inf, -lowers[::-1], power=power)
    capped = clipped_power_sums(values, weight, index, size, -np.inf, uppers, power=power)
    return raised[:, ::-1] * (-1) ** power, capped


class _GridItems:
    """The items a sum is made of (records, or pre-aggregated unit totals) for the (L, U) grid.

    ``values``, ``unit`` (each item's unit) and ``group``; per unit ``pi`` (kept by l0),
    ``r`` (records) and ``weight`` (how many equal units it stands for), ``record_keep`` per
    item (kept by linf).
    """

    def __init__(self, table: ContributionTable, bounding: Bounding) -> None:
        random = bounding.selection == "random"
        n_units = len(table.unit_group)
        self.pi = table.unit_keep(bounding.max_groups, random)
        if bounding.pre_aggregate:
            table.values()  # a readable error without a value column
            self.values, self.unit = table.unit_total, np.arange(n_units)
            self.r, self.record_keep = np.ones(n_units, dtype=np.int64), np.ones(n_units)
        else:
            self.values, self.unit = table.values(), table.row_unit
            self.r = table.unit_size
            self.record_keep = table.record_keep(bounding.max_per_group, random)
        self.group = table.unit_group[self.unit]
        self.weight = (
            np.ones(n_units) if table.unit_weight is None else table.unit_weight.astype(float)
        )


def _split_sums(items, weight, index, size, lowers, uppers, power):
    """(part in L, part in U, constant) with sum w clip^p = L part + U part - constant."""
    raised, capped = _raised_and_capped(items.values, weight, index, size, lowers, uppers, power)
    return raised, capped, np.bincount(index, weight * items.values**power, size)


def _mean_square_bias(table, items, lowers, uppers) -> np.ndarray:
    """Mean over groups of bias^2 for every (L, U): bias = a(L) + capped(U) per group."""
    n_groups = len(table.groups)
    weight = (items.pi * items.weight)[items.unit] * items.record_keep
    raised, capped, plain = _split_sums(items, weight, items.group, n_groups, lowers, uppers, 1)
    a = raised - (plain + table.true_totals("sum"))[:, None]
    mean_square = (a**2).sum(axis=0)[:, None] + (capped**2).sum(axis=0)[None, :] + 2 * a.T @ capped
    return mean_square / n_groups


def _selection_variance(table, items, bounding, lowers, uppers) -> np.ndarray:
    """Sum over groups of the selection variance for every (L, U).

    A unit's variance is alpha S2 + beta S1^2 (alpha = pi spread, beta = pi (1 - pi)
    (m / r)^2 - pi spread / r); S1 = P(L) + Q(U) splits too, and sum over units of
    beta P Q is one matrix product per group.
    """
    n_groups, n_units = len(table.groups), len(table.unit_group)
    linf = 1 if bounding.pre_aggregate else bounding.max_per_group
    m, spread = record_sample_spread(items.r, linf)
    r, pi = items.r.astype(float), items.pi
    alpha = pi * spread
    beta = (pi * (1 - pi) * (m / r) ** 2 - alpha / r) * items.weight
    raised2, capped2, plain2 = _split_sums(
        items, (alpha * items.weight)[items.unit], items.group, n_groups, lowers, uppers, 2
    )
    variance = (raised2 - plain2[:, None]).sum(axis=0)[:, None] + capped2.sum(axis=0)
    varies = np.flatnonzero(beta != 0)
    if not varies.size:
        return variance
    code = np.full(n_units, -1)
    code[varies] = np.arange(varies.size)
    kept = np.flatnonzero(code[items.unit] >= 0)
    unit_code = code[items.unit[kept]]
    values = items.values[kept]
    p, q = _raised_and_capped(values, np.ones(kept.size), unit_code, varies.size, lowers, uppers, 1)
    p -= np.bincount(unit_code, values, varies.size)[:, None]  # S1 = p(L) + q(U)
    b = beta[varies][:, None]
    variance = variance + (b * p**2).sum(axis=0)[:, None] + (b * q**2).sum(axis=0)
    order = np.argsort(table.unit_group[varies], kind="stable")
    edges = np.searchsorted(table.unit_group[varies][order], np.arange(n_groups + 1))
    bp, qs = (b * p)[order], q[order]
    for g in range(n_groups):  # one matrix product per group, not per record
        lo, hi = edges[g], edges[g + 1]
        variance = variance + 2 * bp[lo:hi].T @ qs[lo:hi]
    return variance


def bounds_rmse_grid(
    table: ContributionTable,
    bounding: Bounding,
    plan: NoisePlan,
    *,
    lowers: ArrayLike,
    uppers: ArrayLike,
) -> np.ndarray:
    """Expected RMSE (root mean square over groups) of per-group sums for every (L, U).

    ``bounding`` with each pair in place of its bounds. Shape (lowers, uppers); inf where
    L >= U. Exact, as :func:`upper_tradeoff` for each pair. For L <= U, clip(v, L, U) =
    max(v, L) + min(v, U) - v, and clip^2 = max(v, L)^2 + min(v, U)^2 - v^2: every sum of
    clipped values splits into a part in L and a part in U. The bias, a(L) + b(U) per group,
    has mean square (sum a^2 + sum b^2 + 2 a^T b) / groups; the selection variance splits the
    same way (dp_core.bounding.spread's unit formula).
    """
    lowers, uppers = check_increasing(lowers, "lower"), check_increasing(uppers, "upper")
    items = _GridItems(table, bounding)
    n_groups = len(table.groups)
    mean_square = _mean_square_bias(table, items, lowers, uppers)
    if bounding.selection == "random":
        variance = _selection_variance(table, items, bounding, lowers, uppers)
        mean_square = mean_square + variance / n_groups
    unit = release_sensitivity("sum", bounding.with_bounds(0.0, 1.0))
    unit_noise = group_noise(unit, plan, max_groups=bounding.max_groups, n_groups=n_groups).std
    noise = unit_noise * np.maximum(np.abs(lowers)[:, None], np.abs(uppers)[None, :])
    rmse = np.sqrt(np.maximum(mean_square, 0.0) + noise**2)
    return np.where(lowers[:, None] < uppers[None, :], rmse, np.inf)


def best_bounds(
    table: ContributionTable,
    bounding: Bounding,
    plan: NoisePlan,
    *,
    lowers: ArrayLike,
    uppers: ArrayLike,
) -> tuple[float, float, float]:
    """The pair (L, U) with the smallest RMSE on the grid of :func:`bounds_rmse_grid`, and it.

    On a tie, the smallest L, then the smallest U.
    """
    rmse = bounds_rmse_grid(table, bounding, plan, lowers=lowers, uppers=uppers)
    i, j = np.unravel_index(int(np.argmin(rmse)), rmse.shape)
    lowers, uppers = np.asarray(lowers), np.asarray(uppers)
    return float(lowers[i]), float(uppers[j]), float(rmse[i, j])
