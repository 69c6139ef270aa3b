"""The caps on records per person, clipping, pre-aggregation and their sensitivity.

To release per-group counts or sums (e.g. visits per day) with differential privacy, each
person's influence must be bounded: at most ``max_groups`` groups per person (l0), at most
``max_per_group`` records per person in a group (linf), each value clipped to [L, U]
(or, with pre-aggregation, each person's total in a group clipped to [L, U]).
Sensitivities are for add/remove-one-person neighbours (Dwork & Roth 2014, Def 3.1;
Wilson et al. 2020, "Differentially private SQL with bounded user contribution", Sec 3).

Capping keeps the first records in a chosen order, or a uniformly random subset; it is
vectorised (radix sorts and run lengths), never a loop over records or persons.
``Bounding`` holds these settings once, validated, and every bounding function takes it whole.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from dp_core.errors import CodedError
from dp_core.validation import check_bounds, check_positive_int

Selection = Literal["random", "first"]
Statistic = Literal["count", "sum"]

__all__ = [
    "Bounding",
    "Sensitivity",
    "bounded_answers",
    "cap_contributions",
    "cap_summary",
    "check_bounding_frame",
    "clip_values",
    "contribution_histogram",
    "grouped_count_sensitivity",
    "grouped_sum_sensitivity",
    "person_group_totals",
    "release_sensitivity",
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
        raise CodedError("bounding_table_empty")
    roles = (
        (id_column, "bounding_person_column_missing", "bounding_person_column_gaps"),
        (group_column, "bounding_group_column_missing", "bounding_group_column_gaps"),
    )
    for column, absent, gaps in roles:
        if column is None:
            continue
        if column not in frame.columns:
            raise CodedError(absent, column=column)
        missing = int(frame[column].isna().sum())
        if missing:
            raise CodedError(gaps, column=column, count=f"{missing:,}")
    if value_column is not None:
        if value_column not in frame.columns:
            raise CodedError("bounding_value_column_missing", column=value_column)
        values = frame[value_column]
        if pd.api.types.is_bool_dtype(values) or not pd.api.types.is_numeric_dtype(values):
            raise CodedError(
                "bounding_value_column_type", column=value_column, dtype=str(values.dtype)
            )
        if values.isna().any():
            raise CodedError("bounding_value_column_gaps", column=value_column)
        if not np.isfinite(values.to_numpy(dtype=float)).all():
            raise CodedError("bounding_value_column_infinite", column=value_column)


def _check_selection(selection: str) -> Selection:
    if selection not in ("random", "first"):
        raise CodedError(
            "choice", name="selection", choices="'random', 'first'", got=repr(selection)
        )
    return selection  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------
# The bounds on one person's contribution, as one value
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bounding:
    """How one person's contribution to per-group answers is bounded; checked when made.

    ``max_groups`` (l0): groups per person; ``max_per_group`` (linf): records per person in
    one group; ``lower``, ``upper``: the clipping bounds [L, U] for sums (both None when only
    counts are bounded); ``pre_aggregate``: clip each person's total in a group instead of
    each record (linf is then not used for sums); ``selection``: which records a capped
    person keeps, a uniformly ``"random"`` choice or the ``"first"`` in order.
    Sweeps (every cap, every bound) take one Bounding and replace the swept field.
    Wilson et al. 2020, "Differentially private SQL with bounded user contribution", Sec 3.
    """

    max_groups: int = 1
    max_per_group: int = 1
    lower: float | None = None
    upper: float | None = None
    pre_aggregate: bool = False
    selection: Selection = "random"

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(
            self, "max_groups", check_positive_int(self.max_groups, "the cap on groups per person")
        )
        set_(
            self,
            "max_per_group",
            check_positive_int(self.max_per_group, "the cap on records per person per group"),
        )
        if (self.lower is None) != (self.upper is None):
            raise CodedError("bounding_bounds_pair")
        if self.lower is not None:
            lower, upper = check_bounds(self.lower, self.upper)
            set_(self, "lower", lower)
            set_(self, "upper", upper)
        set_(self, "pre_aggregate", bool(self.pre_aggregate))
        _check_selection(self.selection)

    @property
    def clipped(self) -> bool:
        """Whether there are clipping bounds (needed for sums)."""
        return self.lower is not None

    def with_cap(self, max_groups: int) -> Bounding:
        """The same bounds with another cap on groups per person (l0)."""
        return replace(self, max_groups=max_groups)

    def with_bounds(self, lower: float, upper: float) -> Bounding:
        """The same caps with other clipping bounds [L, U]."""
        return replace(self, lower=lower, upper=upper)


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


# A person x group table is used when it has at most this many cells per record.
_DENSE_CELLS_PER_RECORD = 4


def _groups_kept(
    cell: np.ndarray, n_groups: int, cap: int, rng: np.random.Generator | None
) -> np.ndarray:
    """Records whose (person, group) cell is among the person's ``cap`` kept groups.

    Kept: the first ``cap`` groups by first appearance in the sequence, or with ``rng`` a
    uniformly random ``cap`` of the person's groups (the ``cap`` smallest of independent
    uniform keys). Dense person x group table when small enough, else sorting.
    """
    n = len(cell)
    n_cells = int(cell.max()) // n_groups * n_groups + n_groups
    if n_cells <= _DENSE_CELLS_PER_RECORD * max(n, 2**14):
        present = np.zeros(n_cells, dtype=bool)
        present[cell] = True
        if rng is None:
            key = np.full(n_cells, n, dtype=np.int64)  # absent cells sort last
            np.minimum.at(key, cell, np.arange(n))  # first appearance
        else:
            key = np.where(present, rng.random(n_cells), 2.0)
        table = key.reshape(-1, n_groups)
        if cap >= n_groups:
            return np.ones(n, dtype=bool)
        threshold = np.partition(table, cap - 1, axis=1)[:, cap - 1]
        kept = (table <= threshold[:, None]).ravel()
        # equal random keys (chance about 2^-53 per pair) could keep too many: sort instead
        if rng is None or (kept & present).reshape(-1, n_groups).sum(axis=1).max() <= cap:
            return kept[cell]
    pair_rank, pair = _ranks_and_runs(cell)
    first = np.flatnonzero(pair_rank == 0)  # each (person, group) once, in order
    if rng is not None:
        first = first[rng.permutation(len(first))]  # uniformly random group order
    group_rank = np.empty(len(first), dtype=np.int64)
    group_rank[pair[first]] = _ranks_within(cell[first] // n_groups)
    return group_rank[pair] < cap


def _checked_caps(
    max_per_id: int | None, max_groups_per_id: int | None, max_per_id_per_group: int | None
) -> tuple[int | None, int | None, int | None]:
    """The three caps of ``cap_contributions``, each None (no cap) or a positive int."""
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
    return max_per_id, max_groups_per_id, max_per_id_per_group


def _record_sequence(
    frame: pd.DataFrame,
    order_column: str | None,
    rng: np.random.Generator | None,
    *,
    shuffle: bool,
) -> np.ndarray | None:
    """The order records are considered in; None: table order.

    With ``rng``, a uniformly random order when ``shuffle`` (a cap on records needs one);
    else the order of ``order_column`` (a stable sort, ties in table order).
    """
    if rng is not None:
        return rng.permutation(len(frame)) if shuffle else None
    if order_column is None:
        return None
    if order_column not in frame.columns:
        raise CodedError("bounding_order_column_missing", column=order_column)
    if frame[order_column].isna().any():
        raise CodedError("bounding_order_column_gaps", column=order_column)
    return _radix_argsort(pd.factorize(frame[order_column], sort=True)[0])


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
    check_bounding_frame(frame, id_column, group_column)
    if (max_groups_per_id or max_per_id_per_group) and group_column is None:
        raise CodedError("bounding_group_column_needed")
    max_per_id, max_groups_per_id, max_per_id_per_group = _checked_caps(
        max_per_id, max_groups_per_id, max_per_id_per_group
    )
    n = len(frame)
    sequence = _record_sequence(
        frame, order_column, rng, shuffle=bool(max_per_id or max_per_id_per_group)
    )

    def in_sequence(values: np.ndarray) -> np.ndarray:
        return values if sequence is None else values[sequence]

    person = in_sequence(_dense_keys(frame[id_column]))
    keep = np.ones(n, dtype=bool)  # in sequence order
    if group_column is not None and (max_groups_per_id or max_per_id_per_group):
        group = in_sequence(_dense_keys(frame[group_column]))
        cell = person * (int(group.max()) + 1) + group
        if max_per_id_per_group:
            keep &= _ranks_within(cell) < max_per_id_per_group
        if max_groups_per_id:
            keep &= _groups_kept(cell, int(group.max()) + 1, max_groups_per_id, rng)
    if max_per_id:
        kept = np.flatnonzero(keep)
        keep[kept[_ranks_within(person[kept]) >= max_per_id]] = False
    if sequence is None:
        return frame[keep]
    mask = np.empty(n, dtype=bool)
    mask[sequence] = keep
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
        raise CodedError("bounding_cap_minimum")
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


def _check_statistic(statistic: str, bounding: Bounding) -> Statistic:
    if statistic not in ("count", "sum"):
        raise CodedError("choice", name="statistic", choices="'count', 'sum'", got=repr(statistic))
    if statistic == "sum" and not bounding.clipped:
        raise CodedError("bounding_sum_bounds")
    return statistic  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------
# One bounded draw of the data, and the sensitivity of its release
# ---------------------------------------------------------------------------------------


def _capped_records(
    rng: np.random.Generator,
    frame: pd.DataFrame,
    bounding: Bounding,
    id_column: str | None,
    group_column: str,
    order_column: str | None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the records of each person's kept groups (l0), the records kept of those (linf)).

    Without a person column every record is its own person: nothing is capped.
    """
    if id_column is None:
        return frame, frame
    chooser = rng if bounding.selection == "random" else None
    in_groups = cap_contributions(
        frame,
        id_column,
        group_column=group_column,
        max_groups_per_id=bounding.max_groups,
        order_column=order_column,
        rng=chooser,
    )
    records = cap_contributions(
        in_groups,
        id_column,
        group_column=group_column,
        max_per_id_per_group=bounding.max_per_group,
        order_column=order_column,
        rng=chooser,
    )
    return in_groups, records


def bounded_answers(
    rng: np.random.Generator,
    frame: pd.DataFrame,
    bounding: Bounding,
    *,
    id_column: str | None,
    group_column: str,
    value_column: str | None,
    order_column: str | None = None,
    groups: pd.Index | None = None,
) -> pd.DataFrame:
    """Per group: the true count and sum, and both after bounding the data once.

    The l0 cap picks each person's groups (random with ``rng``, or first in order), then
    linf their records in a group. Counts use the records kept; sums clip each kept record
    to [L, U], or with ``pre_aggregate`` each person's total over the kept groups' records.
    Without a value column only the counts are returned. ``groups``: the groups to answer,
    in order (e.g. a public domain; absent ones get 0); by default the data's, sorted.
    """
    check_bounding_frame(frame, id_column, group_column, value_column)
    in_groups, records = _capped_records(
        rng, frame, bounding, id_column, group_column, order_column
    )
    if groups is None:
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
    if not bounding.clipped:
        raise CodedError("bounding_sum_bounds")
    if bounding.pre_aggregate and id_column is not None:
        totals = person_group_totals(in_groups, id_column, group_column, value_column)
        values, value_groups = totals["total"], totals[group_column]
    else:
        values, value_groups = records[value_column], records[group_column]
    clipped = pd.Series(clip_values(values, bounding.lower, bounding.upper), index=values.index)
    answers["true_sum"] = frame.groupby(group_column)[value_column].sum()
    answers["bounded_sum"] = clipped.groupby(value_groups).sum()
    return answers.fillna(0)


def release_sensitivity(statistic: Statistic, bounding: Bounding) -> Sensitivity:
    """The sensitivity of per-group counts or (clipped, maybe pre-aggregated) sums."""
    statistic = _check_statistic(statistic, bounding)
    if statistic == "count":
        return grouped_count_sensitivity(bounding.max_groups, bounding.max_per_group)
    return grouped_sum_sensitivity(
        bounding.lower,
        bounding.upper,
        max_groups=bounding.max_groups,
        max_per_group=bounding.max_per_group,
        pre_aggregated=bounding.pre_aggregate,
    )
