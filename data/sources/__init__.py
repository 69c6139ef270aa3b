"""Own data of any size: a Source, and the sufficient statistics computed where the data are.

    from data import sources
    from dp_core.bounding import Bounding

    visits = sources.Source.files("/data/visits/*.parquet")          # DuckDB, embedded
    sources.profile(visits, "visitor_id", "day").histogram             # persons by days visited
    stats = sources.bounded_statistics(
        visits, Bounding(3, 1, 0.0, 50.0), person="visitor_id", group="day",
        value="money_spent", seed=7,
    )
    stats.answers   # per day: true_count, bounded_count, true_persons, bounded_persons,
                    # true_sum, bounded_sum

A source is a shipped dataset, an uploaded frame, Parquet or CSV files (a file, a folder or
a glob) or a DuckDB table; the engine is pandas (in memory), DuckDB (embedded, the default
for files) or Spark (a local master, a Spark master URL or a Spark Connect address, from
the source or the environment variable DP_EXPLORER_SPARK). Only the statistics reach pandas:
a few rows per group or per number of contributions, never the rows. For one seed, the three
engines return identical statistics ("random" selection uses data.sources.keys, a seeded
order all three compute alike). Every function raises ValueError with a sentence a page can
show: a path that does not exist, a file that is neither Parquet nor CSV, a missing column,
an unreachable Spark address, an engine out of memory (what to change: a coded sentence).

For the pages beyond bounding: ``summary`` (which columns can be categories or summed, and
their range), ``sample`` (a few rows, to propose the person column), ``capped_totals`` (per
category, rows, clipped sums and predicate counts under a cap on rows per person: the
Laplace, Gaussian and planner pages) and ``contribution_units`` (the distinct contribution
units of the released groups: every bounding trade-off, exactly, from a few thousand rows).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pandas as pd

from data.sources.capped import CappedRequest, CappedTotals, DomainTotals
from data.sources.describe import ColumnSummary, TableSummary
from data.sources.engine_cache import engine_for
from data.sources.frame_engine import PandasEngine
from data.sources.progress import reporting
from data.sources.results import (
    BoundedStatistics,
    CategoryCounts,
    Column,
    Profile,
    Request,
    Schema,
)
from data.sources.source import SPARK_ENV, Source, is_uri
from data.sources.spark_engine import spark_installed, stop_spark
from data.sources.units import ContributionUnits, UnitsRequest

if TYPE_CHECKING:
    from dp_core.bounding import Bounding

__all__ = [
    "SPARK_ENV",
    "BoundedStatistics",
    "CappedRequest",
    "CappedTotals",
    "CategoryCounts",
    "Column",
    "ColumnSummary",
    "ContributionUnits",
    "DomainTotals",
    "Profile",
    "Request",
    "Schema",
    "Source",
    "TableSummary",
    "UnitsRequest",
    "bounded_statistics",
    "capped_totals",
    "category_counts",
    "contribution_histogram",
    "contribution_units",
    "kept_rows",
    "profile",
    "reporting",
    "sample",
    "schema",
    "spark_installed",
    "statistics",
    "stop_spark",
    "summary",
]


def _in_memory(function):
    """``function`` with Python's MemoryError (the pandas engine reading a table larger than
    memory) as a sentence saying which engine reads it where it lies."""

    @functools.wraps(function)
    def checked(source: Source, *args, **kwargs):
        try:
            return function(source, *args, **kwargs)
        except MemoryError:
            from dp_core.errors import CodedError  # not at import: dp_core pulls in SciPy

            raise CodedError("memory_pandas", title=source.title) from None

    return checked


@_in_memory
def schema(source: Source) -> Schema:
    """The columns (name, engine type, kind) and the row count."""
    return engine_for(source).schema()


@_in_memory
def profile(source: Source, person: str | None, group: str | None = None) -> Profile:
    """Rows, persons, units and the contribution histogram (groups per person with a group
    column, rows per person without). ``person`` None: each row is a different person."""
    return engine_for(source).profile(person, group)


def contribution_histogram(source: Source, person: str, group: str | None = None) -> pd.Series:
    """Persons with k contributions, k = 1 .. max (as dp_core.bounding.contribution_histogram)."""
    return profile(source, person, group).histogram


@_in_memory
def category_counts(source: Source, column: str, person: str | None = None) -> CategoryCounts:
    """Rows and distinct persons per category of ``column`` (the input of partition selection;
    for selection under a cap of l0 categories per person use bounded_statistics'
    ``bounded_persons`` with max_groups = l0)."""
    return engine_for(source).category_counts(column, person)


@_in_memory
def statistics(source: Source, request: Request) -> BoundedStatistics:
    """Per group, true and bounded counts, distinct persons and sums under ``request``.

    For files and DuckDB tables the results of the last 64 (source, request) pairs are kept:
    going back to a setting already computed costs nothing. (In-memory frames are not kept
    alive here; a page caches their results itself.)
    """
    if source.kind == "frame":
        return engine_for(source).bounded(request)
    return _statistics(source, request)


@functools.lru_cache(maxsize=64)
def _statistics(source: Source, request: Request) -> BoundedStatistics:
    return engine_for(source).bounded(request)


def bounded_statistics(
    source: Source,
    bounding: Bounding,
    *,
    person: str | None,
    group: str,
    value: str | None = None,
    order: str | None = None,
    seed: int = 0,
    groups: Sequence[str] | None = None,
) -> BoundedStatistics:
    """``statistics`` with the request spelt out (see data.sources.results.Request)."""
    request = Request(
        person=person,
        group=group,
        bounding=bounding,
        value=value,
        order=order,
        seed=seed,
        groups=None if groups is None else tuple(groups),
    )
    return statistics(source, request)


@_in_memory
def kept_rows(source: Source, request: Request) -> pd.Series:
    """The rows the caps keep, as a boolean Series (the pandas engine: data in memory).

    Rows that tie in the order (identical on every used column) are interchangeable for the
    statistics; here the earlier row in the table is kept.
    """
    engine = engine_for(source)
    if not isinstance(engine, PandasEngine):
        engine = PandasEngine(source)
    return engine.kept_rows(request)


@_in_memory
def summary(source: Source, limit: int = 200) -> TableSummary:
    """Per column: kind, values present, distinct values (exact up to ``limit``; None above)
    and a number column's finite range. Approximate counts first, so an id column of 10^8
    values costs a few kB."""
    if source.kind == "frame":
        return engine_for(source).summary(limit)
    return _summary(source, limit)


@functools.lru_cache(maxsize=16)
def _summary(source: Source, limit: int) -> TableSummary:
    return engine_for(source).summary(limit)


@_in_memory
def sample(source: Source, rows: int = 2000) -> pd.DataFrame:
    """The first ``rows`` rows (no scan of the rest): to propose a person column by its name
    and values. Local files and DuckDB tables are read through DuckDB whatever the engine (no
    Spark session for a peek); a URI through the source's engine."""
    reader = source
    if source.kind in ("files", "duckdb") and not is_uri(source.location):
        reader = source.with_engine("duckdb")
    return engine_for(reader).sample(rows)


@_in_memory
def capped_totals(source: Source, request: CappedRequest) -> CappedTotals:
    """Per category: rows, clipped and raw sums and predicate matches once each person keeps
    ``request.cap`` rows (data.sources.capped). Files and DuckDB tables: the last 64 kept."""
    if source.kind == "frame":
        return engine_for(source).capped(request)
    return _capped(source, request)


@functools.lru_cache(maxsize=64)
def _capped(source: Source, request: CappedRequest) -> CappedTotals:
    return engine_for(source).capped(request)


@_in_memory
def contribution_units(source: Source, request: UnitsRequest) -> ContributionUnits:
    """The distinct contribution units of the released groups, with how many units share each
    (data.sources.units); dp_core.bounding.table.weighted_contribution_table makes the table
    every bounding trade-off is computed from."""
    if source.kind == "frame":
        return engine_for(source).units(request)
    return _units(source, request)


@functools.lru_cache(maxsize=16)
def _units(source: Source, request: UnitsRequest) -> ContributionUnits:
    return engine_for(source).units(request)
