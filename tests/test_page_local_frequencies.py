"""The local-frequencies page through AppTest: protocols, p and q, sections, own data."""

from __future__ import annotations

import io
import json
import math
import re
import zipfile
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import (
    chart_data,
    charts,
    click_preset,
    download,
    errors,
    infos,
    metric,
    open_page,
    page_downloads,
    rerun,
    set_widget,
    successes,
    texts,
    upload_file,
    warnings,
    widget,
)
from fragment_helpers import fragment_of, parent_fragment, run_fragment
from streamlit.testing.v1 import AppTest

from data.registry import DATASETS
from dp_core import unary_encoding

PAGE = "local_frequencies"
REPORTS, COUNTS, DOMAIN = (
    "1. Each person's report",
    "2. Counts: true, as reported, debiased",
    "3. More categories: GRR or unary encoding?",
)
# shared/README: UCI Adult occupation counts, in the published order.
OCCUPATIONS = [4140, 4099, 4066, 3770, 3650, 3295, 2002, 1597, 1370, 994, 928, 649, 149, 9]
# Unary encoding asks every person: the 1,843 with no occupation send an all-zero vector, as in
# the Chinese local-DP notebook (shared/README), so 32,561 reports; GRR leaves them out.
N_REPORTS = 32_561
ZEROS = "1,843 persons with no occupation: with unary encoding they answer with the all-zero vector"


def section(at, label: str):
    at.session_state["lf__section"] = label
    return rerun(at)


def table(at) -> pd.DataFrame:
    """The counts table of section 2 (opening the section and its lazy expander)."""
    at.session_state["lf__section"] = COUNTS
    at.session_state["lf_table"] = True
    return rerun(at).dataframe[-1].value


def bars(at) -> pd.DataFrame:
    """The bar chart's values per category (columns: the series)."""
    frame = chart_data(at, "bars")
    wide = frame.pivot(index="group", columns="series", values="value")
    return wide.loc[list(dict.fromkeys(frame["group"]))]


@pytest.fixture(scope="module")
def default_page():
    return open_page(PAGE)


def test_default_oue_on_occupations(default_page):
    at = default_page
    assert metric(at, "ε per person") == "1"
    assert metric(at, "p") == "0.5000"
    assert metric(at, "q") == f"{1 / (math.e + 1):.4f}"
    assert ZEROS in texts(at)
    assert "k-ary randomized response must name a category, so it leaves them out" in texts(at)
    assert (
        "1,843 of the 32,561 reports come from persons holding none of the categories of occupation"
        in texts(at)
    )
    assert "a bill is a party" not in texts(at)  # only the tips data need that caveat
    # one neighbouring relation on both sides: replacement, so the central scale is 2/eps
    assert "Neighbouring datasets on this page: one person's answer replaced" in texts(at)
    assert "Each person sends **14 bits**" in texts(at)
    bits = at.table[-1].value  # one row per category, one column per person
    assert bits.index.tolist() == list(DATASETS["census"].domains["occupation"])
    assert bits.columns.tolist() == [str(i) for i in range(1, 13)]
    own = bits.apply(lambda column: column.str.endswith("*"))
    assert (own.sum() == 1).all()  # each person's own category is marked once
    assert set(np.unique(bits.to_numpy())) <= {"0", "1", "0*", "1*"}
    box = successes(at)[0]
    assert "Guarantee: 1-DP" in box and "32,561 reports of k bits" in box
    assert "each person (`person_id`, with all their rows)" in box


def test_encode_sales_is_shown_as_the_one_hot_vector_then_the_bits_sent(default_page):
    # the Chinese notebook prints encode('Sales'): a 1 at Sales' place among the occupations in
    # the data's order, 0 elsewhere; person 1 of the census holds Sales
    at = default_page
    occupations = list(DATASETS["census"].domains["occupation"])
    one_hot = unary_encoding.unary_encode([occupations.index("Sales")], len(occupations))[0]
    assert one_hot.astype(int).tolist() == [0, 0, 0, 0, 1] + [0] * 9
    vector = ", ".join(str(int(bit)) for bit in one_hot)
    assert "Person 1 answers Sales" in texts(at)
    assert f"encode('Sales') = [{vector}]" in texts(at)
    shown = at.table[0].value
    assert shown.columns.tolist() == occupations
    assert shown.index.tolist() == ["encode('Sales')", "sent by person 1"]
    assert shown.iloc[0].tolist() == [str(int(bit)) for bit in one_hot]
    matrix = at.table[-1].value  # the same person's bits as the matrix's first column shows
    assert shown.iloc[1].tolist() == matrix["1"].str.rstrip("*").tolist()
    assert matrix.loc["Sales", "1"].endswith("*")
    german = open_page(PAGE, query={"lang": "de"})  # the code keeps the data's own value
    assert "Person 1 antwortet Verkauf (Sales). " in texts(german)
    assert f"encode('Sales') = [{vector}]" in texts(german)
    assert german.table[0].value.index.tolist() == ["encode('Sales')", "gesendet von Person 1"]


def test_the_counts_are_debiased_with_wald_intervals(default_page):
    counts = table(default_page)
    at = default_page
    assert counts["occupation"].tolist() == list(DATASETS["census"].domains["occupation"])
    assert counts["true count"].tolist() == OCCUPATIONS
    n, p, q = N_REPORTS, 0.5, 1 / (math.e + 1)
    true = counts["true count"].to_numpy()
    sd = np.sqrt(true * p * (1 - p) + (n - true) * q * (1 - q)) / (p - q)
    assert np.all(np.abs(counts["debiased estimate"] - true) < 5 * sd)
    debiased = (counts["raw sum of bits"] - n * q) / (p - q)
    assert np.allclose(counts["debiased estimate"], debiased, atol=0.05)  # one decimal
    assert np.all(
        (counts["95% interval from"] < counts["debiased estimate"])
        & (counts["debiased estimate"] < counts["95% interval to"])
    )
    # Wald intervals: the exact variance formula at the estimate clipped to [0, n]
    plug_in = np.clip(counts["debiased estimate"].to_numpy(), 0, n)
    plug_in_sd = np.sqrt(plug_in * p * (1 - p) + (n - plug_in) * q * (1 - q)) / (p - q)
    half = (counts["95% interval to"] - counts["95% interval from"]).to_numpy() / 2
    assert np.allclose(half, 1.959964 * plug_in_sd, atol=0.1)
    assert "Wald intervals" in texts(at) and "plug-in, clipped to [0, n]" in texts(at)
    assert "exact standard errors" not in texts(at)
    assert "would be off by 2.00" in texts(at)
    shown = bars(at)
    assert shown["true count"].tolist() == OCCUPATIONS
    estimate = shown["debiased estimate (± 95% interval)"]
    assert np.allclose(estimate, counts["debiased estimate"], atol=0.05)
    assert chart_data(at, "bars")["series"].iloc[0] == "true count"
    band = chart_data(at, "errors")
    assert np.allclose((band["high"] - band["low"]) / 2, half, atol=0.1)  # table: 1 decimal
    # exact E|error|: about sqrt(2/pi) standard deviations, the counts being nearly normal
    assert np.allclose(counts["expected |error|"], math.sqrt(2 / math.pi) * sd, rtol=0.01)


def test_unary_encoding_counts_every_person_those_with_no_occupation_as_zeros(default_page):
    # shared/README: the Chinese notebook's n = 32,561 reports, its raw bit sums about
    # 1,843 q higher than over the 30,718 persons with an occupation
    counts = table(default_page)
    n, p, q = N_REPORTS, 0.5, 1 / (math.e + 1)
    true = counts["true count"].to_numpy()
    expected = n * q + true * (p - q)
    sd = np.sqrt(true * p * (1 - p) + (n - true) * q * (1 - q))
    raw = counts["raw sum of bits"].to_numpy()
    assert np.all(np.abs(raw - expected) < 5 * sd)
    assert abs(np.mean(raw - expected)) < 5 * np.mean(sd) / math.sqrt(len(raw))  # not ~496 low
    at = open_page(PAGE)
    widget(at.radio, "lf_protocol").set_value("grr")
    rerun(at)
    assert "30,718 reports, each randomized" in successes(at)[0]  # GRR names a category
    assert "reports come from persons holding none" not in texts(at)


def test_domain_size_crossover_at_epsilon_one(default_page):
    at = section(default_page, DOMAIN)
    assert "k* = 3e^ε + 2 = 10.2" in texts(at) and "optimised unary encoding wins" in texts(at)
    assert chart_data(at, "domain_crossover")["x"].iloc[0] == pytest.approx(3 * math.e + 2)
    assert chart_data(at, "domain_now")["label"].tolist() == ["this column: k = 14"]
    curves = chart_data(at, "domain_curves")
    grr = curves[curves["series"].str.startswith("k-ary")].set_index("k")["error"]
    oue = curves[curves["series"].str.startswith("optimised")].set_index("k")["error"]
    assert grr.loc[10] < oue.loc[10] < grr.loc[11]  # they cross at k* = 10.2


def test_grr_wins_at_large_epsilon():
    at = open_page(PAGE)
    widget(at.radio, "lf_protocol").set_value("grr")
    rerun(at)
    widget(at.text_input, "lf_epsilon__text").input("4")
    rerun(at)
    assert metric(at, "p") == f"{math.exp(4) / (math.exp(4) + 13):.4f}"
    assert "names **one** of the 14 categories" in texts(at)
    assert at.table[0].value.columns[-1] == "reports"
    section(at, DOMAIN)
    assert "k-ary randomized response wins" in texts(at)
    counts = table(at)
    assert counts["raw reports"].sum() == sum(OCCUPATIONS)  # one report per person
    assert "The raw sums add up to" not in texts(at)


def test_sue_parameters():
    at = open_page(PAGE)
    widget(at.radio, "lf_protocol").set_value("sue")
    rerun(at)
    p = math.exp(0.5) / (math.exp(0.5) + 1)
    assert metric(at, "p") == f"{p:.4f}" and metric(at, "q") == f"{1 - p:.4f}"


def test_p_and_q_sliders_give_epsilon():
    at = open_page(PAGE)
    widget(at.radio, "lf_protocol").set_value("manual")
    rerun(at)
    assert metric(at, "ε per person") == f"{math.log(9):.4g}"  # shared/README: ln 9
    counts = table(at)
    n = N_REPORTS
    debiased = (counts["raw sum of bits"] - n / 4) / 0.5
    assert np.allclose(counts["debiased estimate"], debiased, atol=0.05)
    widget(at.slider, "lf_p").set_value(0.99)
    widget(at.slider, "lf_q").set_value(0.01)
    rerun(at)
    assert metric(at, "ε per person") == f"{math.log(0.99**2 / 0.01**2):.4g}"
    widget(at.slider, "lf_p").set_value(0.25)
    widget(at.slider, "lf_q").set_value(0.75)
    rerun(at)
    assert "greater than q" in errors(at) and "Move p above q" in errors(at)
    assert not [m for m in at.metric if m.label.startswith("ε")]
    assert not charts(at) and not at.tabs
    widget(at.slider, "lf_q").set_value(0.25)  # p = q
    rerun(at)
    assert "greater than q" in errors(at)


@pytest.mark.parametrize(("epsilon", "crossover_shown"), [(0.01, True), (10.0, False)])
def test_epsilon_slider_ends(epsilon, crossover_shown):
    at = open_page(PAGE)
    widget(at.select_slider, "lf_epsilon").set_value(epsilon)
    rerun(at)
    assert metric(at, "ε per person") == f"{epsilon:g}"
    for label in (REPORTS, COUNTS, DOMAIN):
        section(at, label)
    crossover = 3 * math.exp(epsilon) + 2
    assert f"k* = 3e^ε + 2 = {crossover:,.1f}" in texts(at)
    assert len(chart_data(at, "domain_crossover")) == int(crossover_shown)  # 66,079 is off-chart
    counts = table(at)
    assert counts["true count"].tolist() == OCCUPATIONS
    if epsilon == 0.01:
        assert "Only 32,561 persons" in warnings(at)


def test_small_population_warns():
    at = open_page(PAGE)
    widget(at.selectbox, "lf_dataset").set_value("diseases")
    rerun(at)
    widget(at.text_input, "lf_epsilon__text").input("0.1")
    section(at, COUNTS)
    assert "Only 65 persons" in warnings(at)
    counts = table(at)
    assert counts["true count"].sum() == 65
    assert counts["disease"].tolist() == ["Diabetes", "Hepatitis", "Flu", "HIV"]  # public
    assert counts["true count"].tolist() == [24, 8, 28, 5]  # shared/README


@pytest.mark.parametrize(
    ("typed", "message"), [("0", "greater than 0"), ("1e300", "between"), ("abc", "a number")]
)
def test_bad_typed_epsilon(typed, message):
    at = open_page(PAGE)
    widget(at.text_input, "lf_epsilon__text").input(typed)
    rerun(at)
    assert "Could not use" in errors(at) and message in errors(at)
    assert metric(at, "ε per person") == "1"


def test_a_typed_large_epsilon_keeps_every_section_finite():
    at = open_page(PAGE)
    widget(at.text_input, "lf_epsilon__text").input("100")
    rerun(at)
    assert metric(at, "ε per person") == "100"
    counts = table(at)
    assert np.all(np.isfinite(counts["debiased estimate"]))
    section(at, DOMAIN)
    assert "optimised unary encoding" in texts(at)


def test_a_column_with_one_category(monkeypatch):
    monkeypatch.setitem(DATASETS["census"].domains, "occupation", ("Sales",))
    at = open_page(PAGE)
    assert "at least 2 categories" in errors(at)
    assert not at.tabs


def test_a_tiny_q_is_shown_in_significant_digits_not_as_zero():
    at = open_page(PAGE)
    widget(at.select_slider, "lf_epsilon").set_value(10.0)
    rerun(at)
    assert metric(at, "q") == f"{1 / (math.exp(10) + 1):.3g}" == "4.54e-05"


def test_same_seed_same_counts_and_a_new_draw_changes_them():
    at = open_page(PAGE)
    first = table(at)["raw sum of bits"].tolist()
    assert table(rerun(at))["raw sum of bits"].tolist() == first
    at.sidebar.button[0].click()
    rerun(at)
    assert table(at)["raw sum of bits"].tolist() != first


# --- Fragments ----------------------------------------------------------------------------------


def test_an_epsilon_step_reruns_the_fragment_not_the_page():
    at = section(open_page(PAGE), COUNTS)
    outer = fragment_of(at, "lf_epsilon")
    assert outer is not None
    assert fragment_of(at, "lf_dataset") is None  # the data controls rerun the whole page
    assert fragment_of(at, "lf_protocol") == outer
    assert fragment_of(at, "lf__section") == outer
    widget(at.select_slider, "lf_epsilon").set_value(4.0)
    run_fragment(at, outer)
    assert not at.title  # the page header did not run
    assert "1,843 persons with no occupation" not in texts(at)  # nor the data controls
    assert metric(at, "ε per person") == "4"
    assert bars(at)["true count"].tolist() == OCCUPATIONS


def test_opening_the_table_reruns_only_the_table():
    at = section(open_page(PAGE), COUNTS)
    outer, own = fragment_of(at, "lf_epsilon"), fragment_of(at, "lf_table")
    assert own not in (None, outer) and parent_fragment(at, own) == outer
    at.session_state["lf_table"] = True
    run_fragment(at, own)
    assert at.dataframe[0].value["true count"].tolist() == OCCUPATIONS
    assert not at.metric and not charts(at) and not at.select_slider  # nothing else redrawn


# --- The user's own file ------------------------------------------------------------------------
# person, shop: p1 has 5 rows (all shop A); p9 alone is in shop "D"; p10 has no shop.
ROWS = [
    ("p1", "A"),
    ("p1", "A"),
    ("p1", "A"),
    ("p1", "A"),
    ("p1", "A"),
    ("p2", "B"),
    ("p2", "C"),
    ("p3", "B"),
    ("p4", "C"),
    ("p4", "B"),
    ("p5", "B"),
    ("p6", "C"),
    ("p7", "B"),
    ("p8", "A"),
    ("p9", "D"),
    ("p10", ""),
]
CSV = b"person,shop\n" + b"".join(",".join(row).encode() + b"\n" for row in ROWS)
EACH_ROW = "(each row is a different person)"


def first_rows() -> list[tuple[str, str]]:
    seen: dict[str, tuple[str, str]] = {}
    for row in ROWS:
        seen.setdefault(row[0], row)
    return list(seen.values())


def declare(at, categories: str):
    area = next(t for t in at.text_area if t.key == "lf_cats")
    area.set_value(categories)
    return rerun(at)


def own(declared: str | None = "A\nB\nC"):
    at = upload_file(open_page(PAGE), "lf", CSV, "shops.csv")
    widget(at.selectbox, "lf_column").set_value("shop")
    rerun(at)
    return at if declared is None else declare(at, declared)


def person_box(at):
    return next(s for s in at.selectbox if s.key.startswith("lf_person_"))


def test_own_file_counts_each_person_once_over_the_declared_categories():
    at = own()
    assert person_box(at).value == "person"  # proposed: its values repeat
    counts = table(at).set_index("shop")
    persons = first_rows()
    kept = Counter(shop for _, shop in persons if shop in "ABC" and shop)
    assert counts["true count"].to_dict() == dict(kept) == {"A": 2, "B": 4, "C": 2}
    n, p, q = 10, 0.5, 1 / (math.e + 1)  # OUE at epsilon 1; p10 (no shop), p9 (D) send zeros
    debiased = (counts["raw sum of bits"] - n * q) / (p - q)
    assert np.allclose(counts["debiased estimate"], debiased, atol=0.05)
    page = texts(at)
    assert f"{n} persons, 3 categories" in page
    assert "with their first row in the file" in page
    assert "1 rows hold a value that is not declared" in page  # p9's D
    assert "1 person with no shop: with unary encoding they answer with the all-zero" in page
    assert "2 of the 10 reports come from persons holding none" in texts(section(at, REPORTS))
    assert "“D”" not in page and "D," not in page
    assert "partition selection by a curator does not apply" in page


def test_own_file_by_rows():
    at = own()
    person_box(at).set_value(EACH_ROW)
    rerun(at)
    assert "`person` repeats (up to 5 rows" in warnings(at)
    counts = table(at).set_index("shop")
    kept = Counter(shop for _, shop in ROWS if shop in ("A", "B", "C"))
    assert counts["true count"].to_dict() == dict(kept) == {"A": 6, "B": 5, "C": 3}
    assert "16 persons, 3 categories" in texts(at)  # with the rows of D and of no shop: zeros


def test_own_file_releases_a_one_person_and_an_absent_category_as_declared():
    at = own("A\nB\nC\nD\nE")
    counts = table(at).set_index("shop")
    assert counts.index.tolist() == ["A", "B", "C", "D", "E"]
    assert counts.loc["D", "true count"] == 1  # one person: still released, as declared
    assert counts.loc["E", "true count"] == 0  # nobody: estimated from the reports anyway
    assert "not declared" not in texts(at)
    assert bars(at).index.tolist() == ["A", "B", "C", "D", "E"]


def test_own_file_needs_declared_categories():
    at = own(declared=None)
    assert "Type the categories to release." in infos(at)
    assert "let DP choose" not in infos(at)
    modes = next(r for r in at.radio if r.key == "lf_cats_mode")
    assert modes.options == ["I declare them (a public list)"]
    assert not at.tabs


@pytest.mark.parametrize("protocol", ["oue", "grr"])
def test_whether_the_estimates_appear_never_depends_on_one_person(protocol):
    """Nobody holds a declared category (red is not declared): everyone still answers, with
    no value, and the page estimates (GRR from the 0 reports of persons holding one), as it
    would with one person holding blue (the page used to refuse: "Nobody holds...")."""
    for data in (b"c\nred\nred\n", b"c\nred\nblue\n"):
        at = upload_file(open_page(PAGE), "lf", data, "few.csv")
        next(t for t in at.text_area if t.key == "lf_cats").set_value("blue\ngreen")
        rerun(at)
        at = set_widget(at, at.radio, "lf_protocol", protocol)
        assert not errors(at) and not at.exception
        assert "Guarantee: 1-DP" in successes(at)[0]


@pytest.mark.parametrize(
    ("data", "declared", "message"),
    [
        (b"", None, "is empty"),
        (b"\x00\x01", None, "does not look like a text file"),
        (b"height\n1.5\n1.75\n", None, "no category column"),
        (b"c\nred\nred\n", "red", "at least 2 categories"),
    ],
)
def test_bad_uploads_give_a_message(data, declared, message):
    at = upload_file(open_page(PAGE), "lf", data, "bad.csv")
    if declared is not None:
        area = next(t for t in at.text_area if t.key == "lf_cats")
        area.set_value(declared)
        rerun(at)
    assert message in errors(at)
    assert not charts(at) and not at.tabs


# --- The address ---------------------------------------------------------------------------------


def counts_view(at) -> dict:
    return {
        "metrics": [(m.label, m.value) for m in at.metric],
        "bars": chart_data(at, "bars"),
        "errors": chart_data(at, "errors"),
    }


def test_a_link_with_the_settings_shows_what_moving_the_controls_shows():
    link = {"lf_protocol": "grr", "lf_epsilon": "4", "lf_section": "counts", "seed": "7"}
    opened = open_page(PAGE, query=link)
    at = open_page(PAGE, query={"seed": "7"})
    widget(at.radio, "lf_protocol").set_value("grr")
    rerun(at)
    widget(at.text_input, "lf_epsilon__text").input("4")
    section(at, COUNTS)
    moved, linked = counts_view(at), counts_view(opened)
    assert moved["metrics"] == linked["metrics"] and metric(at, "ε per person") == "4"
    for name in ("bars", "errors"):
        pd.testing.assert_frame_equal(moved[name], linked[name])
    for key, value in link.items():
        assert at.query_params[key] == value, key


def test_p_and_q_from_a_link_and_no_epsilon_in_the_address_while_they_set_it():
    at = open_page(PAGE, query={"lf_protocol": "manual", "lf_p": "0.8", "lf_q": "0.3"})
    assert metric(at, "ε per person") == f"{math.log(0.8 * 0.7 / (0.2 * 0.3)):.4g}"
    assert "lf_epsilon" not in at.query_params
    widget(at.radio, "lf_protocol").set_value("oue")
    rerun(at)
    assert at.query_params["lf_epsilon"] == "1" and "lf_protocol" not in at.query_params
    widget(at.radio, "lf_protocol").set_value("manual")
    rerun(at)
    assert "lf_epsilon" not in at.query_params and at.query_params["lf_protocol"] == "manual"


def test_in_german_categories_and_numbers_are_german():
    at = open_page(PAGE, query={"lang": "de", "lf_dataset": "diseases"})
    assert metric(at, "p (eigenes Bit → 1)") == "0,5000"
    assert "Grippe" in at.table[-1].value.index.tolist()


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_the_epsilon_slider_is_named_in_japanese_and_chinese_words(lang):
    # glossary: privacy budget ε is プライバシー予算 / 隐私预算; no English word in the label
    at = open_page(PAGE, query={"lang": lang})
    label = widget(at.select_slider, "lf_epsilon").label
    assert "ε" in label and not re.search("[A-Za-z]", label), label


@pytest.mark.parametrize(
    ("lang", "header", "option", "flu"),
    [
        ("ja", "疾病", "疾病（disease）", "インフルエンザ"),
        ("de", "Krankheit", "Krankheit (disease)", "Grippe"),
    ],
)
def test_the_data_s_column_name_is_written_in_the_reader_s_language(lang, header, option, flu):
    """A Japanese table kept the column name "disease" as its header: the data keep their
    column's name (the address, and the sentences that quote it as code), but a table's
    header and the column's box write it in the reader's language."""
    at = open_page(PAGE, query={"lang": lang, "lf_dataset": "diseases", "lf_section": "counts"})
    at.session_state["lf_table"] = True  # the counts table's lazy expander
    counts = rerun(at).dataframe[-1].value
    assert counts.columns[0] == header and flu in counts[header].tolist()
    assert "disease" not in counts.columns
    box = widget(at.selectbox, "lf_column")
    assert box.options == [option] and box.value == "disease"  # the value is the data's name
    at = open_page(PAGE, query={"lang": lang, "lf_dataset": "diseases"})
    reports = at.table[-1].value  # one row per category, one column per person
    assert reports.index.name == header and flu in reports.index


# --- The export ----------------------------------------------------------------------------------


def downloads(query: dict[str, str]) -> tuple[AppTest, dict[str, object]]:
    """The page and the files its two download buttons give (their own callbacks)."""
    return page_downloads(PAGE, query)


def test_the_export_csv_opens_with_pandas_as_the_table_on_screen():
    at, files = downloads({"lf_section": "counts", "lf_table": "true"})
    archive = zipfile.ZipFile(io.BytesIO(download(files, "local_frequencies_census", ".zip")))
    (name,) = [n for n in archive.namelist() if n.endswith(".csv")]
    assert name == "local_frequencies_census_epsilon-1.csv"
    back = pd.read_csv(io.BytesIO(archive.read(name)))  # no options
    at.session_state["lf_table"] = True
    screen = rerun(at).dataframe[-1].value
    pd.testing.assert_frame_equal(back, screen, check_dtype=False)
    assert back["true count"].tolist() == OCCUPATIONS
    settings = json.loads(archive.read(name.replace(".csv", ".json")))
    assert settings["protocol"] == "Optimised unary encoding (OUE)" and settings["epsilon"] == "1"
    assert "32,561 reports of k bits" in settings["guarantee"]
    assert {"charts/counts.svg", "charts/counts.png"} <= set(archive.namelist())


# --- Exercises -----------------------------------------------------------------------------------


def open_exercise(at, key: str):
    at.session_state[f"exercise_{key}"] = True
    at.session_state[f"exercise_{key}_show"] = True
    return rerun(at)


def answer(at, key: str, given) -> str:
    at.session_state[f"exercise_{key}_given"] = given
    rerun(at)
    return " ".join(s for s in successes(at)) + " ".join(w.value for w in at.warning)


def test_the_unary_epsilon_exercise_is_what_the_page_shows():
    at = open_page(PAGE, query={"lf_protocol": "manual"})  # p = 0.75, q = 0.25 by default
    open_exercise(at, "local.unary_epsilon")
    shown = metric(at, "ε per person")
    assert shown == "2.197" and f"ln 9 ≈ {shown}" in infos(at)
    assert "Right." in answer(at, "local.unary_epsilon", 2.197)
    assert "Not quite" in answer(at, "local.unary_epsilon", 1.099)


def test_the_which_protocol_exercise_agrees_with_the_page():
    at = open_exercise(section(open_page(PAGE), DOMAIN), "local.which")
    assert "optimised unary encoding wins" in texts(at)  # the page at ε = 1, k = 14
    assert "Optimised unary encoding: at ε = 1 the two cross at k* = 3e + 2 = 10.2" in infos(at)
    assert "Right." in answer(at, "local.which", "oue")
    assert "Not quite" in answer(at, "local.which", "grr")


def test_the_raw_sums_exercise_agrees_with_the_table():
    at = open_page(PAGE)
    assert table(at)["raw sum of bits"].sum() > 2 * sum(OCCUPATIONS)  # far more than n
    open_exercise(at, "local.raw_sums")
    assert "False. Every person sends k bits" in infos(at)
    assert "Right." in answer(at, "local.raw_sums", "false")


# --- Preset: the teaching material's example in one click (ui/local/lf_presets.py) ---------------


def test_the_unary_preset_chooses_p_075_and_q_025_on_the_occupations():
    # shared/README (Programming DP): unary encoding with p = 0.75, q = 0.25 gives
    # eps = ln(p(1 - q) / ((1 - p) q)) = ln 9 = 2.197; estimate (sum of bits - n q) / (p - q)
    at = open_page(PAGE)
    widget(at.selectbox, "lf_column").set_value("marital_status")
    rerun(at)
    widget(at.radio, "lf_protocol").set_value("manual")
    rerun(at)
    widget(at.slider, "lf_p").set_value(0.9)
    widget(at.slider, "lf_q").set_value(0.3)
    rerun(at)
    moved = {"lf_column": "marital_status", "lf_protocol": "manual", "lf_p": "0.9", "lf_q": "0.3"}
    assert {k: at.query_params.get(k) for k in moved} == moved
    button = at.button(key="lf__preset_unary")
    assert button.label == "Unary encoding, p = 0.75, q = 0.25 (Programming DP)"
    button.click()
    rerun(at)
    assert widget(at.selectbox, "lf_dataset").value == "census"
    assert widget(at.selectbox, "lf_column").value == "occupation"
    assert widget(at.radio, "lf_protocol").value == "manual"
    assert widget(at.slider, "lf_p").value == 0.75 and widget(at.slider, "lf_q").value == 0.25
    assert at.query_params["lf_protocol"] == "manual"  # p and q at their defaults: left out
    for key in ("lf_dataset", "lf_column", "lf_p", "lf_q", "lf_epsilon"):
        assert key not in at.query_params, key
    assert metric(at, "ε per person") == "2.197" == f"{math.log(9):.4g}"
    assert metric(at, "p") == "0.7500" and metric(at, "q") == "0.2500"
    assert "32,561 reports of k bits" in successes(at)[0]  # no occupation: all-zero vectors
    counts = table(at)
    assert counts["true count"].tolist() == OCCUPATIONS
    debiased = (counts["raw sum of bits"] - N_REPORTS * 0.25) / (0.75 - 0.25)
    assert np.allclose(counts["debiased estimate"], debiased, atol=0.05)
    widget(at.radio, "lf_protocol").set_value("sue")  # ε sets p and q: not the example
    rerun(at)
    assert widget(at.radio, "lf_protocol").value == "sue"
    assert at.query_params.get("lf_protocol") != "manual"


@pytest.mark.parametrize("lang", ["en", "de", "es", "ja", "zh"])
def test_the_unary_preset_says_why_its_guarantee_reads_above_its_epsilon(lang):
    # ln 9 = 2.1972...: ε per person 2.197 (nearest), the guarantee 2.198-DP (a bound, rounded up)
    at = click_preset(open_page(PAGE, query={"lang": lang}), "lf", "unary")
    decimal = "," if lang in ("de", "es") else "."
    shown, bound = f"2{decimal}197", f"2{decimal}198"
    assert metric(at, at.metric[0].label) == shown
    assert f"{bound}-DP" in successes(at)[0]
    said = [c.value for c in at.caption if f"{bound}-DP" in c.value]
    assert len(said) == 1 and shown in said[0], [c.value for c in at.caption]
    assert said[0].endswith((".", "。"))  # a whole sentence
    if lang == "en":
        assert said[0] == (
            "The guarantee reads 2.198-DP beside ε = 2.197 on purpose: it rounds ε up, never "
            "down, because a bound must never be understated."
        )
