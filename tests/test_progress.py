"""data.sources.progress: a long statistic reports how far it has got, from DuckDB's own
progress, to the page that asked; errors still reach the caller; without a report nothing
changes."""

from __future__ import annotations

import threading

import pandas as pd
import pytest

from data import sources
from data.sources.duckdb_engine import DuckDBEngine
from data.sources.progress import run_reporting


def test_reports_come_while_the_query_runs_and_the_result_after() -> None:
    release, calls, seen = threading.Event(), [], []

    def progress() -> float:  # the engine's percentage; the query ends after three reports
        calls.append(1)
        if len(calls) >= 3:
            release.set()
        return -1.0 if len(calls) == 1 else 10.0 * len(calls)

    def execute() -> str:
        assert release.wait(30)
        return "done"

    with sources.reporting(seen.append):
        assert run_reporting(execute, progress) == "done"
    assert seen and all(0 < share <= 1 for share in seen)  # -1 (unknown) is not reported
    assert run_reporting(lambda: "alone", lambda: pytest.fail("no report: no polling")) == "alone"


def test_an_error_of_the_query_reaches_the_caller() -> None:
    def execute() -> None:
        raise ValueError("the file is not Parquet")

    with sources.reporting(lambda _share: None), pytest.raises(ValueError, match="Parquet"):
        run_reporting(execute, lambda: 0.0)


def test_duckdb_reports_its_progress_on_a_long_scan() -> None:
    engine = DuckDBEngine(sources.Source.frame(pd.DataFrame({"x": [1]}), "one"))
    seen: list[float] = []
    with sources.reporting(seen.append):
        found = engine._query("SELECT count(*) AS n FROM range(400000000) t(i) WHERE i % 7 = 3")
    assert int(found["n"].iloc[0]) == 57_142_857
    assert seen and seen == sorted(seen) and 0 < seen[-1] <= 1  # DuckDB's percentage, rising
