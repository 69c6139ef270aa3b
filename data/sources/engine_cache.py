"""One engine per Source: ``engine_for`` makes the Source's engine once and reuses it.

The engines answer ``schema()``, ``profile()``, ``category_counts()``, ``bounded()`` and the
rest of data.sources.engine.Engine with the values of data.sources.results: pandas (in
memory, data.sources.frame_engine), DuckDB (embedded, data.sources.duckdb_engine) and Spark
(data.sources.spark_engine), the last two over the SQL of data.sources.sql_engine. Engines
keep what they learnt (the schema; the profile, which tells whether the l0 and linf windows
can be skipped), so the cache keeps the last few.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from data.sources.duckdb_engine import DuckDBEngine
from data.sources.engine import Engine
from data.sources.frame_engine import PandasEngine
from data.sources.source import Source
from data.sources.spark_engine import SparkEngine

ENGINE_CLASSES: dict[str, Callable[[Source], Engine]] = {
    "pandas": PandasEngine,
    "duckdb": DuckDBEngine,
    "spark": SparkEngine,
}  # by Source.resolved_engine(); the annotation lets a type checker check each class

_ENGINES: dict[Source, Engine] = {}
_ENGINES_LOCK = threading.Lock()
_MAX_ENGINES = 16


def engine_for(source: Source) -> Engine:
    """The engine of ``source`` (made once, then reused): Pandas-, DuckDB- or SparkEngine."""
    with _ENGINES_LOCK:
        engine = _ENGINES.get(source)
        if engine is not None and (source.kind != "frame" or engine.source.data is source.data):
            return engine
    kind = source.resolved_engine()
    engine = ENGINE_CLASSES[kind](source)
    with _ENGINES_LOCK:
        if len(_ENGINES) >= _MAX_ENGINES:
            _ENGINES.pop(next(iter(_ENGINES)))
        _ENGINES[source] = engine
    return engine
