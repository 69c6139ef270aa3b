"""The exact bias of bounding: expected per-group answers after caps and clipping.

Bounding trades noise for bias: data dropped or clipped moves the answer. "First" selection
(first records in a given order) is deterministic, so its answer is exact; "random"
selection keeps a uniformly random c of a person's k groups (l0) and a uniformly random
m = min(r, linf) of their r records in a kept group, and the expected answer is exact
(linearity of expectation, no sampling). Every cap at once from the units by number of
groups k (or by rank); every upper bound U at once by clipped power sums; a lower bound L by
clip(v, L, U) = -clip(-v, -U, -L) (dp_core.bounding.search).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from dp_core.bounding.caps import Bounding, Statistic, _check_statistic, clip_values
from dp_core.bounding.table import ContributionTable
from dp_core.errors import CodedError
from dp_core.validation import check_bounds

__all__ = [
    "bounded_totals_by_cap",
    "bounded_totals_by_upper",
    "clipped_power_sums",
    "first_answers",
]


def check_caps(caps: ArrayLike) -> np.ndarray:
    """Caps on groups per person to compare: whole numbers of at least 1, at least one."""
    caps = np.asarray(caps, dtype=np.int64)
    if caps.size == 0 or caps.min() < 1:
        raise CodedError("bounding_group_caps")
    return caps


def check_increasing(bounds: ArrayLike, name: str) -> np.ndarray:
    """Bounds to compare (``name``: "lower" or "upper"): at least one, strictly increasing."""
    bounds = np.asarray(bounds, dtype=float)
    if bounds.size == 0 or not np.all(np.diff(bounds) > 0):
        raise CodedError("bounding_lowers_order" if name == "lower" else "bounding_uppers_order")
    return bounds


def check_uppers(uppers: ArrayLike, lower: float) -> np.ndarray:
    """Upper bounds to compare: increasing, all above the lower bound."""
    uppers = check_increasing(uppers, "upper")
    check_bounds(lower, uppers[0])
    return uppers


def unit_contributions(
    table: ContributionTable, statistic: Statistic, bounding: Bounding
) -> np.ndarray:
    """Each unit's expected contribution to its group once linf and clipping are applied.

    Random: each of r records is kept with probability min(1, linf / r); first: the records
    of rank < linf. Pre-aggregation: the unit's total clipped to [L, U] (linf not used).
    """
    if statistic == "sum" and bounding.pre_aggregate:
        return clip_values(table.unit_total, bounding.lower, bounding.upper)
    weight = table.record_keep(bounding.max_per_group, bounding.selection == "random")
    if statistic == "sum":
        weight = weight * clip_values(table.values(), bounding.lower, bounding.upper)
    return np.bincount(table.row_unit, weights=weight, minlength=len(table.unit_group))


def bounded_totals_by_cap(
    table: ContributionTable, statistic: Statistic, bounding: Bounding, *, caps: ArrayLike
) -> np.ndarray:
    """Expected per-group answers after bounding, shape (groups, caps): each cap as l0.

    ``bounding`` with each cap in ``caps`` in place of its ``max_groups``.
    Random: a person with k groups keeps each with probability min(1, c / k), so
    E[answer_g] = sum over k of W[g, k] * min(1, c / k), W = contributions by (group, k).
    First: the units of rank < c, a cumulative sum over ranks. Exact, no sampling.
    """
    statistic = _check_statistic(statistic, bounding)
    caps = check_caps(caps)
    contribution = table.per_unit(unit_contributions(table, statistic, bounding))
    n_groups = len(table.groups)
    if bounding.selection == "random":
        k = table.unit_groups_of_person
        width = int(k.max()) + 1
        by_k = np.bincount(table.unit_group * width + k, contribution, n_groups * width)
        keep = np.minimum(1.0, caps[None, :] / np.maximum(np.arange(width), 1)[:, None])
        return by_k.reshape(n_groups, width) @ keep
    rank = table.unit_rank
    width = int(rank.max()) + 1
    by_rank = np.bincount(table.unit_group * width + rank, contribution, n_groups * width)
    cumulative = np.cumsum(by_rank.reshape(n_groups, width), axis=1)
    return cumulative[:, np.minimum(caps, width) - 1]


def first_answers(table: ContributionTable, bounding: Bounding, *, sums: bool) -> pd.DataFrame:
    """Per group of ``table``: the true count (and with ``sums`` the true sum) and both after
    keeping each person's first groups and records (``bounding.selection`` "first"), exact
    from the units: the columns caps.bounded_answers computes from the rows, for a table
    whose rows are not at hand (a data path's unit profiles)."""
    if bounding.selection != "first":
        raise CodedError("bounding_first_only")
    caps = [bounding.max_groups]
    answers = pd.DataFrame(
        {
            "true_count": table.true_totals("count"),
            "bounded_count": bounded_totals_by_cap(table, "count", bounding, caps=caps)[:, 0],
        },
        index=table.groups,
    )
    if sums:
        answers["true_sum"] = table.true_totals("sum")
        answers["bounded_sum"] = bounded_totals_by_cap(table, "sum", bounding, caps=caps)[:, 0]
    counts = ["true_count", "bounded_count"]
    answers[counts] = answers[counts].round().astype(np.int64)
    return answers


def bounded_totals_by_upper(
    table: ContributionTable, bounding: Bounding, *, uppers: ArrayLike
) -> np.ndarray:
    """Expected per-group sums after bounding, shape (groups, uppers): each U as the upper bound.

    ``bounding`` with each U in ``uppers`` in place of its ``upper``.
    With kept-weights w_i: sum_i w_i min(max(v_i, L), U), by :func:`clipped_power_sums`.
    """
    uppers = check_uppers(uppers, bounding.lower)
    random = bounding.selection == "random"
    unit_keep = table.unit_keep(bounding.max_groups, random)
    if bounding.pre_aggregate:
        values, weight, group = table.unit_total, table.per_unit(unit_keep), table.unit_group
    else:
        values, group = table.values(), table.row_group
        weight = table.per_row(
            unit_keep[table.row_unit] * table.record_keep(bounding.max_per_group, random)
        )
    return clipped_power_sums(
        values, weight, group, len(table.groups), bounding.lower, uppers, power=1
    )


def clipped_power_sums(
    values: np.ndarray,
    weight: np.ndarray,
    group: np.ndarray,
    n_groups: int,
    lower: float,
    uppers: np.ndarray,
    *,
    power: int,
) -> np.ndarray:
    """Per group and U: sum_i weight_i min(a_i, U)^power, a_i = max(v_i, L); (groups, uppers).

    = sum_i w_i a_i^power - sum_{a_i > U} w_i (a_i^power - U^power): one pass over the rows
    puts each in a bin by how many U lie below a_i; suffix sums give every U at once.
    """
    if values is None:
        raise CodedError("bounding_no_values")
    raised = np.maximum(values, lower)
    n_uppers = len(uppers)
    above = np.searchsorted(uppers, raised, side="left")  # number of U below each value
    cell = group * (n_uppers + 1) + above
    size = n_groups * (n_uppers + 1)
    weight_sum = np.bincount(cell, weight, size).reshape(n_groups, n_uppers + 1)
    value_sum = np.bincount(cell, weight * raised**power, size).reshape(n_groups, n_uppers + 1)
    # rows with above > j have raised value > U_j: suffix sums over the bins after j
    weight_over = np.cumsum(weight_sum[:, ::-1], axis=1)[:, ::-1][:, 1:]
    value_over = np.cumsum(value_sum[:, ::-1], axis=1)[:, ::-1][:, 1:]
    return value_sum.sum(axis=1)[:, None] - (value_over - uppers[None, :] ** power * weight_over)
