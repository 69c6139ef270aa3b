"""The Spark engine: Spark SQL through pyspark, on a local master, a Spark master URL or a
Spark Connect address; one SparkSession per process (``spark_session``, ``stop_spark``)."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import socket
import tempfile
import threading
import warnings
from pathlib import Path
from urllib.parse import urlparse

import pandas as pd

from data.sources.coded import coded_error
from data.sources.keys import SparkDialect
from data.sources.progress import run_reporting
from data.sources.results import Column
from data.sources.source import Source
from data.sources.sql_engine import SqlEngine, readable_error

SPARK_CONNECT_TIMEOUT = 3.0  # seconds to wait for a Spark master or Connect server

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
        raise coded_error("spark_address", address=address)
    try:
        with socket.create_connection((host, port), timeout=SPARK_CONNECT_TIMEOUT):
            pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        code = "spark_connect_unreachable" if address.startswith("sc://") else "spark_unreachable"
        raise coded_error(code, address=address, detail=reason) from None


def _check_connect(address: str) -> None:
    """ValueError unless what listens at a Spark Connect address speaks gRPC, Connect's
    transport, within SPARK_CONNECT_TIMEOUT: pyspark's client retries anything else for
    minutes (another service on the port, a typo of its number), while the page waits."""
    import grpc
    from pyspark.sql.connect.client.core import DefaultChannelBuilder

    try:
        channel = DefaultChannelBuilder(address).toChannel()  # its TLS and token, if named
    except Exception:  # a malformed connection string
        raise coded_error("spark_address", address=address) from None
    try:
        grpc.channel_ready_future(channel).result(timeout=SPARK_CONNECT_TIMEOUT)
    except grpc.FutureTimeoutError:
        raise coded_error("spark_connect_start", address=address) from None
    finally:
        channel.close()


def spark_installed() -> bool:
    """Whether Spark's Python client (pyspark, an optional extra) can be imported."""
    return importlib.util.find_spec("pyspark") is not None


def spark_session(address: str):
    """The SparkSession for ``address``: local[...] (no server), a Spark master URL
    (spark://, yarn, k8s://) or a Spark Connect address (sc://host:port)."""
    with _SPARK_LOCK:
        if address in _SPARK:
            return _SPARK[address]
        connect = address.startswith("sc://")  # Spark Connect: no JVM in this process
        if address.startswith(("spark://", "sc://", "k8s://")):
            _check_reachable(address.removeprefix("k8s://"))
        try:
            with warnings.catch_warnings():  # "does not yet fully support pandas >= 3"
                warnings.simplefilter("ignore", FutureWarning)
                from pyspark.sql import SparkSession
        except ImportError:
            from dp_core.errors import CodedError  # here: dp_core's package imports SciPy

            raise CodedError("spark_missing") from None
        if connect:
            try:
                import pyspark.sql.connect.session  # noqa: F401  (needs grpcio, pyarrow)
            except ImportError as error:
                raise coded_error("spark_connect_missing", detail=readable_error(error)) from None
            _check_connect(address)
        _stop_sessions()
        builder = SparkSession.builder.appName("dp-explorer")
        if connect:
            builder = builder.remote(address)
        else:
            # pyspark leaves this set after a Connect session stops, and would then build
            # another Connect session (with no address) instead of this one
            os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)
            builder = builder.master(address)
            for key, value in spark_config(address).items():
                builder = builder.config(key, value)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                session = builder.getOrCreate()
            if not connect:
                session.sparkContext.setLogLevel("ERROR")
        except Exception as error:  # the JVM or the cluster said no
            code = "spark_connect_start" if connect else "spark_start"
            raise coded_error(code, address=address, detail=readable_error(error)) from None
        _SPARK[address] = session
        return session


def spark_config(address: str) -> dict[str, str]:
    """Settings for a session this process starts (a local master or a master URL).

    A local master shuffles into few partitions (DP_EXPLORER_SPARK_PARTITIONS, default 4)
    and its driver, which does all the work, gets DP_EXPLORER_SPARK_MEMORY (default 2g) and
    the JVM options in DP_EXPLORER_SPARK_JAVA_OPTIONS (e.g. -XX:TieredStopAtLevel=1, which
    starts faster on small data). On a master URL the cluster's own settings hold unless
    these are set: the partitions, the executors' JVM options, and DP_EXPLORER_SPARK_CORES,
    the cores the app may take (``spark.cores.max``, so that it leaves others theirs).
    """
    config = {
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.adaptive.enabled": "true",
    }
    partitions = os.environ.get("DP_EXPLORER_SPARK_PARTITIONS", "").strip()
    options = os.environ.get("DP_EXPLORER_SPARK_JAVA_OPTIONS", "").strip()
    if address.startswith("local"):
        config["spark.sql.shuffle.partitions"] = partitions or "4"
        config["spark.driver.memory"] = os.environ.get("DP_EXPLORER_SPARK_MEMORY", "2g")
        if options:
            config["spark.driver.extraJavaOptions"] = options
        return config
    asked = {
        "spark.sql.shuffle.partitions": partitions,
        "spark.cores.max": os.environ.get("DP_EXPLORER_SPARK_CORES", "").strip(),
        "spark.executor.extraJavaOptions": options,
    }
    return config | {key: value for key, value in asked.items() if value}


def stop_spark() -> None:
    """Stop the Spark session this process started (tests, benchmarks)."""
    with _SPARK_LOCK:
        _stop_sessions()


def _stop_sessions() -> None:
    """Stop every session kept (hold _SPARK_LOCK). A Connect session whose server is gone
    is closed without releasing it there: its client would retry that for minutes."""
    for address in list(_SPARK):
        session = _SPARK.pop(address)
        if address.startswith("sc://"):
            try:
                _check_reachable(address)
            except ValueError:
                session.release_session_on_close = False
        with contextlib.suppress(Exception):
            session.stop()


class SparkEngine(SqlEngine):
    """Spark SQL through pyspark; files are read by the cluster, frames shipped as Parquet."""

    name = "spark"
    dialect = SparkDialect()
    _views = 0
    _groups = 0  # job groups, one per statistic (its progress)

    def __init__(self, source: Source) -> None:
        super().__init__(source)
        if source.kind == "duckdb":
            raise coded_error("spark_duckdb")
        address = source.spark_address()
        self.spark = spark_session(address)
        # a local master or a master URL tells its progress; Spark Connect has no context
        self._context = None if address.startswith("sc://") else self.spark.sparkContext
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
            raise coded_error(
                "spark_unreadable", title=source.title, detail=readable_error(error)
            ) from None

    def _columns(self) -> tuple[Column, ...]:
        return tuple(
            Column(field.name, field.dataType.simpleString(), spark_kind(field.dataType.typeName()))
            for field in self._frame.schema.fields
        )

    def _keep(self, name: str, text: str) -> None:
        try:
            self._reporting(lambda: self.spark.sql(f"CACHE TABLE {name} AS {text}"))  # eager
        except Exception as error:
            raise self._error(error) from None

    def _reporting(self, execute):
        """``execute()`` with its progress reported (data.sources.progress): the share of
        tasks done in the stages of its jobs so far, never going back (a local master or a
        master URL; Spark Connect tells nothing, so no bar)."""
        context = self._context
        if context is None:
            return run_reporting(execute, lambda: -1.0)
        SparkEngine._groups += 1
        group = f"dp_explorer_{os.getpid()}_{SparkEngine._groups}"
        tracker, seen = context.statusTracker(), [0.0]

        def grouped():
            context.setJobGroup(group, "DP Explorer statistic")  # this thread's jobs
            return execute()

        def progress() -> float:
            done = total = 0
            for job in tracker.getJobIdsForGroup(group):
                info = tracker.getJobInfo(job)
                for stage in info.stageIds if info else ():
                    found = tracker.getStageInfo(stage)
                    if found is not None:
                        done, total = done + found.numCompletedTasks, total + found.numTasks
            if total:
                seen[0] = max(seen[0], 100.0 * done / total)
            return seen[0] if total else -1.0

        return run_reporting(grouped, progress)

    def _error(self, error: Exception) -> ValueError:
        """Spark's error as a sentence (out of memory: what to change)."""
        if "OutOfMemoryError" in str(error):
            from dp_core.errors import CodedError  # not at import: dp_core pulls in SciPy

            return CodedError("memory_spark", title=self.source.title)
        return coded_error("spark_failed", title=self.source.title, detail=readable_error(error))

    def _forget(self, name: str) -> None:
        self.spark.sql(f"UNCACHE TABLE IF EXISTS {name}")
        self.spark.sql(f"DROP VIEW IF EXISTS {name}")

    def _query(self, text: str) -> pd.DataFrame:
        try:
            result = self.spark.sql(text)
            rows = self._reporting(result.collect)
        except Exception as error:
            raise self._error(error) from None
        return pd.DataFrame.from_records([tuple(row) for row in rows], columns=result.columns)
