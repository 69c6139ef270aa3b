"""Sources: what a user can point at, the messages for bad input, agreement with dp_core,
and bounded memory (a 10^7-row Parquet file never loads into Python memory)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from data import sources
from data.sources.results import Request
from data.sources.synthetic import write_visits
from dp_core.bounding import Bounding, bounded_answers, cap_contributions, contribution_histogram
from dp_core.errors import ENGLISH

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def restaurant() -> pd.DataFrame:
    from data.registry import load_dataset

    return load_dataset("restaurant")


@pytest.fixture(scope="module")
def files(tmp_path_factory, restaurant) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("sources")
    paths = {
        "parquet": folder / "week.parquet",
        "csv": folder / "week.csv",
        "excel": folder / "week.xlsx",
        "fake_parquet": folder / "fake.parquet",
        "json": folder / "week.json",
        "duckdb": folder / "shop.duckdb",
        "parts": folder / "parts",
    }
    restaurant.to_parquet(paths["parquet"], index=False)
    restaurant.to_csv(paths["csv"], index=False)
    paths["excel"].write_bytes(b"PK\x03\x04 not a table")
    paths["fake_parquet"].write_text("visitor_id,day\n1,2\n")
    paths["json"].write_text(json.dumps({"visitor_id": [1]}))
    paths["parts"].mkdir()
    for day, part in restaurant.groupby("day"):
        part.to_parquet(paths["parts"] / f"day={day}.parquet", index=False)
    import duckdb

    con = duckdb.connect(str(paths["duckdb"]))
    con.register("week", restaurant)
    con.execute("CREATE TABLE visits AS SELECT * FROM week")
    con.close()
    return paths


WEEK = dict(person="visitor_id", group="day", value="money_spent", order="time_entered")


def week_stats(source, bounding, **extra):
    return sources.bounded_statistics(source, bounding, **{**WEEK, **extra})


# ---------------------------------------------------------------------------------------
# Every kind of source gives the same statistics
# ---------------------------------------------------------------------------------------


def test_every_kind_of_source_gives_the_same_statistics(files, restaurant):
    bounding = Bounding(3, 1, 5.0, 45.0)
    reference = week_stats(sources.Source.dataset("restaurant"), bounding, seed=2).answers
    located = [
        sources.Source.frame(restaurant, "upload:week", engine="duckdb"),
        sources.Source.files(files["parquet"]),
        sources.Source.files(files["csv"]),
        sources.Source.files(files["parts"]),  # a folder of Parquet files
        sources.Source.files(str(files["parts"] / "day=*.parquet")),  # a glob
        sources.Source.parse(f"{files['duckdb']}:visits"),
        sources.Source.files(files["parquet"], engine="pandas"),
    ]
    for source in located:
        pd.testing.assert_frame_equal(week_stats(source, bounding, seed=2).answers, reference)


def test_sources_pick_their_engine(files, monkeypatch, restaurant):
    monkeypatch.delenv(sources.SPARK_ENV, raising=False)
    assert sources.Source.dataset("restaurant").resolved_engine() == "pandas"
    assert sources.Source.frame(restaurant, "upload:x").resolved_engine() == "pandas"
    assert sources.Source.files(files["parquet"]).resolved_engine() == "duckdb"
    monkeypatch.setenv(sources.SPARK_ENV, "sc://localhost:15002")
    source = sources.Source.files(files["parquet"])
    assert source.resolved_engine() == "spark"
    assert source.spark_address() == "sc://localhost:15002"
    assert sources.Source.parse(f"{files['duckdb']}:visits").resolved_engine() == "duckdb"


def test_schema_names_columns_kinds_and_rows(files):
    schema = sources.schema(sources.Source.files(files["parquet"]))
    kinds = {column.name: column.kind for column in schema.columns}
    assert kinds == {
        "visitor_id": "integer",
        "day": "integer",
        "time_entered": "string",
        "time_spent": "integer",
        "money_spent": "integer",
    }
    assert schema.rows == 2850


def test_a_source_is_hashable_and_keyed_for_caches(files, restaurant):
    a = sources.Source.frame(restaurant, "upload:1")
    assert hash(a) == hash(sources.Source.frame(restaurant.copy(), "upload:1"))
    assert a.key != sources.Source.frame(restaurant, "upload:2").key
    assert sources.Source.files(files["parquet"]).key.endswith("@duckdb")


# ---------------------------------------------------------------------------------------
# Agreement with dp_core (the pandas engine is the reference of the SQL engines)
# ---------------------------------------------------------------------------------------


def test_profile_equals_dp_core_contribution_histogram(restaurant):
    source = sources.Source.dataset("restaurant")
    for group in ("day", None):
        pd.testing.assert_series_equal(
            sources.contribution_histogram(source, "visitor_id", group),
            contribution_histogram(restaurant, "visitor_id", group),
        )
    profile = sources.profile(source, "visitor_id", "day")
    assert (profile.rows, profile.persons, profile.max_rows_per_unit) == (2850, 1360, 1)


def messy_visits(seed: int) -> pd.DataFrame:
    """Visits with several rows per person and day and ties in the order column, sorted
    by (minute, day, value): table order is then the tie order every engine uses."""
    rng = np.random.default_rng(seed)
    n = 1500
    frame = pd.DataFrame(
        {
            "pid": rng.integers(0, 120, n),
            "day": rng.integers(1, 8, n),
            "minute": rng.integers(0, 40, n),
            "value": rng.choice([1.0, 3.0, 4.0, 9.0, 20.0], n),
        }
    )
    return frame.sort_values(["minute", "day", "value"], ignore_index=True)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("caps", [(2, 1), (3, 2), (1, 4)])
def test_first_selection_keeps_the_rows_dp_core_keeps(seed, caps):
    frame = messy_visits(seed)
    max_groups, max_per_group = caps
    expected = cap_contributions(
        frame,
        "pid",
        group_column="day",
        max_groups_per_id=max_groups,
        max_per_id_per_group=max_per_group,
        order_column="minute",
    )
    bounding = Bounding(max_groups, max_per_group, 2.0, 10.0, selection="first")
    req = Request("pid", "day", bounding, value="value", order="minute")
    kept = sources.kept_rows(sources.Source.frame(frame, f"messy{seed}"), req)
    pd.testing.assert_index_equal(frame.index[kept.to_numpy()], expected.index)


@pytest.mark.parametrize("pre_aggregate", [False, True])
def test_first_selection_answers_equal_dp_core_bounded_answers(pre_aggregate):
    frame = messy_visits(2)
    bounding = Bounding(2, 2, 2.0, 10.0, pre_aggregate=pre_aggregate, selection="first")
    expected = bounded_answers(
        np.random.default_rng(0),
        frame,
        bounding,
        id_column="pid",
        group_column="day",
        value_column="value",
        order_column="minute",
    )
    for engine in ("pandas", "duckdb"):
        source = sources.Source.frame(frame, "messy2", engine=engine)
        got = sources.bounded_statistics(
            source, bounding, person="pid", group="day", value="value", order="minute"
        ).answers
        for column in ("true_count", "bounded_count", "true_sum", "bounded_sum"):
            np.testing.assert_array_equal(got[column].to_numpy(float), expected[column])


def test_random_caps_hold_per_person_and_group():
    frame = messy_visits(3)
    req = Request("pid", "day", Bounding(2, 3, 0.0, 5.0), value="value", seed=11)
    kept = frame[sources.kept_rows(sources.Source.frame(frame, "messy3"), req).to_numpy()]
    assert kept.groupby("pid")["day"].nunique().max() <= 2
    assert kept.groupby(["pid", "day"]).size().max() <= 3
    stats = sources.statistics(sources.Source.frame(frame, "messy3"), req)
    assert stats.rows_kept == len(kept)
    assert stats.answers["bounded_sum"].sum() == pytest.approx(kept["value"].clip(0, 5).sum())


def test_declared_groups_drop_and_count_the_others(restaurant):
    stats = week_stats(
        sources.Source.dataset("restaurant", engine="duckdb"),
        Bounding(7, 1, 0.0, 50.0),
        groups=["1", "2", "8"],
    )
    assert list(stats.answers.index) == ["1", "2", "8"]
    assert stats.answers.loc["8"].sum() == 0
    assert stats.rows_outside == int((restaurant["day"] > 2).sum())
    assert stats.groups_outside == 5


# ---------------------------------------------------------------------------------------
# Bad input: a sentence, never a traceback from an engine
# ---------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_path_that_does_not_exist(tmp_path):
    with pytest.raises(ValueError, match="there is no file or folder at"):
        sources.Source.files(tmp_path / "missing.parquet")
    with pytest.raises(ValueError, match="no file matches"):
        sources.Source.parse(str(tmp_path / "*.parquet"))
    with pytest.raises(ValueError, match="there is no DuckDB database file"):
        sources.Source.parse(str(tmp_path / "missing.duckdb:visits"))
    with pytest.raises(ValueError, match="type a path"):
        sources.Source.parse("  ")


def test_a_file_that_is_neither_parquet_nor_csv(files):
    for name in ("excel", "json"):
        with pytest.raises(ValueError, match="neither a Parquet nor a CSV file"):
            sources.Source.files(files[name])
    with pytest.raises(ValueError, match="named like a Parquet file but is not one"):
        sources.Source.files(files["fake_parquet"])


def test_a_missing_table_or_column(files):
    with pytest.raises(ValueError, match="has no table 'nope'; its tables are: visits"):
        sources.schema(sources.Source.parse(f"{files['duckdb']}:nope"))
    with pytest.raises(ValueError, match="name the table"):
        sources.Source.parse(str(files["duckdb"]))
    for engine in ("pandas", "duckdb"):
        source = sources.Source.files(files["parquet"], engine=engine)
        with pytest.raises(ValueError, match="the person column 'person' is not in the table"):
            week_stats(source, Bounding(1, 1, 0.0, 1.0), person="person")
        with pytest.raises(ValueError, match="the value column 'time_entered' holds"):
            week_stats(source, Bounding(1, 1, 0.0, 1.0), value="time_entered")
        with pytest.raises(ValueError, match="the category column 'weekday' is not"):
            sources.category_counts(source, "weekday", "visitor_id")
        with pytest.raises(ValueError, match="the group column 'dy' is not in the table"):
            sources.profile(source, "visitor_id", "dy")


def test_missing_values_and_a_missing_order(tmp_path, restaurant):
    frame = restaurant.astype({"visitor_id": float, "money_spent": float})
    frame.loc[[3, 9], "visitor_id"] = np.nan
    frame.loc[5, "money_spent"] = np.inf
    path = tmp_path / "gaps.parquet"
    frame.to_parquet(path, index=False)
    for engine in ("pandas", "duckdb"):
        source = sources.Source.files(path, engine=engine)
        with pytest.raises(ValueError, match="the person column 'visitor_id' has 2 missing"):
            sources.profile(source, "visitor_id", "day")
        with pytest.raises(ValueError, match="has 2 missing value"):
            week_stats(source, Bounding(1, 1, 0.0, 50.0))
        clean = sources.Source.frame(frame.dropna(subset=["visitor_id"]), "gaps", engine=engine)
        with pytest.raises(ValueError, match="1 infinite or NaN value"):
            week_stats(clean, Bounding(1, 1, 0.0, 50.0))
    with pytest.raises(ValueError, match="'first' selection needs an order column"):
        Request("visitor_id", "day", Bounding(selection="first"))


def test_an_engines_own_words_are_the_detail_not_the_sentence(tmp_path):
    """DuckDB's and pandas' text on a file they cannot read is kept apart from the sentence
    (CodedError.detail), for the page to fold below the sentence in the reader's language."""
    bad = tmp_path / "visits.parquet"
    bad.write_bytes(b"PAR1" + b"\x00 not really Parquet " * 40)
    (tmp_path / "shop.duckdb").write_bytes(bad.read_bytes())
    cases = [
        (sources.Source.files(bad, engine="duckdb"), "duckdb_unreadable", "magic bytes"),
        (sources.Source.files(bad, engine="pandas"), "pandas_unreadable", "Parquet"),
        (sources.Source.parse(f"{tmp_path}/shop.duckdb:visits"), "duckdb_unopenable", "valid"),
    ]
    for source, code, engine_said in cases:
        with pytest.raises(ValueError) as raised:
            sources.schema(source)
        error = raised.value
        assert error.code == code and engine_said in error.detail, (code, error.detail)
        assert str(error) == f"{ENGLISH[code].format(**error.params)}\n{error.detail}"


def test_every_role_of_a_column_has_its_sentences():
    """A column's role is part of its sentence (the person column, the group column...): every
    role Schema.column or a missing value names has a coded sentence, in every language."""
    from data.sources.results import ROLES
    from ui.common.errors import MESSAGES

    for role in ROLES:
        assert {f"source_{role}_absent", f"source_{role}_kind"} <= MESSAGES.keys(), role
        if role != "predicate":  # a predicate's column is never checked for missing values
            assert f"source_{role}_missing" in MESSAGES, role
    assert "source_value_numbers" in MESSAGES


def test_an_unreachable_spark_address(files):
    for address in (f"spark://127.0.0.1:{free_port()}", f"sc://127.0.0.1:{free_port()}"):
        source = sources.Source.files(files["parquet"], engine="spark", spark=address)
        with pytest.raises(ValueError, match="cannot be reached"):
            sources.schema(source)
    with pytest.raises(ValueError, match="names no host and port"):
        sources.schema(sources.Source.files(files["parquet"], engine="spark", spark="spark://"))


def test_a_duckdb_database_needs_the_duckdb_engine(files):
    with pytest.raises(ValueError, match="read by the DuckDB engine"):
        sources.schema(sources.Source.parse(f"{files['duckdb']}:visits", engine="spark"))
    with pytest.raises(ValueError, match="reads files, not DuckDB databases"):
        sources.schema(sources.Source.parse(f"{files['duckdb']}:visits", engine="pandas"))


# ---------------------------------------------------------------------------------------
# Bounded memory
# ---------------------------------------------------------------------------------------

ROWS = 10**7
MEMORY_PROBE = textwrap.dedent(
    """
    import json, sys
    from dataclasses import dataclass
    from data import sources

    def peak():  # VmHWM: the most resident memory this process has had
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM"):
                return int(line.split()[1]) * 1024

    @dataclass(frozen=True)
    class Caps:  # dp_core.bounding.Bounding's fields, without importing all of dp_core
        max_groups: int = 3
        max_per_group: int = 1
        lower: float = 0.0
        upper: float = 50.0
        pre_aggregate: bool = False
        selection: str = "random"
        clipped: bool = True

    source = sources.Source.files(sys.argv[1])
    schema = sources.schema(source)
    before = peak()
    # as the bounding page asks: the histogram, the categories, then capped sums (l0 = 3
    # binds: each person's (person, day) units are ranked in a window)
    profile = sources.profile(source, "visitor_id", "day")
    counts = sources.category_counts(source, "day", "visitor_id")
    stats = sources.bounded_statistics(source, Caps(), person="visitor_id", group="day",
                                       value="money_spent", seed=1)
    print(json.dumps({"before": before, "peak": peak(), "rows": profile.rows,
                      "kept": stats.rows_kept, "days": len(counts.counts)}))
    """
)


def test_statistics_of_ten_million_rows_never_load_them(tmp_path):
    """Peak resident memory while computing the histogram, category counts and capped sums
    of a 10^7-row visits table (shaped like restaurant_week.csv: 5 columns, ~500 MB in
    pandas) stays far below the table's size: only the statistics reach Python; DuckDB
    streams the file and spills what does not fit in its working memory (here 128 MB) to
    disk. The floor is the imports (pandas, pyarrow, DuckDB: ~150 MB) and that working
    memory, whatever the number of rows."""
    path = write_visits(tmp_path / "visits.parquet", ROWS, full=True, seed=5)
    import pyarrow.parquet as pq

    first_group = pq.ParquetFile(path).read_row_group(0).to_pandas()
    in_memory = first_group.memory_usage(deep=True).sum() * ROWS / len(first_group)
    used = 3 * 8 * ROWS  # the three columns the statistics read, as int64
    env = {k: v for k, v in os.environ.items() if k != sources.SPARK_ENV}
    env.update(
        PYTHONPATH=str(ROOT), DP_EXPLORER_DUCKDB_MEMORY="128MB", DP_EXPLORER_DUCKDB_THREADS="2"
    )
    run = subprocess.run(
        [sys.executable, "-c", MEMORY_PROBE, str(path)],
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["rows"] == ROWS and result["days"] == 7
    computing = result["peak"] - result["before"]
    note = (
        f"peak {result['peak'] / 2**20:.0f} MB ({computing / 2**20:.0f} MB while computing); "
        f"the table in pandas {in_memory / 2**20:.0f} MB, its three used columns "
        f"{used / 2**20:.0f} MB"
    )
    print(note)
    assert result["peak"] < 0.75 * in_memory, note
    assert computing < 0.4 * in_memory, note
    assert computing < 0.75 * used, note
