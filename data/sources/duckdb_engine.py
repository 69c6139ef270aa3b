"""The DuckDB engine: DuckDB in this process (no server) reads files, DuckDB tables and
frames; its settings (threads, working memory, spill folder) come from the environment."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pandas as pd

from data.sources.coded import coded_error
from data.sources.keys import Dialect
from data.sources.progress import run_reporting
from data.sources.results import Column
from data.sources.source import Source
from data.sources.sql_engine import SqlEngine, readable_error

DUCKDB_THREADS_ENV = "DP_EXPLORER_DUCKDB_THREADS"
DUCKDB_MEMORY_ENV = "DP_EXPLORER_DUCKDB_MEMORY"
DUCKDB_SPILL_ENV = "DP_EXPLORER_DUCKDB_SPILL"

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
    """DuckDB settings: spill to a temporary folder (under TMPDIR); threads from
    DP_EXPLORER_DUCKDB_THREADS (default: every core) and working memory from
    DP_EXPLORER_DUCKDB_MEMORY (e.g. "2GB"; default a quarter of the machine's memory)."""
    config = {
        "preserve_insertion_order": "false",
        "temp_directory": str(Path(tempfile.gettempdir()) / f"dp_explorer_duckdb_{os.getpid()}"),
    }
    threads = os.environ.get(DUCKDB_THREADS_ENV, "").strip()
    if threads:
        config["threads"] = threads
    config["memory_limit"] = os.environ.get(DUCKDB_MEMORY_ENV, "").strip() or _default_memory()
    return config


def spill_limit() -> str | None:
    """What the spill folder may hold, from DP_EXPLORER_DUCKDB_SPILL (e.g. "40GB"; None:
    DuckDB's default, 90% of that disk's free space). Set after connecting: given with the
    folder at connection, DuckDB resets it to that default."""
    return os.environ.get(DUCKDB_SPILL_ENV, "").strip() or None


def _free_disk(folder: str) -> str:
    """The free space of the disk holding ``folder`` (or its nearest existing parent), in
    GiB as DuckDB writes sizes."""
    path = Path(folder)
    while not path.exists() and path != path.parent:
        path = path.parent
    try:
        return f"{shutil.disk_usage(path).free / 2**30:.1f} GiB"
    except OSError:
        return "?"


class DuckDBEngine(SqlEngine):
    """DuckDB in this process (no server): files, DuckDB tables, frames."""

    name = "duckdb"
    dialect = Dialect()

    def __init__(self, source: Source) -> None:
        super().__init__(source)
        import duckdb

        self._duckdb = duckdb
        self.con = duckdb.connect(config=duckdb_config())
        spill = spill_limit()
        if spill is not None:
            self.con.execute(f"SET max_temp_directory_size = {self.dialect.string_literal(spill)}")
        # DuckDB tracks a query's progress only with its bar on (data.sources.progress)
        self.con.execute("SET enable_progress_bar = true")
        self.con.execute("SET enable_progress_bar_print = false")
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
                raise coded_error(
                    "duckdb_unopenable", path=source.location, detail=readable_error(error)
                ) from None
            names = [
                row[0]
                for row in self.con.execute(
                    "SELECT table_name FROM information_schema.tables "
                    "WHERE table_catalog = 'dp_db' ORDER BY table_name"
                ).fetchall()
            ]
            if source.table not in names:
                database = Path(source.location).name
                if not names:
                    raise coded_error("duckdb_no_tables", database=database, table=source.table)
                raise coded_error(
                    "duckdb_no_table",
                    database=database,
                    table=source.table,
                    tables=", ".join(names),
                )
            return f"dp_db.{self.dialect.quote(source.table)}"
        paths = "[" + ", ".join(literal(path) for path in source.paths()) + "]"
        if source.file_format == "parquet":
            return f"read_parquet({paths})"
        return f"read_csv({paths}, header = true)"

    def _query(self, text: str) -> pd.DataFrame:
        return self._run(lambda: self.con.execute(text).fetchdf())

    def _keep(self, name: str, text: str) -> None:
        self._run(lambda: self.con.execute(f"CREATE TEMP TABLE {name} AS {text}"))

    def _run(self, execute):
        """``execute()`` alone on this connection (app sessions are threads), its progress
        reported; DuckDB's errors as a sentence (out of memory: what to change)."""
        try:
            with self._lock:
                return run_reporting(execute, self.con.query_progress)
        except (self._duckdb.OutOfMemoryException, self._duckdb.IOException) as error:
            raise self._short_of_room(error) from None
        except self._duckdb.Error as error:
            raise coded_error(
                "duckdb_unreadable", title=self.source.title, detail=readable_error(error)
            ) from None

    def _short_of_room(self, error: Exception) -> Exception:
        """Out of working memory, or of disk to spill to (DuckDB's max_temp_directory_size,
        or a full disk): what to change, as a sentence; another I/O error as DuckDB's."""
        from dp_core.errors import CodedError  # not at import: dp_core pulls in SciPy

        text = str(error)
        disk = "max_temp_directory_size" in text or "No space left" in text
        if isinstance(error, self._duckdb.IOException) and not disk:
            return coded_error(
                "duckdb_unreadable", title=self.source.title, detail=readable_error(error)
            )
        names = "('memory_limit', 'temp_directory', 'max_temp_directory_size')"
        asked = f"SELECT name, value FROM duckdb_settings() WHERE name IN {names}"
        settings = dict(self.con.execute(asked).fetchall())
        folder = settings.get("temp_directory") or "?"
        if not disk:
            limit = settings.get("memory_limit", "?")
            return CodedError("memory_duckdb", title=self.source.title, limit=limit, folder=folder)
        return CodedError(
            "spill_duckdb",
            title=self.source.title,
            memory=settings.get("memory_limit", "?"),
            folder=folder,
            limit=settings.get("max_temp_directory_size", "?"),
            free=_free_disk(folder),
        )

    def _forget(self, name: str) -> None:
        with self._lock:
            self.con.execute(f"DROP TABLE IF EXISTS {name}")

    def _columns(self) -> tuple[Column, ...]:
        described = self._query(f"DESCRIBE SELECT * FROM {self.relation}")
        return tuple(
            Column(str(name), str(kind), duckdb_kind(str(kind)))
            for name, kind in zip(described["column_name"], described["column_type"], strict=True)
        )

    def close(self) -> None:
        self.con.close()
