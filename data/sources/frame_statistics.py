"""The statistics of an in-memory table, vectorised with numpy (the path uploads take).

The reference for the SQL engines: the same units, keys and ties (data.sources.keys), so
DuckDB and Spark return what this returns. A unit is one person's rows in one group. The l0
cap keeps each person's ``max_groups`` units with the smallest unit keys, the linf cap each
unit's ``max_per_group`` rows with the smallest row keys:

- "random": unit key hash(seed, person, group), ties by group; row key hash(seed, person,
  group, value), ties by value;
- "first": unit key the unit's earliest order value, ties by group; row key (order, value).

Counts keep min(rows, linf) rows of each kept unit; sums clip each kept row to [L, U], or
with pre-aggregation clip each kept unit's total (linf then only caps counts), as
dp_core.bounding.bounded_answers does.

These are functions of a frame; the engine that reads a Source into one (``PandasEngine``)
is data.sources.frame_engine.
"""

from __future__ import annotations

import datetime

import numpy as np
import pandas as pd

from data.sources import keys, results
from data.sources.coded import coded_error

# ---------------------------------------------------------------------------------------
# Kinds and text keys
# ---------------------------------------------------------------------------------------


def kind_of(values: pd.Series) -> str:
    """The kind of a pandas column (see data.sources.results.Kind)."""
    dtype = values.dtype
    if pd.api.types.is_bool_dtype(dtype):
        return "boolean"
    if pd.api.types.is_integer_dtype(dtype):
        return "integer"
    if pd.api.types.is_float_dtype(dtype):
        return "float"
    if pd.api.types.is_datetime64_any_dtype(dtype):
        return "timestamp"
    if pd.api.types.is_string_dtype(dtype) or isinstance(dtype, pd.CategoricalDtype):
        sample = values.dropna()
        first = sample.iloc[0] if len(sample) else ""
        if isinstance(first, datetime.datetime):
            return "timestamp"
        if isinstance(first, datetime.date):
            return "date"
        return "string" if isinstance(first, str) or not len(sample) else "other"
    return "other"


def frame_schema(frame: pd.DataFrame) -> results.Schema:
    columns = tuple(
        results.Column(str(name), str(frame[name].dtype), kind_of(frame[name]))
        for name in frame.columns
    )
    return results.Schema(columns, len(frame))


def text_keys(values: pd.Series, kind: str) -> pd.Series:
    """The text a category is compared as (declared labels): whole floats as integers,
    booleans as True/False, everything else str(value) trimmed (as dp_core.domains)."""
    values = pd.Series(values).reset_index(drop=True)
    if kind == "float":
        numbers = values.to_numpy(dtype=float)
        whole = np.isfinite(numbers) & (np.abs(numbers) < 2.0**53) & (numbers == np.floor(numbers))
        text = values.astype(str).to_numpy(dtype=object)
        text[whole] = numbers[whole].astype(np.int64).astype(str)
        return pd.Series(text, dtype=object)
    if kind == "boolean":
        return pd.Series(np.where(values.to_numpy(dtype=bool), "True", "False"), dtype=object)
    return values.astype(str).str.strip().astype(object)


# ---------------------------------------------------------------------------------------
# Checks (the SQL engines check the same things in SQL)
# ---------------------------------------------------------------------------------------


def check_missing(frame: pd.DataFrame, columns: dict[str, str | None]) -> None:
    """ValueError if a person, group, value or order column has missing values."""
    for role, column in columns.items():
        if column is None:
            continue
        missing = int(frame[column].isna().sum())
        if missing:
            raise missing_error(role, column, missing)


def missing_error(role: str, column: str, missing: int) -> ValueError:
    """``role``: person, group, value, order or category (each with its sentence)."""
    return coded_error(f"source_{role}_missing", column=column, missing=f"{missing:,}")


def infinite_error(column: str, count: int) -> ValueError:
    return coded_error("source_value_infinite", column=column, count=f"{count:,}")


# ---------------------------------------------------------------------------------------
# Vectorised building blocks
# ---------------------------------------------------------------------------------------


def _ranks_in_runs(sorted_ids: np.ndarray) -> np.ndarray:
    """For ids sorted into runs, each position's rank inside its run (0, 1, ...)."""
    n = len(sorted_ids)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.ones(n, dtype=bool)
    starts[1:] = sorted_ids[1:] != sorted_ids[:-1]
    run_start = np.flatnonzero(starts)
    return np.arange(n) - run_start[np.cumsum(starts) - 1]


def _first_positions(codes: np.ndarray, count: int) -> np.ndarray:
    """The first position of each code 0 .. count - 1 (codes from pd.factorize)."""
    first = np.empty(count, dtype=np.int64)
    positions = np.arange(len(codes) - 1, -1, -1)
    first[codes[::-1]] = positions  # repeated indices: the last assignment (first row) wins
    return first


def _order_ranks(values: pd.Series) -> np.ndarray:
    """Dense ranks of the values in sort order (equal values equal ranks)."""
    return pd.factorize(values, sort=True)[0].astype(np.int64)


class _Units:
    """The rows of a table grouped into units (person x group), with dense codes."""

    def __init__(self, frame: pd.DataFrame, person: str | None, group: str | None) -> None:
        n = len(frame)
        self.rows = n
        if group is None:
            self.group = np.zeros(n, dtype=np.int64)
            self.group_values = pd.Index([None])
        else:
            self.group, self.group_values = pd.factorize(frame[group], sort=True)
        n_groups = max(len(self.group_values), 1)
        if person is None:
            self.person = np.arange(n, dtype=np.int64)
            self.persons = n
        else:
            self.person, uniques = pd.factorize(frame[person])
            self.persons = len(uniques)
        cell = self.person.astype(np.int64) * n_groups + self.group
        self.unit, cells = pd.factorize(cell)
        self.count = len(cells)
        self.first_row = _first_positions(self.unit, self.count)
        self.unit_person = self.person[self.first_row]
        self.unit_group = self.group[self.first_row]
        self.size = np.bincount(self.unit, minlength=self.count)

    def per_unit(self, weights: np.ndarray) -> np.ndarray:
        return np.bincount(self.unit, weights=weights, minlength=self.count)

    def per_group(
        self, weights: np.ndarray | None = None, where: np.ndarray | None = None
    ) -> np.ndarray:
        """Sum of ``weights`` (or count) over the units (those in ``where``) of each group."""
        index = self.unit_group if where is None else self.unit_group[where]
        if weights is not None and where is not None:
            weights = weights[where]
        return np.bincount(index, weights=weights, minlength=len(self.group_values))


def _person_group_codes(frame, request, kinds) -> list[np.ndarray]:
    codes = []
    if request.person is not None:
        codes.append(keys.numpy_code(frame[request.person], kinds[request.person]))
    codes.append(keys.numpy_code(frame[request.group], kinds[request.group]))
    return codes


def _row_ranks(frame, request, kinds, units: _Units, values: np.ndarray | None) -> np.ndarray:
    """Each row's rank among its unit's rows by row key (see the module docstring)."""
    tie = np.zeros(units.rows) if values is None else values
    if request.bounding.selection == "first":
        # no order only when each row is a person: every unit is one row
        no_order = request.order is None
        key = np.zeros(units.rows) if no_order else _order_ranks(frame[request.order])
    else:
        codes = _person_group_codes(frame, request, kinds)
        if values is not None:
            codes += keys.numpy_value_codes(values)
        key = keys.hash_codes(request.seed, codes)
    order = np.lexsort((tie, key, units.unit))
    ranks = np.empty(units.rows, dtype=np.int64)
    ranks[order] = _ranks_in_runs(units.unit[order])
    return ranks


def _unit_ranks(frame, request, kinds, units: _Units) -> np.ndarray:
    """Each unit's rank among its person's units by unit key."""
    if request.bounding.selection == "first":
        earliest = pd.Series(_order_ranks(frame[request.order])).groupby(units.unit).min()
        key = earliest.to_numpy()  # indexed by unit 0 .. count - 1, in order
    else:
        codes = [code[units.first_row] for code in _person_group_codes(frame, request, kinds)]
        key = keys.hash_codes(request.seed, codes)
    order = np.lexsort((units.unit_group, key, units.unit_person))
    ranks = np.empty(units.count, dtype=np.int64)
    ranks[order] = _ranks_in_runs(units.unit_person[order])
    return ranks


# ---------------------------------------------------------------------------------------
# The statistics
# ---------------------------------------------------------------------------------------


def profile(frame: pd.DataFrame, person: str | None, group: str | None = None) -> results.Profile:
    """Persons and the contribution histogram (see data.sources.results.Profile)."""
    check_missing(frame, {"person": person, "group": group})
    units = _Units(frame, person, group)
    rows_per_person = np.bincount(units.person, minlength=units.persons)
    if group is None:
        contributions = rows_per_person
    else:
        contributions = np.bincount(units.unit_person, minlength=units.persons)
    counts = np.bincount(contributions)[1:] if units.persons else np.zeros(0, dtype=np.int64)
    histogram = pd.Series(
        counts.astype(np.int64),
        index=pd.Index(np.arange(1, len(counts) + 1), name="contributions"),
        name="persons",
    )
    return results.Profile(
        person=person,
        group=group,
        rows=units.rows,
        persons=units.persons,
        units=units.count,
        max_rows_per_person=int(rows_per_person.max()) if units.rows else 0,
        max_rows_per_unit=int(units.size.max()) if units.rows else 0,
        histogram=histogram,
    )


def category_counts(
    frame: pd.DataFrame, column: str, person: str | None, kind: str
) -> results.CategoryCounts:
    """Rows and distinct persons per category, sorted by category."""
    check_missing(frame, {"person": person, "category": column})
    units = _Units(frame, person, column)
    rows = np.bincount(units.group, minlength=len(units.group_values))
    persons = np.bincount(units.unit_group, minlength=len(units.group_values))
    index = pd.Index(units.group_values, name=column)
    counts = pd.DataFrame(
        {"rows": rows.astype(np.int64), "persons": persons.astype(np.int64)}, index=index
    )
    counts["label"] = text_keys(pd.Series(index), kind).to_numpy()
    return results.CategoryCounts(column, person, counts)


def _in_domain(
    frame: pd.DataFrame, request: results.Request, kind: str
) -> tuple[np.ndarray, int, int]:
    labels = text_keys(frame[request.group], kind)
    inside = labels.isin(request.groups).to_numpy()
    return inside, int((~inside).sum()), int(labels[~inside].nunique())


def _finite_values(frame: pd.DataFrame, column: str | None) -> np.ndarray | None:
    """The value column as floats (None without one); an error if any is infinite."""
    if column is None:
        return None
    values = frame[column].to_numpy(dtype=float)
    bad = int((~np.isfinite(values)).sum())
    if bad:
        raise infinite_error(column, bad)
    return values


def _kept_units(
    frame: pd.DataFrame, request: results.Request, kinds: dict[str, str], units: _Units
) -> np.ndarray:
    """Which units the l0 cap keeps: each person's ``max_groups`` smallest unit keys."""
    max_units = np.bincount(units.unit_person).max(initial=0) if units.count else 0
    if request.person is not None and request.bounding.max_groups < max_units:
        return _unit_ranks(frame, request, kinds, units) < request.bounding.max_groups
    return np.ones(units.count, dtype=bool)


def _bounded_table(
    request: results.Request,
    units: _Units,
    kept: np.ndarray,
    values: np.ndarray | None,
    row_rank: np.ndarray | None,
) -> pd.DataFrame:
    """Per group: the true and bounded counts, persons and, with a value, sums."""
    b = request.bounding
    size = units.size.astype(float)
    kept_size = np.minimum(units.size, b.max_per_group).astype(float)
    answers = pd.DataFrame(
        {
            "true_count": units.per_group(size),
            "bounded_count": units.per_group(kept_size, kept),
            "true_persons": units.per_group(),
            "bounded_persons": units.per_group(None, kept),
        },
        index=pd.Index(units.group_values, name=request.group),
    ).astype(np.int64)
    if values is not None:
        total = units.per_unit(values)
        if b.pre_aggregate:
            unit_sum = np.clip(total, b.lower, b.upper)
        else:
            clipped = np.clip(values, b.lower, b.upper)
            if row_rank is not None:
                clipped = np.where(row_rank < b.max_per_group, clipped, 0.0)
            unit_sum = units.per_unit(clipped)
        answers["true_sum"] = units.per_group(total)
        answers["bounded_sum"] = units.per_group(unit_sum, kept)
    return answers


def bounded(
    frame: pd.DataFrame, request: results.Request, kinds: dict[str, str], *, rows_mask: bool = False
):
    """BoundedStatistics for ``request`` (with ``rows_mask``: also the kept rows' mask)."""
    roles = {"person": request.person, "group": request.group, "value": request.value}
    roles["order"] = request.order if request.bounding.selection == "first" else None
    check_missing(frame, roles)
    outside = groups_outside = 0
    domain_mask = np.ones(len(frame), dtype=bool)
    if request.groups is not None:
        domain_mask, outside, groups_outside = _in_domain(frame, request, kinds[request.group])
        frame = frame[domain_mask]
    b = request.bounding
    units = _Units(frame, request.person, request.group)
    values = _finite_values(frame, request.value)
    needs_rows = rows_mask or (
        values is not None and not b.pre_aggregate and b.max_per_group < units.size.max(initial=0)
    )
    row_rank = _row_ranks(frame, request, kinds, units, values) if needs_rows else None
    kept = _kept_units(frame, request, kinds, units)
    answers = _bounded_table(request, units, kept, values, row_rank)
    result = results.BoundedStatistics(request, answers, outside, groups_outside)
    if not rows_mask:
        return result
    if row_rank is None:  # pragma: no cover - rows_mask forces the ranks
        raise AssertionError
    mask = domain_mask.copy()
    mask[domain_mask] = kept[units.unit] & (row_rank < b.max_per_group)
    return result, mask
