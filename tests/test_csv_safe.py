"""ui.common.csv_safe: no CSV the app writes runs as a formula in a spreadsheet (OWASP)."""

import csv
import io
import zipfile

import numpy as np
import pandas as pd
import pytest

from ui.common.csv_safe import safe_csv
from ui.common.export import Export, results_zip

DANGEROUS = ['=HYPERLINK("http://x")', "+cmd|calc", "-2+3", "@SUM(1)", "\tx", "\rx", "-3", "="]
HARMLESS = ["Flu", "a=b", "x-1", " =1", "'=already", "", "3", "ünïcode"]


def _rows(text: str) -> list[list[str]]:
    """The cells exactly as a spreadsheet receives them."""
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("value", DANGEROUS)
def test_a_text_cell_with_a_formula_prefix_gets_a_leading_quote(value: str) -> None:
    rows = _rows(safe_csv(pd.DataFrame({"group": [value, "Flu"], "n": [1, 2]})))
    assert rows == [["group", "n"], ["'" + value, "1"], ["Flu", "2"]]


def test_harmless_text_and_missing_cells_are_written_as_they_are() -> None:
    frame = pd.DataFrame({"group": [*HARMLESS, None]})
    assert safe_csv(frame) == frame.to_csv(index=False)


@pytest.mark.parametrize("dtype", ["category", "string", "str", object])
def test_every_kind_of_text_column_is_neutralised(dtype) -> None:
    frame = pd.DataFrame({"group": pd.Series(["=1+1", "+cmd|calc", "Flu", "@SUM(1)"], dtype=dtype)})
    cells = [row[0] for row in _rows(safe_csv(frame))[1:]]
    assert cells == ["'=1+1", "'+cmd|calc", "Flu", "'@SUM(1)"]


@pytest.mark.parametrize("index", [False, True])
def test_a_carriage_return_inside_a_text_cannot_start_a_row_with_a_formula(index) -> None:
    value = "Flu\r=1+cmd|calc"  # no comma or double quote, which are quoted anyway
    frame = pd.DataFrame({"group": [value, "\rx"], "n": [1, -2]}, index=["a\r@b", "c"])
    text = safe_csv(frame, index=index)
    assert f'"{value}"' in text  # quoted: one cell, not a new row
    assert '"a\r@b"' in text if index else "a\r@b" not in text
    rows = _rows(text)
    assert [row[-2:] for row in rows] == [["group", "n"], [value, "1"], ["'\rx", "-2"]]
    assert pd.read_csv(io.StringIO(text))["n"].tolist() == [1, -2]


def test_a_mixed_column_quotes_its_text_and_keeps_its_numbers() -> None:
    frame = pd.DataFrame({"value": pd.Series([-1.5, "-1.5", 3, "=A1"], dtype=object)})
    assert [row[0] for row in _rows(safe_csv(frame))[1:]] == ["-1.5", "'-1.5", "3", "'=A1"]


def test_headers_index_labels_and_index_names_are_neutralised() -> None:
    frame = pd.DataFrame(
        {"=SUM(A1:A9)": [1, 2], "-risk": ["a", "b"], "count": [3, 4]},
        index=pd.Index(["+1", "ok"], name="@who"),
    )
    assert _rows(safe_csv(frame))[0] == ["'=SUM(A1:A9)", "'-risk", "count"]
    rows = _rows(safe_csv(frame, index=True))
    assert rows[0] == ["'@who", "'=SUM(A1:A9)", "'-risk", "count"]
    assert [row[0] for row in rows[1:]] == ["'+1", "ok"]


def test_multi_level_headers_are_neutralised_level_by_level() -> None:
    columns = pd.MultiIndex.from_tuples([("=a", "n"), ("b", "-c")])
    rows = _rows(safe_csv(pd.DataFrame([[1, 2]], columns=columns)))
    assert rows[:2] == [["'=a", "b"], ["n", "'-c"]]


def test_repeated_column_names_keep_their_own_columns() -> None:
    frame = pd.DataFrame([["=x", 1.5]], columns=["same", "same"])
    assert _rows(safe_csv(frame)) == [["same", "same"], ["'=x", "1.5"]]


def test_numbers_round_trip_through_read_csv_unchanged() -> None:
    frame = pd.DataFrame(
        {
            "ints": [-3, 0, 7],
            "floats": [-2.5, np.nan, 1e-9],
            "negative": [-1.0, -0.001, -1234567.891],
            "flags": [True, False, True],
        },
        index=[-1, 0, 1],
    )
    text = safe_csv(frame)
    assert text == frame.to_csv(index=False)  # byte for byte what to_csv writes
    back = pd.read_csv(io.StringIO(text))  # no options
    pd.testing.assert_frame_equal(back, frame.reset_index(drop=True))
    assert back["floats"].dtype == np.float64 and back["ints"].dtype == np.int64
    assert safe_csv(frame, index=True) == frame.to_csv()  # a numeric index stays numbers


def test_the_frame_given_is_not_changed() -> None:
    frame = pd.DataFrame({"=h": pd.Series(["=x", "-1"], dtype="category"), "n": [-1, 2]})
    before = frame.copy()
    safe_csv(frame, index=True)
    pd.testing.assert_frame_equal(frame, before)


def test_the_exported_zip_holds_no_live_formula() -> None:
    table = pd.DataFrame(
        {
            "category": pd.Series(['=HYPERLINK("http://x")', "+cmd|calc", "@SUM(1)", "Flu"]),
            "true count": [24, 28, 5, 9],
            "noisy count": [23.41, -1.25, 6.0, np.nan],
        }
    )
    export = Export(
        title="Laplace mechanism: my file",
        question="How much noise does epsilon cost?",
        table=table,
        settings={"dataset": "my file", "epsilon": "1"},
        guarantee="Guarantee: 1-DP for each person.",
        unit="each person",
    )
    everything = {"dataset": "my file", "address": "http://x/laplace"}
    archive = zipfile.ZipFile(io.BytesIO(results_zip(export, everything, "laplace_my-file")))
    text = archive.read("laplace_my-file.csv").decode()
    cells = [row[0] for row in _rows(text)[1:]]
    assert cells == ['\'=HYPERLINK("http://x")', "'+cmd|calc", "'@SUM(1)", "Flu"]
    back = pd.read_csv(io.StringIO(text))  # the numbers still read as numbers, no options
    pd.testing.assert_series_equal(back["noisy count"], table["noisy count"])
    pd.testing.assert_series_equal(back["true count"], table["true count"])
