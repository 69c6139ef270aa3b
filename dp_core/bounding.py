"""Contribution bounding: caps on records per person, clipping, pre-aggregation, their cost.

To release per-group counts or sums (e.g. visits per day) with differential privacy, each
person's influence must be bounded: at most ``max_groups`` groups per person (l0), at most
``max_per_group`` records per person in a group (linf), each value clipped to [L, U]
(or, with pre-aggregation, each person's total in a group clipped to [L, U]).
Sensitivities are for add/remove-one-person neighbours (Dwork & Roth 2014, Def 3.1;
Wilson et al. 2020, "Differentially private SQL with bounded user contribution", Sec 3).

Bounding trades noise for bias: data dropped or clipped moves the answer. The bias here is
exact, computed on the data: for "first" selection (first records in a given order) it is
deterministic; for "random" selection (a uniformly random subset of each person's groups,
and of their records in a group) it is the exact expectation over that random choice.
The error model follows PipelineDP's utility analysis: RMSE = sqrt(bias^2 + noise variance).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from dp_core.accounting import noise_epsilon_per_group
from dp_core.laplace import laplace_scale, laplace_std
from dp_core.validation import check_bounds, check_positive_int

Selection = Literal["random", "first"]
Statistic = Literal["count", "sum"]

__all__ = [
    "ContributionTable",
    "Sensitivity",
    "best_setting",
    "bounded_answers",
    "bounded_totals_by_cap",
    "bounded_totals_by_upper",
    "cap_contributions",
    "cap_summary",
    "cap_tradeoff",
    "check_bounding_frame",
    "clip_values",
    "contribution_histogram",
    "contribution_mask",
    "contribution_table",
    "error_summary",
    "expected_group_errors",
    "group_errors",
    "grouped_count_sensitivity",
    "grouped_sum_sensitivity",
    "person_group_totals",
    "release_sensitivity",
    "upper_tradeoff",
]


# ---------------------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------------------


def check_bounding_frame(
    frame: pd.DataFrame,
    id_column: str | None,
    group_column: str | None = None,
    value_column: str | None = None,
) -> None:
    """Raise ValueError with a readable sentence if the columns cannot be bounded."""
    if len(frame) == 0:
        raise ValueError("the table is empty: there is nothing to bound.")
    for role, column in (("person", id_column), ("group", group_column)):
        if column is None:
            continue
        if column not in frame.columns:
            raise ValueError(f"the {role} column '{column}' is not in the table.")
        missing = int(frame[column].isna().sum())
        if missing:
            raise ValueError(
                f"the {role} column '{column}' has {missing:,} missing value(s): every record "
                f"needs a {role}, or its contribution cannot be bounded."
            )
    if value_column is not None:
        if value_column not in frame.columns:
            raise ValueError(f"the value column '{value_column}' is not in the table.")
        values = frame[value_column]
        if pd.api.types.is_bool_dtype(values) or not pd.api.types.is_numeric_dtype(values):
            raise ValueError(
                f"the value column '{value_column}' is not numeric (type {values.dtype}): "
                "only numbers can be clipped and summed."
            )
        if values.isna().any():
            raise ValueError(f"the value column '{value_column}' has missing values.")


def _check_selection(selection: str) -> Selection:
    if selection not in ("random", "first"):
        raise ValueError(f"selection must be 'random' or 'first' (got {selection!r}).")
    return selection  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------
# Capping (vectorised: radix sorts and run lengths, no loop over records or persons)
# ---------------------------------------------------------------------------------------


def _dense_keys(values: pd.Series | np.ndarray) -> np.ndarray:
    """Non-negative int64 keys, equal exactly where values are equal."""
    array = np.asarray(values)
    if array.dtype.kind in "iu" and len(array):
        low, high = int(array.min()), int(array.max())
        if high - low < 4 * len(array) + 2**16:
            return array.astype(np.int64) - low
    return pd.factorize(array)[0].astype(np.int64)


def _radix_argsort(keys: np.ndarray) -> np.ndarray:
    """Stable argsort of non-negative integer keys, 16 bits per pass (LSD radix)."""
    order = None
    top = int(keys.max()) if len(keys) else 0
    shift = 0
    while True:
        current = keys if order is None else keys[order]
        step = np.argsort(((current >> shift) & 0xFFFF).astype(np.uint16), kind="stable")
        order = step if order is None else order[step]
        shift += 16
        if top >> shift == 0:
            return order


def _ranks_within(keys: np.ndarray) -> np.ndarray:
    """For each position, how many earlier positions hold the same key (a cumcount)."""
    return _ranks_and_runs(keys, with_runs=False)[0]


def _ranks_and_runs(
    keys: np.ndarray, *, with_runs: bool = True
) -> tuple[np.ndarray, np.ndarray | None]:
    """The cumcount of each position and a dense code of its key (0 .. distinct - 1)."""
    n = len(keys)
    order = _radix_argsort(keys)
    ordered = keys[order]
    starts_run = np.ones(n, dtype=bool)
    starts_run[1:] = ordered[1:] != ordered[:-1]
    run = np.cumsum(starts_run) - 1
    ranks = np.empty(n, dtype=np.int64)
    ranks[order] = np.arange(n) - np.flatnonzero(starts_run)[run]
    if not with_runs:
        return ranks, None
    dense = np.empty(n, dtype=np.int64)
    dense[order] = run
    return ranks, dense


def contribution_mask(
    frame: pd.DataFrame,
    id_column: str,
    max_per_id: int | None = None,
    *,
    group_column: str | None = None,
    max_groups_per_id: int | None = None,
    max_per_id_per_group: int | None = None,
    order_column: str | None = None,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """Boolean mask of the rows kept by the caps (see ``cap_contributions``)."""
    check_bounding_frame(frame, id_column, group_column)
    if (max_groups_per_id or max_per_id_per_group) and group_column is None:
        raise ValueError("a cap per group needs a group column.")
    names = (
        "the cap on records per person",
        "the cap on groups per person",
        "the cap on records per person per group",
    )
    max_per_id, max_groups_per_id, max_per_id_per_group = (
        None if cap is None else check_positive_int(cap, name)
        for cap, name in zip(
            (max_per_id, max_groups_per_id, max_per_id_per_group), names, strict=True
        )
    )
    n = len(frame)
    sequence = None  # the order records are considered in; None: table order
    if rng is not None:
        if max_per_id or max_per_id_per_group:
            sequence = rng.permutation(n)  # a uniformly random order of the records
    elif order_column is not None:
        if order_column not in frame.columns:
            raise ValueError(f"the order column '{order_column}' is not in the table.")
        if frame[order_column].isna().any():
            raise ValueError(f"the order column '{order_column}' has missing values.")
        sequence = _radix_argsort(pd.factorize(frame[order_column], sort=True)[0])

    def in_sequence(values: np.ndarray) -> np.ndarray:
        return values if sequence is None else values[sequence]

    person = in_sequence(_dense_keys(frame[id_column]))
    keep = np.ones(n, dtype=bool)  # in sequence order
    if group_column is not None and (max_groups_per_id or max_per_id_per_group):
        group = in_sequence(_dense_keys(frame[group_column]))
        pair_rank, pair = _ranks_and_runs(person * (int(group.max()) + 1) + group)
        if max_per_id_per_group:
            keep &= pair_rank < max_per_id_per_group
        if max_groups_per_id:
            first = np.flatnonzero(pair_rank == 0)  # each (person, group) once, in order
            if rng is not None:
                first = first[rng.permutation(len(first))]  # uniformly random group order
            group_rank = np.empty(len(first), dtype=np.int64)
            group_rank[pair[first]] = _ranks_within(person[first])
            keep &= group_rank[pair] < max_groups_per_id
    if max_per_id:
        kept = np.flatnonzero(keep)
        keep[kept[_ranks_within(person[kept]) >= max_per_id]] = False
    if sequence is None:
        return keep
    mask = np.empty(n, dtype=bool)
    mask[sequence] = keep
    return mask


def cap_contributions(
    frame: pd.DataFrame,
    id_column: str,
    max_per_id: int | None = None,
    *,
    group_column: str | None = None,
    max_groups_per_id: int | None = None,
    max_per_id_per_group: int | None = None,
    order_column: str | None = None,
    rng: np.random.Generator | None = None,
) -> pd.DataFrame:
    """The rows kept when each person keeps a bounded number of records.

    Caps, applied in this order: ``max_per_id_per_group`` records per person in a group
    (linf), ``max_groups_per_id`` groups per person (l0), ``max_per_id`` records per person.
    Kept are the first records in ``order_column`` order (ties and no column: table order),
    or, with ``rng``, a uniformly random subset (random records, and random groups for l0;
    ``order_column`` is then not used).
    """
    mask = contribution_mask(
        frame,
        id_column,
        max_per_id,
        group_column=group_column,
        max_groups_per_id=max_groups_per_id,
        max_per_id_per_group=max_per_id_per_group,
        order_column=order_column,
        rng=rng,
    )
    return frame[mask]


# ---------------------------------------------------------------------------------------
# Clipping and pre-aggregation
# ---------------------------------------------------------------------------------------


def clip_values(values: ArrayLike, lower: float, upper: float) -> np.ndarray:
    """Each value moved into [lower, upper] (clamping)."""
    lo, hi = check_bounds(lower, upper)
    return np.clip(np.asarray(values, dtype=float), lo, hi)


def person_group_totals(
    frame: pd.DataFrame, id_column: str, group_column: str, value_column: str
) -> pd.DataFrame:
    """One row per person and group: columns id, group, ``records`` and ``total`` value."""
    check_bounding_frame(frame, id_column, group_column, value_column)
    grouped = frame.groupby([id_column, group_column], sort=False, observed=True)[value_column]
    return grouped.agg(records="size", total="sum").reset_index()


# ---------------------------------------------------------------------------------------
# Sensitivities
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sensitivity:
    """How much one person can change a per-group release, add/remove neighbours.

    ``per_group``: any one group's answer (the L-infinity sensitivity); ``l1`` and ``l2``:
    the whole vector of group answers (Laplace uses L1, Gaussian uses L2).
    """

    per_group: float
    l1: float
    l2: float


def _vector_sensitivity(per_group: float, max_groups: int) -> Sensitivity:
    """A person changes at most max_groups coordinates by at most per_group each."""
    groups = check_positive_int(max_groups, "the cap on groups per person")
    return Sensitivity(per_group, groups * per_group, math.sqrt(groups) * per_group)


def grouped_count_sensitivity(max_groups: int, max_per_group: int) -> Sensitivity:
    """Counts: per group linf; L1 = l0 * linf; L2 = sqrt(l0) * linf (Wilson et al. 2020)."""
    per_group = check_positive_int(max_per_group, "the cap on records per person per group")
    return _vector_sensitivity(float(per_group), max_groups)


def grouped_sum_sensitivity(
    lower: float,
    upper: float,
    *,
    max_groups: int,
    max_per_group: int = 1,
    pre_aggregated: bool = False,
) -> Sensitivity:
    """Sums of values clipped to [L, U]: per group linf * max(|L|, |U|).

    With pre-aggregation, one clipped total per person per group: per group max(|L|, |U|).
    L1 = l0 * per group, L2 = sqrt(l0) * per group (add/remove; Dwork & Roth 2014, Def 3.1).
    """
    lo, hi = check_bounds(lower, upper)
    per_record = max(abs(lo), abs(hi))
    records = (
        1
        if pre_aggregated
        else check_positive_int(max_per_group, "the cap on records per person per group")
    )
    return _vector_sensitivity(records * per_record, max_groups)


# ---------------------------------------------------------------------------------------
# Sufficient statistics: the contribution histogram
# ---------------------------------------------------------------------------------------


def contribution_histogram(
    frame: pd.DataFrame, id_column: str, group_column: str | None = None
) -> pd.Series:
    """Persons with k records (or k distinct groups), for k = 1 .. max: index k, value n_k."""
    check_bounding_frame(frame, id_column, group_column)
    if group_column is None:
        per_person = frame.groupby(id_column, sort=False).size()
    else:
        per_person = frame.groupby(id_column, sort=False)[group_column].nunique()
    counts = np.bincount(per_person.to_numpy())
    k = np.arange(1, len(counts))
    return pd.Series(counts[1:], index=pd.Index(k, name="contributions"), name="persons")


def cap_summary(histogram: pd.Series, caps: ArrayLike | None = None) -> pd.DataFrame:
    """For each cap c: records kept sum_k n_k min(k, c), dropped, persons losing records.

    One outer minimum over (k, c): every cap at once from the histogram alone.
    """
    k = histogram.index.to_numpy(dtype=np.int64)
    n_k = histogram.to_numpy(dtype=np.int64)
    caps = np.arange(1, int(k.max()) + 1) if caps is None else np.asarray(caps, dtype=np.int64)
    if caps.size and caps.min() < 1:
        raise ValueError("a cap must be at least 1.")
    total = int(n_k @ k)
    kept = np.minimum.outer(caps, k) @ n_k
    persons_over = (k[None, :] > caps[:, None]) @ n_k
    persons = int(n_k.sum())
    return pd.DataFrame(
        {
            "cap": caps,
            "records_kept": kept,
            "records_dropped": total - kept,
            "share_records_dropped": (total - kept) / total,
            "persons_losing_records": persons_over,
            "share_persons_losing_records": persons_over / persons,
        }
    )


# ---------------------------------------------------------------------------------------
# Exact bias of bounding, per group, from a table of contribution units
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ContributionTable:
    """A table reduced to what bounding analysis needs (build with ``contribution_table``).

    Rows: group code, value, unit (person x group) index, rank in the unit, unit size.
    Units: group code, the person's number of groups k, the unit's rank among the person's
    groups (first appearance in order), the unit's total value.
    """

    groups: pd.Index
    row_group: np.ndarray
    row_value: np.ndarray | None
    row_unit: np.ndarray
    row_rank: np.ndarray
    unit_size: np.ndarray
    unit_group: np.ndarray
    unit_groups_of_person: np.ndarray
    unit_rank: np.ndarray
    unit_total: np.ndarray | None

    @property
    def max_groups_per_person(self) -> int:
        return int(self.unit_groups_of_person.max())

    @property
    def max_records_per_unit(self) -> int:
        return int(self.unit_size.max())

    def true_totals(self, statistic: Statistic) -> np.ndarray:
        """Per group, before any bounding: record counts, or sums of the raw values."""
        weights = None if statistic == "count" else self._values()
        return np.bincount(self.row_group, weights=weights, minlength=len(self.groups))

    def _values(self) -> np.ndarray:
        if self.row_value is None:
            raise ValueError("a sum needs a value column.")
        return self.row_value


def contribution_table(
    frame: pd.DataFrame,
    id_column: str | None,
    group_column: str,
    value_column: str | None = None,
    *,
    order_column: str | None = None,
) -> ContributionTable:
    """Reduce a table to contribution units; ``id_column=None`` means one person per row."""
    check_bounding_frame(frame, id_column, group_column, value_column)
    sequence = (
        np.arange(len(frame))
        if order_column is None
        else np.argsort(frame[order_column].to_numpy(), kind="stable")
    )
    ordered = frame.iloc[sequence]
    group_codes, groups = pd.factorize(ordered[group_column], sort=True)
    person = (
        np.arange(len(frame), dtype=np.int64)
        if id_column is None
        else _dense_keys(ordered[id_column])
    )
    row_rank, row_unit = _ranks_and_runs(person * len(groups) + group_codes)
    unit_first = np.flatnonzero(row_rank == 0)  # units in order of first appearance
    n_units = len(unit_first)
    unit_person = np.empty(n_units, dtype=np.int64)
    unit_person[row_unit[unit_first]] = person[unit_first]
    unit_rank = np.empty(n_units, dtype=np.int64)
    unit_rank[row_unit[unit_first]] = _ranks_within(person[unit_first])
    unit_group = np.empty(n_units, dtype=np.int64)
    unit_group[row_unit[unit_first]] = group_codes[unit_first]
    groups_per_person = np.bincount(unit_person)
    values = None if value_column is None else ordered[value_column].to_numpy(dtype=float)
    return ContributionTable(
        groups=pd.Index(groups, name=group_column),
        row_group=group_codes.astype(np.int64),
        row_value=values,
        row_unit=row_unit,
        row_rank=row_rank,
        unit_size=np.bincount(row_unit, minlength=n_units),
        unit_group=unit_group,
        unit_groups_of_person=groups_per_person[unit_person],
        unit_rank=unit_rank,
        unit_total=None if values is None else np.bincount(row_unit, weights=values),
    )


def _unit_contributions(
    table: ContributionTable,
    statistic: Statistic,
    *,
    max_per_group: int,
    lower: float | None,
    upper: float | None,
    pre_aggregate: bool,
    selection: Selection,
) -> np.ndarray:
    """Each unit's expected contribution to its group once linf and clipping are applied.

    Random: each of r records is kept with probability min(1, linf / r); first: the records
    of rank < linf. Pre-aggregation: the unit's total clipped to [L, U] (linf not used).
    """
    n_units = len(table.unit_group)
    if statistic == "sum" and pre_aggregate:
        return clip_values(table.unit_total, lower, upper)
    if selection == "random":
        weight = np.minimum(1.0, max_per_group / table.unit_size[table.row_unit])
    else:
        weight = (table.row_rank < max_per_group).astype(float)
    if statistic == "sum":
        weight = weight * clip_values(table._values(), lower, upper)
    return np.bincount(table.row_unit, weights=weight, minlength=n_units)


def _check_statistic(statistic: str, lower: object, upper: object) -> Statistic:
    if statistic not in ("count", "sum"):
        raise ValueError(f"statistic must be 'count' or 'sum' (got {statistic!r}).")
    if statistic == "sum":
        check_bounds(lower, upper)
    return statistic  # type: ignore[return-value]


def bounded_totals_by_cap(
    table: ContributionTable,
    statistic: Statistic,
    *,
    caps: ArrayLike,
    max_per_group: int = 1,
    lower: float | None = None,
    upper: float | None = None,
    pre_aggregate: bool = False,
    selection: Selection = "random",
) -> np.ndarray:
    """Expected per-group answers after bounding, shape (groups, caps) for each l0 cap.

    Random: a person with k groups keeps each with probability min(1, c / k), so
    E[answer_g] = sum over k of W[g, k] * min(1, c / k), W = contributions by (group, k).
    First: the units of rank < c, a cumulative sum over ranks. Exact, no sampling.
    """
    statistic = _check_statistic(statistic, lower, upper)
    selection = _check_selection(selection)
    check_positive_int(max_per_group, "the cap on records per person per group")
    caps = np.asarray(caps, dtype=np.int64)
    if caps.size == 0 or caps.min() < 1:
        raise ValueError("the cap on groups per person must be at least 1.")
    contribution = _unit_contributions(
        table,
        statistic,
        max_per_group=max_per_group,
        lower=lower,
        upper=upper,
        pre_aggregate=pre_aggregate,
        selection=selection,
    )
    n_groups = len(table.groups)
    if selection == "random":
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


def bounded_totals_by_upper(
    table: ContributionTable,
    *,
    uppers: ArrayLike,
    lower: float,
    max_groups: int,
    max_per_group: int = 1,
    pre_aggregate: bool = False,
    selection: Selection = "random",
) -> np.ndarray:
    """Expected per-group sums after bounding, shape (groups, uppers), for each upper bound U.

    With kept-weights w_i and values a_i = max(v_i, L): sum_i w_i min(a_i, U)
    = sum_i w_i a_i - sum_{a_i > U} w_i (a_i - U); one pass over the rows for all U at once.
    """
    selection = _check_selection(selection)
    uppers = np.asarray(uppers, dtype=float)
    if uppers.size == 0 or not np.all(np.diff(uppers) > 0):
        raise ValueError("the upper bounds to compare must be increasing.")
    check_bounds(lower, uppers[0])
    groups = check_positive_int(max_groups, "the cap on groups per person")
    k = table.unit_groups_of_person
    unit_keep = (
        np.minimum(1.0, groups / k) if selection == "random" else (table.unit_rank < groups) * 1.0
    )
    if pre_aggregate:
        values, weight, group = table.unit_total, unit_keep, table.unit_group
    else:
        check_positive_int(max_per_group, "the cap on records per person per group")
        if selection == "random":
            record_keep = np.minimum(1.0, max_per_group / table.unit_size[table.row_unit])
        else:
            record_keep = (table.row_rank < max_per_group) * 1.0
        values, group = table._values(), table.row_group
        weight = unit_keep[table.row_unit] * record_keep
    raised = np.maximum(values, lower)
    n_groups, n_uppers = len(table.groups), len(uppers)
    above = np.searchsorted(uppers, raised, side="left")  # number of U below each value
    cell = group * (n_uppers + 1) + above
    size = n_groups * (n_uppers + 1)
    weight_sum = np.bincount(cell, weight, size).reshape(n_groups, n_uppers + 1)
    value_sum = np.bincount(cell, weight * raised, size).reshape(n_groups, n_uppers + 1)
    # rows with above > j have raised value > U_j: suffix sums over the bins after j
    weight_over = np.cumsum(weight_sum[:, ::-1], axis=1)[:, ::-1][:, 1:]
    value_over = np.cumsum(value_sum[:, ::-1], axis=1)[:, ::-1][:, 1:]
    return value_sum.sum(axis=1)[:, None] - (value_over - uppers[None, :] * weight_over)


# ---------------------------------------------------------------------------------------
# Bias, noise and RMSE
# ---------------------------------------------------------------------------------------


def error_summary(
    true_totals: np.ndarray, bounded: np.ndarray, noise_std: ArrayLike
) -> pd.DataFrame:
    """Root-mean-square over groups of bias, noise and error, one row per setting.

    ``bounded`` has shape (groups, settings); ``noise_std`` one value per setting.
    RMSE^2 = bias^2 + noise variance (bias and noise independent; PipelineDP utility
    analysis). Root-mean-square over groups keeps this identity.
    """
    bias = bounded - np.asarray(true_totals, dtype=float)[:, None]
    bias_rms = np.sqrt(np.mean(bias**2, axis=0))
    noise = np.broadcast_to(np.asarray(noise_std, dtype=float), bias_rms.shape)
    return pd.DataFrame(
        {"bias": bias_rms, "noise_std": noise, "rmse": np.sqrt(bias_rms**2 + noise**2)}
    )


def group_errors(
    groups: pd.Index, true_totals: np.ndarray, bounded: np.ndarray, noise_std: float
) -> pd.DataFrame:
    """Per group: the truth, the expected answer after bounding, bias, noise sd and RMSE."""
    bias = np.asarray(bounded, dtype=float) - true_totals
    return pd.DataFrame(
        {
            "true": true_totals,
            "bounded": bounded,
            "bias": bias,
            "noise_std": noise_std,
            "rmse": np.sqrt(bias**2 + noise_std**2),
        },
        index=groups,
    )


def best_setting(summary: pd.DataFrame, settings: ArrayLike) -> tuple[float, float]:
    """The setting with the smallest RMSE (the smallest setting on ties) and that RMSE."""
    index = int(np.argmin(summary["rmse"].to_numpy()))
    return np.asarray(settings)[index].item(), float(summary["rmse"].iloc[index])


# ---------------------------------------------------------------------------------------
# What a page shows: one bounded draw, and the trade-offs for every cap and bound
# ---------------------------------------------------------------------------------------


def bounded_answers(
    rng: np.random.Generator,
    frame: pd.DataFrame,
    *,
    id_column: str | None,
    group_column: str,
    value_column: str | None,
    max_groups: int,
    max_per_group: int = 1,
    lower: float | None = None,
    upper: float | None = None,
    pre_aggregate: bool = False,
    selection: Selection = "random",
    order_column: str | None = None,
) -> pd.DataFrame:
    """Per group: the true count and sum, and both after bounding the data once.

    The l0 cap picks each person's groups (random with ``rng``, or first in order), then
    linf their records in a group. Counts use the records kept; sums clip each kept record
    to [L, U], or with ``pre_aggregate`` each person's total over the kept groups' records.
    Without a value column only the counts are returned.
    """
    check_bounding_frame(frame, id_column, group_column, value_column)
    selection = _check_selection(selection)
    chooser = rng if selection == "random" else None
    if id_column is None:
        in_groups = records = frame
    else:
        in_groups = cap_contributions(
            frame,
            id_column,
            group_column=group_column,
            max_groups_per_id=max_groups,
            order_column=order_column,
            rng=chooser,
        )
        records = cap_contributions(
            in_groups,
            id_column,
            group_column=group_column,
            max_per_id_per_group=max_per_group,
            order_column=order_column,
            rng=chooser,
        )
    groups = pd.Index(np.sort(frame[group_column].unique()), name=group_column)
    answers = pd.DataFrame(
        {
            "true_count": frame.groupby(group_column).size(),
            "bounded_count": records.groupby(group_column).size(),
        },
        index=groups,
    )
    if value_column is None:
        return answers.fillna(0)
    check_bounds(lower, upper)
    if pre_aggregate and id_column is not None:
        totals = person_group_totals(in_groups, id_column, group_column, value_column)
        values, value_groups = totals["total"], totals[group_column]
    else:
        values, value_groups = records[value_column], records[group_column]
    clipped = pd.Series(clip_values(values, lower, upper), index=values.index)
    answers["true_sum"] = frame.groupby(group_column)[value_column].sum()
    answers["bounded_sum"] = clipped.groupby(value_groups).sum()
    return answers.fillna(0)


def release_sensitivity(
    statistic: Statistic,
    *,
    max_groups: int,
    max_per_group: int = 1,
    lower: float | None = None,
    upper: float | None = None,
    pre_aggregate: bool = False,
) -> Sensitivity:
    """The sensitivity of per-group counts or (clipped, maybe pre-aggregated) sums."""
    statistic = _check_statistic(statistic, lower, upper)
    if statistic == "count":
        return grouped_count_sensitivity(max_groups, max_per_group)
    return grouped_sum_sensitivity(
        lower,
        upper,
        max_groups=max_groups,
        max_per_group=max_per_group,
        pre_aggregated=pre_aggregate,
    )


def _laplace_noise_std(sensitivity: Sensitivity, epsilon: float, joint: bool, cap: int, n: int):
    """sd = sqrt(2) * per-group sensitivity / the epsilon each group's noise gets."""
    eps = noise_epsilon_per_group(epsilon, joint=joint, max_groups=cap, n_groups=n)
    return laplace_std(laplace_scale(sensitivity.per_group, eps))


def expected_group_errors(
    table: ContributionTable,
    statistic: Statistic,
    *,
    epsilon_per_group: float,
    joint: bool,
    max_groups: int,
    max_per_group: int = 1,
    lower: float | None = None,
    upper: float | None = None,
    pre_aggregate: bool = False,
    selection: Selection = "random",
) -> pd.DataFrame:
    """Per group: truth, expected bounded answer, exact bias, Laplace noise sd and RMSE."""
    settings = {
        "max_per_group": max_per_group,
        "lower": lower,
        "upper": upper,
        "pre_aggregate": pre_aggregate,
    }
    bounded = bounded_totals_by_cap(
        table, statistic, caps=[max_groups], selection=selection, **settings
    )[:, 0]
    sensitivity = release_sensitivity(statistic, max_groups=max_groups, **settings)
    noise = _laplace_noise_std(sensitivity, epsilon_per_group, joint, max_groups, len(table.groups))
    return group_errors(table.groups, table.true_totals(statistic), bounded, noise)


def cap_tradeoff(
    table: ContributionTable,
    statistic: Statistic,
    *,
    caps: ArrayLike,
    epsilon_per_group: float,
    joint: bool,
    max_per_group: int = 1,
    lower: float | None = None,
    upper: float | None = None,
    pre_aggregate: bool = False,
    selection: Selection = "random",
) -> pd.DataFrame:
    """Bias, noise sd and RMSE (root mean square over groups) for each cap on groups."""
    settings = {
        "max_per_group": max_per_group,
        "lower": lower,
        "upper": upper,
        "pre_aggregate": pre_aggregate,
    }
    caps = np.asarray(caps, dtype=np.int64)
    bounded = bounded_totals_by_cap(table, statistic, caps=caps, selection=selection, **settings)
    noise = [
        _laplace_noise_std(
            release_sensitivity(statistic, max_groups=int(cap), **settings),
            epsilon_per_group,
            joint,
            int(cap),
            len(table.groups),
        )
        for cap in caps
    ]
    summary = error_summary(table.true_totals(statistic), bounded, noise)
    return summary.assign(cap=caps)[["cap", "bias", "noise_std", "rmse"]]


def upper_tradeoff(
    table: ContributionTable,
    *,
    uppers: ArrayLike,
    lower: float,
    max_groups: int,
    epsilon_per_group: float,
    joint: bool,
    max_per_group: int = 1,
    pre_aggregate: bool = False,
    selection: Selection = "random",
) -> pd.DataFrame:
    """Bias, noise sd and RMSE of per-group sums for each upper clipping bound U."""
    uppers = np.asarray(uppers, dtype=float)
    bounded = bounded_totals_by_upper(
        table,
        uppers=uppers,
        lower=lower,
        max_groups=max_groups,
        max_per_group=max_per_group,
        pre_aggregate=pre_aggregate,
        selection=selection,
    )
    noise = [
        _laplace_noise_std(
            grouped_sum_sensitivity(
                lower,
                upper,
                max_groups=max_groups,
                max_per_group=max_per_group,
                pre_aggregated=pre_aggregate,
            ),
            epsilon_per_group,
            joint,
            max_groups,
            len(table.groups),
        )
        for upper in uppers
    ]
    summary = error_summary(table.true_totals("sum"), bounded, noise)
    return summary.assign(upper=uppers)[["upper", "bias", "noise_std", "rmse"]]
