"""What a table's columns hold, without reading it into memory: the column summary.

For the source picker: which columns can be categories (few distinct values) and which can
be summed (numbers, with their range), computed by the engine in one or two scans:
``approx_count_distinct`` first (HyperLogLog: memory of a few kB a column whatever the
rows), then an exact ``count(DISTINCT ...)`` only for the columns that may have few values.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from data.sources.coded import coded_error
from data.sources.keys import Dialect
from data.sources.results import NUMERIC_KINDS, Schema

# Exact distinct counts are taken for columns whose approximate count is at most this many
# times the limit asked for (HyperLogLog's error is a few percent).
_APPROX_MARGIN = 4


@dataclass(frozen=True)
class ColumnSummary:
    """One column: kind, values present, distinct values (None: more than the limit asked
    for) and, for numbers, the smallest and largest finite value (None if there is none)."""

    name: str
    kind: str
    present: int
    distinct: int | None
    low: float | None = None
    high: float | None = None

    @property
    def numeric(self) -> bool:
        return self.kind in NUMERIC_KINDS


@dataclass(frozen=True)
class TableSummary:
    """The rows and every column's summary (for the columns of a usable kind)."""

    rows: int
    columns: tuple[ColumnSummary, ...]

    def column(self, name: str) -> ColumnSummary:
        for column in self.columns:
            if column.name == name:
                return column
        raise coded_error("source_column_named", column=name)


def frame_summary(frame: pd.DataFrame, schema: Schema, limit: int) -> TableSummary:
    """The summary of an in-memory table (the pandas engine)."""
    columns = []
    for column in schema.columns:
        if column.kind == "other":
            continue
        values = frame[column.name].dropna()
        if column.kind == "float":
            values = values[~np.isnan(values.to_numpy(dtype=float))]
        distinct = int(values.nunique())
        low = high = None
        if column.kind in NUMERIC_KINDS:
            numbers = values.to_numpy(dtype=float)
            numbers = numbers[np.isfinite(numbers)]
            if numbers.size:
                low, high = float(numbers.min()), float(numbers.max())
        columns.append(
            ColumnSummary(
                column.name,
                column.kind,
                int(values.size),
                distinct if distinct <= limit else None,
                low,
                high,
            )
        )
    return TableSummary(len(frame), tuple(columns))


def summary_sql(dialect: Dialect, relation: str, schema: Schema) -> str:
    """One scan: values present, approximate distinct values and the finite range."""
    q = dialect.quote
    parts = ["count(*) AS n"]
    for i, column in enumerate(schema.columns):
        if column.kind == "other":
            continue
        c = q(column.name)
        value = c
        if column.kind == "float":
            number = f"CAST({c} AS DOUBLE)"
            value = f"(CASE WHEN {dialect.not_finite(number)} THEN NULL ELSE {number} END)"
        parts.append(f"count({value}) AS present_{i}")
        parts.append(f"approx_count_distinct({value}) AS approx_{i}")
        if column.kind in NUMERIC_KINDS:
            parts.append(f"CAST(min({value}) AS DOUBLE) AS low_{i}")
            parts.append(f"CAST(max({value}) AS DOUBLE) AS high_{i}")
    return f"SELECT {', '.join(parts)} FROM {relation}"


def distinct_sql(dialect: Dialect, relation: str, schema: Schema, indices: list[int]) -> str:
    """Exact distinct values of the columns ``indices`` (of the schema's columns)."""
    q = dialect.quote
    parts = []
    for i in indices:
        column = schema.columns[i]
        c = q(column.name)
        if column.kind == "float":
            number = f"CAST({c} AS DOUBLE)"
            c = f"(CASE WHEN {dialect.not_finite(number)} THEN NULL ELSE {number} END)"
        parts.append(f"count(DISTINCT {c}) AS distinct_{i}")
    return f"SELECT {', '.join(parts)} FROM {relation}"


def summary_from_rows(
    first: pd.Series, exact: pd.Series | None, schema: Schema, limit: int
) -> TableSummary:
    """The summary from the rows of summary_sql and distinct_sql."""
    columns = []
    for i, column in enumerate(schema.columns):
        if column.kind == "other":
            continue
        distinct = None
        if exact is not None and f"distinct_{i}" in exact.index:
            count = int(exact[f"distinct_{i}"])
            distinct = count if count <= limit else None
        low = high = None
        if column.kind in NUMERIC_KINDS:
            low, high = (_number(first[f"{side}_{i}"]) for side in ("low", "high"))
        present = int(first[f"present_{i}"])
        columns.append(ColumnSummary(column.name, column.kind, present, distinct, low, high))
    return TableSummary(int(first["n"]), tuple(columns))


def candidates(first: pd.Series, schema: Schema, limit: int) -> list[int]:
    """The columns whose approximate distinct count may be within the limit."""
    return [
        i
        for i, column in enumerate(schema.columns)
        if column.kind != "other" and int(first[f"approx_{i}"]) <= _APPROX_MARGIN * limit
    ]


def _number(value) -> float | None:
    if value is None or pd.isna(value):
        return None
    return float(value)
