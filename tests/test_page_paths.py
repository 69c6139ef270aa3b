"""Data paths on the pages: a Parquet file read where it lies (DuckDB) gives the numbers the
same rows give uploaded as CSV, on the bounding, Laplace, Gaussian and planner pages; bad
paths, files, columns and Spark addresses get a sentence on the page, never a traceback."""

from __future__ import annotations

import socket

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import (
    READ_BOUNDS,
    READ_CAP,
    chart_data,
    charts,
    metric,
    not_private,
    open_page,
    problems,
    rerun,
    successes,
    texts,
    upload_file,
    warnings,
    widget,
)

from data.registry import load_dataset

DAYS = "1\n2\n3\n4\n5\n6\n7"


@pytest.fixture(scope="module")
def week() -> pd.DataFrame:
    return load_dataset("restaurant")


@pytest.fixture(scope="module")
def files(tmp_path_factory, week) -> dict[str, str]:
    """The restaurant week as Parquet and CSV, and the bad inputs."""
    folder = tmp_path_factory.mktemp("paths")
    week.to_parquet(folder / "week.parquet", index=False)
    (folder / "notes.txt").write_text("visitor_id day\n1 2\n")
    mixed = folder / "mixed"  # a folder of daily files, one written without money_spent
    mixed.mkdir()
    week[week["day"] < 4].to_parquet(mixed / "a.parquet", index=False)
    week[week["day"] >= 4].drop(columns="money_spent").to_parquet(mixed / "b.parquet", index=False)
    return {
        "parquet": str(folder / "week.parquet"),
        "txt": str(folder / "notes.txt"),
        "mixed": str(mixed),
        "missing": str(folder / "nowhere" / "visits.parquet"),
        "csv": week.to_csv(index=False).encode(),
    }


def declare(at, page: str, text: str = DAYS):
    if text is not None:
        widget(at.text_area, f"{page}_cats").set_value(text)
        rerun(at)
    return at


def with_path(page: str, path: str, *, lang: str | None = None, **widgets) -> object:
    """``page`` with "A data path…" chosen and ``path`` typed (engine and address if given),
    in the language ``lang`` if given."""
    query = {"lang": lang} if lang else {}
    if "spark" in widgets:  # in the link: the engine never starts a local Spark on its way
        query[f"{page}_spark"] = widgets["spark"]
    at = open_page(page, query=query or None)
    widget(at.selectbox, f"{page}_dataset").set_value("data_path")
    rerun(at)
    at.text_input(key=f"{page}_path").set_value(path)
    if "engine" in widgets:
        widget(at.radio, f"{page}_engine").set_value(widgets["engine"])
        rerun(at)
        at.text_input(key=f"{page}_spark").set_value(widgets["spark"])
    return rerun(at)


def with_upload(page: str, data: bytes) -> object:
    return upload_file(open_page(page), page, data, "week.csv")


def errors(at) -> list[str]:
    return [e.value for e in at.error]


def folded(at, label: str = "What the engine said") -> list[str]:
    """The engine's own words shown folded below an error (ui.common.errors.show_error)."""
    return [code.value for box in at.expander if box.label == label for code in box.code]


def same_not_private(path, upload) -> str:
    """The one statement, the same on the path and on the upload, that the release is not
    differentially private as set (the page's defaults read values off the data); no other
    error on either."""
    assert not problems(path) and not problems(upload), problems(path) + problems(upload)
    (statement,) = not_private(path)
    assert not_private(upload) == [statement]
    return statement


# --- bounding ------------------------------------------------------------------------------------


def bars(at, index: int) -> dict[str, np.ndarray]:
    frame = [data for _, data in charts(at) if "bars" in data][index]["bars"]
    return {name: rows["value"].to_numpy() for name, rows in frame.groupby("series", sort=False)}


def bounding_views(at, *, drawn: bool) -> dict[str, object]:
    """Everything the bounding page shows that does not depend on a random draw (``drawn``:
    the records kept are a random choice: only how many is compared, not which)."""
    seen = {m.label: m.value for m in at.metric}
    for index, name in enumerate(["counts", "sums"]):
        shown = bars(at, index)
        seen[f"{name} true"] = shown["True, all records"]
        after = shown["True after bounding"]
        if not drawn:
            seen[f"{name} after"] = after
        elif name == "counts":  # which visits are kept is drawn; how many is not
            seen["counts kept"] = after.sum()
    at.session_state["bounding__section"] = "2. Contributions per person"
    rerun(at)
    seen["histogram"] = chart_data(at, "histogram")["persons"].to_numpy()
    seen["caps"] = at.dataframe[0].value
    at.session_state["bounding__section"] = "3. Bias against noise"
    rerun(at)
    seen["cap lines"] = chart_data(at, "cap_lines")
    seen["bound lines"] = chart_data(at, "bound_lines")
    seen["best"] = [line for line in texts(at).splitlines() if line.startswith("**Best")]
    at.session_state["bounding__section"] = "1. Noisy answers, before and after bounding"
    at.session_state["bounding_table_count"] = True
    rerun(at)
    errors_ = at.dataframe[0].value.drop(columns="noisy")
    seen["errors"] = errors_.drop(columns="true after bounding") if drawn else errors_
    return seen


def same_views(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for name, value in a.items():
        if isinstance(value, pd.DataFrame):
            pd.testing.assert_frame_equal(value, b[name], rtol=1e-9, check_dtype=False)
        elif isinstance(value, np.ndarray):
            np.testing.assert_allclose(value, b[name], rtol=1e-9)
        else:
            assert value == b[name], name


def set_bounding(at, *, cap: int, selection: str = "random"):
    widget(at.selectbox, "bounding_value").set_value("money_spent")
    rerun(at)
    widget(at.slider, "bounding_max_groups").set_value(cap)
    widget(at.radio, "bounding_selection").set_value(selection)
    return rerun(at)


@pytest.mark.parametrize(("cap", "selection"), [(6, "random"), (3, "random"), (2, "first")])
def test_bounding_a_parquet_path_shows_what_the_csv_upload_shows(files, cap, selection):
    path = declare(with_path("bounding", files["parquet"]), "bounding")
    upload = declare(with_upload("bounding", files["csv"]), "bounding")
    statement = same_not_private(path, upload)  # the defaults: l0 and bounds from the file
    assert READ_CAP in statement and READ_BOUNDS in statement
    assert "2,850 rows, read by DuckDB where they lie" in texts(path)
    assert "The cap started at 6, the most groups anyone has" in texts(path)
    for at in (path, upload):
        set_bounding(at, cap=cap, selection=selection)
    statement = same_not_private(path, upload)  # the bounds still the file's own (0, 120)
    assert READ_BOUNDS in statement
    assert (READ_CAP in statement) == (cap == 6)  # 6, the most days anyone has, below 7 days
    drawn = selection == "random" and cap < 6
    seen = bounding_views(path, drawn=drawn)
    same_views(seen, bounding_views(upload, drawn=drawn))
    assert seen["Rows dropped by the caps"] == {6: "0", 3: "157", 2: "570"}[cap]
    np.testing.assert_array_equal(seen["histogram"], [440, 507, 281, 109, 21, 2])
    np.testing.assert_array_equal(seen["counts true"], [300, 300, 400, 400, 450, 500, 500])
    if drawn:
        assert seen["counts kept"] == 2850 - 157
    if selection == "first":  # the file is in day order: its first days are the earliest
        assert "the first in `day` order" in widget(path.radio, "bounding_selection").options[1]


def test_bounding_a_path_chooses_the_cap_and_bounds_with_dp(files):
    at = declare(with_path("bounding", files["parquet"]), "bounding")
    widget(at.toggle, "bounding_private").set_value(True)
    rerun(at)
    assert not problems(at)
    # the bounds' grid spans the path's own range: read from the data, and said so
    (box,) = not_private(at)
    assert READ_BOUNDS in box
    assert "the cap on contributions (ε = 0.1)" in box and "the clipping bounds (ε = 0.2)" in box
    chosen = next(m.value for m in at.markdown if m.value.startswith("Chosen with DP"))
    assert "90% of such draws fall in 3 to 3" in chosen  # the 90% quantile of 1..6 days


def test_bounding_declared_days_drop_the_others_where_the_data_lie(files):
    at = declare(with_path("bounding", files["parquet"]), "bounding", "1\n2\n9")
    assert "2,250 rows hold a value that is not declared (other values: 5)" in texts(at)
    assert metric(at, "Rows dropped by the caps") == "0"
    np.testing.assert_array_equal(bars(at, 0)["True, all records"], [300, 300, 0])


def test_bounding_groups_chosen_with_dp_for_a_path(files):
    at = with_path("bounding", files["parquet"])
    widget(at.radio, "bounding_cats_mode").set_value("selected")
    rerun(at)
    (statement,) = not_private(at)  # l0 and the bounds start at the table's own 6 and (0, 120)
    assert READ_CAP in statement and READ_BOUNDS in statement and not problems(at)
    # declared in advance: every released day (l0 = 7, public) and a public range of money
    widget(at.slider, "bounding_max_groups").set_value(7)
    widget(at.slider, "bounding_bounds").set_value((0.0, 150.0))
    rerun(at)
    assert not errors(at)
    assert "which categories are shown (ε = 0.5, δ = 10⁻⁶)" in successes(at)[0]
    assert "one of their groups, chosen at random with the seed" in texts(at)
    assert "Kept 7 of 7 categories" in texts(at)  # 300 persons and more in each day


# --- Laplace and Gaussian -----------------------------------------------------------------------


def type_in_advance(at, page: str, *, cap: int, bounds: tuple[float, float] | None = None):
    """Type the cap (and the clipping bounds) into their empty boxes, as a careful user
    declares values fixed in advance."""
    widget(at.number_input, f"{page}_cap").set_value(cap)
    if bounds is not None:
        for end, bound in zip(("lower", "upper"), bounds, strict=True):
            widget(at.number_input, f"{page}_{end}").set_value(bound)
    return rerun(at)


def laplace_truth(at) -> pd.Series:
    bars_ = chart_data(at, "bars")
    true = bars_[bars_["series"].str.startswith("True")]
    return true.set_index("group")["value"]


QUERIES = [
    ("count", {}),
    ("sum", {"laplace_value": "money_spent"}),
    ("mean", {"laplace_value": "time_spent"}),
]


@pytest.mark.parametrize(("kind", "choices"), QUERIES)
def test_laplace_on_a_parquet_path_answers_as_on_the_csv_upload(files, kind, choices):
    pages = [with_path("laplace", files["parquet"]), with_upload("laplace", files["csv"])]
    for at in pages:
        widget(at.radio, "laplace_kind").set_value(kind)
        rerun(at)
        for prefix, value in choices.items():
            widget(at.selectbox, prefix).set_value(value)
        declare(rerun(at), "laplace")
    statement = same_not_private(*pages)  # the empty boxes: the file's own cap and bounds
    assert READ_CAP in statement
    assert (READ_BOUNDS in statement) == (kind != "count")
    from_file = laplace_truth(pages[0])
    bounds = None if kind == "count" else (0.0, 120.0)  # the file's own, rounded outward
    shown = []
    for at in pages:  # the same values typed in advance: the same answers, now a guarantee
        type_in_advance(at, "laplace", cap=6, bounds=bounds)
        assert not errors(at), errors(at)
        shown.append((laplace_truth(at), successes(at)[0]))
    (path_truth, path_box), (upload_truth, upload_box) = shown
    pd.testing.assert_series_equal(path_truth, upload_truth)
    pd.testing.assert_series_equal(path_truth, from_file)
    assert path_box == upload_box
    assert list(path_truth.index) == DAYS.split("\n")


def test_laplace_predicate_and_cap_on_a_path(files, week):
    at = with_path("laplace", files["parquet"])
    widget(at.radio, "laplace_kind").set_value("predicate")
    rerun(at)
    widget(at.selectbox, "laplace_pred_column").set_value("money_spent")
    rerun(at)
    widget(at.number_input, "laplace_pred_number").set_value(40.0)
    rerun(at)
    (statement,) = not_private(at)  # the empty cap box: the table's own largest, 6
    assert READ_CAP in statement and not problems(at)
    assert "The box is empty, so the cap is 6, the most rows anyone has in your table" in texts(at)
    assert laplace_truth(at).iloc[0] == int((week["money_spent"] >= 40).sum())  # cap 6: all
    assert metric(at, "Noise scale") == "6"  # six rows per person at ε = 1
    type_in_advance(at, "laplace", cap=6)  # the same number, typed: declared in advance
    assert not errors(at)
    assert "Your cap of 6: 0 rows beyond it are dropped" in texts(at)
    assert laplace_truth(at).iloc[0] == int((week["money_spent"] >= 40).sum())
    assert metric(at, "Noise scale") == "6"
    type_in_advance(at, "laplace", cap=1)
    assert not errors(at)
    assert "Your cap of 1: 1,490 rows beyond it are dropped" in texts(at)
    kept = laplace_truth(at).iloc[0]
    assert 0 < kept < int((week["money_spent"] >= 40).sum())
    assert metric(at, "Noise scale") == "1"


def test_gaussian_counts_a_parquet_path(files):
    at = with_path("gaussian", files["parquet"])
    declare(at, "gaussian")
    (statement,) = not_private(at)
    assert READ_CAP in statement and READ_BOUNDS not in statement and not problems(at)
    type_in_advance(at, "gaussian", cap=6)
    assert not errors(at)
    assert "Guarantee: " in successes(at)[0]
    bars_ = chart_data(at, "bars")
    true = bars_[bars_["series"].str.startswith("True")]["value"].to_numpy()
    np.testing.assert_array_equal(true, [300, 300, 400, 400, 450, 500, 500])


def test_planner_plans_a_parquet_path_as_the_csv_upload(files):
    tables, pages = [], []
    for at in (with_path("planner", files["parquet"]), with_upload("planner", files["csv"])):
        area = next(t for t in at.text_area if t.key == "planner_cats")
        area.set_value(DAYS)
        pages.append(rerun(at))
    statement = same_not_private(*pages)  # the defaults: the cap, a mean's bounds from the file
    assert READ_CAP in statement and READ_BOUNDS in statement
    for at in pages:
        at.session_state["planner_table"] = True
        rerun(at)
        tables.append(next(f.value for f in at.dataframe if "ε_i" in f.value.columns))
    pd.testing.assert_frame_equal(tables[0], tables[1])


# --- bad input -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("page", ["bounding", "laplace"])
@pytest.mark.parametrize(
    ("name", "message", "engine_said"),
    [
        ("missing", "there is no file or folder at", None),
        ("txt", "is neither a Parquet nor a CSV file", None),
        ("mixed", "could not be read", "could not be found in file"),  # a file lacks money_spent
    ],
)
def test_a_bad_path_gets_a_sentence_and_keeps_what_was_typed(
    files, page, name, message, engine_said
):
    at = with_path(page, files[name])
    assert any(message in e for e in errors(at)), errors(at)
    if engine_said is not None:  # DuckDB's own words: folded below the sentence, not in it
        assert not any(engine_said in e for e in errors(at)), errors(at)
        assert any(engine_said in said for said in folded(at)), folded(at)
    assert at.text_input(key=f"{page}_path").value == files[name]
    assert not at.metric and not at.exception


@pytest.mark.parametrize(
    ("name", "typed", "sentence", "engine_said"),
    [
        ("visits.parquet", "", "ließ sich nicht lesen.", "No magic bytes found"),
        ("shop.duckdb", ":visits", "lässt sich nicht als DuckDB-Datenbank öffnen.", "not a valid"),
    ],
)
def test_an_engines_error_is_a_sentence_in_the_readers_language_and_its_words_folded(
    tmp_path, name, typed, sentence, engine_said
):
    """A corrupt Parquet file, a file that is no DuckDB database: the error box holds the
    German sentence, never DuckDB's English; DuckDB's words are folded below it."""
    path = tmp_path / name
    path.write_bytes(b"PAR1" + b"\x00 not really Parquet " * 40)
    at = with_path("laplace", f"{path}{typed}", lang="de")
    (box,) = errors(at)
    assert box.startswith("Dieser Pfad lässt sich nicht lesen: „") and box.endswith(sentence)
    assert engine_said not in box and "Error" not in box, box
    (detail,) = folded(at, "Was die Engine meldete")
    assert engine_said in detail and "Error" in detail, detail
    assert not at.metric and not at.exception


def test_a_person_column_unique_in_the_first_rows_is_said_so(tmp_path):
    """A visits log in day order: no visitor twice in its first rows (not "up to 1 rows")."""
    from data.sources.synthetic import write_visits

    path = write_visits(tmp_path / "visits.parquet", 100_000, seed=3)
    said = texts(with_path("laplace", str(path)))
    assert "no two of the first 2,000 rows share one `visitor_id`" in said
    assert "up to 1 rows" not in said


def test_an_unreachable_spark_master_gets_a_sentence(files):
    address = f"spark://127.0.0.1:{free_port()}"
    at = with_path("laplace", files["parquet"], engine="spark", spark=address)
    assert any("cannot be reached" in e for e in errors(at)), errors(at)
    assert at.text_input(key="laplace_spark").value == address
    assert at.text_input(key="laplace_path").value == files["parquet"]


def test_without_sparks_client_the_engine_picker_names_its_pip_command(files, monkeypatch):
    """pyspark is an optional extra: the default install runs DuckDB only."""
    monkeypatch.setattr("data.sources.spark_installed", lambda: False)
    at = with_path("laplace", files["parquet"], engine="spark", spark="local[2]")
    assert 'pip install "pyspark==4.3.0"' in warnings(at) and not at.exception
    assert at.text_input(key="laplace_path").value == files["parquet"]
    assert not at.metric  # nothing is read until the engine is there


def test_a_missing_table_and_a_missing_person(files, tmp_path, week):
    at = with_path("bounding", f"{tmp_path}/shop.duckdb:visits")
    assert any("there is no DuckDB database file" in e for e in errors(at))
    gaps = week.astype({"visitor_id": float})
    gaps.loc[[1, 5], "visitor_id"] = np.nan
    gaps.to_parquet(tmp_path / "gaps.parquet", index=False)
    at = with_path("laplace", str(tmp_path / "gaps.parquet"))
    assert any("2 rows have no “visitor_id”" in e for e in errors(at)), errors(at)
