"""The three engines behind a Source: pandas (in memory), DuckDB (embedded) and Spark.

Each engine answers ``schema()``, ``profile()``, ``category_counts()`` and ``bounded()``
with the values of data.sources.results; the SQL engines run data.sources.sql and turn its
few result rows into the same values the pandas engine computes. Engines are made once per
Source (``engine_for``) and keep what they learnt (the schema; the profile, which tells
whether the l0 and linf windows can be skipped).
"""

from __future__ import annotations

import contextlib
import functools
import os
import socket
import tempfile
import threading
import warnings
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
import pandas as pd

from data.sources import capped, describe, pandas_engine, sql, units
from data.sources.keys import KEY_KINDS, Dialect, SparkDialect
from data.sources.results import (
    NUMERIC_KINDS,
    BoundedStatistics,
    CategoryCounts,
    Column,
    Profile,
    Request,
    Schema,
)
from data.sources.source import Source

DUCKDB_THREADS_ENV = "DP_EXPLORER_DUCKDB_THREADS"
DUCKDB_MEMORY_ENV = "DP_EXPLORER_DUCKDB_MEMORY"
SPARK_CONNECT_TIMEOUT = 3.0  # seconds to wait for a Spark master or Connect server


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
    labels = pandas_engine.text_keys(pd.Series(answers.index), group_kind).to_numpy()
    answers.index = pd.Index(labels, name=request.group)
    answers = answers.groupby(level=0).sum()  # labels may merge values (e.g. " a" and "a")
    answers = answers.reindex(pd.Index(request.groups, name=request.group), fill_value=0)
    return answers.astype({c: np.int64 for c in counts})


class PandasEngine:
    """In memory: a frame, a shipped dataset, or files read whole (only what fits)."""

    name = "pandas"

    def __init__(self, source: Source) -> None:
        self.source = source

    @functools.cached_property
    def _schema(self) -> Schema:
        if self.source.kind == "files" and self.source.file_format == "parquet":
            import pyarrow.parquet as pq

            paths = self.source.paths()
            head = next(pq.ParquetFile(paths[0]).iter_batches(batch_size=64), None)
            sample = head if head is not None else pq.read_schema(paths[0]).empty_table()
            rows = sum(pq.ParquetFile(path).metadata.num_rows for path in paths)
            return Schema(pandas_engine.frame_schema(sample.to_pandas()).columns, rows)
        return pandas_engine.frame_schema(self._frame(None))

    def schema(self) -> Schema:
        return self._schema

    def _frame(self, columns: list[str] | None) -> pd.DataFrame:
        return self.source.load_frame(columns)

    def _kinds(self, frame: pd.DataFrame, columns) -> dict[str, str]:
        return {c: pandas_engine.kind_of(frame[c]) for c in columns if c is not None}

    def profile(self, person: str | None, group: str | None) -> Profile:
        schema = self.schema()
        used = list(dict.fromkeys(c for c in (person, group) if c is not None))
        for column, role in ((person, "person"), (group, "group")):
            if column is not None:
                schema.column(column, role, KEY_KINDS)
        return pandas_engine.profile(self._frame(used), person, group)

    def category_counts(self, column: str, person: str | None) -> CategoryCounts:
        schema = self.schema()
        kind = schema.column(column, "category", KEY_KINDS).kind
        if person is not None:
            schema.column(person, "person", KEY_KINDS)
        used = [c for c in (person, column) if c is not None]
        frame = self._frame(list(dict.fromkeys(used)))
        return pandas_engine.category_counts(frame, column, person, kind)

    def bounded(self, request: Request) -> BoundedStatistics:
        frame, kinds = self._request_frame(request)
        result = pandas_engine.bounded(frame, request, kinds)
        answers = finish_answers(result.answers, request, kinds[request.group])
        return BoundedStatistics(request, answers, result.rows_outside, result.groups_outside)

    def kept_rows(self, request: Request) -> pd.Series:
        """Which rows the caps keep (a boolean Series over the source's rows)."""
        frame, kinds = self._request_frame(request)
        _, mask = pandas_engine.bounded(frame, request, kinds, rows_mask=True)
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
        pandas_engine.check_missing(frame, {"person": request.person})
        persons = len(frame) if request.person is None else int(frame[request.person].nunique())
        return capped.pandas_totals(frame, request, kinds, persons)

    def units(self, request: units.UnitsRequest) -> units.ContributionUnits:
        kinds = units.request_kinds(self.schema(), request)
        used = [request.person, request.group, request.value, request.order]
        frame = self._frame(list(dict.fromkeys(c for c in used if c is not None)))
        roles = {"person": request.person, "group": request.group, "value": request.value}
        pandas_engine.check_missing(frame, {**roles, "order": request.order})
        if request.value is not None:
            values = frame[request.value].to_numpy(dtype=float)
            bad = int((~np.isfinite(values)).sum())
            if bad:
                raise pandas_engine.infinite_error(request.value, bad)
        return units.pandas_units(frame, request, kinds)

    def _request_frame(self, request: Request) -> tuple[pd.DataFrame, dict[str, str]]:
        request_kinds(self.schema(), request)
        used = [request.person, request.group, request.value]
        if request.bounding.selection == "first":
            used.append(request.order)
        used = list(dict.fromkeys(c for c in used if c is not None))
        frame = self._frame(used)
        return frame, self._kinds(frame, used)


# ---------------------------------------------------------------------------------------
# SQL engines
# ---------------------------------------------------------------------------------------


class SqlEngine:
    """What DuckDB and Spark share: the SQL, and turning its rows into results."""

    name = "sql"
    dialect: Dialect = Dialect()
    relation: str

    def __init__(self, source: Source) -> None:
        self.source = source
        self._profiles: dict[tuple[str | None, str | None], Profile] = {}
        self._lock = threading.Lock()

    def _query(self, text: str) -> pd.DataFrame:  # pragma: no cover - overridden
        raise NotImplementedError

    def _columns(self) -> tuple[Column, ...]:  # pragma: no cover - overridden
        raise NotImplementedError

    @functools.cached_property
    def _schema(self) -> Schema:
        columns = self._columns()
        rows = int(self._query(sql.schema_rows_sql(self.relation))["n"].iloc[0])
        return Schema(columns, rows)

    def schema(self) -> Schema:
        return self._schema

    def profile(self, person: str | None, group: str | None) -> Profile:
        schema = self.schema()
        if person is not None:
            schema.column(person, "person", KEY_KINDS)
        if group is not None:
            schema.column(group, "group", KEY_KINDS)
        cached = self._profiles.get((person, group))
        if cached is not None:
            return cached
        if person is None:
            result = self._rows_profile(group)
        else:
            raw = self._query(sql.profile_sql(self.dialect, self.relation, person, group))
            result = _profile_from_rows(raw, person, group)
        self._profiles[(person, group)] = result
        return result

    def _rows_profile(self, group: str | None) -> Profile:
        q = self.dialect.quote
        missing = f"count(*) - count({q(group)})" if group else "0"
        raw = self._query(f"SELECT count(*) AS n, {missing} AS missing FROM {self.relation}")
        rows, missing = int(raw["n"].iloc[0]), int(raw["missing"].iloc[0])
        if missing:
            raise pandas_engine.missing_error("group", group, missing)
        histogram = pd.Series(
            [rows] if rows else [],
            index=pd.Index([1] if rows else [], name="contributions", dtype=np.int64),
            name="persons",
            dtype=np.int64,
        )
        return Profile(None, group, rows, rows, rows, 1 if rows else 0, 1 if rows else 0, histogram)

    def category_counts(self, column: str, person: str | None) -> CategoryCounts:
        schema = self.schema()
        kind = schema.column(column, "category", KEY_KINDS).kind
        if person is not None:
            schema.column(person, "person", KEY_KINDS)
        raw = self._query(sql.category_sql(self.dialect, self.relation, column, person))
        missing_person = int(raw["missing_person"].sum())
        if missing_person:
            raise pandas_engine.missing_error("person", person, missing_person)
        missing = raw["g"].isna()
        if missing.any():
            rows = int(raw.loc[missing, "n_rows"].sum())
            raise pandas_engine.missing_error("category", column, rows)
        counts = raw.set_index("g").sort_index()
        counts.index.name = column
        counts = counts.rename(columns={"n_rows": "rows"})[["rows", "persons"]].astype(np.int64)
        counts["label"] = pandas_engine.text_keys(pd.Series(counts.index), kind).to_numpy()
        return CategoryCounts(column, person, counts)

    def bounded(self, request: Request) -> BoundedStatistics:
        kinds = request_kinds(self.schema(), request)
        b = request.bounding
        known = self._profiles.get((request.person, request.group))
        unit_window = request.person is not None and (
            known is None or b.max_groups < known.max_contributions
        )
        row_window = (
            request.value is not None
            and not b.pre_aggregate
            and (known is None or b.max_per_group < known.max_rows_per_unit)
        )
        text = sql.bounded_sql(
            self.dialect,
            self.relation,
            request,
            kinds,
            unit_window=unit_window,
            row_window=row_window,
        )
        checks = self._query(sql.checks_sql(self.dialect, self.relation, request, kinds))
        _check_counts(checks.iloc[0], request)
        raw = self._query(text)
        inside = raw[raw["d"].astype(bool)].set_index("g")
        outside = raw[~raw["d"].astype(bool)]
        answers = finish_answers(inside, request, kinds[request.group])
        return BoundedStatistics(request, answers, int(outside["true_count"].sum()), len(outside))

    def summary(self, limit: int) -> describe.TableSummary:
        schema = self.schema()
        first = self._query(describe.summary_sql(self.dialect, self.relation, schema)).iloc[0]
        few = describe.candidates(first, schema, limit)
        exact = None
        if few:
            text = describe.distinct_sql(self.dialect, self.relation, schema, few)
            exact = self._query(text).iloc[0]
        return describe.summary_from_rows(first, exact, schema, limit)

    def sample(self, rows: int) -> pd.DataFrame:
        return self._query(f"SELECT * FROM {self.relation} LIMIT {int(rows)}")

    def capped(self, request: capped.CappedRequest) -> capped.CappedTotals:
        kinds = capped.request_kinds(self.schema(), request)
        if request.person is None:
            total = persons = self.schema().rows
            window = False
        else:
            known = self.profile(request.person, None)  # raises for missing persons
            total, persons = known.rows, known.persons
            window = request.cap is not None and known.max_rows_per_person > int(request.cap)
        text = capped.totals_sql(self.dialect, self.relation, request, kinds, window=window)
        return capped.finish(self._query(text), request, total, persons)

    def units(self, request: units.UnitsRequest) -> units.ContributionUnits:
        kinds = units.request_kinds(self.schema(), request)
        checks = self._query(units.outside_sql(self.dialect, self.relation, request, kinds))
        checks = checks.iloc[0]
        for role, column in (("person", request.person), ("group", request.group),
                             ("value", request.value), ("order", request.order)):  # fmt: skip
            count = int(checks[f"missing_{role}"])
            if count and column is not None:
                raise pandas_engine.missing_error(role, column, count)
        if int(checks["bad_value"]):
            raise pandas_engine.infinite_error(request.value, int(checks["bad_value"]))
        with_values = request.value is not None
        raw = self._query(
            units.units_sql(self.dialect, self.relation, request, kinds, values=with_values)
        )
        complete = len(raw) <= request.limit
        if not complete:
            raw = self._query(
                units.units_sql(self.dialect, self.relation, request, kinds, values=False)
            )
        if raw.empty:
            raise ValueError("no row is in the released groups.")
        value_range = (None, None)
        if with_values:
            value_range = (float(raw["lo"].min()), float(raw["hi"].max()))
        return units.finish(
            raw,
            request,
            kinds[request.group],
            complete=complete,
            outside=(int(checks["rows_outside"]), int(checks["groups_outside"])),
            value_range=value_range,
        )


def _profile_from_rows(raw: pd.DataFrame, person: str, group: str | None) -> Profile:
    missing = raw[raw["missing_person"].astype(bool)]
    if len(missing):
        raise pandas_engine.missing_error("person", person, int(missing["n_rows"].sum()))
    missing_group = int(raw["missing_group"].sum())
    if missing_group:
        raise pandas_engine.missing_error("group", group, missing_group)
    k = raw["k"].astype(np.int64).to_numpy()
    persons = raw["persons"].astype(np.int64).to_numpy()
    top = int(k.max()) if len(k) else 0
    counts = np.zeros(top, dtype=np.int64)
    counts[k - 1] = persons
    histogram = pd.Series(
        counts, index=pd.Index(np.arange(1, top + 1), name="contributions"), name="persons"
    )
    return Profile(
        person=person,
        group=group,
        rows=int(raw["n_rows"].astype(np.int64).sum()),
        persons=int(persons.sum()),
        units=int((k * persons).sum()) if group is not None else int(persons.sum()),
        max_rows_per_person=int(raw["max_rows"].max()) if len(raw) else 0,
        max_rows_per_unit=int(raw["max_unit"].max()) if len(raw) else 0,
        histogram=histogram,
    )


def _check_counts(counts: pd.Series, request: Request) -> None:
    for role, column in (
        ("person", request.person),
        ("group", request.group),
        ("value", request.value),
        ("order", request.order),
    ):
        count = int(counts[f"missing_{role}"])
        if count and column is not None:
            raise pandas_engine.missing_error(role, column, count)
    bad = int(counts["bad_value"])
    if bad:
        raise pandas_engine.infinite_error(request.value, bad)


def _readable(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


# ---------------------------------------------------------------------------------------
# DuckDB
# ---------------------------------------------------------------------------------------

_DUCKDB_INTEGERS = {
    "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
    "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT",
}  # fmt: skip


def duckdb_kind(type_name: str) -> str:
    name = type_name.upper()
    if name in _DUCKDB_INTEGERS:
        return "integer"
    if name in ("DOUBLE", "FLOAT", "REAL") or name.startswith("DECIMAL"):
        return "float"
    if name == "VARCHAR" or name.startswith("VARCHAR("):
        return "string"
    if name == "BOOLEAN":
        return "boolean"
    if name == "DATE":
        return "date"
    if name.startswith("TIMESTAMP"):
        return "timestamp"
    return "other"


def _default_memory() -> str:
    """A quarter of the machine's memory (DuckDB's own default is 80%): the app may serve
    several sessions, and DuckDB spills the rest to disk."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return "2GB"
    return f"{max(total // 4 // 2**20, 256)}MB"


def duckdb_config() -> dict[str, str]:
    """DuckDB settings: spill to a temporary folder; threads from DP_EXPLORER_DUCKDB_THREADS
    (default: every core) and working memory from DP_EXPLORER_DUCKDB_MEMORY (e.g. "2GB";
    default a quarter of the machine's memory)."""
    config = {
        "preserve_insertion_order": "false",
        "temp_directory": str(Path(tempfile.gettempdir()) / f"dp_explorer_duckdb_{os.getpid()}"),
    }
    threads = os.environ.get(DUCKDB_THREADS_ENV, "").strip()
    if threads:
        config["threads"] = threads
    config["memory_limit"] = os.environ.get(DUCKDB_MEMORY_ENV, "").strip() or _default_memory()
    return config


class DuckDBEngine(SqlEngine):
    """DuckDB in this process (no server): files, DuckDB tables, frames."""

    name = "duckdb"
    dialect = Dialect()

    def __init__(self, source: Source) -> None:
        super().__init__(source)
        import duckdb

        self._duckdb = duckdb
        self.con = duckdb.connect(config=duckdb_config())
        self.con.execute("SET enable_progress_bar = false")
        self.relation = self._open()

    def _open(self) -> str:
        source = self.source
        literal = self.dialect.string_literal
        if source.kind in ("frame", "dataset"):
            self.con.register("dp_frame", source.load_frame())
            return "dp_frame"
        if source.kind == "duckdb":
            try:
                self.con.execute(f"ATTACH {literal(source.location)} AS dp_db (READ_ONLY)")
            except self._duckdb.Error as error:
                raise ValueError(
                    f"'{source.location}' could not be opened as a DuckDB database: "
                    f"{_readable(error)}"
                ) from None
            names = [
                row[0]
                for row in self.con.execute(
                    "SELECT table_name FROM information_schema.tables "
                    "WHERE table_catalog = 'dp_db' ORDER BY table_name"
                ).fetchall()
            ]
            if source.table not in names:
                there = ", ".join(names) or "none"
                raise ValueError(
                    f"the DuckDB database '{Path(source.location).name}' has no table "
                    f"'{source.table}'; its tables are: {there}."
                )
            return f"dp_db.{self.dialect.quote(source.table)}"
        paths = "[" + ", ".join(literal(path) for path in source.paths()) + "]"
        if source.file_format == "parquet":
            return f"read_parquet({paths})"
        return f"read_csv({paths}, header = true)"

    def _query(self, text: str) -> pd.DataFrame:
        try:
            with self._lock:  # one query at a time on this connection (app sessions are threads)
                return self.con.execute(text).fetchdf()
        except self._duckdb.Error as error:
            raise ValueError(
                f"'{self.source.title}' could not be read: {_readable(error)}"
            ) from None

    def _columns(self) -> tuple[Column, ...]:
        described = self._query(f"DESCRIBE SELECT * FROM {self.relation}")
        return tuple(
            Column(str(name), str(kind), duckdb_kind(str(kind)))
            for name, kind in zip(described["column_name"], described["column_type"], strict=True)
        )

    def close(self) -> None:
        self.con.close()


# ---------------------------------------------------------------------------------------
# Spark
# ---------------------------------------------------------------------------------------

_SPARK: dict[str, object] = {}  # address -> SparkSession (one at a time per process)
_SPARK_LOCK = threading.Lock()


def spark_kind(type_name: str) -> str:
    name = type_name.lower()
    if name in ("long", "integer", "short", "byte", "bigint", "int", "smallint", "tinyint"):
        return "integer"
    if name in ("double", "float") or name.startswith("decimal"):
        return "float"
    if name == "string" or name.startswith(("varchar", "char")):
        return "string"
    if name == "boolean":
        return "boolean"
    if name == "date":
        return "date"
    if name.startswith("timestamp"):
        return "timestamp"
    return "other"


def _check_reachable(address: str) -> None:
    """ValueError unless something listens at the address's host and port."""
    url = urlparse(address.split(",")[0])
    host, port = url.hostname, url.port
    if host is None or port is None:
        raise ValueError(
            f"the Spark address '{address}' names no host and port "
            "(e.g. spark://host:7077 or sc://host:15002)."
        )
    try:
        with socket.create_connection((host, port), timeout=SPARK_CONNECT_TIMEOUT):
            pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ValueError(
            f"the Spark {'Connect server' if address.startswith('sc://') else 'master'} at "
            f"'{address}' cannot be reached ({reason}): check the address, or unset "
            "DP_EXPLORER_SPARK to use DuckDB."
        ) from None


def spark_session(address: str):
    """The SparkSession for ``address``: local[...] (no server), a Spark master URL
    (spark://, yarn, k8s://) or a Spark Connect address (sc://host:port)."""
    with _SPARK_LOCK:
        if address in _SPARK:
            return _SPARK[address]
        if address.startswith(("spark://", "sc://", "k8s://")):
            _check_reachable(address.removeprefix("k8s://"))
        try:
            with warnings.catch_warnings():  # "does not yet fully support pandas >= 3"
                warnings.simplefilter("ignore", FutureWarning)
                from pyspark.sql import SparkSession
        except ImportError:
            raise ValueError("the Spark engine needs pyspark: pip install pyspark.") from None
        for old in list(_SPARK):
            with contextlib.suppress(Exception):
                _SPARK.pop(old).stop()
        builder = SparkSession.builder.appName("dp-explorer")
        if address.startswith("sc://"):
            try:
                import pyspark.sql.connect.session  # noqa: F401  (needs grpcio, pyarrow)
            except ImportError as error:
                raise ValueError(
                    "Spark Connect needs its client libraries: pip install 'pyspark[connect]' "
                    f"({_readable(error)})."
                ) from None
            builder = builder.remote(address)
        else:
            builder = builder.master(address)
            for key, value in spark_config(address).items():
                builder = builder.config(key, value)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                session = builder.getOrCreate()
            if not address.startswith("sc://"):
                session.sparkContext.setLogLevel("ERROR")
        except Exception as error:  # the JVM or the cluster said no
            raise ValueError(
                f"Spark could not start at '{address}': {_readable(error)} "
                "(a local master needs Java 17 or later)."
            ) from None
        _SPARK[address] = session
        return session


def spark_config(address: str) -> dict[str, str]:
    """Settings for a session this process starts (a local master or a master URL).

    A local master shuffles into few partitions (DP_EXPLORER_SPARK_PARTITIONS, default 4)
    and its driver, which does all the work, gets DP_EXPLORER_SPARK_MEMORY (default 2g) and
    the JVM options in DP_EXPLORER_SPARK_JAVA_OPTIONS (e.g. -XX:TieredStopAtLevel=1, which
    starts faster on small data).
    """
    config = {
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.adaptive.enabled": "true",
    }
    if address.startswith("local"):
        config["spark.sql.shuffle.partitions"] = os.environ.get("DP_EXPLORER_SPARK_PARTITIONS", "4")
        config["spark.driver.memory"] = os.environ.get("DP_EXPLORER_SPARK_MEMORY", "2g")
        options = os.environ.get("DP_EXPLORER_SPARK_JAVA_OPTIONS", "").strip()
        if options:
            config["spark.driver.extraJavaOptions"] = options
    return config


def stop_spark() -> None:
    """Stop the Spark session this process started (tests, benchmarks)."""
    with _SPARK_LOCK:
        for old in list(_SPARK):
            with contextlib.suppress(Exception):
                _SPARK.pop(old).stop()


class SparkEngine(SqlEngine):
    """Spark SQL through pyspark; files are read by the cluster, frames shipped as Parquet."""

    name = "spark"
    dialect = SparkDialect()
    _views = 0

    def __init__(self, source: Source) -> None:
        super().__init__(source)
        if source.kind == "duckdb":
            raise ValueError(
                "a DuckDB database is read by the DuckDB engine: choose DuckDB, or export the "
                "table to Parquet (COPY visits TO 'visits.parquet') for Spark."
            )
        self.spark = spark_session(source.spark_address())
        self._temp = None
        frame = self._read()
        SparkEngine._views += 1
        self.relation = f"dp_source_{os.getpid()}_{SparkEngine._views}"
        frame.createOrReplaceTempView(self.relation)
        self._frame = frame

    def _read(self):
        source = self.source
        reader = self.spark.read
        try:
            if source.kind in ("frame", "dataset"):
                import pyarrow as pa
                import pyarrow.parquet as pq

                self._temp = tempfile.TemporaryDirectory(prefix="dp_explorer_spark_")
                path = str(Path(self._temp.name) / "frame.parquet")
                pq.write_table(
                    pa.Table.from_pandas(source.load_frame(), preserve_index=False), path
                )
                return reader.parquet(path)
            paths = source.paths()
            if source.file_format == "parquet":
                return reader.parquet(*paths)
            sep = "\t" if ".tsv" in paths[0].lower() else ","
            return reader.csv(paths, header=True, inferSchema=True, sep=sep)
        except ValueError:
            raise
        except Exception as error:
            raise ValueError(f"Spark could not read '{source.title}': {_readable(error)}") from None

    def _columns(self) -> tuple[Column, ...]:
        return tuple(
            Column(field.name, field.dataType.simpleString(), spark_kind(field.dataType.typeName()))
            for field in self._frame.schema.fields
        )

    def _query(self, text: str) -> pd.DataFrame:
        try:
            result = self.spark.sql(text)
            rows = result.collect()
        except Exception as error:
            raise ValueError(
                f"Spark could not compute on '{self.source.title}': {_readable(error)}"
            ) from None
        return pd.DataFrame.from_records([tuple(row) for row in rows], columns=result.columns)


# ---------------------------------------------------------------------------------------
# One engine per source
# ---------------------------------------------------------------------------------------

_ENGINES: dict[Source, object] = {}
_ENGINES_LOCK = threading.Lock()
_MAX_ENGINES = 16


def engine_for(source: Source):
    """The engine of ``source`` (made once, then reused): Pandas-, DuckDB- or SparkEngine."""
    with _ENGINES_LOCK:
        engine = _ENGINES.get(source)
        if engine is not None and (source.kind != "frame" or engine.source.data is source.data):
            return engine
    kind = source.resolved_engine()
    engine = {"pandas": PandasEngine, "duckdb": DuckDBEngine, "spark": SparkEngine}[kind](source)
    with _ENGINES_LOCK:
        if len(_ENGINES) >= _MAX_ENGINES:
            _ENGINES.pop(next(iter(_ENGINES)))
        _ENGINES[source] = engine
    return engine
