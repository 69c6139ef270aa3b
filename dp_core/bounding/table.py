"""A table reduced once to contribution units, from which every cap and bound is evaluated.

A unit is one person's records in one group (person x group). Bounding acts on units: the
l0 cap keeps or drops a person's units whole, the linf cap keeps some of a unit's records,
pre-aggregation clips a unit's total. So the bias, the spread of a random choice and the
noise of every cap and every bound (dp_core.bounding.bias, .spread, .error,
.search) are computed from these arrays, without going back to the rows or sampling.

A table may also hold each unit once per distinct profile, with a multiplicity
(``unit_weight``: how many units share the group, the person's number of groups, the rank
and the values): every quantity is a sum over units, so a unit weighted w counts as w equal
units. ``weighted_contribution_table`` builds one from such profiles (data.sources computes
them in SQL for tables that do not fit in memory); the results are those of the full table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dp_core.bounding.caps import (
    Statistic,
    _dense_keys,
    _ranks_and_runs,
    _ranks_within,
    check_bounding_frame,
)
from dp_core.domains import category_keys, check_domain
from dp_core.errors import CodedError

__all__ = ["ContributionTable", "contribution_table", "weighted_contribution_table"]


@dataclass(frozen=True)
class ContributionTable:
    """A table reduced to what bounding analysis needs (build with ``contribution_table``).

    Rows: group code, value, unit (person x group) index, rank in the unit, unit size.
    Units: group code, the person's number of groups k, the unit's rank among the person's
    groups (first appearance in order), the unit's total value, and how many equal units it
    stands for (``unit_weight``; None: each unit is one).
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
    unit_weight: np.ndarray | None = None

    @property
    def units(self) -> int:
        """Units (person x group) the table stands for."""
        if self.unit_weight is None:
            return len(self.unit_group)
        return int(self.unit_weight.sum())

    def per_unit(self, values: np.ndarray) -> np.ndarray:
        """Per-unit values (1-D, or 2-D with one column per setting) times the units' weights."""
        if self.unit_weight is None:
            return values
        weight = self.unit_weight.astype(float)
        return values * (weight if values.ndim == 1 else weight[:, None])

    def per_row(self, values: np.ndarray) -> np.ndarray:
        """Per-row values times the weight of each row's unit."""
        if self.unit_weight is None:
            return values
        return values * self.unit_weight[self.row_unit].astype(float)

    @property
    def max_groups_per_person(self) -> int:
        return int(self.unit_groups_of_person.max())

    @property
    def max_records_per_unit(self) -> int:
        return int(self.unit_size.max())

    def true_totals(self, statistic: Statistic) -> np.ndarray:
        """Per group, before any bounding: record counts, or sums of the raw values."""
        weights = np.ones(len(self.row_group)) if statistic == "count" else self.values()
        return np.bincount(
            self.row_group, weights=self.per_row(weights), minlength=len(self.groups)
        )

    def values(self) -> np.ndarray:
        """Each row's value; ValueError (readable) when the table has no value column."""
        if self.row_value is None:
            raise CodedError("bounding_no_values")
        return self.row_value

    def record_keep(self, max_per_group: int, random: bool) -> np.ndarray:
        """Each record's chance of surviving the linf cap: r records in its unit, rank i in it.

        Random: min(1, linf / r) (a uniform subset of linf records); first: 1 if i < linf.
        """
        if random:
            return np.minimum(1.0, max_per_group / self.unit_size[self.row_unit])
        return (self.row_rank < max_per_group).astype(float)

    def unit_keep(self, max_groups: int, random: bool) -> np.ndarray:
        """Each unit's chance of surviving the l0 cap: min(1, l0 / k), or 1 if its rank < l0."""
        if random:
            return np.minimum(1.0, max_groups / self.unit_groups_of_person)
        return (self.unit_rank < max_groups) * 1.0


def _group_codes(
    values: pd.Series, groups: Sequence[str] | None
) -> tuple[np.ndarray, pd.Index | Sequence]:
    """Each row's group code and the groups: the data's, sorted, or a declared domain's."""
    if groups is None:
        return pd.factorize(values, sort=True)
    labels = check_domain(groups)
    codes = pd.Index(labels).get_indexer(category_keys(values).to_numpy(dtype=object))
    outside = int((codes < 0).sum())
    if outside:
        raise CodedError("bounding_groups_outside", rows=f"{outside:,}", groups=f"{len(labels)}")
    return codes, labels


def contribution_table(
    frame: pd.DataFrame,
    id_column: str | None,
    group_column: str,
    value_column: str | None = None,
    *,
    order_column: str | None = None,
    groups: Sequence[str] | None = None,
) -> ContributionTable:
    """Reduce a table to contribution units; ``id_column=None`` means one person per row.

    ``groups``: the released groups in their order (a public or declared domain, compared as
    text, see dp_core.domains); groups absent from the data get zeros. By default the
    groups found in the data, sorted.
    """
    check_bounding_frame(frame, id_column, group_column, value_column)
    sequence = (
        np.arange(len(frame))
        if order_column is None
        else np.argsort(frame[order_column].to_numpy(), kind="stable")
    )
    ordered = frame.iloc[sequence]
    group_codes, labels = _group_codes(ordered[group_column], groups)
    n_groups = len(labels)
    person = (
        np.arange(len(frame), dtype=np.int64)
        if id_column is None
        else _dense_keys(ordered[id_column])
    )
    row_rank, row_unit = _ranks_and_runs(person * n_groups + group_codes)
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
        groups=pd.Index(labels, name=group_column),
        row_group=np.asarray(group_codes, dtype=np.int64),
        row_value=values,
        row_unit=row_unit,
        row_rank=row_rank,
        unit_size=np.bincount(row_unit, minlength=n_units),
        unit_group=unit_group,
        unit_groups_of_person=groups_per_person[unit_person],
        unit_rank=unit_rank,
        unit_total=None if values is None else np.bincount(row_unit, weights=values),
    )


def weighted_contribution_table(
    groups: Sequence[str],
    *,
    unit_group: np.ndarray,
    unit_groups_of_person: np.ndarray,
    unit_rank: np.ndarray,
    unit_size: np.ndarray,
    unit_weight: np.ndarray,
    row_value: np.ndarray | None = None,
    name: str | None = None,
) -> ContributionTable:
    """A contribution table from distinct unit profiles, each with its multiplicity.

    ``unit_group``: each profile's group code in ``groups``; ``unit_groups_of_person``: the
    person's number of groups k; ``unit_rank``: the unit's rank among the person's groups
    ("first" selection); ``unit_size``: its records r; ``unit_weight``: how many units share
    the profile; ``row_value``: the profiles' values, each profile's r values consecutively
    in their order ("first" keeps the earliest). Equal to ``contribution_table`` of the full
    table for every bias, spread and error (they are sums over units). ``name``: the group
    column's name.
    """
    labels = check_domain(groups)
    unit_size = np.asarray(unit_size, dtype=np.int64)
    n_units = len(unit_size)
    if n_units == 0 or unit_size.min() < 1:
        raise CodedError("bounding_units_empty")
    row_unit = np.repeat(np.arange(n_units, dtype=np.int64), unit_size)
    starts = np.cumsum(unit_size) - unit_size
    row_rank = np.arange(len(row_unit), dtype=np.int64) - starts[row_unit]
    unit_group = np.asarray(unit_group, dtype=np.int64)
    values = None
    if row_value is not None:
        values = np.asarray(row_value, dtype=float)
        if len(values) != len(row_unit):
            raise CodedError("bounding_unit_values")
    return ContributionTable(
        groups=pd.Index(labels, name=name),
        row_group=unit_group[row_unit],
        row_value=values,
        row_unit=row_unit,
        row_rank=row_rank,
        unit_size=unit_size,
        unit_group=unit_group,
        unit_groups_of_person=np.asarray(unit_groups_of_person, dtype=np.int64),
        unit_rank=np.asarray(unit_rank, dtype=np.int64),
        unit_total=None
        if values is None
        else np.bincount(row_unit, weights=values, minlength=n_units),
        unit_weight=np.asarray(unit_weight, dtype=np.int64),
    )
