"""The three engines give identical statistics: pandas, DuckDB and Spark (local master).

Small generated visits with the hard cases: persons in many groups (the l0 window), units
with more rows than linf (the row window), rows identical on every used column (ties in
the seeded random order), ties in the order column for "first", text person ids (MD5
codes), a declared domain with a missing and an absent group. Spark runs once per module
(one local session) on a small Parquet file, for the requests that cover every SQL path.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import inspect
import itertools
import shutil
import socket
import threading
import time
import types
import typing
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from data import sources
from data.sources import keys
from data.sources.duckdb_engine import DuckDBEngine
from data.sources.engine import Engine
from data.sources.engine_cache import ENGINE_CLASSES, engine_for
from data.sources.frame_engine import PandasEngine
from data.sources.results import Request
from data.sources.spark_engine import SparkEngine, stop_spark
from data.sources.sql_engine import KEPT_TABLES
from dp_core.bounding import Bounding
from dp_core.errors import CodedError


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


# ---------------------------------------------------------------------------------------
# The interface (data.sources.engine.Engine): every engine has each member, same signature
# ---------------------------------------------------------------------------------------

INTERFACE_METHODS = sorted(
    name for name, member in vars(Engine).items() if callable(member) and not name.startswith("_")
)
INTERFACE_ATTRIBUTES = sorted(Engine.__annotations__)


def test_the_interface_names_what_the_package_calls_on_an_engine():
    assert INTERFACE_METHODS == [
        "bounded", "capped", "category_counts", "profile", "sample", "schema", "summary", "units",
    ]  # fmt: skip
    assert INTERFACE_ATTRIBUTES == ["source"]


def test_the_registry_makes_the_three_engines():
    assert ENGINE_CLASSES == ENGINES


@pytest.mark.parametrize("name", list(ENGINE_CLASSES))
def test_every_engine_implements_the_interface(name):
    cls = ENGINE_CLASSES[name]
    for method in INTERFACE_METHODS:
        declared = inspect.signature(getattr(Engine, method), eval_str=True)
        assert inspect.signature(getattr(cls, method), eval_str=True) == declared, method
    declared_types, types = typing.get_type_hints(Engine), typing.get_type_hints(cls)
    for attribute in INTERFACE_ATTRIBUTES:
        assert types.get(attribute) == declared_types[attribute], attribute


def test_engine_for_returns_an_engine_once_per_source(visits):
    source = sources.Source.frame(visits, "visits")
    engine = engine_for(source)
    assert isinstance(engine, PandasEngine) and isinstance(engine, Engine)
    assert engine_for(source) is engine


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


def one_visit_a_day(persons: int = 400, seed: int = 3) -> pd.DataFrame:
    """Each person's rows in distinct groups (every unit one row): the profile's one-pass
    bitmask and the capped statistics without a units aggregation apply. Groups three ways:
    whole numbers, texts, and 101 whole numbers (more than a bitmask holds)."""
    rng = np.random.default_rng(seed)
    rows = []
    for person in range(persons):
        for day in rng.choice(np.arange(1, 7), rng.integers(1, 7), replace=False):
            rows.append((person, int(day), f"shop {day}", (person * 7 + int(day)) % 101))
    frame = pd.DataFrame(rows, columns=["pid", "day", "shop", "many"])  # many: 101 values
    frame["money"] = rng.choice([2.0, 5.0, 7.5, 12.0, 30.0], len(frame))
    return frame


@pytest.mark.parametrize("group", ["day", "shop", "many"])
def test_one_row_units_take_the_short_plans_and_agree(group, tmp_path):
    path = tmp_path / "days.parquet"
    one_visit_a_day().to_parquet(path, index=False)
    pandas_runner = PandasEngine(sources.Source.files(str(path), engine="pandas"))
    duck = DuckDBEngine(sources.Source.files(str(path), engine="duckdb"))
    assert duck.profile("pid", group) == pandas_runner.profile("pid", group)
    assert duck.profile("pid", group).max_rows_per_unit == 1
    req = Request(person="pid", group=group, value="money", bounding=Bounding(2, 1, 0.0, 20.0))
    same(duck.bounded(req), pandas_runner.bounded(req))  # profiled: rows are the units
    labels = tuple(str(label) for label in sorted(one_visit_a_day()[group].unique()))[:-1]
    units_request = sources.UnitsRequest("pid", group, labels, "money")
    same_units(duck.units(units_request), pandas_runner.units(units_request))  # one value each
    doubled = pd.concat([one_visit_a_day()] * 2)  # two rows a unit: the full plans again
    doubled.to_parquet(path, index=False)
    pandas_runner = PandasEngine(sources.Source.files(str(path), engine="pandas"))
    duck = DuckDBEngine(sources.Source.files(str(path), engine="duckdb"))
    assert duck.profile("pid", group) == pandas_runner.profile("pid", group)
    assert duck.profile("pid", group).max_rows_per_unit == 2
    same(duck.bounded(req), pandas_runner.bounded(req))
    same_units(duck.units(units_request), pandas_runner.units(units_request))  # listed values


PASSES = {  # what one pass over the persons answers, and the data it answers them on
    "a visit a day, whole euros": ("int", Bounding(2, 1, 0.0, 20.0)),
    "a visit a day, quarters": ("quarters", Bounding(3, 2, 0.5, 19.5)),
    "a visit a day, first days": ("int", Bounding(2, 1, 5.0, 25.0, selection="first")),
    "a visit a day, declared days": ("declared", Bounding(2, 1, 0.0, 20.0)),
    "several visits a day, counts": ("doubled", Bounding(2, 3)),
}


@pytest.mark.parametrize("name", list(PASSES))
def test_one_pass_over_the_persons_gives_the_statistics_and_the_profile(
    name, tmp_path, monkeypatch
):
    """Asked first, the bounded statistics come from one window over the persons (one kept
    table, no profile query): those of every cap and bound equal pandas', and so does the
    contribution profile learnt from the same pass (none when days are declared: a person's
    days outside them are not in it)."""
    data, bounding = PASSES[name]
    frame = one_visit_a_day()
    frame["money"] += 0.25 * (frame["pid"] % 3) if data == "quarters" else 0.0
    if data == "int":
        frame["money"] = frame["money"].round().astype(np.int64)
    if data == "doubled":
        frame = pd.concat([frame, frame.iloc[::3]], ignore_index=True)
    path = tmp_path / "visits.parquet"
    frame.sample(frac=1.0, random_state=2).to_parquet(path, index=False)
    duck, reference = fresh(str(path), "duckdb"), fresh(str(path), "pandas")
    made, asked, query = counting_keeps(duck, monkeypatch), [], duck._query
    monkeypatch.setattr(duck, "_query", lambda text: (asked.append(text), query(text))[1])
    value = None if data == "doubled" else "money"
    groups = ("1", "2", "3", "4", "9") if data == "declared" else None
    caps = [(bounding.max_groups, bounding.max_per_group), (1, 1), (6, 2)]
    bounds = [(bounding.lower, bounding.upper), (2.0, 7.0), (0.0, 50.0)]
    for (l0, linf), (lower, upper) in zip(caps, bounds, strict=True):
        b = dataclasses.replace(bounding, max_groups=l0, max_per_group=linf)
        b = dataclasses.replace(b, lower=lower, upper=upper) if value else b
        order = "day" if b.selection == "first" else None  # as the bounding page asks
        req = Request(person="pid", group="day", value=value, bounding=b, order=order,
                      groups=groups, seed=4)  # fmt: skip
        same(duck.bounded(req), reference.bounded(req))
    assert len(made) == 1 and "AS most" in next(t for t, n in duck._kept.items() if n == made[0])
    assert not any("bit_or" in text or "GROUP BY p, g" in text for text in asked)
    learnt = duck._profiles.get(("pid", "day"))
    if groups is not None:
        assert learnt is None
        return
    assert learnt == reference.profile("pid", "day")
    pd.testing.assert_series_equal(learnt.histogram, reference.profile("pid", "day").histogram)


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
    with pytest.MonkeyPatch.context() as patch:
        for key, value in small.items():
            patch.setenv(key, value)
        yield
        stop_spark()


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
    for l0, upper in ((1, 20.0), (4, 9.0)):  # another cap or bound: Spark's cached ranks
        req = Request(**{**REQUESTS["random, l0 and linf windows"],
                         "bounding": Bounding(l0, 2, 3.0, upper)})  # fmt: skip
        same(spark.bounded(req), statistics(parquet, "pandas", req))
    # with the profile known, the windows are skipped where they cannot bind
    pandas_engine = PandasEngine(sources.Source.files(parquet, engine="pandas"))
    assert spark.profile("pid", "day") == pandas_engine.profile("pid", "day")
    name = "random, pre-aggregated, int ids"
    same(spark.bounded(request(name)), statistics(parquet, "pandas", request(name)))
    days = str(Path(parquet).with_name("one_visit_a_day.parquet"))
    one_visit_a_day().to_parquet(days, index=False)
    spark_days = SparkEngine(sources.Source.files(days, engine="spark", spark="local[2]"))
    pandas_days = PandasEngine(sources.Source.files(days, engine="pandas"))
    req = Request(person="pid", group="day", value="money", bounding=Bounding(3, 1, 0.0, 9.0))
    same(spark_days.bounded(req), pandas_days.bounded(req))  # asked first: one pass over the
    assert spark_days._profiles[("pid", "day")] == pandas_days.profile("pid", "day")  # persons
    for group in ("day", "shop"):  # the bitmask profile and one-row units in Spark's SQL
        assert spark_days.profile("pid", group) == pandas_days.profile("pid", group)
        req = Request(person="pid", group=group, value="money", bounding=Bounding(2, 1, 0.0, 20.0))
        same(spark_days.bounded(req), pandas_days.bounded(req))
    pd.testing.assert_frame_equal(
        spark.category_counts("day", "person").counts,
        pandas_engine.category_counts("day", "person").counts,
    )


# ---------------------------------------------------------------------------------------
# What the pages ask beyond bounded statistics: summaries, capped totals, unit profiles
# ---------------------------------------------------------------------------------------


def gappy_visits() -> pd.DataFrame:
    """small_visits with missing categories and values (NaN and None) and a text column."""
    frame = small_visits(4)
    frame["shop"] = np.where(frame.index % 11 == 0, None, np.where(frame["day"] % 2, "a", "b "))
    frame["amount"] = frame["money"].where(frame.index % 7 != 0, np.nan)
    frame.loc[frame.index % 13 == 0, "amount"] = None
    return frame


CAPPED = {
    "counts per day, cap 3": sources.CappedRequest("person", cap=3, category="day", seed=5),
    "sums per shop with gaps, cap 2": sources.CappedRequest(
        "pid", cap=2, category="shop", value="amount", lower=3.0, upper=20.0, seed=9
    ),
    "mean per flag, no cap": sources.CappedRequest(
        "person", category="flag", value="money", lower=0.0, upper=10.0
    ),
    "predicate >=, cap 1": sources.CappedRequest(
        "person", cap=1, predicate=("amount", "≥", 7.5), seed=2
    ),
    "predicate = text, cap 4": sources.CappedRequest(
        "pid", cap=4, predicate=("shop", "=", "b "), seed=2
    ),
    "predicate = number": sources.CappedRequest("pid", cap=2, predicate=("day", "=", 3.0)),
    "each row a person": sources.CappedRequest(None, category="day", value="money", upper=9.0),
    "whole table": sources.CappedRequest("person", cap=2, value="amount", lower=1.0, upper=8.0),
}

UNITS = {
    "values": sources.UnitsRequest("person", "day", ("1", "2", "3", "4", "5", "6"), "money"),
    "values by minute, declared": sources.UnitsRequest(
        "pid", "day", ("2", "3", "5", "9"), "money", order="minute"
    ),
    "counts only": sources.UnitsRequest("person", "flag", ("True", "False")),
    "over the limit": sources.UnitsRequest(
        "pid", "day", ("1", "2", "3", "4", "5", "6"), "money", limit=40
    ),
}


@pytest.fixture(scope="module")
def gappy(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("gappy") / "gappy.parquet"
    gappy_visits().to_parquet(path, index=False)
    return str(path)


def same_capped(a: sources.CappedTotals, b: sources.CappedTotals) -> None:
    pd.testing.assert_frame_equal(a.totals, b.totals, check_exact=False, rtol=1e-12)
    assert (a.missing, a.kept, a.total, a.persons) == (b.missing, b.kept, b.total, b.persons)


def same_units(a: sources.ContributionUnits, b: sources.ContributionUnits) -> None:
    pd.testing.assert_frame_equal(a.units, b.units)
    if a.values is None:
        assert b.values is None
    else:
        np.testing.assert_array_equal(a.values, b.values)
    assert (a.complete, a.rows_outside, a.groups_outside, a.low, a.high) == (
        b.complete, b.rows_outside, b.groups_outside, b.low, b.high
    )  # fmt: skip


def fresh(path: str, engine: str):
    return ENGINES[engine](sources.Source.files(path, engine=engine, spark="local[2]"))


def test_each_kept_table_has_a_name_no_other_engine_had(gappy):
    """Kept tables are named once in a process: Spark's temporary views are the session's,
    which every engine shares, and an engine made where a gone one had been (CPython reuses
    its address) took the gone one's names, so Spark refused to make its view. 30 engines
    made one after another: 30 names (there were 9)."""
    names = []
    for _ in range(30):
        engine = fresh(gappy, "duckdb")
        with engine._kept_lock:
            names.append(engine._kept_table("SELECT 1 AS x"))
        del engine
        gc.collect()
    assert len(set(names)) == 30


@pytest.mark.parametrize("name", list(CAPPED))
def test_capped_totals_duckdb_equals_pandas(gappy, name):
    same_capped(fresh(gappy, "duckdb").capped(CAPPED[name]), fresh(gappy, "pandas").capped(
        CAPPED[name]))  # fmt: skip


def test_capped_totals_keep_the_cap_and_the_uncapped_truth(gappy):
    frame = gappy_visits()
    capped = fresh(gappy, "duckdb").capped(CAPPED["counts per day, cap 3"])
    rows = frame.groupby("person").size()
    assert capped.kept == int(np.minimum(rows, 3).sum()) and capped.total == len(frame)
    assert capped.persons == frame["person"].nunique()
    uncapped = fresh(gappy, "duckdb").capped(CAPPED["mean per flag, no cap"])
    expected = frame.groupby("flag")["money"].apply(lambda v: v.clip(0, 10).sum())
    np.testing.assert_allclose(uncapped.totals["clipped_sum"], expected.sort_index())
    over = fresh(gappy, "pandas").capped(CAPPED["sums per shop with gaps, cap 2"])
    domain = over.over(("a", "c"), with_value=True)
    assert domain.rows[1] == 0 and domain.distinct_outside == 1  # "b " is outside
    assert domain.missing == over.missing + int(
        (over.totals["rows"] - over.totals["value_rows"]).sum()
    )


def counting_keeps(engine, monkeypatch) -> list[str]:
    """The temporary tables ``engine`` makes from now on (each one ranking of the data)."""
    made, keep = [], engine._keep
    monkeypatch.setattr(engine, "_keep", lambda name, text: (made.append(name), keep(name, text)))
    return made


def test_a_change_of_cap_or_bound_reads_the_kept_ranks(parquet, gappy, monkeypatch):
    """One engine asked for cap after cap and bound after bound ranks the data once per
    plan, and answers each ask as a new pandas engine does (so nothing of an earlier cap is
    left in a later answer); past KEPT_TABLES plans the oldest is made again."""
    duck = fresh(parquet, "duckdb")
    made = counting_keeps(duck, monkeypatch)
    base = REQUESTS["random, l0 and linf windows"]
    for l0, linf, lower, upper in [(2, 2, 3.0, 20.0), (1, 1, 3.0, 20.0), (5, 4, 0.0, 30.0),
                                   (2, 3, 5.0, 8.0), (2, 2, 3.0, 20.0)]:  # fmt: skip
        req = Request(**{**base, "bounding": Bounding(l0, linf, lower, upper)})
        same(duck.bounded(req), fresh(parquet, "pandas").bounded(req))
    # the pass over the persons (dropped: units of several rows and a value), then the rows
    # ranked in their units and units in their persons, once
    assert len(made) == 2 and len(duck._kept) == 1
    assert duck.profile("person", "day") == fresh(parquet, "pandas").profile("person", "day")
    for l0 in (1, 3):  # pre-aggregated sums rank units, not rows: a second plan
        req = Request(**{**base, "bounding": Bounding(l0, 2, 0.0, 25.0, pre_aggregate=True)})
        same(duck.bounded(req), fresh(parquet, "pandas").bounded(req))
    assert len(made) == 3
    duck = fresh(gappy, "duckdb")
    made = counting_keeps(duck, monkeypatch)
    base = CAPPED["sums per shop with gaps, cap 2"]
    for cap, lower, upper in [(2, 3.0, 20.0), (1, 3.0, 20.0), (4, 0.0, 6.0), (2, 3.0, 20.0)]:
        req = dataclasses.replace(base, cap=cap, lower=lower, upper=upper)
        same_capped(duck.capped(req), fresh(gappy, "pandas").capped(req))
    assert len(made) == 1
    for seed in (1, 2, 9):  # a new seed is a new ranking; the third drops the first
        duck.capped(dataclasses.replace(base, seed=seed))
    assert len(made) == 4 and len(duck._kept) == KEPT_TABLES


@pytest.mark.parametrize("name", list(UNITS))
def test_unit_profiles_duckdb_equal_pandas(parquet, name):
    same_units(fresh(parquet, "duckdb").units(UNITS[name]), fresh(parquet, "pandas").units(
        UNITS[name]))  # fmt: skip


def test_unit_profiles_give_the_full_tables_trade_offs(visits, parquet):
    """The weighted table from the profiles answers every sweep as the table in memory."""
    from dp_core.bounding import search as bounding_search
    from dp_core.bounding.noise import NoisePlan
    from dp_core.bounding.table import contribution_table, weighted_contribution_table

    labels = ("1", "2", "3", "4", "5", "6")
    units = fresh(parquet, "duckdb").units(UNITS["values"])
    assert units.complete and units.units["weight"].sum() == len(visits.groupby(["person", "day"]))
    table = weighted_contribution_table(
        labels,
        unit_group=units.units["group"],
        unit_groups_of_person=units.units["k"],
        unit_rank=units.units["rank"],
        unit_size=units.units["size"],
        unit_weight=units.units["weight"],
        row_value=units.values,
    )
    full = contribution_table(visits, "person", "day", "money", groups=labels)
    from dp_core.bounding import contribution_histogram

    pd.testing.assert_series_equal(units.histogram, contribution_histogram(visits, "person", "day"))
    plan = NoisePlan(0.5, joint=True)
    for bounding in (Bounding(2, 2, 3.0, 20.0), Bounding(3, 1, 0.0, 12.0, pre_aggregate=True)):
        for statistic in ("count", "sum"):
            pd.testing.assert_frame_equal(
                bounding_search.cap_tradeoff(table, statistic, bounding, plan, caps=range(1, 7)),
                bounding_search.cap_tradeoff(full, statistic, bounding, plan, caps=range(1, 7)),
                rtol=1e-9,
            )
        uppers = np.linspace(4.0, 40.0, 9)
        pd.testing.assert_frame_equal(
            bounding_search.upper_tradeoff(table, bounding, plan, uppers=uppers),
            bounding_search.upper_tradeoff(full, bounding, plan, uppers=uppers),
            rtol=1e-9,
        )


def test_unit_profiles_over_the_limit_keep_the_histogram(parquet):
    units = fresh(parquet, "duckdb").units(UNITS["over the limit"])
    assert not units.complete and units.values is None
    full = fresh(parquet, "duckdb").units(UNITS["values"])
    pd.testing.assert_series_equal(units.histogram, full.histogram)
    assert units.max_records_per_unit == full.max_records_per_unit
    assert (units.low, units.high) == (full.low, full.high)


def test_summaries_agree(gappy):
    duck, pandas_ = fresh(gappy, "duckdb").summary(200), fresh(gappy, "pandas").summary(200)
    assert duck == pandas_
    shop = duck.column("shop")
    assert (shop.kind, shop.distinct, shop.present) == ("string", 2, len(gappy_visits()) - 54)
    assert duck.column("amount").low == 2.0 and duck.column("person").distinct == 70
    assert fresh(gappy, "duckdb").summary(20).column("person").distinct is None


def test_bad_requests_get_sentences(gappy):
    engine = fresh(gappy, "duckdb")
    with pytest.raises(ValueError, match="“shop” is not numeric, so it cannot be summed"):
        engine.capped(sources.CappedRequest("pid", value="shop", upper=1.0))
    with pytest.raises(ValueError, match="the category column 'nope' is not in the table"):
        engine.capped(sources.CappedRequest("pid", category="nope"))
    with pytest.raises(ValueError, match="the value column 'amount' has"):
        engine.units(sources.UnitsRequest("pid", "day", ("1",), "amount"))
    with pytest.raises(ValueError, match="the group column 'shop' has 54 missing"):
        engine.units(sources.UnitsRequest("pid", "shop", ("a",)))


@pytest.fixture(scope="module")
def two_million_visits(tmp_path_factory) -> str:
    from data.sources.synthetic import write_visits

    folder = tmp_path_factory.mktemp("two_million")
    return str(write_visits(folder / "visits.parquet", 2 * 10**6, seed=2))


def test_duckdb_short_of_disk_to_spill_to_says_so(two_million_visits, monkeypatch):
    """With 20 MB of working memory and 1 MB of disk to spill to (as set by the environment),
    the ranks of 2·10^6 visits cannot be kept: the sentence names the disk, the folder, what
    it may hold and what to change, not the working memory."""
    monkeypatch.setenv("DP_EXPLORER_DUCKDB_MEMORY", "20MB")
    monkeypatch.setenv("DP_EXPLORER_DUCKDB_SPILL", "1MB")
    monkeypatch.setenv("DP_EXPLORER_DUCKDB_THREADS", "1")
    request = Request(person="visitor_id", group="day", value="money_spent",
                      bounding=Bounding(3, 1, 0.0, 50.0))  # fmt: skip
    with pytest.raises(CodedError, match="DP_EXPLORER_DUCKDB_SPILL") as caught:
        fresh(two_million_visits, "duckdb").bounded(request)
    params = caught.value.params
    assert caught.value.code == "spill_duckdb", caught.value
    assert params["limit"].endswith("KiB") and params["free"].endswith("GiB")
    assert params["memory"].endswith("MiB") and "dp_explorer_duckdb_" in params["folder"]


def test_an_engine_out_of_memory_says_what_to_change(two_million_visits, monkeypatch):
    """DuckDB with 20 MB and no folder to spill to cannot group 10^6 visitors: the sentence
    names its working memory and the variable that sets it. pandas' MemoryError names the
    engine that reads the table where it lies; Spark's JVM heap, the driver's memory."""
    from data.sources import duckdb_engine
    from dp_core.errors import CodedError

    path = two_million_visits
    monkeypatch.setattr(
        duckdb_engine, "duckdb_config", lambda: {"memory_limit": "20MB", "temp_directory": ""}
    )
    with pytest.raises(CodedError, match="DP_EXPLORER_DUCKDB_MEMORY") as caught:
        fresh(path, "duckdb").profile("visitor_id", "day")
    assert caught.value.code == "memory_duckdb" and caught.value.params["limit"].endswith("MiB")

    def no_room(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(PandasEngine, "_frame", no_room)
    source = sources.Source.files(path, engine="pandas")
    with pytest.raises(CodedError, match="choose DuckDB") as caught:
        sources.profile(source, "visitor_id", "day")
    assert caught.value.code == "memory_pandas"
    heap = Exception("java.lang.OutOfMemoryError: Java heap space")
    spark_error = SparkEngine._error(types.SimpleNamespace(source=source), heap)
    assert spark_error.code == "memory_spark" and "DP_EXPLORER_SPARK_MEMORY" in str(spark_error)


def test_spark_reports_how_far_a_statistic_has_got(parquet, spark_ready):
    """The share of tasks done, while the query runs, to the page's bar (as DuckDB's)."""
    spark = fresh(parquet, "spark")
    shares: list[float] = []
    n = 10**8  # 96 tasks, about 5 s on two cores with the tests' quick-start JVM
    with sources.reporting(shares.append):
        total = spark._query(f"SELECT sum(id % 7) AS s FROM range(0, {n}, 1, 96)")
    assert int(total["s"].iloc[0]) == n // 7 * 21 + sum(range(n % 7))
    assert len(shares) >= 2 and all(0 <= a <= b <= 1 for a, b in itertools.pairwise(shares))
    assert shares[-1] > shares[0]  # it moved


def test_spark_pages_statistics_equal_pandas(parquet, gappy, spark_ready):
    for name in ("sums per shop with gaps, cap 2", "predicate = text, cap 4"):
        same_capped(fresh(gappy, "spark").capped(CAPPED[name]), fresh(gappy, "pandas").capped(
            CAPPED[name]))  # fmt: skip
    spark = fresh(parquet, "spark")
    for name in ("values by minute, declared", "over the limit"):
        same_units(spark.units(UNITS[name]), fresh(parquet, "pandas").units(UNITS[name]))
    assert spark.summary(200) == fresh(parquet, "pandas").summary(200)


# ---------------------------------------------------------------------------------------
# Spark as a cluster: a standalone master with two workers, and a Spark Connect server (last:
# the module's local session is stopped for it)
# ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spark_cluster(spark_ready, tmp_path_factory):
    """scripts/spark_cluster.py's master and Connect server (stopped after the module, also
    on a failure); this process's own application takes one core (DP_EXPLORER_SPARK_CORES),
    so the Connect server, which holds the other, does not leave it waiting."""
    from scripts.spark_cluster import running_cluster

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DP_EXPLORER_SPARK_CORES", "1")
        with running_cluster(tmp_path_factory.mktemp("spark_cluster")) as addresses:
            try:
                yield dict(zip(("master", "connect"), addresses, strict=True))
            finally:
                stop_spark()  # while the servers listen: a Connect client retries for minutes


@pytest.mark.parametrize("kind", ["connect", "master"])
def test_a_spark_cluster_gives_duckdbs_statistics(parquet, gappy, spark_cluster, kind):
    """Through sc://127.0.0.1:... (the Connect server's executors), then, in the same process
    as a reader who changes the address, spark://127.0.0.1:... (this process's driver,
    executors on the workers): every SQL path of the bounded statistics, a change of cap read
    from the kept ranks, the profile, category counts, capped totals, unit profiles and the
    summary equal DuckDB's (counts exactly, sums to 12 digits)."""
    address = spark_cluster[kind]

    def on(engine: str, path: str):
        return ENGINES[engine](sources.Source.files(path, engine=engine, spark=address))

    spark, duckdb = on("spark", parquet), on("duckdb", parquet)
    assert spark.spark.conf.get("spark.master" if kind == "master" else "spark.app.name") != (
        "local[2]"
    )
    for name in SPARK_REQUESTS:
        same(spark.bounded(request(name)), duckdb.bounded(request(name)))
    windows = REQUESTS["random, l0 and linf windows"]
    req = Request(**{**windows, "bounding": Bounding(1, 2, 3.0, 20.0)})
    same(spark.bounded(req), duckdb.bounded(req))
    assert spark.profile("pid", "day") == duckdb.profile("pid", "day")
    pd.testing.assert_frame_equal(
        spark.category_counts("day", "person").counts,
        duckdb.category_counts("day", "person").counts,
    )
    name = "sums per shop with gaps, cap 2"
    same_capped(on("spark", gappy).capped(CAPPED[name]), on("duckdb", gappy).capped(CAPPED[name]))
    units = UNITS["values by minute, declared"]
    same_units(spark.units(units), duckdb.units(units))
    assert spark.summary(200) == duckdb.summary(200)


def test_a_port_that_does_not_speak_spark_connect_is_refused_at_once(monkeypatch):
    """Another service on the port (or a typo of its number): pyspark's client would retry
    for minutes while the page waited; the page says at once that no session opened."""
    pytest.importorskip("grpc")
    from data.sources import spark_engine

    monkeypatch.setattr(spark_engine, "SPARK_CONNECT_TIMEOUT", 0.5)
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()

        def answer_in_http_1() -> None:
            with contextlib.suppress(OSError):
                while True:
                    peer, _ = listening.accept()
                    with peer:
                        peer.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")

        threading.Thread(target=answer_in_http_1, daemon=True).start()
        address = f"sc://127.0.0.1:{listening.getsockname()[1]}"
        started = time.monotonic()
        with pytest.raises(CodedError) as refused:
            spark_engine.spark_session(address)
    assert refused.value.code == "spark_connect_start"
    assert address in str(refused.value)
    assert time.monotonic() - started < 30  # not pyspark's minutes of retries


def test_a_connect_session_whose_server_is_gone_is_closed_without_waiting_on_it(monkeypatch):
    """Its client would retry releasing the session on the dead server for minutes, and a
    reader changing the Spark address would wait that long: it is only closed."""
    from data.sources import spark_engine

    class Session:
        release_session_on_close = True
        stopped = False

        def stop(self):
            self.stopped = True

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        gone = f"sc://127.0.0.1:{sock.getsockname()[1]}"  # nothing listens once closed
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        alive = f"sc://127.0.0.1:{listening.getsockname()[1]}"
        sessions = {gone: Session(), alive: Session()}
        monkeypatch.setattr(spark_engine, "_SPARK", dict(sessions))
        stop_spark()
    assert not sessions[gone].release_session_on_close and sessions[gone].stopped
    assert sessions[alive].release_session_on_close and sessions[alive].stopped
    assert spark_engine._SPARK == {}
