"""A user's own CSV: parsing with readable errors, and the Laplace page running on it."""

import pytest
from apptest_helpers import metric, open_page, rerun, widget

from data.own_csv import read_csv_bytes


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


VISITS = b"person,shop,amount\n" + b"".join(
    f"p{i % 40},{'AB'[i % 2]},{(i * 7) % 60}\n".encode() for i in range(200)
)


def _upload(at, data: bytes, name: str = "visits.csv"):
    widget(at.selectbox, "laplace_dataset").set_value("own_csv")
    rerun(at)
    assert any("Upload a CSV" in i.value for i in at.info)
    at.file_uploader(key="laplace_upload").set_value((name, data, "text/csv"))
    return rerun(at)


def test_laplace_page_on_an_uploaded_csv_counts_each_persons_rows() -> None:
    at = _upload(open_page("laplace"), VISITS)
    widget(at.selectbox, "laplace_category").set_value("shop")
    table = rerun(at).dataframe[0].value
    assert dict(zip(table["group"], table["true count"], strict=True)) == {"A": 100, "B": 100}
    assert metric(at, "Sensitivity") == "1"
    widget(at.selectbox, "laplace_person").set_value("person")
    rerun(at)
    # 200 rows over 40 persons: 5 rows each, so one person moves the counts by 5 in total.
    assert metric(at, "Sensitivity") == "5"
    widget(at.radio, "laplace_kind").set_value("sum")
    rerun(at)
    assert metric(at, "Sensitivity") == "295"  # 5 rows x max(|0|, |59|), bounds from the data


def test_uploaded_garbage_shows_a_message_and_the_page_survives() -> None:
    at = _upload(open_page("laplace"), b"\x00\x01\x02garbage")
    assert any("does not look like a text file" in e.value for e in at.error)
    widget(at.selectbox, "laplace_dataset").set_value("diseases")
    rerun(at)
    assert len(at.dataframe[0].value) == 4


def test_a_person_column_with_gaps_is_refused() -> None:
    at = _upload(open_page("laplace"), b"person,shop\np1,A\n,B\np2,A\n")
    widget(at.selectbox, "laplace_person").set_value("person")
    rerun(at)
    assert any("1 rows have no “person”" in e.value for e in at.error)


def test_text_only_upload_offers_counts_and_no_sums() -> None:
    at = _upload(open_page("laplace"), b"colour\nred\nblue\nred\n")
    assert "Clipped sum per category" not in widget(at.radio, "laplace_kind").options
    assert at.dataframe[0].value["true count"].tolist() == [2, 1]
