"""A user's own CSV: parsing with readable errors, and the Laplace page running on it."""

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import chart_data, metric, open_page, rerun, widget

from data.own_csv import guess_person_column, person_column_hints, read_csv_bytes


def test_reads_commas_semicolons_tabs_and_latin1() -> None:
    assert read_csv_bytes(b"a,b\n1,2\n3,4\n").shape == (2, 2)
    assert list(read_csv_bytes(b"a;b\n1;2\n").columns) == ["a", "b"]
    assert list(read_csv_bytes(b"a\tb\n1\t2\n").columns) == ["a", "b"]
    assert list(read_csv_bytes(b"x\n1\n2\n").columns) == ["x"]
    assert list(read_csv_bytes("\ufeffnom,âge\n1,2\n".encode()).columns) == ["nom", "âge"]
    assert list(read_csv_bytes("caf\xe9,b\n1,2\n".encode("latin-1")).columns) == ["café", "b"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "is empty"),
        (b"   \n", "is empty"),
        (b"a,b\n", "no data rows"),
        (b"a,b\n1,2,3\n", "more fields than its header"),
        (b'a,b\n1,"2\n', "could not be read as CSV"),
        (b"PK\x03\x04\x00\x00binary", "does not look like a text file"),
    ],
)
def test_bad_files_get_a_sentence_not_a_traceback(data, message) -> None:
    with pytest.raises(ValueError, match=message):
        read_csv_bytes(data, "upload.csv")


def test_pandas_own_words_are_the_detail_not_part_of_the_sentence() -> None:
    with pytest.raises(ValueError) as raised:
        read_csv_bytes(b'a,b\n1,"2\n', "upload.csv")
    assert raised.value.code == "csv_unreadable" and raised.value.params == {"name": "upload.csv"}
    assert "EOF" in raised.value.detail  # pandas' tokenizer: "EOF inside string ..."


VISITS = b"person,shop,amount\n" + b"".join(
    f"p{i % 40},{'AB'[i % 2]},{(i * 7) % 60}\n".encode() for i in range(200)
)


def _upload(at, data: bytes, name: str = "visits.csv"):
    widget(at.selectbox, "laplace_dataset").set_value("own_csv")
    rerun(at)
    assert any("Upload a CSV" in i.value for i in at.info)
    at.file_uploader(key="laplace_upload").set_value((name, data, "text/csv"))
    return rerun(at)


def _declare(at, column: str, text: str):
    area = next(t for t in at.text_area if t.key.endswith("_cats"))
    area.set_value(text)
    return rerun(at)


def _person(at):
    return next(s for s in at.selectbox if s.key.startswith("laplace_person_"))


def _answers(at):
    bars = chart_data(at, "bars")
    return bars[bars["series"].str.startswith("True")].set_index("group")["value"].to_dict()


def test_laplace_page_on_an_uploaded_csv_counts_each_persons_rows() -> None:
    at = _upload(open_page("laplace"), VISITS)
    assert _person(at).value == "person"  # proposed: its name says so, and it repeats
    category = next(s for s in at.selectbox if s.key == "laplace_category")
    category.set_value("shop")
    _declare(rerun(at), "shop", "A, B")
    assert _answers(at) == {"A": 100, "B": 100}
    # 200 rows over 40 persons: 5 rows each, so one person moves the counts by 5 in total.
    assert metric(at, "Sensitivity") == "5"
    _person(at).set_value("(each row is a different person)")
    rerun(at)
    assert metric(at, "Sensitivity") == "1"
    assert any("`person` repeats (up to 5 rows" in w.value for w in at.warning)
    _person(at).set_value("person")
    widget(at.radio, "laplace_kind").set_value("sum")
    rerun(at)
    assert metric(at, "Sensitivity") == "295"  # 5 rows x max(|0|, |59|), bounds from the data


def test_uploaded_garbage_shows_a_message_and_the_page_survives() -> None:
    at = _upload(open_page("laplace"), b"\x00\x01\x02garbage")
    assert any("does not look like a text file" in e.value for e in at.error)
    widget(at.selectbox, "laplace_dataset").set_value("diseases")
    rerun(at)
    assert len(_answers(at)) == 4


def test_rows_without_a_person_are_left_out_not_refused() -> None:
    """Whether the page releases anything never depends on one row lacking a person: the
    row is left out (it used to refuse the whole file)."""
    at = _upload(open_page("laplace"), b"person,shop\np1,A\n,B\np2,A\n")
    assert _person(at).value == "person"
    assert not any("have no" in e.value for e in at.error)
    assert "1 rows have no “person”: no person can be held to them" in " ".join(
        c.value for c in at.caption
    )
    _declare(at, "shop", "A\nB")
    assert _answers(at) == {"A": 2, "B": 0}  # the row of B, without a person, is out


def test_text_only_upload_offers_counts_and_no_sums() -> None:
    at = _upload(open_page("laplace"), b"colour\nred\nblue\nred\n")
    assert "Clipped sum per category" not in widget(at.radio, "laplace_kind").options
    _declare(at, "colour", "red\nblue\ngreen")
    assert _answers(at) == {"red": 2, "blue": 1, "green": 0}


# --- Which column identifies a person ------------------------------------------------------------


def test_a_repeating_patient_id_is_proposed_as_the_person_column() -> None:
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "patient_id": rng.integers(1, 301, 986),
            "disease": rng.choice(["Flu", "Cold", "HIV"], 986),
            "age": rng.integers(18, 90, 986),
        }
    )
    hints = person_column_hints(frame)
    assert guess_person_column(frame) == "patient_id"
    assert hints[0].named_like_id and hints[0].max_rows > 1
    assert [h.column for h in hints] == ["patient_id"]  # a category or an age is not a person


@pytest.mark.parametrize(
    ("columns", "expected"),
    [
        ({"CustomerID": [1, 2, 3], "x": [1, 2, 3]}, "CustomerID"),
        ({"visitorid": [1, 1, 2], "spend": [1.5, 2.0, 3.0]}, "visitorid"),
        ({"user": ["u", "v", "u"]}, "user"),
        ({"disease": ["a", "b", "a"]}, None),
        ({"paid": [1.5, 2.0, 3.0], "valid": [1, 1, 1]}, None),
    ],
)
def test_person_column_names(columns, expected) -> None:
    assert guess_person_column(pd.DataFrame(columns)) == expected


def test_an_unnamed_repeating_identifier_is_proposed_after_named_ones() -> None:
    ids = np.repeat(np.arange(100), 3)
    frame = pd.DataFrame({"code": ids, "shop": np.tile(["A", "B", "C"], 100)})
    assert guess_person_column(frame) == "code"
    assert guess_person_column(frame.assign(member=ids)) == "member"
