"""A user's own CSV on the exponential-mechanism and the two local-DP pages (AppTest).

The numbers shown must be the file's own: counts per category, the cap's sensitivity, one
answer per person on the local pages; bad files get a message, never a traceback.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from apptest_helpers import metric, open_page, rerun, texts, widget

# person, shop, answer: p1 has 5 rows (all shop A), so the cap matters.
ROWS = [
    ("p1", "A", "yes"),
    ("p1", "A", "yes"),
    ("p1", "A", "no"),
    ("p1", "A", "yes"),
    ("p1", "A", "yes"),
    ("p2", "B", "no"),
    ("p2", "C", "yes"),
    ("p3", "B", "yes"),
    ("p4", "C", "no"),
    ("p4", "B", "no"),
    ("p5", "B", "no"),
    ("p6", "C", "yes"),
    ("p7", "B", "no"),
    ("p8", "A", "no"),
]
SURVEY = b"person,shop,answer\n" + b"".join(",".join(row).encode() + b"\n" for row in ROWS)
NAME = "survey.csv"
KEY = "user_survey_csv"  # the Dataset key data.registry gives "survey.csv"


def first_rows() -> list[tuple[str, str, str]]:
    """Each person's first row in the file, in file order."""
    seen: dict[str, tuple[str, str, str]] = {}
    for row in ROWS:
        seen.setdefault(row[0], row)
    return list(seen.values())


def capped_rows(cap: int) -> list[tuple[str, str, str]]:
    """Each person's first ``cap`` rows."""
    kept, per_person = [], Counter()
    for row in ROWS:
        per_person[row[0]] += 1
        if per_person[row[0]] <= cap:
            kept.append(row)
    return kept


def upload(at, prefix: str, select_key: str, option: str, data: bytes, name: str = NAME):
    widget(at.selectbox, select_key).set_value(option)
    rerun(at)
    assert any("Upload a CSV" in i.value for i in at.info)
    at.file_uploader(key=f"{prefix}_upload").set_value((name, data, "text/csv"))
    return rerun(at)


def errors(at) -> str:
    return " ".join(e.value for e in at.error)


# --- Exponential mechanism ------------------------------------------------------------------
OWN_SOURCE = "Your own CSV file…"


def exponential_upload(data: bytes = SURVEY, name: str = NAME):
    return upload(open_page("exponential"), "exp", "exp_source", OWN_SOURCE, data, name)


def probability_table(at):
    return at.dataframe[0].value.set_index("candidate")


def test_exponential_counts_each_row_as_a_person_without_a_person_column():
    at = exponential_upload()
    widget(at.selectbox, f"exp_column_{KEY}").set_value("shop")
    table = probability_table(rerun(at))
    shops = Counter(shop for _, shop, _ in ROWS)
    assert table["true count"].to_dict() == dict(shops) == {"A": 6, "B": 5, "C": 3}
    assert "Score = count, sensitivity Δ = 1." in texts(at)
    assert "reveals that each occurs" in texts(at)
    assert "That protects rows, not people with several rows" in texts(at)
    counts = np.array([shops[c] for c in table.index], dtype=float)
    weights = np.exp(1.0 * counts / 2)  # epsilon 1, Delta 1, epsilon / (2 Delta)
    assert metric(at, "P(true best answer)") == f"{weights[0] / weights.sum():.3f}"


def test_exponential_cap_sets_the_sensitivity_and_drops_rows():
    at = exponential_upload()
    widget(at.selectbox, f"exp_column_{KEY}").set_value("shop")
    widget(at.selectbox, "exp_person").set_value("person")
    rerun(at)
    cap = widget(at.number_input, f"exp_cap_{KEY}_person")
    assert cap.value == 5  # p1's 5 rows: the most anyone has
    assert "Score = count, sensitivity Δ = 5." in texts(at)
    assert "a real release must fix it in advance" in texts(at)
    table = probability_table(at)
    assert table["true count"].to_dict() == {"A": 6, "B": 5, "C": 3}
    log_weight = table[next(c for c in table.columns if c.startswith("log weight"))]
    counts = table["true count"].to_numpy()  # lambda (count - best), lambda = eps / (2 * 5)
    assert np.allclose(log_weight.to_numpy(), (counts - counts.max()) / (2 * 5))

    cap.set_value(2)
    table = probability_table(rerun(at))
    kept = Counter(shop for _, shop, _ in capped_rows(2))
    assert table["true count"].to_dict() == dict(kept) == {"A": 3, "B": 5, "C": 3}
    assert "Score = count, sensitivity Δ = 2." in texts(at)
    assert "With a cap of 2, 3 rows beyond it are dropped" in texts(at)
    counts = table["true count"].to_numpy(dtype=float)
    weights = np.exp(counts / (2 * 2))
    assert metric(at, "P(true best answer)") == f"{weights.max() / weights.sum():.3f}"
    widget(at.toggle, "exp_pitfall").set_value(True)
    rerun(at)
    assert "probability, count with Δ = 2" in at.dataframe[-1].value.columns
    assert "the cap on one person's rows" in texts(at)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "is empty"),
        (b"PK\x03\x04\x00\x00binary", "does not look like a text file"),
        (b"a,b\n1,2,3\n", "more fields than its header"),
        (b"height\n1.5\n1.75\n1.8\n", "no category column"),
    ],
)
def test_exponential_bad_uploads_show_a_message(data, message):
    at = exponential_upload(data)
    assert message in errors(at)
    assert not at.dataframe  # the page stopped before the table
    widget(at.selectbox, "exp_source").set_value(
        "Diseases (65 persons): which disease is most common?"
    )
    assert len(probability_table(rerun(at))) == 4


def test_exponential_single_category_warns():
    at = exponential_upload(b"colour\nred\nred\n")
    assert "Only one candidate (red)" in " ".join(w.value for w in at.warning)
    assert probability_table(at)["probability"].tolist() == ["1.000"]


# --- Randomized response ----------------------------------------------------------------------


def rr_upload(data: bytes = SURVEY):
    at = upload(open_page("randomized_response"), "rr", "rr_dataset", "own_csv", data)
    widget(at.selectbox, f"rr_column_{KEY}").set_value("answer")
    rerun(at)
    widget(at.selectbox, f"rr_category_{KEY}_answer").set_value("yes")
    return rerun(at)


def number(text: str) -> float:
    return float(text.replace(",", "").replace("+", ""))


def test_randomized_response_on_rows_then_on_persons():
    at = rr_upload()
    yes = sum(answer == "yes" for _, _, answer in ROWS)
    assert metric(at, "Truth") == f"{yes:,}" == "7"
    said_yes, estimate = number(metric(at, "Said yes")), number(metric(at, "Debiased estimate"))
    assert estimate == pytest.approx(2 * (said_yes - len(ROWS) / 4), abs=0.06)  # fair coins
    assert f"7 of {len(ROWS)} persons would truly say yes" in texts(at)
    first_20 = at.dataframe[-1].value
    assert first_20["true answer"].tolist() == ["yes" if r[2] == "yes" else "no" for r in ROWS]

    widget(at.selectbox, "rr_person").set_value("person")
    rerun(at)
    persons = first_rows()
    yes = sum(answer == "yes" for _, _, answer in persons)
    assert metric(at, "Truth") == f"{yes:,}" == "3"
    page = texts(at)
    assert f"each of the {len(persons)} persons answers once, with their first row" in page
    assert f"({len(ROWS) - len(persons)} later rows are left out)" in page
    assert f"{yes} of {len(persons)} persons would truly say yes" in page
    assert "one person's answer replaced" in page


def test_randomized_response_bad_upload_keeps_the_coin_game():
    at = upload(open_page("randomized_response"), "rr", "rr_dataset", "own_csv", b"\x00\x01")
    assert "does not look like a text file" in errors(at)
    assert metric(at, "ε of one answer") == f"{math.log(3):.4g}"
    at = upload(open_page("randomized_response"), "rr", "rr_dataset", "own_csv", b"x\n1.5\n2.5\n")
    assert "no category column" in errors(at)
    assert metric(at, "ε of one answer") == f"{math.log(3):.4g}"
    at = upload(open_page("randomized_response"), "rr", "rr_dataset", "own_csv", b"c\nred\nred\n")
    assert "Everyone's c is “red”" in " ".join(i.value for i in at.info)
    assert metric(at, "Truth") == "2"


# --- Local frequencies --------------------------------------------------------------------------


def lf_upload(data: bytes = SURVEY):
    at = upload(open_page("local_frequencies"), "lf", "lf_dataset", "own_csv", data)
    widget(at.selectbox, f"lf_column_{KEY}").set_value("shop")
    return rerun(at)


def counts_table(at):
    return at.dataframe[-1].value.set_index("shop")


def test_local_frequencies_on_rows_then_on_persons():
    at = lf_upload()
    table = counts_table(at)
    assert table["true count"].to_dict() == dict(Counter(shop for _, shop, _ in ROWS))
    n, p, q = len(ROWS), 0.5, 1 / (math.e + 1)  # OUE at epsilon 1
    assert np.allclose(table["debiased estimate"], (table["raw sum of bits"] - n * q) / (p - q))
    assert f"{n} persons, 3 categories" in texts(at)

    widget(at.selectbox, "lf_person").set_value("person")
    table = counts_table(rerun(at))
    persons = first_rows()
    assert table["true count"].to_dict() == dict(Counter(shop for _, shop, _ in persons))
    assert table["true count"].to_dict() == {"A": 2, "B": 4, "C": 2}
    n = len(persons)
    assert np.allclose(table["debiased estimate"], (table["raw sum of bits"] - n * q) / (p - q))
    assert f"{n} persons, 3 categories" in texts(at)
    assert "with their first row in the file" in texts(at)


def test_local_frequencies_bad_uploads():
    at = upload(open_page("local_frequencies"), "lf", "lf_dataset", "own_csv", b"")
    assert "is empty" in errors(at)
    at = upload(open_page("local_frequencies"), "lf", "lf_dataset", "own_csv", b"c\nred\nred\n")
    assert "at least 2 categories" in errors(at)
    assert not at.get("plotly_chart")
