"""A table reduced to its distinct contribution units: what the bounding trade-offs need.

A unit is one person's rows in one group. The bias, the spread of a random choice and the
error of every cap and every clipping bound (dp_core.bounding.bias, _spread, _search) are
sums over units of what a unit holds: its group, the person's number of groups k, the unit's
rank among the person's groups ("first" selection: by the earliest order value, ties by
group), its records r and their values in order (by order value, then value). Units equal on
all of these count alike, so the engine returns each distinct profile once with its number
of units (a visits table of 10^8 rows with whole-euro amounts has a few thousand profiles),
and dp_core.bounding.table.weighted_contribution_table makes the table from them.

Only the released groups are kept (``groups``: their labels, as text); k counts released
groups. When there are more than ``limit`` distinct profiles (values with many decimals and
many rows per unit), the profiles come back without their values, one per (group, k, rank,
r): enough for the contribution histogram and the caps, not for the trade-offs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from data.sources import frame_statistics
from data.sources.coded import coded_error
from data.sources.keys import KEY_KINDS, Dialect
from data.sources.results import NUMERIC_KINDS, Schema

DEFAULT_LIMIT = 500_000


@dataclass(frozen=True)
class UnitsRequest:
    """Whose rows (``person``), grouped by ``group``, restricted to the released ``groups``
    (text labels, in their order); ``value`` (None: counts only) and ``order`` (the column
    "first" keeps the earliest rows of; None: the group)."""

    person: str
    group: str
    groups: tuple[str, ...]
    value: str | None = None
    order: str | None = None
    limit: int = DEFAULT_LIMIT

    def __post_init__(self) -> None:
        object.__setattr__(self, "groups", tuple(str(g).strip() for g in self.groups))
        if not self.groups:
            raise coded_error("source_groups_unnamed")


@dataclass(frozen=True)
class ContributionUnits:
    """The distinct unit profiles of the released groups and how many units share each.

    ``units``: one row per profile, sorted, columns ``group`` (index in the request's
    groups), ``k``, ``rank``, ``size`` (records) and ``weight`` (units); ``values`` the
    profiles' values, each profile's ``size`` values in order, one after the other (None
    without a value column, or when ``complete`` is False: more than the limit, and then one
    row per (group, k, rank, size)). ``low`` / ``high``: the smallest and largest value in
    the released groups; ``rows_outside`` / ``groups_outside``: rows and distinct groups
    dropped (they describe the data: never list them).
    """

    request: UnitsRequest
    units: pd.DataFrame
    values: np.ndarray | None
    complete: bool
    rows_outside: int
    groups_outside: int
    low: float | None = None
    high: float | None = None

    @property
    def rows(self) -> int:
        return int((self.units["size"] * self.units["weight"]).sum())

    @property
    def histogram(self) -> pd.Series:
        """Persons with k released groups, k = 1 .. max (as bounding.contribution_histogram)."""
        by_k = self.units.groupby("k")["weight"].sum()
        top = int(by_k.index.max()) if len(by_k) else 0
        index = pd.Index(np.arange(1, top + 1), name="contributions")
        persons = (by_k / by_k.index).reindex(index, fill_value=0).round().astype(np.int64)
        return persons.rename("persons")

    @property
    def max_groups_per_person(self) -> int:
        return int(self.units["k"].max())

    @property
    def max_records_per_unit(self) -> int:
        return int(self.units["size"].max())


def request_kinds(schema: Schema, request: UnitsRequest) -> dict[str, str]:
    kinds = {
        request.person: schema.column(request.person, "person", KEY_KINDS).kind,
        request.group: schema.column(request.group, "group", KEY_KINDS).kind,
    }
    if request.value is not None:
        kinds[request.value] = schema.column(request.value, "value", NUMERIC_KINDS).kind
    if request.order is not None:
        kinds[request.order] = schema.column(request.order, "order").kind
    return kinds


COLUMNS = ["group", "k", "rank", "size", "weight"]


def _sorted(units: pd.DataFrame, values: list[tuple] | None) -> tuple[pd.DataFrame, np.ndarray]:
    """Profiles in one order whatever the engine: by group, k, rank, size, then values."""
    frame = units[["group", "k", "rank", "size", "weight"]].astype(np.int64).reset_index(drop=True)
    if values is None:
        order = np.lexsort([frame[c] for c in reversed(COLUMNS[:-1])])
        return frame.iloc[order].reset_index(drop=True), None
    keyed = sorted(
        range(len(frame)),
        key=lambda i: (*(int(frame.at[i, c]) for c in COLUMNS[:-1]), values[i]),
    )
    frame = frame.iloc[keyed].reset_index(drop=True)
    flat = [v for i in keyed for v in values[i]]
    return frame, np.asarray(flat, dtype=float)


def finish(
    raw: pd.DataFrame,
    request: UnitsRequest,
    group_kind: str,
    *,
    complete: bool,
    outside: tuple[int, int],
    value_range: tuple[float | None, float | None],
) -> ContributionUnits:
    """ContributionUnits from per-profile rows (``g`` the raw group value, ``vs`` the values)."""
    labels = frame_statistics.text_keys(pd.Series(raw["g"]), group_kind).to_numpy(dtype=object)
    raw = raw.assign(group=pd.Index(request.groups).get_indexer(labels))
    values = None
    if complete and request.value is not None:
        values = [tuple(float(v) for v in vs) for vs in raw["vs"]]
    if complete and values is not None:
        profiles = zip(raw["group"], raw["k"], raw["rank"], raw["size"], values, strict=True)
        merged = (
            pd.DataFrame({"key": list(profiles), "weight": raw["weight"].to_numpy()})
            .groupby("key", sort=False)["weight"]
            .sum()
        )
        raw = pd.DataFrame([(*key[:4], weight) for key, weight in merged.items()], columns=COLUMNS)
        values = [key[4] for key in merged.index]
    else:
        raw = raw.groupby(COLUMNS[:-1], as_index=False)["weight"].sum()
    units, flat = _sorted(raw, values)
    return ContributionUnits(
        request, units, flat, complete, int(outside[0]), int(outside[1]), *value_range
    )


# ---------------------------------------------------------------------------------------
# pandas (the reference)
# ---------------------------------------------------------------------------------------


def pandas_units(frame: pd.DataFrame, request: UnitsRequest, kinds: dict[str, str]):
    """The profiles of an in-memory table."""
    group_kind = kinds[request.group]
    labels = frame_statistics.text_keys(frame[request.group], group_kind)
    inside = labels.isin(request.groups).to_numpy()
    outside = (int((~inside).sum()), int(labels[~inside].nunique()))
    frame = frame[inside].reset_index(drop=True)
    if frame.empty:
        raise coded_error("source_released_no_rows")
    person = pd.factorize(frame[request.person])[0]
    group_rank = pd.factorize(frame[request.group], sort=True)[0]
    order_column = request.order or request.group
    order_rank = pd.factorize(frame[order_column], sort=True)[0]
    value = (
        frame[request.value].to_numpy(dtype=float)
        if request.value is not None
        else np.zeros(len(frame))
    )
    sequence = np.lexsort((value, order_rank, group_rank, person))
    person, group_rank, order_rank, value = (
        a[sequence] for a in (person, group_rank, order_rank, value)
    )
    raw_group = frame[request.group].to_numpy()[sequence]
    starts = np.ones(len(person), dtype=bool)
    starts[1:] = (person[1:] != person[:-1]) | (group_rank[1:] != group_rank[:-1])
    unit = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    size = np.bincount(unit)
    unit_person = person[first]
    earliest = np.minimum.reduceat(order_rank, first)
    k = np.bincount(unit_person)[unit_person]
    unit_order = np.lexsort((group_rank[first], earliest, unit_person))
    rank = np.empty(len(first), dtype=np.int64)
    run_start = np.ones(len(first), dtype=bool)
    run_start[1:] = unit_person[unit_order][1:] != unit_person[unit_order][:-1]
    begin = np.flatnonzero(run_start)
    rank[unit_order] = np.arange(len(first)) - begin[np.cumsum(run_start) - 1]
    raw = pd.DataFrame({"g": raw_group[first], "k": k, "rank": rank, "size": size, "weight": 1})
    if request.value is not None:
        raw["vs"] = np.split(value, first[1:])
    present = value if request.value is not None else None
    value_range = (
        (float(present.min()), float(present.max())) if present is not None else (None, None)
    )
    complete = True
    if request.value is not None:
        distinct = raw.assign(vs=raw["vs"].map(tuple)).drop_duplicates(
            ["g", "k", "rank", "size", "vs"]
        )
        complete = len(distinct) <= request.limit
        raw = raw.assign(vs=raw["vs"].map(tuple))
    return finish(
        raw, request, group_kind, complete=complete, outside=outside, value_range=value_range
    )


# ---------------------------------------------------------------------------------------
# SQL (DuckDB and Spark)
# ---------------------------------------------------------------------------------------


def _list_sql(dialect: Dialect) -> str:
    if dialect.name == "spark":
        return "transform(array_sort(collect_list(struct(o, v))), x -> x.v)"
    return "list(v ORDER BY o, v)"


Values = Literal["none", "single", "listed"]  # what units_sql says of the units' values


def units_sql(
    dialect: Dialect,
    relation: str,
    request: UnitsRequest,
    kinds: dict[str, str],
    *,
    values: Values,
    rows_are_units: bool = False,
) -> str:
    """The profiles: rows in the released groups, units (person x group), k and rank by
    window over units, then one row per distinct profile (at most ``limit`` + 1 with values),
    with the smallest and largest value. ``values``: "none", per group, k,
    rank and size; "single", also the value of each one-row unit (``one``; NULL for larger
    units): the whole profile when every unit is one row, as in a visits table of one visit
    a day, without gathering lists (10^7 units: 3 s against 8 s); "listed", the unit's
    values in order (``vs``). ``rows_are_units``: the profile says no person has two rows in
    one group, so the units need no GROUP BY (and hold no lists: ask "single")."""
    from data.sources.sql import domain_sql

    q = dialect.quote
    g = q(request.group)
    order = q(request.order) if request.order else g
    value = f"CAST({q(request.value)} AS DOUBLE)" if request.value else "CAST(0 AS DOUBLE)"
    domain = domain_sql(dialect, g, kinds[request.group], request.groups)
    rows = (
        f"SELECT {q(request.person)} AS p, {g} AS g, {order} AS o, {value} AS v "
        f"FROM {relation} WHERE {domain}"
    )
    listed = values == "listed"
    if rows_are_units:  # then "single" holds every value
        units = f"SELECT p, g, 1 AS r, o AS fo, v AS lo, v AS hi FROM ({rows}) _r"
    else:
        gathered = f", {_list_sql(dialect)} AS vs" if listed else ""
        units = (
            f"SELECT p, g, count(*) AS r, min(o) AS fo, min(v) AS lo, max(v) AS hi{gathered} "
            f"FROM ({rows}) _r GROUP BY p, g"
        )
    ranked = (
        f"SELECT g, r, lo, hi{', vs' if listed else ''}, count(*) OVER (PARTITION BY p) AS k, "
        "row_number() OVER (PARTITION BY p ORDER BY fo, g) - 1 AS rnk "
        f"FROM ({units}) _u"
    )
    keys = {"none": "", "single": ", CASE WHEN r = 1 THEN lo END", "listed": ", vs"}[values]
    named = {"none": "", "single": " AS one", "listed": ""}[values]
    limit = "" if values == "none" else f" LIMIT {int(request.limit) + 1}"
    return (
        f"SELECT g, k, rnk AS {q('rank')}, r AS size{keys}{named}, count(*) AS weight, "
        f"min(lo) AS lo, max(hi) AS hi FROM ({ranked}) _k GROUP BY g, k, rnk, r{keys}{limit}"
    )


def outside_sql(dialect: Dialect, relation: str, request: UnitsRequest, kinds) -> str:
    """Rows and distinct groups outside the released groups, and the missing values."""
    from data.sources.sql import domain_sql

    q = dialect.quote
    g = q(request.group)
    domain = domain_sql(dialect, g, kinds[request.group], request.groups)
    value = f"CAST({q(request.value)} AS DOUBLE)" if request.value else None
    checks = [
        f"count(*) - count({q(request.person)}) AS missing_person",
        f"count(*) - count({g}) AS missing_group",
        f"count(*) - count({value}) AS missing_value" if value else "0 AS missing_value",
        f"sum(CASE WHEN {dialect.not_finite(value)} THEN 1 ELSE 0 END) AS bad_value"
        if value and kinds[request.value] == "float"
        else "0 AS bad_value",
        f"count(*) - count({q(request.order)}) AS missing_order"
        if request.order
        else "0 AS missing_order",
        f"sum(CASE WHEN {g} IS NOT NULL AND NOT ({domain}) THEN 1 ELSE 0 END) AS rows_outside",
        f"count(DISTINCT CASE WHEN {g} IS NOT NULL AND NOT ({domain}) THEN {g} END) "
        "AS groups_outside",
    ]
    return f"SELECT {', '.join(checks)} FROM {relation}"
