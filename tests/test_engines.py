"""The three engines give identical statistics: pandas, DuckDB and Spark (local master).

Small generated visits with the hard cases: persons in many groups (the l0 window), units
with more rows than linf (the row window), rows identical on every used column (ties in
the seeded random order), ties in the order column for "first", text person ids (MD5
codes), a declared domain with a missing and an absent group. Spark runs once per module
(one local session) on a small Parquet file, for the requests that cover every SQL path.
"""

from __future__ import annotations

import os
import shutil

import numpy as np
import pandas as pd
import pytest

from data import sources
from data.sources import keys
from data.sources.engines import DuckDBEngine, PandasEngine, SparkEngine, stop_spark
from data.sources.results import Request
from dp_core.bounding import Bounding


def small_visits(seed: int = 0, persons: int = 70) -> pd.DataFrame:
    """Visits with duplicates: 1-5 days per person out of 6, 1-4 rows per day."""
    rng = np.random.default_rng(seed)
    rows = []
    for person in range(persons):
        days = rng.choice(np.arange(1, 7), rng.integers(1, 6), replace=False)
        for day in days:
            for _ in range(int(rng.integers(1, 5))):
                rows.append((person, int(day)))
    frame = pd.DataFrame(rows, columns=["pid", "day"])
    n = len(frame)
    frame["person"] = "v" + frame["pid"].astype(str).str.zfill(3)
    frame["money"] = rng.choice([2.0, 5.0, 5.0, 7.5, 12.0, 30.0], n)  # many ties
    frame["minute"] = rng.integers(0, 12, n)  # ties in the order column
    frame["flag"] = rng.random(n) < 0.5
    return frame.sample(frac=1.0, random_state=seed).reset_index(drop=True)


REQUESTS = {
    "random, l0 and linf windows": dict(
        person="person", group="day", value="money", bounding=Bounding(2, 2, 3.0, 20.0)
    ),
    "random, pre-aggregated, int ids": dict(
        person="pid",
        group="day",
        value="money",
        bounding=Bounding(1, 1, 0.0, 25.0, pre_aggregate=True),
        seed=12345,
    ),
    "first, ties in the order": dict(
        person="pid",
        group="day",
        value="money",
        order="minute",
        bounding=Bounding(3, 1, 2.5, 10.0, selection="first"),
    ),
    "first, pre-aggregated, text ids": dict(
        person="person",
        group="day",
        value="money",
        order="minute",
        bounding=Bounding(2, 3, 1.0, 40.0, pre_aggregate=True, selection="first"),
    ),
    "counts, declared groups": dict(
        person="person",
        group="day",
        bounding=Bounding(2, 1),
        seed=7,
        groups=("1", "2", "3", "4", "9"),
    ),
    "boolean groups": dict(
        person="person", group="flag", value="money", bounding=Bounding(1, 2, 0.0, 8.0)
    ),
    "each row a person": dict(
        person=None, group="day", value="money", bounding=Bounding(1, 1, 0.0, 8.0)
    ),
    "each row a person, first": dict(
        person=None, group="day", bounding=Bounding(1, 1, selection="first"), groups=("2", "3")
    ),
}


def request(name: str) -> Request:
    return Request(**REQUESTS[name])


@pytest.fixture(scope="module")
def visits() -> pd.DataFrame:
    return small_visits()


@pytest.fixture(scope="module")
def parquet(visits, tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("engines") / "visits.parquet"
    visits.to_parquet(path, index=False)
    return str(path)


ENGINES = {"pandas": PandasEngine, "duckdb": DuckDBEngine, "spark": SparkEngine}


def statistics(path: str, engine: str, req: Request, *, profiled: bool = False):
    """The statistics from a new engine (nothing cached); ``profiled``: after a profile,
    which lets the SQL engines skip the windows where the caps cannot bind."""
    runner = ENGINES[engine](sources.Source.files(path, engine=engine, spark="local[2]"))
    if profiled and req.person is not None:
        runner.profile(req.person, req.group)
    return runner.bounded(req)


def same(a: sources.BoundedStatistics, b: sources.BoundedStatistics) -> None:
    pd.testing.assert_frame_equal(a.answers, b.answers, check_exact=True)
    assert (a.rows_outside, a.groups_outside) == (b.rows_outside, b.groups_outside)


# ---------------------------------------------------------------------------------------
# pandas and DuckDB: every request, with and without a profile, several seeds
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(REQUESTS))
def test_duckdb_equals_pandas(parquet, name):
    reference = statistics(parquet, "pandas", request(name))
    for profiled in (False, True):
        same(statistics(parquet, "duckdb", request(name), profiled=profiled), reference)


@pytest.mark.parametrize("seed", [0, 1, 99, 2**40 + 3, -5])
def test_duckdb_equals_pandas_for_any_seed(parquet, seed):
    req = Request(
        person="person", group="day", value="money", bounding=Bounding(2, 1, 3.0, 20.0), seed=seed
    )
    same(statistics(parquet, "duckdb", req), statistics(parquet, "pandas", req))


def test_the_seed_changes_the_random_choice_not_the_true_answers(parquet):
    a = statistics(parquet, "duckdb", request("random, l0 and linf windows"))
    other = Request(**{**REQUESTS["random, l0 and linf windows"], "seed": 1})
    b = statistics(parquet, "duckdb", other)
    assert a.answers["true_sum"].equals(b.answers["true_sum"])
    assert not a.answers["bounded_sum"].equals(b.answers["bounded_sum"])


def test_ties_cannot_change_the_statistics(visits, tmp_path):
    """Rows identical on every used column are interchangeable: shuffling the table and
    duplicating whole rows in a unit changes no engine's answer for the same seed."""
    doubled = pd.concat([visits, visits.iloc[::7]], ignore_index=True)
    shuffled = doubled.sample(frac=1.0, random_state=3).reset_index(drop=True)
    first, second = tmp_path / "a.parquet", tmp_path / "b.parquet"
    doubled.to_parquet(first, index=False)
    shuffled.to_parquet(second, index=False)
    for name in ("random, l0 and linf windows", "first, ties in the order"):
        reference = statistics(str(first), "pandas", request(name))
        same(statistics(str(second), "pandas", request(name)), reference)
        same(statistics(str(second), "duckdb", request(name)), reference)
        same(statistics(str(first), "duckdb", request(name)), reference)


def test_profiles_and_category_counts_agree(parquet):
    pandas_source = sources.Source.files(parquet, engine="pandas")
    duck_source = sources.Source.files(parquet, engine="duckdb")
    for person, group in (("person", "day"), ("pid", None), (None, "day")):
        assert sources.profile(duck_source, person, group) == sources.profile(
            pandas_source, person, group
        )
        pd.testing.assert_series_equal(
            sources.profile(duck_source, person, group).histogram,
            sources.profile(pandas_source, person, group).histogram,
        )
    for person in ("person", None):
        pd.testing.assert_frame_equal(
            sources.category_counts(duck_source, "day", person).counts,
            sources.category_counts(pandas_source, "day", person).counts,
        )


def test_the_hash_is_the_same_in_numpy_and_duckdb():
    import duckdb

    values = pd.DataFrame(
        {
            "i": np.array([0, 1, -1, 2**62, -(2**62), 123456789], dtype=np.int64),
            "s": ["", "a", "é", "visitor 7", "x" * 40, "0"],
            "f": [0.0, 2.5, -2.5, 1e300, -0.1, 3.0],
        }
    )
    expected = keys.hash_codes(
        7,
        [
            keys.numpy_code(values["i"], "integer"),
            keys.numpy_code(values["s"], "string"),
            *keys.numpy_value_codes(values["f"].to_numpy()),
        ],
    )
    dialect = keys.Dialect()
    codes = [keys.sql_code(dialect, "i", "integer"), keys.sql_code(dialect, "s", "string")]
    codes += keys.sql_value_codes(dialect, "f")
    con = duckdb.connect()
    con.register("t", values.assign(row=np.arange(len(values))))
    query = keys.sql_hash_layers(dialect, "t", ["row"], 7, codes, "h")
    got = con.execute(f"SELECT h FROM ({query}) ORDER BY row").fetchnumpy()["h"]
    np.testing.assert_array_equal(got, expected)
    assert expected.min() >= 0 and expected.max() < keys.P


def test_random_selection_is_uniform_over_groups():
    """Persons in all 6 groups keep 2 of them: each group about 1/3 of the time."""
    frame = pd.DataFrame({"p": np.repeat(np.arange(6000), 6), "g": np.tile(np.arange(1, 7), 6000)})
    source = sources.Source.frame(frame, "uniform")
    stats = sources.bounded_statistics(source, Bounding(2, 1), person="p", group="g", seed=4)
    shares = stats.answers["bounded_persons"] / 6000
    assert np.allclose(shares, 1 / 3, atol=0.025)  # 5 binomial sds


# ---------------------------------------------------------------------------------------
# Spark: one local session for the module, the requests covering every SQL path
# ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spark_ready():
    if shutil.which("java") is None:  # scripts/test.sh installs openjdk-17-jre-headless
        pytest.skip("Java is not installed, so Spark cannot run here.")
    small = {  # small data: few shuffle partitions, a JVM that starts fast
        "DP_EXPLORER_SPARK_PARTITIONS": "2",
        "DP_EXPLORER_SPARK_JAVA_OPTIONS": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
    }
    saved = {key: os.environ.get(key) for key in small}
    os.environ.update(small)
    yield
    stop_spark()
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


SPARK_REQUESTS = [
    "random, l0 and linf windows",
    "first, ties in the order",
    "counts, declared groups",
    "each row a person",
]


def test_spark_equals_duckdb_and_pandas(parquet, spark_ready):
    spark = SparkEngine(sources.Source.files(parquet, engine="spark", spark="local[2]"))
    for name in SPARK_REQUESTS:
        reference = statistics(parquet, "pandas", request(name))
        same(spark.bounded(request(name)), reference)
        same(statistics(parquet, "duckdb", request(name)), reference)
    # with the profile known, the windows are skipped where they cannot bind
    pandas_engine = PandasEngine(sources.Source.files(parquet, engine="pandas"))
    assert spark.profile("pid", "day") == pandas_engine.profile("pid", "day")
    name = "random, pre-aggregated, int ids"
    same(spark.bounded(request(name)), statistics(parquet, "pandas", request(name)))
    pd.testing.assert_frame_equal(
        spark.category_counts("day", "person").counts,
        pandas_engine.category_counts("day", "person").counts,
    )
