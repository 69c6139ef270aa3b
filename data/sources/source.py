"""Where rows live, and which engine reads them: the ``Source`` value.

    Source.dataset("restaurant")                    # a shipped dataset (pandas)
    Source.frame(frame, "upload:3f2a")              # an uploaded CSV, already a DataFrame
    Source.files("/data/visits/*.parquet")          # Parquet or CSV files: a file, folder or glob
    Source.duckdb_table("/data/shop.duckdb", "visits")
    Source.parse("/data/shop.duckdb:visits", engine="duckdb")   # what a user types

Engines: "pandas" (in memory, the path uploads take), "duckdb" (embedded, no server; the
default for files), "spark" (pyspark: a local master, a Spark master URL or a Spark Connect
address ``sc://host:port``; the address comes from ``Source.spark`` or the environment
variable DP_EXPLORER_SPARK, else ``local[*]``). With engine "auto", files go to Spark when
DP_EXPLORER_SPARK is set and to DuckDB otherwise; frames and shipped datasets to pandas.
A Source is hashable (a frame counts by its key), so pages can cache results on it.
Bad locations raise CodedError (a ValueError) with a code the page writes in its language.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import pandas as pd

from data.sources.coded import coded_error

SPARK_ENV = "DP_EXPLORER_SPARK"
ENGINES = ("auto", "pandas", "duckdb", "spark")
Engine = Literal["auto", "pandas", "duckdb", "spark"]
Kind = Literal["dataset", "frame", "files", "duckdb"]
FileFormat = Literal["parquet", "csv"]

PARQUET_SUFFIXES = (".parquet", ".pq", ".parq")
CSV_SUFFIXES = (".csv", ".tsv", ".csv.gz", ".tsv.gz")
DUCKDB_SUFFIXES = (".duckdb", ".ddb", ".db")
_PARQUET_MAGIC = b"PAR1"


@dataclass(frozen=True)
class Source:
    """A table to compute statistics on, and the engine that computes them.

    ``kind``: "dataset" (``location`` is the registry key), "frame" (``location`` names the
    frame, e.g. "upload:<file id>"), "files" (``location`` a file, folder or glob of Parquet
    or CSV files, all of ``file_format``), "duckdb" (``location`` a DuckDB database file,
    ``table`` a table or view in it).
    """

    kind: Kind
    location: str
    engine: Engine = "auto"
    table: str | None = None
    file_format: FileFormat | None = None
    spark: str | None = None
    data: pd.DataFrame | None = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            choices = ", ".join(repr(engine) for engine in ENGINES)
            raise coded_error("choice", name="engine", choices=choices, got=repr(self.engine))

    # -- constructors ---------------------------------------------------------------------

    @classmethod
    def dataset(cls, key: str, *, engine: Engine = "auto") -> Source:
        from data.registry import get_dataset

        get_dataset(key)  # ValueError naming the keys
        return cls("dataset", key, engine)

    @classmethod
    def frame(cls, frame: pd.DataFrame, key: str, *, engine: Engine = "auto") -> Source:
        """An in-memory table (an upload); ``key`` names it for caches (a new key per file)."""
        if not isinstance(frame, pd.DataFrame):
            raise coded_error("source_frame")
        return cls("frame", key, engine, data=frame)

    @classmethod
    def files(
        cls,
        location: str | os.PathLike,
        *,
        engine: Engine = "auto",
        file_format: FileFormat | None = None,
        spark: str | None = None,
    ) -> Source:
        """Parquet or CSV files: one file, a folder (every such file inside) or a glob.

        A URI (s3a://, hdfs://, gs://...) is passed to the engine as it is, unchecked: a
        cluster reads paths this machine may not see. Its format is read from its name
        (.csv: CSV; otherwise Parquet) unless ``file_format`` says.
        """
        location = str(location).strip()
        if is_uri(location):
            fmt = file_format or ("csv" if location.lower().endswith(CSV_SUFFIXES) else "parquet")
            return cls("files", location, engine, file_format=fmt, spark=spark)
        found = resolve_files(location)
        fmt = file_format or detect_format(found)
        return cls("files", location, engine, file_format=fmt, spark=spark)

    @classmethod
    def duckdb_table(
        cls, database: str | os.PathLike, table: str, *, engine: Engine = "auto"
    ) -> Source:
        """A table (or view) of a DuckDB database file, read only."""
        path = Path(str(database).strip()).expanduser()
        if not path.is_file():
            raise coded_error("duckdb_file_missing", path=str(path))
        if not str(table).strip():
            raise coded_error("duckdb_table_unnamed")
        return cls("duckdb", str(path), engine, table=str(table).strip())

    @classmethod
    def parse(cls, text: str, *, engine: Engine = "auto", spark: str | None = None) -> Source:
        """What a user types in the source picker: a path, a folder, a glob of Parquet or
        CSV files, or ``database.duckdb:table``."""
        text = str(text).strip().strip("'\"")
        if not text:
            raise coded_error("path_empty")
        head, sep, table = text.rpartition(":")
        if sep and head.lower().endswith(DUCKDB_SUFFIXES):
            return cls.duckdb_table(head, table, engine=engine)
        if text.lower().endswith(DUCKDB_SUFFIXES):
            raise coded_error("duckdb_table_name", path=text)
        return cls.files(text, engine=engine, spark=spark)

    # -- what it is -----------------------------------------------------------------------

    @property
    def key(self) -> str:
        """A text naming the rows (and the engine), for caches and messages."""
        where = f"{self.location}:{self.table}" if self.table else self.location
        return f"{self.kind}:{where}@{self.resolved_engine()}"

    @property
    def title(self) -> str:
        if self.kind == "duckdb":
            return f"{Path(self.location).name}:{self.table}"
        return self.location

    def resolved_engine(self) -> str:
        """The engine that runs: "auto" resolved (see the module docstring)."""
        if self.engine != "auto":
            return self.engine
        if self.kind in ("dataset", "frame"):
            return "pandas"
        if self.kind == "files" and os.environ.get(SPARK_ENV, "").strip():
            return "spark"
        return "duckdb"

    def spark_address(self) -> str:
        """The Spark master or Spark Connect address this source uses."""
        return (self.spark or os.environ.get(SPARK_ENV, "") or "local[*]").strip()

    def with_engine(self, engine: Engine, *, spark: str | None = None) -> Source:
        return replace(self, engine=engine, spark=spark if spark is not None else self.spark)

    def paths(self) -> list[str]:
        """The files of a "files" source (checked again: files come and go; a URI as is)."""
        return [self.location] if is_uri(self.location) else resolve_files(self.location)

    def load_frame(self, columns: list[str] | None = None) -> pd.DataFrame:
        """The rows as a DataFrame (the pandas engine): only for data that fit in memory."""
        if self.kind == "frame":
            return self.data if columns is None else self.data[columns]
        if self.kind == "dataset":
            from data.registry import load_dataset

            frame = load_dataset(self.location)
            return frame if columns is None else frame[columns]
        if self.kind == "duckdb":
            raise coded_error("pandas_duckdb")
        parts = []
        for path in self.paths():
            try:
                if self.file_format == "parquet":
                    parts.append(pd.read_parquet(path, columns=columns))
                else:
                    sep = "\t" if ".tsv" in path.lower() else ","
                    parts.append(pd.read_csv(path, sep=sep, usecols=columns))
            except (ValueError, OSError) as error:  # pandas' or pyarrow's own words
                raise coded_error("pandas_unreadable", path=path, detail=str(error)) from None
        return parts[0] if len(parts) == 1 else pd.concat(parts, ignore_index=True)


def is_uri(location: str) -> bool:
    """Whether a location is a URI such as s3a://bucket/visits/ (not a local path)."""
    scheme, sep, _ = location.partition("://")
    return bool(sep) and scheme.isalnum() and scheme.lower() != "file"


def resolve_files(location: str) -> list[str]:
    """The files a location names (file, folder or glob), sorted; ValueError if none."""
    if not location:
        raise coded_error("path_files_empty")
    path = Path(location).expanduser()
    if any(ch in location for ch in "*?["):
        found = sorted(p for p in glob.glob(str(path), recursive=True) if Path(p).is_file())
        if not found:
            raise coded_error("path_no_match", location=location)
        return found
    if path.is_dir():
        found = sorted(
            str(p)
            for p in path.rglob("*")
            if p.is_file() and p.name.lower().endswith(PARQUET_SUFFIXES + CSV_SUFFIXES)
        )
        if not found:
            raise coded_error("path_folder_empty", location=location)
        return found
    if not path.exists():
        raise coded_error("path_missing", location=location)
    return [str(path)]


def _format_of(path: str) -> FileFormat:
    name = path.lower()
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError as error:
        raise coded_error(
            "path_unreadable", path=path, detail=error.strerror or str(error)
        ) from None
    if head.startswith(_PARQUET_MAGIC):
        return "parquet"
    if name.endswith(PARQUET_SUFFIXES):
        raise coded_error("path_not_parquet", path=path)
    if name.endswith(CSV_SUFFIXES) and not name.endswith(".gz"):
        if b"\x00" in head:
            raise coded_error("path_binary_csv", path=path)
        return "csv"
    if name.endswith(".gz"):
        return "csv"
    raise coded_error("path_kind", path=path)


def detect_format(paths: list[str]) -> FileFormat:
    """Parquet or CSV, the same for every file; ValueError otherwise."""
    formats = {_format_of(path) for path in paths}
    if len(formats) > 1:
        raise coded_error("path_mixed")
    return formats.pop()
