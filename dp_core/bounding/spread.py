"""The exact variance of a random choice of kept records, per group (the selection spread).

"Random" selection keeps a uniformly random c of a person's k groups (l0) and a uniformly
random m = min(r, linf) of their r records in a kept group, so the bounded answer varies with
that choice. Exact for these two caps: one person enters a group's answer through one unit
(person x group) only, and persons choose independently, so Var(answer_g) is the sum over
the units u of g of

    Var(I_u Y_u) = pi Var(Y_u) + pi (1 - pi) E[Y_u]^2,

I_u ~ Bernoulli(pi), pi = min(1, c / k), independent of Y_u, the unit's kept total (a simple
random sample of m of its r records: Var(Y) = m (r - m) / (r (r - 1)) (S2 - S1^2 / r), S1,
S2 the sums of the clipped values and of their squares; Cochran, Sampling Techniques,
Thm 2.2). Counts and pre-aggregated sums have Var(Y) = 0. With at most one record per person
per group (the restaurant week) this is sum of p (1 - p) v^2, p = min(1, c / k), v the
clipped value (1 for counts). That per-record sum is not the variance when a person has
several records in a group: a unit's records are kept or dropped together by l0 and compete
for the linf places. A cap on a person's records over all groups (not offered here) would
also need its own (hypergeometric) unit moments. "First" selection is deterministic: 0.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from dp_core.bounding.bias import check_caps, check_uppers, clipped_power_sums
from dp_core.bounding.caps import Bounding, Statistic, _check_statistic, clip_values
from dp_core.bounding.table import ContributionTable

__all__ = ["selection_variance_by_cap", "selection_variance_by_upper"]


def sum_by(index: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Sums of the rows of ``values`` (1-D or 2-D) that share an index: shape (size, ...)."""
    if values.ndim == 1:
        return np.bincount(index, weights=values, minlength=size)
    width = values.shape[1]
    cells = (index[:, None] * width + np.arange(width)[None, :]).ravel()
    return np.bincount(cells, values.ravel(), size * width).reshape(size, width)


def record_sample_spread(unit_size: np.ndarray, max_per_group: int) -> tuple:
    """(m, m (r - m) / (r (r - 1))) per unit: records kept and the sampling factor (Cochran)."""
    r = unit_size.astype(float)
    m = np.minimum(r, max_per_group)
    return m, m * (r - m) / (r * np.maximum(r - 1, 1))


def _kept_total_moments(
    row_unit: np.ndarray, unit_size: np.ndarray, weight: np.ndarray, max_per_group: int
) -> tuple[np.ndarray, np.ndarray]:
    """E[Y] and Var(Y) of each unit's kept total Y: m = min(r, linf) of its r records.

    A uniform subset (simple random sampling without replacement, Cochran 1977, Thm 2.2):
    E[Y] = (m / r) S1, Var(Y) = m (r - m) / (r (r - 1)) (S2 - S1^2 / r); 0 when m = r.
    ``weight`` holds each row's clipped value, one column per setting when 2-D.
    """
    n_units = len(unit_size)
    s1 = sum_by(row_unit, weight, n_units)
    s2 = sum_by(row_unit, weight**2, n_units)
    shape = (-1, *[1] * (weight.ndim - 1))
    m, spread = (part.reshape(shape) for part in record_sample_spread(unit_size, max_per_group))
    r = unit_size.astype(float).reshape(shape)
    return m / r * s1, spread * np.maximum(s2 - s1**2 / r, 0.0)


def _unit_mean_and_variance(
    table: ContributionTable, statistic: Statistic, bounding: Bounding
) -> tuple[np.ndarray, np.ndarray]:
    """E[Y_u] and Var(Y_u) of each unit's contribution once linf (random) and clipping apply.

    Counts keep exactly min(r, linf) records and a pre-aggregated total is one clipped value:
    both have Var(Y) = 0.
    """
    if statistic == "sum" and bounding.pre_aggregate:
        total = clip_values(table.unit_total, bounding.lower, bounding.upper)
        return total, np.zeros_like(total)
    weight = (
        clip_values(table.values(), bounding.lower, bounding.upper)
        if statistic == "sum"
        else np.ones(len(table.row_unit))
    )
    return _kept_total_moments(table.row_unit, table.unit_size, weight, bounding.max_per_group)


def selection_variance_by_cap(
    table: ContributionTable, statistic: Statistic, bounding: Bounding, *, caps: ArrayLike
) -> np.ndarray:
    """Variance of each group's answer over the random choice of kept records, (groups, caps).

    ``bounding`` with each cap in ``caps`` in place of its ``max_groups``.
    Var_g(c) = sum over units u of g of pi Var(Y_u) + pi (1 - pi) E[Y_u]^2, pi = min(1, c/k_u)
    (exact: see the module docstring). "First" selection is deterministic: 0.
    """
    statistic = _check_statistic(statistic, bounding)
    caps = check_caps(caps)
    n_groups = len(table.groups)
    if bounding.selection == "first":
        return np.zeros((n_groups, caps.size))
    mean, variance = _unit_mean_and_variance(table, statistic, bounding)
    variance, square = table.per_unit(variance), table.per_unit(mean**2)
    k = table.unit_groups_of_person
    width = int(k.max()) + 1
    cell = table.unit_group * width + k
    by_k_variance = np.bincount(cell, variance, n_groups * width).reshape(n_groups, width)
    by_k_square = np.bincount(cell, square, n_groups * width).reshape(n_groups, width)
    keep = np.minimum(1.0, caps[None, :] / np.maximum(np.arange(width), 1)[:, None])
    return by_k_variance @ keep + by_k_square @ (keep * (1 - keep))


def selection_variance_by_upper(
    table: ContributionTable, bounding: Bounding, *, uppers: ArrayLike
) -> np.ndarray:
    """Variance of each group's sum over the random choice of kept records, (groups, uppers).

    ``bounding`` with each U in ``uppers`` in place of its ``upper``.
    The same unit formula as :func:`selection_variance_by_cap` at one cap, for every upper
    clipping bound U. A unit that is one value (one record, or a pre-aggregated total) adds
    pi (1 - pi) min(max(v, L), U)^2: a clipped power sum, every U in one pass. Units of
    several records that vary (pi < 1 or r > linf) are evaluated for every record and U.
    """
    lower, linf = bounding.lower, bounding.max_per_group
    uppers = check_uppers(uppers, lower)
    n_groups = len(table.groups)
    if bounding.selection == "first":
        return np.zeros((n_groups, uppers.size))
    keep = table.unit_keep(bounding.max_groups, random=True)
    one_value = table.per_unit(keep * (1 - keep))
    if bounding.pre_aggregate:
        return clipped_power_sums(
            table.unit_total, one_value, table.unit_group, n_groups, lower, uppers, power=2
        )
    values = table.values()
    single = table.unit_size[table.row_unit] == 1
    weight = np.where(single, one_value[table.row_unit], 0.0)
    variance = clipped_power_sums(values, weight, table.row_group, n_groups, lower, uppers, power=2)
    several = table.unit_size > 1
    varies = np.flatnonzero(several & ((keep < 1) | (table.unit_size > linf)))
    if varies.size == 0:
        return variance
    unit_code = np.full(len(keep), -1)
    unit_code[varies] = np.arange(varies.size)
    rows = np.flatnonzero(unit_code[table.row_unit] >= 0)
    weight = np.clip(values[rows, None], lower, uppers[None, :])
    mean, kept_variance = _kept_total_moments(
        unit_code[table.row_unit[rows]], table.unit_size[varies], weight, linf
    )
    pi = keep[varies][:, None]
    unit_variance = pi * kept_variance + pi * (1 - pi) * mean**2
    if table.unit_weight is not None:
        unit_variance = unit_variance * table.unit_weight[varies][:, None]
    return variance + sum_by(table.unit_group[varies], unit_variance, n_groups)
