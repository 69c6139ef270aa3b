"""What an engine is: the ``Engine`` protocol every engine implements, and the two steps
around bounded statistics all of them share (checking a request's columns against the schema,
and finishing the per-group answers).

An engine answers for one Source (data.sources.engine_cache.engine_for makes it once and keeps
it): data.sources.frame_engine.PandasEngine (in memory), and over the SQL of
data.sources.sql_engine, data.sources.duckdb_engine.DuckDBEngine (embedded) and
data.sources.spark_engine.SparkEngine. Every method returns the frozen values of
data.sources.results (or data.sources.capped, .describe, .units) and raises ValueError with
a sentence a page can show.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
import pandas as pd

from data.sources import frame_statistics
from data.sources.capped import CappedRequest, CappedTotals
from data.sources.describe import TableSummary
from data.sources.keys import KEY_KINDS
from data.sources.results import (
    NUMERIC_KINDS,
    BoundedStatistics,
    CategoryCounts,
    Profile,
    Request,
    Schema,
)
from data.sources.source import Source
from data.sources.units import ContributionUnits, UnitsRequest


@runtime_checkable
class Engine(Protocol):
    """What the rest of the code calls on an engine (data.sources' functions, engine_for)."""

    source: Source
    """The Source the engine answers for (engine_for compares it to reuse the engine)."""

    def schema(self) -> Schema:
        """Returns the columns (name, engine type, kind) and the row count."""
        ...

    def profile(self, person: str | None, group: str | None) -> Profile:
        """Returns rows, persons, units and the contribution histogram (person None: a row
        is a person)."""
        ...

    def category_counts(self, column: str, person: str | None) -> CategoryCounts:
        """Returns rows and distinct persons per category of ``column``."""
        ...

    def bounded(self, request: Request) -> BoundedStatistics:
        """Returns per group true and bounded counts, distinct persons and sums."""
        ...

    def summary(self, limit: int) -> TableSummary:
        """Returns per column kind, values present, distinct values and numeric range."""
        ...

    def sample(self, rows: int) -> pd.DataFrame:
        """Returns the first ``rows`` rows as a frame (no scan of the rest)."""
        ...

    def capped(self, request: CappedRequest) -> CappedTotals:
        """Returns per category rows, clipped sums and predicate matches under a row cap."""
        ...

    def units(self, request: UnitsRequest) -> ContributionUnits:
        """Returns the distinct contribution units of the released groups, with weights."""
        ...


# ---------------------------------------------------------------------------------------
# Shared: checking a request against a schema, and finishing the answers
# ---------------------------------------------------------------------------------------


def request_kinds(schema: Schema, request: Request) -> dict[str, str]:
    """The kinds of the request's columns; ValueError for a missing or unusable column."""
    kinds = {}
    if request.person is not None:
        kinds[request.person] = schema.column(request.person, "person", KEY_KINDS).kind
    kinds[request.group] = schema.column(request.group, "group", KEY_KINDS).kind
    if request.value is not None:
        kinds[request.value] = schema.column(request.value, "value", NUMERIC_KINDS).kind
    if request.bounding.selection == "first" and request.order is not None:
        kinds[request.order] = schema.column(request.order, "order").kind
    return kinds


def finish_answers(raw: pd.DataFrame, request: Request, group_kind: str) -> pd.DataFrame:
    """Per-group answers in the request's order (labels) or sorted by group; dtypes fixed."""
    counts = ["true_count", "bounded_count", "true_persons", "bounded_persons"]
    sums = ["true_sum", "bounded_sum"] if request.value is not None else []
    answers = raw[counts + sums].copy()
    answers[counts] = answers[counts].astype(np.int64)
    answers[sums] = answers[sums].astype(float)
    if request.groups is None:
        answers = answers.sort_index()
        answers.index.name = request.group
        return answers
    labels = frame_statistics.text_keys(pd.Series(answers.index), group_kind).to_numpy()
    answers.index = pd.Index(labels, name=request.group)
    answers = answers.groupby(level=0).sum()  # labels may merge values (e.g. " a" and "a")
    answers = answers.reindex(pd.Index(request.groups, name=request.group), fill_value=0)
    return answers.astype({c: np.int64 for c in counts})
