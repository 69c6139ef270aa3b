"""Sensitivity of the simple queries the central-mechanism pages offer.

Neighbouring datasets differ by adding or removing one person who contributes one record
(Dwork & Roth 2014, Def 2.4 and Sec 3.3). Values are clipped to [L, U] first.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from dp_core.validation import check_bounds, check_positive_int

__all__ = [
    "clipped_mean_sensitivity",
    "clipped_sum_sensitivity",
    "count_sensitivity",
    "max_contribution_norms",
]


def count_sensitivity() -> float:
    """A count changes by at most 1 when one person is added or removed."""
    return 1.0


def clipped_sum_sensitivity(lower: float, upper: float) -> float:
    """Sum of values clipped to [L, U] changes by at most max(|L|, |U|)."""
    lo, hi = check_bounds(lower, upper)
    return max(abs(lo), abs(hi))


def clipped_mean_sensitivity(lower: float, upper: float, n: int) -> float:
    """Mean of n clipped values with n public (fixed): (U - L) / n under replace-one.

    With n released as public (e.g. from a separate noisy count), changing one person's value
    moves the mean by at most (U - L) / n (Dwork & Roth 2014, Sec 3.3; diffprivlib's mean uses
    the same bound). Add/remove changes n itself, which is why the page releases
    mean = noisy sum / noisy count and this function serves the fixed-n teaching case.
    """
    lo, hi = check_bounds(lower, upper)
    return (hi - lo) / check_positive_int(n, "number of records")


def max_contribution_norms(
    person_ids: pd.Series | None,
    categories: pd.Series | None = None,
    mask: pd.Series | np.ndarray | None = None,
) -> tuple[int, float]:
    """Largest L1 and L2 norm of one person's row counts over the statistics a query releases.

    Person p with n_pc rows in category c changes the per-category counts by the vector
    (n_pc)_c: its L1 norm is p's row count, its L2 norm sqrt(sum_c n_pc^2). The maxima over
    persons multiply the per-row sensitivity (1 for a count, max(|L|, |U|) for a clipped sum)
    to give the L1 (Laplace) and L2 (Gaussian) sensitivity. Without ``categories`` all rows
    feed one statistic (L1 = L2). Without ``person_ids`` every row is its own person: (1, 1).
    Read off the data, these maxima are only valid bounds if they are public (e.g. "at most
    one visit a day"): a cap enforces them (see dp_core.bounding).
    """
    if person_ids is None:
        return 1, 1.0
    keep = person_ids.notna().to_numpy().copy()
    if mask is not None:
        keep &= np.asarray(mask, dtype=bool)
    if not keep.any():
        return 1, 1.0
    ids = person_ids[keep]
    if ids.is_unique:
        return 1, 1.0
    ids = ids.to_numpy()
    groups = np.zeros(len(ids)) if categories is None else categories[keep].astype(str).to_numpy()
    per_cell = pd.DataFrame({"p": ids, "c": groups}).groupby(["p", "c"]).size()
    l1 = per_cell.groupby(level="p").sum().max()
    l2 = np.sqrt((per_cell.astype(float) ** 2).groupby(level="p").sum().max())
    return int(l1), float(l2)
