"""The pandas engine: a Source read into memory (a frame, a shipped dataset, or files read
whole), its statistics computed by data.sources.frame_statistics (the reference of the SQL
engines). Only for what fits in memory; files of any size go to DuckDB or Spark.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from data.sources import capped, describe, frame_statistics, units
from data.sources.coded import coded_error
from data.sources.engine import finish_answers, request_kinds
from data.sources.keys import KEY_KINDS
from data.sources.results import (
    BoundedStatistics,
    CategoryCounts,
    Profile,
    Request,
    Schema,
)
from data.sources.source import Source


class PandasEngine:
    """In memory: a frame, a shipped dataset, or files read whole (only what fits).

    Implements data.sources.engine.Engine (checked by tests/test_engines.py), and
    ``kept_rows``, which only an engine holding the rows can answer."""

    name = "pandas"
    source: Source

    def __init__(self, source: Source) -> None:
        self.source = source

    @functools.cached_property
    def _schema(self) -> Schema:
        if self.source.kind == "files" and self.source.file_format == "parquet":
            import pyarrow.parquet as pq

            paths = self.source.paths()
            path = paths[0]
            try:
                head = next(pq.ParquetFile(path).iter_batches(batch_size=64), None)
                sample = head if head is not None else pq.read_schema(path).empty_table()
                rows = 0
                for path in paths:
                    rows += pq.ParquetFile(path).metadata.num_rows
            except (ValueError, OSError) as error:  # pyarrow's own words
                raise coded_error("pandas_unreadable", path=path, detail=str(error)) from None
            return Schema(frame_statistics.frame_schema(sample.to_pandas()).columns, rows)
        return frame_statistics.frame_schema(self._frame(None))

    def schema(self) -> Schema:
        return self._schema

    def _frame(self, columns: list[str] | None) -> pd.DataFrame:
        return self.source.load_frame(columns)

    def _kinds(self, frame: pd.DataFrame, columns) -> dict[str, str]:
        return {c: frame_statistics.kind_of(frame[c]) for c in columns if c is not None}

    def profile(self, person: str | None, group: str | None) -> Profile:
        schema = self.schema()
        used = list(dict.fromkeys(c for c in (person, group) if c is not None))
        for column, role in ((person, "person"), (group, "group")):
            if column is not None:
                schema.column(column, role, KEY_KINDS)
        return frame_statistics.profile(self._frame(used), person, group)

    def category_counts(self, column: str, person: str | None) -> CategoryCounts:
        schema = self.schema()
        kind = schema.column(column, "category", KEY_KINDS).kind
        if person is not None:
            schema.column(person, "person", KEY_KINDS)
        used = [c for c in (person, column) if c is not None]
        frame = self._frame(list(dict.fromkeys(used)))
        return frame_statistics.category_counts(frame, column, person, kind)

    def bounded(self, request: Request) -> BoundedStatistics:
        frame, kinds = self._request_frame(request)
        result = frame_statistics.bounded(frame, request, kinds)
        answers = finish_answers(result.answers, request, kinds[request.group])
        return BoundedStatistics(request, answers, result.rows_outside, result.groups_outside)

    def kept_rows(self, request: Request) -> pd.Series:
        """Which rows the caps keep (a boolean Series over the source's rows)."""
        frame, kinds = self._request_frame(request)
        _, mask = frame_statistics.bounded(frame, request, kinds, rows_mask=True)
        return pd.Series(mask, index=frame.index, name="kept")

    def summary(self, limit: int) -> describe.TableSummary:
        return describe.frame_summary(self._frame(None), self.schema(), limit)

    def sample(self, rows: int) -> pd.DataFrame:
        if self.source.kind == "files" and self.source.file_format == "parquet":
            import pyarrow.parquet as pq

            head = next(pq.ParquetFile(self.source.paths()[0]).iter_batches(batch_size=rows), None)
            return head.to_pandas() if head is not None else self._frame(None).head(0)
        return self._frame(None).head(rows)

    def capped(self, request: capped.CappedRequest) -> capped.CappedTotals:
        kinds = capped.request_kinds(self.schema(), request)
        used = [request.person, request.category, request.value]
        used += [request.predicate[0]] if request.predicate else []
        frame = self._frame(list(dict.fromkeys(c for c in used if c is not None)))
        frame_statistics.check_missing(frame, {"person": request.person})
        persons = len(frame) if request.person is None else int(frame[request.person].nunique())
        return capped.pandas_totals(frame, request, kinds, persons)

    def units(self, request: units.UnitsRequest) -> units.ContributionUnits:
        kinds = units.request_kinds(self.schema(), request)
        used = [request.person, request.group, request.value, request.order]
        frame = self._frame(list(dict.fromkeys(c for c in used if c is not None)))
        roles = {"person": request.person, "group": request.group, "value": request.value}
        frame_statistics.check_missing(frame, {**roles, "order": request.order})
        if request.value is not None:
            values = frame[request.value].to_numpy(dtype=float)
            bad = int((~np.isfinite(values)).sum())
            if bad:
                raise frame_statistics.infinite_error(request.value, bad)
        return units.pandas_units(frame, request, kinds)

    def _request_frame(self, request: Request) -> tuple[pd.DataFrame, dict[str, str]]:
        request_kinds(self.schema(), request)
        used = [request.person, request.group, request.value]
        if request.bounding.selection == "first":
            used.append(request.order)
        used = list(dict.fromkeys(c for c in used if c is not None))
        frame = self._frame(used)
        return frame, self._kinds(frame, used)
