"""The exponential-mechanism page through AppTest: the published tables after moving ε, the
sampled runs, several ε, the curves, the pitfall (a fragment), own files and bad input."""

from __future__ import annotations

import io
import json
import re
import zipfile
import zlib
from collections import Counter

import mpmath
import numpy as np
import pandas as pd
import pytest
from apptest_helpers import (
    READ_CAP,
    READ_CATEGORIES,
    chart_data,
    charts,
    click_preset,
    download,
    errors,
    infos,
    live_texts,
    metric,
    not_private,
    open_page,
    page_downloads,
    problems,
    rerun,
    successes,
    texts,
    widget,
)
from fragment_helpers import keyed_fragment, run_fragment

from data.registry import DATASETS, category_counts, load_dataset
from dp_core.exponential import exponential_probabilities
from dp_core.selection_scores import floored_clipped_means
from ui.common.shell import DEFAULT_SEED

EPS_TEXT = "exponential_epsilon__text"
EPS_SLIDER = "exponential_epsilon"
PUBLISHED = {  # the Swiss teaching notebooks' disease table (/work/shared/README.md)
    "0.1": {"Diabetes": "0.327", "Hepatitis": "0.147", "Flu": "0.399", "HIV": "0.126"},
    "1": {"Diabetes": "0.119", "Hepatitis": "4.0e-05", "Flu": "0.881", "HIV": "8.9e-06"},
    "0": {"Diabetes": "0.250", "Hepatitis": "0.250", "Flu": "0.250", "HIV": "0.250"},
}
TABLE, EPSILONS, CURVES, PITFALL, HOURS = (
    "1. The probability table",
    "2. Several ε side by side",
    "3. How often is the answer right?",
    "4. The sensitivity pitfall",
    "5. Average hours per week",
)
MECHANISMS = {"Exponential mechanism", "Permute-and-flip", "Report-noisy-max, Laplace noise"}
WEIGHT = "weight exp(ε·u / 2Δ)"
NOTEBOOK_WEIGHTS = {  # the German notebook's implementation step at ε = 0.1 (/work/shared)
    "Diabetes": "3.320",
    "Hepatitis": "1.492",
    "Flu": "4.055",
    "HIV": "1.284",
}
SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power(value: mpmath.mpf, digits: int) -> str:
    """A number no float holds as the page writes it, m×10ⁿ, from mpmath's own rounding."""
    text = mpmath.nstr(value, digits, strip_zeros=False, min_fixed=1, max_fixed=0)
    mantissa, exponent = text.split("e")
    return f"{mantissa}×10{str(int(exponent)).translate(SUPERSCRIPTS)}"


def exact_exponential(counts: dict[str, float], rate: float) -> tuple[dict, dict]:
    """Weights exp(λ·count) and probabilities with 60 digits (mpmath: no overflow)."""
    with mpmath.workdps(60):
        weights = {name: mpmath.exp(mpmath.mpf(rate) * c) for name, c in counts.items()}
        total = mpmath.fsum(weights.values())
        return weights, {name: w / total for name, w in weights.items()}


@pytest.fixture(scope="module")
def page():
    return open_page("exponential")


NUMBERS = ("true count", "sampled runs", "count ÷ largest", "log weight", "sampled share")


def table_value(element):
    """A table of the page (text cells) with its numeric columns as numbers."""
    frame = element.value.copy()
    for column in frame.columns:
        if column.startswith(NUMBERS):
            frame[column] = frame[column].str.replace(",", "").astype(float)
    return frame


def main_table(at):
    return table_value(at.table[0])


def no_table(at) -> bool:
    return not at.table and not at.dataframe


def section(at, label: str):
    at.session_state["exponential__section"] = label
    return rerun(at)


def dataset(at, key: str):
    widget(at.selectbox, "exponential_dataset").set_value(key)
    return rerun(at)


def typed(at, text: str):
    widget(at.radio, "exponential_source").set_value("typed")
    rerun(at)
    widget(at.text_input, "exponential_typed").set_value(text)
    return rerun(at)


def set_epsilon(at, value: str):
    widget(at.text_input, EPS_TEXT).set_value(value)
    return rerun(at)


def fragment_run(at, key: str):
    """Rerun only the fragment ``key``, as the browser does when one of its widgets moves."""
    return run_fragment(at, keyed_fragment(at, key))


# --- Shipped data: the published tables ---------------------------------------------------------


@pytest.mark.parametrize("epsilon", ["0.1", "1", "0"])
def test_disease_table_matches_the_published_one(page, epsilon):
    at = set_epsilon(section(page, TABLE), epsilon)
    table = main_table(at)
    assert table["probability"].to_dict() == PUBLISHED[epsilon]
    assert list(table.index) == ["Flu", "Diabetes", "Hepatitis", "HIV"]  # by true count
    assert table.loc["Flu", "true count"] == 28
    assert metric(at, "P(true best answer)") == PUBLISHED[epsilon]["Flu"][:5]


def test_the_table_shows_the_notebooks_unnormalised_weights(page):
    """The German notebook's step before normalising: exp(ε·u / 2Δ) at ε = 0.1 is
    [3.320, 1.492, 4.055, 1.284]; the column sits beside the probability, and a huge weight
    is written in scientific notation, computed from its log."""
    at = set_epsilon(section(page, TABLE), "0.1")
    table = main_table(at)
    assert table[WEIGHT].to_dict() == NOTEBOOK_WEIGHTS
    columns = list(table.columns)
    assert columns.index(WEIGHT) + 1 == columns.index("probability")
    at = set_epsilon(at, "20")  # e^(10 · 28)
    weights, _ = exact_exponential({"Flu": 28, "HIV": 5}, 10)
    assert main_table(at).loc["Flu", WEIGHT] == power(weights["Flu"], 3) == "4.00×10¹²¹"
    assert main_table(at).loc["HIV", WEIGHT] == power(weights["HIV"], 3) == "5.18×10²¹"
    widget(at.toggle, "exponential_monotonic").set_value(True)  # λ = ε/Δ: e^(20 · 28)
    table = main_table(rerun(at))
    weights, _ = exact_exponential({"Flu": 28}, 20)
    assert table.loc["Flu", "weight exp(ε·u / Δ)"] == power(weights["Flu"], 3)  # beyond a float
    widget(at.toggle, "exponential_monotonic").set_value(False)
    set_epsilon(rerun(at), "1")


def test_probabilities_and_weights_beyond_a_float_are_powers_of_ten(page):
    """At ε = 20 on the census occupations, Armed-Forces (9 persons against 4,140) comes out
    with probability about 10⁻¹⁷⁹⁴¹ and Prof-specialty's weight is e^41400: no float holds
    either. They are written as m×10ⁿ from their logs (as mpmath computes them), never as a
    float literal such as 2.5e-17941; a probability a float holds keeps its e-notation."""
    at = set_epsilon(section(dataset(page, "census"), TABLE), "20")
    table = main_table(at)
    weights, p = exact_exponential(category_counts("census", "occupation").to_dict(), 10)
    for name in ("Armed-Forces", "Priv-house-serv", "Tech-support", "Sales"):
        assert table.loc[name, "probability"] == power(p[name], 2), name
    assert table.loc["Armed-Forces", "probability"].endswith("×10⁻¹⁷⁹⁴¹")
    assert table.loc["Craft-repair", "probability"] == f"{float(p['Craft-repair']):.1e}"
    assert table.loc["Prof-specialty", "probability"] == "1.000"
    assert table.loc["Prof-specialty", WEIGHT] == power(weights["Prof-specialty"], 3)
    cells = " ".join(table["probability"]) + " " + " ".join(table[WEIGHT])
    assert not re.search(r"\d[eE][+-]?\d{4}", cells)  # no exponent beyond a float's
    set_epsilon(dataset(at, "diseases"), "1")


def test_a_rounded_mantissa_carries_into_the_power():
    """9.97×10⁻⁴⁰⁰ to two digits is 1.0×10⁻³⁹⁹ and 9.9977×10³⁹⁸ to three is 1.00×10³⁹⁹,
    never 10.0×10⁻⁴⁰⁰ or 10.00×10³⁹⁸."""
    at = set_epsilon(typed(open_page("exponential"), "A=918.7345, B=0"), "2")  # λ = 1
    weights, p = exact_exponential({"A": 918.7345, "B": 0}, 1)
    assert mpmath.nstr(p["B"], 4) == "9.97e-400"
    table = main_table(at)
    assert table.loc["B", "probability"] == power(p["B"], 2) == "1.0×10⁻³⁹⁹"
    assert table.loc["B", WEIGHT] == "1.000"  # e^0
    widget(at.text_input, "exponential_typed").set_value("A=918.73122, B=0")
    weights, p = exact_exponential({"A": 918.73122, "B": 0}, 1)
    assert mpmath.nstr(weights["A"], 5) == "9.9977e+398"
    assert main_table(rerun(at)).loc["A", WEIGHT] == power(weights["A"], 3) == "1.00×10³⁹⁹"


def test_the_guarantee_states_the_selection_per_person(page):
    at = set_epsilon(section(page, TABLE), "1")
    box = successes(at)[0]
    assert "Guarantee: 1-DP" in box
    assert "each person (`person_id`, with all their rows)" in box
    assert "the selected answer (ε = 1)" in box
    assert "numpy draws from the seed" in box
    assert "public categories of `disease`" in texts(at)
    assert "reveals that each occurs" not in texts(at)


def test_slider_to_both_ends(page):
    at = section(page, TABLE)
    widget(at.select_slider, EPS_SLIDER).set_value(0.0)
    at = rerun(at)
    assert metric(at, "P(true best answer)") == "0.250"
    assert "ε = 0: every candidate is equally likely (1/4 each)" in infos(at)
    assert "Given a candidate list fixed in advance, the answer says nothing" in infos(at)
    assert "the candidates are the public categories of `disease`" in infos(at)
    assert "reveals that each" not in infos(at)
    assert "Guarantee: 0-DP" in successes(at)[0]
    widget(at.select_slider, EPS_SLIDER).set_value(20.0)
    at = rerun(at)
    table = main_table(at)
    assert table.loc["Flu", "probability"] == "1.000"
    assert table.loc["HIV", "probability"] == "1.3e-100"  # about exp(-10 * 23), not a bare 0
    assert metric(at, "P(true best answer)") == "1.000"
    set_epsilon(at, "1")


def test_sampled_runs_at_both_ends_and_within_binomial_bounds(page):
    from scipy import stats

    at = set_epsilon(section(page, TABLE), "0.1")
    widget(at.select_slider, "exponential_draws").set_value(100_000)
    at = rerun(at)
    table = main_table(at)
    share = table["sampled runs"] / 100_000
    assert table["sampled runs"].sum() == 100_000
    assert np.allclose(table["sampled share of 100,000"], share, atol=5e-4)
    for name, p in {"Diabetes": 0.32707, "Hepatitis": 0.14696, "Flu": 0.39948}.items():
        low, high = stats.binom.ppf([0.0005, 0.9995], 100_000, p) / 100_000
        assert low <= share[name] <= high
    exact = chart_data(at, "exact").set_index("candidate")["p"]
    sampled = chart_data(at, "sampled").set_index("candidate")
    assert np.allclose(exact, table["probability"].astype(float), atol=5e-4)
    assert np.allclose(sampled["p"], share.to_numpy())
    assert sampled["series"].iloc[0] == "share of 100,000 sampled runs"
    widget(at.select_slider, "exponential_draws").set_value(10)
    at = rerun(at)
    assert main_table(at)["sampled runs"].sum() == 10
    widget(at.select_slider, "exponential_draws").set_value(1_000)
    rerun(at)


def test_same_seed_same_runs_and_a_new_draw_changes_them():
    first = section(open_page("exponential"), TABLE)
    second = section(open_page("exponential"), TABLE)
    runs = main_table(first)["sampled runs"].to_numpy()
    np.testing.assert_array_equal(main_table(second)["sampled runs"].to_numpy(), runs)
    first.sidebar.button[0].click()
    rerun(first)
    assert not np.array_equal(main_table(first)["sampled runs"].to_numpy(), runs)


def test_budget_line_at_both_ends_of_k(page):
    at = set_epsilon(section(page, TABLE), "0.1")
    widget(at.slider, "exponential_runs").set_value(5)
    at = rerun(at)
    assert "5 × 0.1 = **ε = 0.5**" in texts(at)
    widget(at.slider, "exponential_runs").set_value(50)
    at = rerun(at)
    assert "50 × 0.1 = **ε = 5**" in texts(at)
    widget(at.slider, "exponential_runs").set_value(1)
    rerun(at)


def test_compare_mode_columns_and_bad_epsilons(page):
    at = section(set_epsilon(page, "1"), EPSILONS)
    compare = at.table[0].value
    assert list(compare.columns) == ["true count", "ε = 0", "ε = 0.1", "ε = 1"]
    assert compare.loc["Hepatitis", "ε = 1"] == "4.0e-05"
    assert compare.loc["Flu", "ε = 0.1"] == "0.399"
    widget(at.text_input, "exponential_compare").set_value("0.5, -1, abc, 10")
    at = rerun(at)
    compare = at.table[0].value
    assert list(compare.columns) == ["true count", "ε = 0.5", "ε = 10"]
    assert "epsilon cannot be negative" in errors(at) and "must be a number" in errors(at)
    widget(at.text_input, "exponential_compare").set_value("x, ")
    at = rerun(at)
    assert no_table(at)
    assert any("Type at least one epsilon" in w.value for w in at.warning)
    widget(at.text_input, "exponential_compare").set_value("0, 0.1, 1.0")
    section(rerun(at), TABLE)


def test_industry_groups_read_0_950_at_0_1_and_the_curves(page):
    at = set_epsilon(section(dataset(page, "industry_groups"), TABLE), "0.1")
    assert metric(at, "P(true best answer)") == "0.950"
    assert len(main_table(at)) == 30  # the most likely; every one in the lazy expander
    at.session_state["exponential_all_candidates"] = True
    every = rerun(at).dataframe[0].value
    assert len(every) == 119 and every["true count"].tolist().count("576") == 10
    assert "Row-level privacy, not person-level" in texts(at)
    assert "A person could be behind several rows" in texts(at)
    assert "each row of the source table" in successes(at)[0]
    assert "The chart and the table show the 30 most likely of 119 candidates" in texts(at)
    assert len(chart_data(at, "exact")) == 30
    at = section(at, CURVES)
    assert metric(at, "Exponential mechanism") == "0.9501"
    assert float(metric(at, "Permute-and-flip")) > 0.95
    assert "computed numerically (to about 1e-12)" in texts(at)
    assert "all are exact" not in texts(at)
    curves = chart_data(at, "curves")
    assert set(curves["series"]) == MECHANISMS
    now = chart_data(at, "now")
    assert now["x"].tolist() == [0.1] and now["label"].tolist() == ["ε = 0.1 (now)"]
    em = curves[curves["series"] == "Exponential mechanism"]
    x, y = em["epsilon"].to_numpy(), em["p"].to_numpy()
    assert x.min() > 0 and x.max() == pytest.approx(20)  # log axis leaves out 0
    assert np.interp(0.1, x, y) == pytest.approx(0.9501, abs=5e-3)
    widget(at.radio, "exponential_axis").set_value("linear")
    at = rerun(at)
    curves = chart_data(at, "curves")
    em = curves[curves["series"] == "Exponential mechanism"]
    assert em["epsilon"].iloc[0] == 0 and em["p"].iloc[0] == pytest.approx(1 / 119)
    widget(at.radio, "exponential_axis").set_value("log")
    section(dataset(rerun(at), "diseases"), TABLE)


def test_curves_at_both_ends_of_epsilon(page):
    at = section(page, CURVES)
    widget(at.select_slider, EPS_SLIDER).set_value(0.0)
    at = rerun(at)
    assert chart_data(at, "now").empty  # ε = 0 has no place on a log axis
    assert metric(at, "Exponential mechanism") == "0.2500"
    widget(at.select_slider, EPS_SLIDER).set_value(20.0)
    at = rerun(at)
    assert chart_data(at, "now")["x"].tolist() == [20.0]
    for name in MECHANISMS:
        assert float(metric(at, name)) > 0.99
    section(set_epsilon(at, "1"), TABLE)


def test_other_shipped_columns_use_their_public_domain(page):
    at = section(dataset(page, "restaurant"), TABLE)
    table = main_table(at)
    assert list(table.index) == ["6", "7", "5", "3", "4", "1", "2"]  # by count, ties by name
    assert table["true count"].tolist() == [500, 500, 450, 400, 400, 300, 300]
    assert "Score = count, sensitivity Δ = 1." in texts(at)
    assert "a visitor comes at most once a day" in texts(at)
    at = dataset(at, "census")
    assert widget(at.selectbox, "exponential_column").value == "occupation"
    table = main_table(at)
    assert table.loc["Prof-specialty", "true count"] == 4140
    assert table.loc["Armed-Forces", "true count"] == 9
    widget(at.selectbox, "exponential_column").set_value("education_years")
    at = rerun(at)
    table = main_table(at)
    assert sorted(table.index, key=int) == [str(n) for n in range(1, 17)]  # the public domain
    assert table["true count"].is_monotonic_decreasing
    dataset(at, "diseases")


def test_census_marital_status_is_a_candidate_column(page):
    """The notebook's "which marital status is most common?" on the census: the candidates
    are its public categories, listed by true count, largest first (not in the domain's order,
    where Divorced comes before Never-married)."""
    at = dataset(page, "census")
    widget(at.selectbox, "exponential_column").set_value("marital_status")
    at = set_epsilon(section(rerun(at), TABLE), "0.01")
    table = main_table(at)
    counts = category_counts("census", "marital_status")
    domain = DATASETS["census"].domains["marital_status"]
    assert set(table.index) == set(domain)
    assert list(table.index) == sorted(domain, key=lambda name: (-counts[name], name))
    assert list(table.index[:3]) == ["Married-civ-spouse", "Never-married", "Divorced"]
    assert table["true count"].is_monotonic_decreasing
    assert table["true count"].to_dict() == counts.to_dict()
    assert list(chart_data(at, "exact")["candidate"]) == list(table.index)  # the chart too
    assert "the public categories of `marital_status`" in texts(at)
    shares = np.exp(0.005 * (counts - counts.max()))  # ε / (2Δ), Δ = 1: one row per person
    assert metric(at, "P(true best answer)") == f"{shares.max() / shares.sum():.3f}"
    widget(at.selectbox, "exponential_column").set_value("occupation")
    set_epsilon(dataset(rerun(at), "diseases"), "1")


def test_every_shipped_column_lists_its_candidates_by_true_count(page):
    """Largest count first, ties by name (numbers by value), on every dataset and column."""
    at = section(page, TABLE)
    for source in ("diseases", "census", "industry_groups", "restaurant", "tips"):
        at = dataset(at, source)
        for column in DATASETS[source].categorical:
            if len(DATASETS[source].categorical) > 1:
                widget(at.selectbox, "exponential_column").set_value(column)
                at = rerun(at)
            counts = category_counts(source, column).rename(index=str)
            every = list(DATASETS[source].domains[column])
            natural = sorted(  # ties by name, numbers by value: "2" before "10"
                every, key=lambda n: (-counts.get(n, 0), len(n) if n.isdigit() else 0, n)
            )
            table = main_table(at)
            if len(every) > 30:  # the table shows the 30 likeliest; the expander has them all
                at.session_state["exponential_all_candidates"] = True
                table = table_value(rerun(at).dataframe[0])
                at.session_state["exponential_all_candidates"] = False
                at = rerun(at)
            assert list(table.index) == natural, (source, column)
    widget(at.selectbox, "exponential_column").set_value("sex")
    at = dataset(rerun(at), "census")
    widget(at.selectbox, "exponential_column").set_value("occupation")
    dataset(rerun(at), "diseases")


# --- The sensitivity pitfall ------------------------------------------------------------------


def test_sensitivity_pitfall_is_near_uniform(page):
    at = section(set_epsilon(page, "1"), PITFALL)
    assert "Switch on to see" in texts(at)
    widget(at.toggle, "exponential_pitfall").set_value(True)
    at = rerun(at)
    pitfall = table_value(at.table[0])
    wrong = pitfall["probability, count ÷ largest with Δ = 1"].astype(float)
    assert wrong.max() / wrong.min() <= np.exp(0.5) * 1.01
    assert pitfall.loc["Flu", "probability, count with Δ = 1"] == "0.881"
    assert "1/28" in texts(at)
    bars = chart_data(at, "pitfall")
    assert set(bars["series"]) == {"count ÷ largest count, Δ = 1", "count, Δ = 1"}
    widget(at.toggle, "exponential_pitfall").set_value(False)
    section(rerun(at), TABLE)


def test_the_pitfall_draws_200_runs_with_either_scoring_from_the_seeded_stream(page):
    """The English notebook draws 200 answers under count ÷ largest with Δ = 1: beside the
    probabilities, the page tallies 200 runs with either scoring (the page's seeded stream,
    inverse transform on dp_core's probabilities), and says how often the true best came out."""
    at = section(set_epsilon(page, "1"), PITFALL)
    widget(at.toggle, "exponential_pitfall").set_value(True)
    at = rerun(at)
    pitfall = table_value(at.table[0])
    counts = category_counts("diseases", "disease")[pitfall.index].to_numpy(dtype=float)
    seed = [DEFAULT_SEED, 0, zlib.crc32(b"exponential"), zlib.crc32(b"pitfall")]
    uniforms = np.random.default_rng(seed).random(200)
    for column, p in (
        ("of 200 runs, count ÷ largest with Δ = 1", exponential_probabilities(counts / 28, 1, 1)),
        ("of 200 runs, count with Δ = 1", exponential_probabilities(counts, 1, 1)),
    ):
        named = [int(np.argmax(u < np.cumsum(p))) for u in uniforms]
        tally = np.bincount(named, minlength=len(counts))
        assert pitfall[column].astype(int).tolist() == tally.tolist(), column
    wrong = pitfall["of 200 runs, count ÷ largest with Δ = 1"].astype(int)
    right = pitfall["of 200 runs, count with Δ = 1"].astype(int)
    assert wrong.min() >= 20 and right["Flu"] > 150  # near-uniform against the right scoring
    assert (
        f"In 200 runs the true best answer came out {wrong['Flu']} times with count ÷ largest "
        f"and Δ = 1, against {right['Flu']} times with the count and Δ = 1."
    ) in texts(at)
    widget(at.toggle, "exponential_pitfall").set_value(False)
    section(rerun(at), TABLE)


def test_pitfall_keeps_epsilon_over_2_delta_when_the_count_is_monotonic(page):
    """count / largest is not monotonic: the monotonic switch must not reach it."""
    at = section(set_epsilon(page, "1"), PITFALL)
    widget(at.toggle, "exponential_monotonic").set_value(True)
    widget(at.toggle, "exponential_pitfall").set_value(True)
    at = rerun(at)
    pitfall = table_value(at.table[0])
    counts = category_counts("diseases", "disease")[pitfall.index].to_numpy(dtype=float)
    shares = counts / counts.max()
    half_rate = np.exp(0.5 * shares) / np.exp(0.5 * shares).sum()  # epsilon / (2 Delta)
    wrong = pitfall["probability, count ÷ largest with Δ = 1"].astype(float).to_numpy()
    assert np.allclose(wrong, half_rate, atol=5e-4)
    full_rate = np.exp(shares) / np.exp(shares).sum()
    assert not np.allclose(wrong, full_rate, atol=5e-3)
    # the count itself is monotonic: its column follows the switch (epsilon / Delta)
    right = pitfall["probability, count with Δ = 1"].astype(float).to_numpy()
    assert np.allclose(
        right, np.exp(counts - counts.max()) / np.exp(counts - counts.max()).sum(), atol=5e-4
    )
    assert "factor e^(ε/2) = 1.649" in texts(at)
    assert "only be guaranteed 2ε-differentially private" in texts(at)
    widget(at.toggle, "exponential_pitfall").set_value(False)
    widget(at.toggle, "exponential_monotonic").set_value(False)
    section(rerun(at), TABLE)


def test_the_pitfall_toggle_reruns_its_section_alone():
    at = section(open_page("exponential"), PITFALL)
    assert at.title and widget(at.select_slider, EPS_SLIDER)
    widget(at.toggle, "exponential_pitfall").set_value(True)
    at = fragment_run(at, "exponential_pitfall_section")
    # Only the pitfall section ran: no title, no dataset picker, no ε slider, no guarantee.
    assert not at.title and not at.selectbox and not at.select_slider and not successes(at)
    assert [t.key for t in at.toggle] == ["exponential_pitfall"]
    assert at.table[0].value.columns[1] == "probability, count ÷ largest with Δ = 1"
    assert [list(d) for _, d in charts(at)] == [["pitfall"]]


def test_an_epsilon_step_reruns_the_fragment_not_the_page():
    at = section(open_page("exponential"), TABLE)
    widget(at.text_input, EPS_TEXT).set_value("0.1")
    at = fragment_run(at, "exponential_explore")
    assert not at.title and not at.selectbox and not at.radio  # the data controls stayed
    assert widget(at.select_slider, EPS_SLIDER).value == 0.1
    assert main_table(at)["probability"].to_dict() == PUBLISHED["0.1"]
    assert "Guarantee: 0.1-DP" in successes(at)[0]


# --- Typed counts -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no candidates"),
        ("A=x", "is not a count"),
        ("A=3, B=x", "is not a count"),
        ("A=-2", "at least 0"),
        ("A=1e309, B=0", "finite number"),
        ("A=1, A=2", "the same name"),
    ],
)
def test_bad_typed_counts_give_messages_not_tracebacks(text, message):
    at = typed(open_page("exponential"), text)
    assert message in errors(at), errors(at)
    assert no_table(at)


def test_single_candidate_equal_scores_and_bad_epsilon():
    at = typed(open_page("exponential"), "Only=7")
    assert any("Only one candidate" in w.value for w in at.warning)
    assert metric(at, "P(true best answer)") == "1.000"
    assert "Guarantee: 1-DP** for each person, if adding or removing" in successes(at)[0]
    widget(at.text_input, "exponential_typed").set_value("A=4, B=4, C=4")
    at = rerun(at)
    assert "every ε gives the uniform distribution" in infos(at)
    assert main_table(at)["probability"].tolist() == ["0.333"] * 3
    for bad in ("-1", "abc"):
        at = set_epsilon(at, bad)
        assert any("Still showing ε = 1" in e.value for e in at.error)
        assert main_table(at)["probability"].tolist() == ["0.333"] * 3


def test_astronomical_typed_counts_show_no_nan_in_any_section():
    # lambda * 1e308 overflows; the page must shift by the best count first (no inf - inf)
    at = set_epsilon(typed(open_page("exponential"), "A=1e308, B=0"), "10")
    assert not at.error
    table = main_table(at)
    assert table.loc["A", "probability"] == "1.000"
    assert table.loc["B", "probability"].startswith("<")  # e^(-5e308): below any float
    gaps = next(c for c in table.columns if c.startswith("log weight"))
    assert "(count − best)" in gaps
    assert table.loc["A", gaps] == 0 and table.loc["B", gaps] == -np.inf
    shown = texts(at) + " ".join(str(v) for v in table.to_numpy().ravel())
    assert "nan" not in shown.lower()
    assert metric(at, "P(true best answer)") == "1.000"
    at = section(at, CURVES)
    for name in MECHANISMS:
        assert metric(at, name) == "1.0000"  # B trails by 1e308 counts: A always wins
    at = section(at, EPSILONS)
    assert "nan" not in at.table[0].value.to_string().lower()
    at = section(at, PITFALL)
    widget(at.toggle, "exponential_pitfall").set_value(True)
    at = rerun(at)
    assert not at.error and "nan" not in texts(at).lower()
    for name in ("curves", "pitfall", "exact", "sampled"):
        for _, data in charts(at):
            if name in data:
                assert not data[name].select_dtypes("number").isna().any().any()


# --- The user's own file ------------------------------------------------------------------------
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
# 401 patients: p1 has 3 rows; p2..p400 one each, Flu or Cold; "Rare" is held by p401 alone.
PATIENTS = (
    "patient_id,diagnosis\np1,Flu\np1,Flu\np1,Cold\n"
    + "".join(f"p{i},{'Flu' if i % 2 else 'Cold'}\n" for i in range(2, 401))
    + "p401,Rare\n"
).encode()


def upload(data: bytes, name: str = "survey.csv"):
    at = dataset(open_page("exponential"), "own_csv")
    assert any("Upload a CSV" in i.value for i in at.info)
    at.file_uploader(key="exponential_upload").set_value((name, data, "text/csv"))
    return rerun(at)


def keyed(elements, suffix: str):
    return next(e for e in elements if e.key.endswith(suffix))


def person_picker(at):
    return next(s for s in at.selectbox if s.key.startswith("exponential_person_"))


def choose_column(at, column: str):
    next(s for s in at.selectbox if s.key == "exponential_column").set_value(column)
    return rerun(at)


def declare(at, column: str, text: str):
    area = keyed(at.text_area, "_cats")  # the one list of categories, for the column chosen
    assert column in area.label
    area.set_value(text)
    return rerun(at)


def cap_box(at):
    """The cap's number box (empty for an own file until a cap is typed)."""
    return next(n for n in at.number_input if n.key == "exponential_cap")


def type_cap(at, cap: int):
    """Type the cap, as a careful user fixes it in advance."""
    cap_box(at).set_value(cap)
    return rerun(at)


def capped_rows(cap: int) -> list[tuple[str, str, str]]:
    """Each person's first ``cap`` rows."""
    kept, per_person = [], Counter()
    for row in ROWS:
        per_person[row[0]] += 1
        if per_person[row[0]] <= cap:
            kept.append(row)
    return kept


def test_own_file_counts_each_row_as_a_person_when_told_so():
    at = upload(SURVEY)
    assert person_picker(at).value == "person"  # proposed: its name says so
    person_picker(at).set_value("(each row is a different person)")
    at = rerun(at)
    at = choose_column(at, "shop")
    keyed(at.button, "_cats__fill").click()  # "Start from the values in my file"
    at = rerun(at)
    table = main_table(at)
    shops = Counter(shop for _, shop, _ in ROWS)
    assert table["true count"].to_dict() == dict(shops) == {"A": 6, "B": 5, "C": 3}
    assert "Score = count, sensitivity Δ = 1." in texts(at)
    assert "That protects rows, not people with several rows" in texts(at)
    # a list read off the file: where the candidates come from says so
    assert "the categories filled in from the values in your file" in texts(at)
    assert "so it reveals that each of them occurs" in texts(at)
    # and the guarantee says so: the list was read from the data (no cap: each row a person)
    (statement,) = not_private(at)
    assert READ_CATEGORIES in statement and READ_CAP not in statement and not problems(at)
    assert "each row (each row is taken as a different person)" in statement
    counts = np.array([shops[c] for c in table.index], dtype=float)
    weights = np.exp(1.0 * counts / 2)  # epsilon 1, Delta 1, epsilon / (2 Delta)
    assert metric(at, "P(true best answer)") == f"{weights[0] / weights.sum():.3f}"
    # emptied and typed anew (a list known in advance): a guarantee, the same counts
    at = declare(declare(at, "shop", ""), "shop", "A\nB\nC")
    assert not errors(at)
    assert "each row (each row is taken as a different person)" in successes(at)[0]
    assert "reveals that each" not in texts(at)
    assert main_table(at)["true count"].to_dict() == {"A": 6, "B": 5, "C": 3}


def test_own_file_cap_sets_the_sensitivity_and_drops_rows():
    at = upload(SURVEY)
    assert "Proposed because its name says it identifies someone" in texts(at)
    at = declare(choose_column(at, "shop"), "shop", "A\nB\nC")
    assert cap_box(at).value is None  # empty: the page uses the most rows anyone has
    assert "Score = count, sensitivity Δ = 5." in texts(at)  # p1's 5 rows
    assert "The box is empty, so the cap is 5, the most rows anyone has in your file" in texts(at)
    (statement,) = not_private(at)  # read from the data; the list was typed
    assert READ_CAP in statement and READ_CATEGORIES not in statement and not problems(at)
    assert "each person (`person`, with all their rows)" in statement
    at = type_cap(at, 5)  # the same number, typed: fixed in advance
    assert not errors(at)
    assert "Score = count, sensitivity Δ = 5." in texts(at)
    assert "Your cap of 5: 0 rows beyond it are dropped" in texts(at)
    assert "each person (`person`, with all their rows)" in successes(at)[0]
    table = main_table(at)
    assert table["true count"].to_dict() == {"A": 6, "B": 5, "C": 3}
    log_weight = table[next(c for c in table.columns if c.startswith("log weight"))]
    counts = table["true count"].to_numpy()  # lambda (count - best), lambda = eps / (2 * 5)
    assert np.allclose(log_weight.to_numpy(), (counts - counts.max()) / (2 * 5))

    table = main_table(type_cap(at, 2))
    kept = Counter(shop for _, shop, _ in capped_rows(2))
    assert table["true count"].to_dict() == dict(kept) == {"A": 3, "B": 5, "C": 3}
    assert "Score = count, sensitivity Δ = 2." in texts(at)
    assert "Your cap of 2: 3 rows beyond it are dropped" in texts(at)
    counts = table["true count"].to_numpy(dtype=float)
    weights = np.exp(counts / (2 * 2))
    assert metric(at, "P(true best answer)") == f"{weights.max() / weights.sum():.3f}"
    at = section(at, PITFALL)
    widget(at.toggle, "exponential_pitfall").set_value(True)
    rerun(at)
    assert "probability, count with Δ = 2" in at.table[-1].value.columns
    assert "the cap on one person's rows" in texts(at)


def test_a_declared_one_person_category_is_a_candidate():
    at = upload(PATIENTS, "patients.csv")
    assert person_picker(at).value == "patient_id"
    assert any("Type the categories to release" in i.value for i in at.info)
    at = declare(at, "diagnosis", "Flu\nCold\nRare\nMeasles")
    (statement,) = not_private(at)  # the empty cap box: p1's 3 rows, read from the data
    assert READ_CAP in statement and READ_CATEGORIES not in statement  # the list was typed
    at = type_cap(at, 3)
    assert not errors(at)
    table = main_table(at)
    assert list(table.index) == ["Cold", "Flu", "Rare", "Measles"]  # by count (201, 201, 1, 0)
    assert table.loc["Rare", "true count"] == 1
    assert table.loc["Measles", "true count"] == 0  # declared, absent: a candidate with 0
    assert "1 of them absent from the data (count 0, still a candidate)" in texts(at)
    assert "reveals that each" not in texts(at)  # declared, not read off the file
    assert "Guarantee: 1-DP" in successes(at)[0]
    assert "which categories are shown" not in successes(at)[0]


def test_dp_selection_leaves_out_the_one_person_category_and_states_its_cost():
    at = upload(PATIENTS, "patients.csv")
    keyed(at.radio, "_cats_mode").set_value("selected")
    at = rerun(at)
    # the ε widgets, gone while the upload and then its categories were missing, show the ε
    # in use on their return (a widget the browser still shows keeps its own value after)
    assert widget(at.text_input, EPS_TEXT).proto.placeholder == "1"
    assert widget(at.select_slider, EPS_SLIDER).proto.set_value
    (statement,) = not_private(at)  # the empty cap box; categories chosen with DP are not read
    assert READ_CAP in statement and READ_CATEGORIES not in statement and not problems(at)
    at = type_cap(at, 3)  # p1's 3 rows, the file's most, typed: fixed in advance
    assert not errors(at)
    table = main_table(at)
    assert "Rare" not in table.index  # one person: kept with probability at most delta
    assert set(table.index) == {"Flu", "Cold"}
    box = successes(at)[0]
    assert "the selected answer (ε = 1)" in box
    assert "which categories are shown (ε = 0.5, δ = 10⁻⁶)" in box
    assert "Guarantee: (1.5, 10⁻⁶)-DP" in box
    assert "suppressed" in texts(at)
    assert "chosen from your file with DP partition selection (ε = 0.5, δ = 10⁻⁶" in texts(at)
    assert "the whole release is **(1.5, 10⁻⁶)-DP**" in texts(at)
    widget(at.slider, "exponential_runs").set_value(3)
    assert "the whole release is **(3.5, 10⁻⁶)-DP**" in texts(rerun(at))
    at = set_epsilon(at, "0")
    assert "Guarantee: (0.5, 10⁻⁶)-DP" in successes(at)[0]
    assert "Choosing them with DP still spent its own budget" in infos(at)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "is empty"),
        (b"PK\x03\x04\x00\x00binary", "does not look like a text file"),
        (b"a,b\n1,2,3\n", "more fields than its header"),
        (b"height\n1.5\n1.75\n1.8\n", "no category column"),
    ],
)
def test_bad_uploads_show_a_message(data, message):
    at = upload(data)
    assert message in errors(at)
    assert no_table(at)  # the page stopped before the table
    assert len(main_table(dataset(at, "diseases"))) == 4


def test_own_file_with_a_single_category_warns():
    at = declare(upload(b"colour\nred\nred\n"), "colour", "red")
    assert "Only one candidate (red)" in " ".join(w.value for w in at.warning)
    assert main_table(at)["probability"].tolist() == ["1.000"]


# --- The textbook bound and the notebooks' sample sizes ------------------------------------------


def bound_metric(at):
    return next(m for m in at.metric if m.label.startswith("Textbook"))


def test_the_textbook_bound_says_when_it_is_vacuous(page):
    counts = category_counts("diseases", "disease")
    best, worst = int(counts.max()), int(counts.min())
    at = set_epsilon(section(page, TABLE), "0.1")
    bound = bound_metric(at)
    assert bound.value == "87.6" and bound.delta == "vacuous here"  # every count is at most 28
    assert f"is vacuous here: the worst answer is only {best} − {worst} = {best - worst}" in (
        texts(at)
    )
    at = set_epsilon(at, "1")
    bound = bound_metric(at)
    assert float(bound.value) < best - worst and not bound.delta
    assert f"The bound says an answer {bound.value} or more below the best" in texts(at)
    assert "vacuous" not in texts(at)


def test_an_exact_chance_below_a_float_is_written_as_the_table_writes_it(page):
    """Census marital status at ε = 1: every answer that falls short of the bound is about
    10⁻⁹³³ likely, below what a float holds, so the sentence says 6.1×10⁻⁹³³ (summed from the
    logs) as the table does, never "here the exact chance is 0"."""
    at = dataset(page, "census")
    widget(at.selectbox, "exponential_column").set_value("marital_status")
    at = set_epsilon(section(rerun(at), TABLE), "1")
    table = main_table(at)
    said = re.search(r"here the exact chance is ([^ ]+)\.", texts(at)).group(1)
    assert said == table.loc["Never-married", "probability"] == "6.1×10⁻⁹³³"
    widget(at.selectbox, "exponential_column").set_value("occupation")
    dataset(rerun(at), "diseases")


def test_the_expected_count_lost_reads_the_same_in_the_sentence_and_the_metric(page):
    """One quantity, one rounding: not "Expected count lost 11.75" beside "11.8 below the best"."""
    at = set_epsilon(section(page, TABLE), "0.1")
    lost = metric(at, "Expected count lost")
    assert lost == "7.16"  # the sentence said 7.2
    assert f"on average its answer's count is {lost} below the best" in texts(at)
    at = set_epsilon(at, "1")
    lost = metric(at, "Expected count lost")
    assert lost == "0.48"
    assert f"on average its answer's count is {lost} below the best" in texts(at)


def test_sampled_runs_offer_the_notebooks_sizes(page):
    at = section(page, TABLE)
    slider = widget(at.select_slider, "exponential_draws")
    assert {"10", "200", "1,000"} <= set(slider.options)
    slider.set_value(200)
    at = rerun(at)
    assert main_table(at)["sampled runs"].sum() == 200
    assert address(at, "exponential_draws") == "200"
    widget(at.select_slider, "exponential_draws").set_value(1_000)
    at = rerun(at)
    assert "exponential_draws" not in at.query_params  # the default stays out


# --- The address holds the settings --------------------------------------------------------------


def address(at, key: str) -> str:
    """The address's value for ``key`` (AppTest gives a list for a repeated parameter)."""
    value = at.query_params[key]
    return value[-1] if isinstance(value, list) else value


def shown_draws(at, held: str | None = None) -> str:
    """The N a browser shows on the sampled-runs slider after the last run: the value the run
    sent it, else the one it showed before (``held``: what the user set), else, when it draws
    the slider anew (as after another section), the slider's default (a select_slider's
    default is sent as an index into its options). A different N there is what the browser
    sends with the next ε step."""
    slider = widget(at.select_slider, "exponential_draws")
    if slider.proto.set_value:
        return slider.proto.raw_value[0]
    return held if held is not None else slider.options[int(slider.proto.default[0])]


def test_sampled_runs_stay_as_set_after_another_section_and_an_epsilon_step():
    """N = 200, section 2, back to section 1: the slider, the chart, the table and the address
    all say 200, and still do after the next ε step (the slider used to show 1,000, and that
    step went back to 1,000 and dropped N from the address)."""
    at = section(open_page("exponential"), TABLE)
    widget(at.select_slider, "exponential_draws").set_value(200)
    at = rerun(at)

    def says_200(at, held: str | None) -> None:
        assert widget(at.select_slider, "exponential_draws").value == 200
        assert shown_draws(at, held) == "200"
        assert chart_data(at, "sampled")["series"].iloc[0] == "share of 200 sampled runs"
        table = main_table(at)
        assert table["sampled runs"].sum() == 200 and "sampled share of 200" in table.columns
        assert address(at, "exponential_draws") == "200"

    says_200(at, "200")  # as the user left it
    at = section(section(at, EPSILONS), TABLE)
    assert [t.label for t in at.tabs if t.children] == [TABLE]  # section 1 drawn anew
    says_200(at, None)
    at = set_epsilon(at, "0.5")
    says_200(at, "200")  # as the slider came back
    widget(at.select_slider, "exponential_draws").set_value(1_000)
    at = rerun(at)
    assert shown_draws(at, "1,000") == "1,000" and "exponential_draws" not in at.query_params


def test_presenter_mode_puts_the_table_beside_the_chart():
    """On a projector the first section's chart (with N and its captions) and its table sit
    side by side under the metrics, so the table is on the first screen; elsewhere the table
    follows the chart down the page as before."""
    at = open_page("exponential", query={"present": "1"})
    (chart_side,) = [
        column
        for column in at.columns
        if any(s.key == "exponential_draws" for s in column.get("select_slider"))
    ]
    table_side = at.columns[list(at.columns).index(chart_side) + 1]

    def types(block) -> set[str]:
        children = getattr(block, "children", None)
        if not isinstance(children, dict):
            return {getattr(block, "type", "")}
        return set().union(*(types(child) for child in children.values()))

    assert {"vega_lite_chart", "select_slider", "caption"} <= types(chart_side)
    assert [type(e).__name__ for e in table_side.children.values()] == ["Table"]
    assert list(table_side.table[0].value.index) == ["Flu", "Diabetes", "Hepatitis", "HIV"]
    assert next(d for _, d in charts(at)).keys() == {"exact", "sampled"}
    at = open_page("exponential")
    assert not any(column.table for column in at.columns)  # not in columns: as before
    assert at.table and widget(at.select_slider, "exponential_draws")


def table_view(at) -> dict:
    """What the probability table section shows: metrics, texts, the table and the chart."""
    return {
        "metrics": [(m.label, m.value) for m in at.metric],
        "texts": texts(at),
        "table": main_table(at),
        "exact": chart_data(at, "exact"),
        "sampled": chart_data(at, "sampled"),
    }


def test_a_link_with_the_settings_shows_what_moving_the_controls_shows():
    link = {
        "exponential_epsilon": "0.5",
        "exponential_monotonic": "true",
        "exponential_draws": "200",
        "exponential_runs": "3",
    }
    linked = open_page("exponential", query=link)
    at = set_epsilon(open_page("exponential"), "0.5")
    widget(at.toggle, "exponential_monotonic").set_value(True)
    rerun(at)
    widget(at.select_slider, "exponential_draws").set_value(200)
    rerun(at)
    widget(at.slider, "exponential_runs").set_value(3)
    at = rerun(at)
    moved, opened = table_view(at), table_view(linked)
    assert moved["metrics"] == opened["metrics"] and moved["texts"] == opened["texts"]
    assert "3 × 0.5 = **ε = 1.5**" in opened["texts"]
    assert opened["table"]["sampled runs"].sum() == 200
    for name in ("table", "exact", "sampled"):
        pd.testing.assert_frame_equal(moved[name], opened[name])
    for key in ("exponential_epsilon", "exponential_draws"):  # written by the page itself;
        assert address(at, key) == link[key], key  # the bound widgets' by the browser


def test_a_link_opens_the_hours_section_with_its_bounds_and_floor():
    link = {
        "exponential_section": "hours",
        "exponential_hours_bounds": ["20", "60"],
        "exponential_hours_floor": "200",
        "exponential_epsilon": "2",
    }
    linked = open_page("exponential", query=link)
    at = set_epsilon(section(open_page("exponential"), HOURS), "2")
    widget(at.slider, "exponential_hours_bounds").set_value((20, 60))
    widget(at.number_input, "exponential_hours_floor").set_value(200)
    at = rerun(at)
    assert metric(linked, "Sensitivity Δ") == metric(at, "Sensitivity Δ") == "0.2"
    assert [(m.label, m.value) for m in linked.metric] == [(m.label, m.value) for m in at.metric]
    pd.testing.assert_frame_equal(linked.table[0].value, at.table[0].value)
    pd.testing.assert_frame_equal(chart_data(linked, "hours"), chart_data(at, "hours"))


# --- A score other than a count: average hours per occupation -----------------------------------


def test_hours_scores_and_probabilities_follow_the_floored_clipped_mean(page):
    at = set_epsilon(section(page, HOURS), "1")
    census = load_dataset("census")
    occupations = list(at.table[0].value.index)
    scores = floored_clipped_means(
        census["hours_per_week"], census["occupation"], occupations,
        lower=0, upper=100, min_group_size=100,
    )  # fmt: skip
    assert metric(at, "Sensitivity Δ") == "1"  # (100 − 0) / 100
    table = at.table[0].value
    np.testing.assert_allclose(table["score"].astype(float), scores, atol=0.005)
    assert table.loc["Armed-Forces", "persons"] == "9"
    assert table.loc["Armed-Forces", "score"] == f"{scores[occupations.index('Armed-Forces')]:.2f}"
    p = exponential_probabilities(scores, 1.0, 1.0)  # ε / (2Δ): not monotonic
    np.testing.assert_allclose(chart_data(at, "hours")["p"], p)
    assert metric(at, "P(true best answer)") == f"{p[np.argmax(scores)]:.3f}"
    best = int(np.argmax(scores))
    assert metric(at, "Highest score") == f"{scores[best]:.2f}"
    assert f"names {occupations[best]}, the occupation with the highest score" in texts(at)
    assert "Fewer persons than n_min = 100: Armed-Forces." in texts(at)
    assert "The trap of the unclipped mean." in texts(at)
    assert "reports 10,000 hours joins Armed-Forces (9 persons)" in texts(at)
    assert "the selected answer (ε = 1)" in successes(at)[-1]
    assert "each person (`person_id`, with all their rows)" in successes(at)[-1]


def test_hours_monotonic_switch_does_not_reach_the_mean(page):
    at = set_epsilon(section(page, HOURS), "1")
    off = chart_data(at, "hours")
    widget(at.toggle, "exponential_monotonic").set_value(True)
    at = rerun(at)
    pd.testing.assert_frame_equal(off, chart_data(at, "hours"))
    widget(at.toggle, "exponential_monotonic").set_value(False)
    section(rerun(at), TABLE)


def test_hours_with_equal_bounds_gives_a_message_not_a_traceback(page):
    at = section(page, HOURS)
    widget(at.slider, "exponential_hours_bounds").set_value((40, 40))
    at = rerun(at)
    assert "must be below the upper bound U" in errors(at)
    widget(at.slider, "exponential_hours_bounds").set_value((0, 100))
    section(rerun(at), TABLE)


# --- Languages ------------------------------------------------------------------------------------


def test_in_german_numbers_have_a_decimal_comma_and_texts_are_german():
    at = open_page("exponential", query={"lang": "de"})
    assert metric(at, "P(wirklich beste Antwort)") == "0,881"
    assert at.tabs[0].label == "1. Die Wahrscheinlichkeitstabelle"
    assert at.table[0].value.index.name == "Kandidat"


# --- The export ---------------------------------------------------------------------------------


def downloads(query: dict[str, str] | None = None):
    """The page and the files the two download buttons give (their own callbacks)."""
    return page_downloads("exponential", query)


def test_the_export_csv_opens_with_pandas_as_the_table_on_screen():
    at, files = downloads({"exponential_epsilon": "0.1"})
    screen = main_table(at)
    archive = zipfile.ZipFile(io.BytesIO(download(files, "exponential_diseases", ".zip")))
    csv = archive.read("exponential_diseases_epsilon-0.1.csv")
    back = pd.read_csv(io.BytesIO(csv)).set_index("candidate")  # no options
    assert list(back.index) == list(screen.index)
    assert back["true count"].tolist() == screen["true count"].tolist()
    np.testing.assert_allclose(back["probability"], screen["probability"].astype(float), atol=5e-4)
    assert back["sampled runs"].tolist() == screen["sampled runs"].tolist()
    np.testing.assert_allclose(back["sampled share of 1,000"], screen["sampled share of 1,000"])
    np.testing.assert_allclose(10 ** back["log10 probability"], back["probability"], rtol=1e-2)
    assert back.loc["Flu", WEIGHT] == 4.055 and back.loc["HIV", WEIGHT] == 1.284  # the notebook's
    np.testing.assert_allclose(10 ** back["log10 weight"], back[WEIGHT], rtol=1e-2)
    settings = json.loads(archive.read("exponential_diseases_epsilon-0.1.json"))
    assert settings["epsilon"] == "0.1" and settings["sensitivity Δ"] == "1"
    assert settings["sampled runs N"] == 1000 and settings["rate λ"] == "ε/(2Δ)"
    assert "Guarantee: 0.1-DP" in settings["guarantee"]
    assert "charts/probabilities.svg" in archive.namelist()
    assert "log10 probability" in download(files, "exponential_diseases", "_report.html")


def test_the_hours_export_reads_back_as_the_table():
    at, files = downloads({"exponential_section": "hours"})
    archive = zipfile.ZipFile(io.BytesIO(download(files, "exponential_census", ".zip")))
    (name,) = [n for n in archive.namelist() if n.endswith(".csv")]
    back = pd.read_csv(io.BytesIO(archive.read(name))).set_index("occupation")
    screen = at.table[0].value
    assert back["persons"].tolist() == [int(v.replace(",", "")) for v in screen["persons"]]
    np.testing.assert_allclose(back["score"], screen["score"].astype(float))
    settings = json.loads(archive.read(name.replace(".csv", ".json")))
    assert settings["lower bound L"] == "0" and settings["Smallest group size n_min"] == 100


# --- Exercises -----------------------------------------------------------------------------------


def reveal(at, key: str) -> str:
    at.session_state[f"exercise_{key}"] = True
    rerun(at)
    widget(at.toggle, f"exercise_{key}_show").set_value(True)
    return rerun(at).info[-1].value


def test_the_halving_exercise_states_the_number_the_table_shows():
    at = set_epsilon(section(open_page("exponential"), TABLE), "1")
    full = metric(at, "P(true best answer)")
    at = set_epsilon(at, "0.5")
    half = metric(at, "P(true best answer)")
    assert float(half) < float(full) == 0.881
    answer = reveal(at, "exponential.halve")
    assert answer.startswith(f"{half}:") and f"against {full} at ε = 1" in answer
    widget(at.number_input, "exercise_exponential.halve_given").set_value(float(half))
    assert any(s.value == "Right." for s in rerun(at).success)
    widget(at.number_input, "exercise_exponential.halve_given").set_value(float(full))
    assert any("Not quite" in w.value for w in rerun(at).warning)


def test_the_publishes_exercise_is_false():
    at = section(open_page("exponential"), TABLE)
    assert reveal(at, "exponential.publishes").startswith("False.")
    widget(at.radio, "exercise_exponential.publishes_given").set_value("true")
    assert any("Not quite" in w.value for w in rerun(at).warning)
    widget(at.radio, "exercise_exponential.publishes_given").set_value("false")
    assert any(s.value == "Right." for s in rerun(at).success)


def marital_page(epsilon: str):
    """Census, marital status, at ``epsilon``, section 3 (the curves)."""
    at = dataset(open_page("exponential"), "census")
    widget(at.selectbox, "exponential_column").set_value("marital_status")
    return set_epsilon(section(rerun(at), CURVES), epsilon)


def test_the_marital_status_control_questions_state_what_the_page_shows():
    """The German notebook's control questions on the census' marital status: which status is
    most likely at a small ε, whether the most common one always wins, and from what ε it is
    near certain; each answer is the page's own number, and dp_core's."""
    counts = category_counts("census", "marital_status")  # largest first
    best, second = counts.index[:2]
    p = exponential_probabilities(counts.to_numpy(dtype=float), 0.001, 1.0)
    at = marital_page("0.001")
    shown = metric(at, "Exponential mechanism")  # P(true best answer) at ε = 0.001
    assert shown == f"{p[0]:.4f}" == "0.8888"
    answer = reveal(at, "exponential.marital_likely")
    assert answer.startswith(f"{best}: at ε = 0.001 it comes out with chance {p[0]:.3f}")
    assert f"against {p[1]:.3f} for {second}" in answer and "(14,976 persons)" in answer
    key = "exercise_exponential.marital_likely_given"
    widget(at.radio, key).set_value("Married-civ-spouse")
    assert any(s.value == "Right." for s in rerun(at).success)
    widget(at.radio, key).set_value("Never-married")
    assert any("Not quite" in w.value for w in rerun(at).warning)
    answer = reveal(at, "exponential.marital_always")
    assert answer.startswith(f"False. At ε = 0.001 it names {best} with chance {p[0]:.3f}")
    assert f"so {100 * (1 - p[0]):.1f}% of the runs name another status" in answer
    widget(at.radio, "exercise_exponential.marital_always_given").set_value("false")
    assert any(s.value == "Right." for s in rerun(at).success)
    answer = reveal(at, "exponential.marital_certain")
    epsilon = re.match(r"About (\S+): from there on it names", answer).group(1)
    assert "4,293 persons ahead of Never-married" in answer
    at = set_epsilon(at, epsilon)  # the curve's point there: 0.99 (to 4 decimals, ±0.0005)
    assert abs(float(metric(at, "Exponential mechanism")) - 0.99) < 5e-4
    below = exponential_probabilities(counts.to_numpy(dtype=float), 0.95 * float(epsilon), 1.0)
    assert below[0] < 0.99  # not any ε past 0.99: the first
    key = "exercise_exponential.marital_certain_given"
    widget(at.number_input, key).set_value(float(epsilon))
    assert any(s.value == "Right." for s in rerun(at).success)
    widget(at.number_input, key).set_value(0.01)
    assert any("Not quite" in w.value for w in rerun(at).warning)


def test_the_marital_status_control_questions_in_german():
    at = open_page("exponential", query={"lang": "de"})
    at = section(at, "3. Wie oft ist die Antwort richtig?")
    answer = reveal(at, "exponential.marital_always")
    assert answer.startswith("Falsch. Bei ε = 0,001 nennt er Verheiratet, ziviler Ehepartner")
    options = widget(at.radio, "exercise_exponential.marital_always_given").options
    assert options == ["Richtig", "Falsch"]


def test_the_hours_exercise_matches_the_sensitivity_metric():
    at = section(open_page("exponential"), HOURS)
    widget(at.slider, "exponential_hours_bounds").set_value((20, 60))
    widget(at.number_input, "exponential_hours_floor").set_value(200)
    at = rerun(at)
    shown = metric(at, "Sensitivity Δ")
    assert reveal(at, "exponential.hours").startswith(f"{shown}: Δ = (U − L) / n_min")
    widget(at.number_input, "exercise_exponential.hours_given").set_value(float(shown))
    assert any(s.value == "Right." for s in rerun(at).success)
    widget(at.number_input, "exercise_exponential.hours_given").set_value(0.4)
    assert any("Not quite" in w.value for w in rerun(at).warning)


# --- Presets from the teaching material ---------------------------------------------------------
def test_the_presets_are_named_in_the_readers_language():
    at = open_page("exponential")
    labels = {b.key: b.label for b in at.button}
    assert labels["exponential__preset_diseases"] == (
        "Disease table, ε = 0.1, 10 runs (Swiss notebooks)"
    )
    german = {b.key: b.label for b in open_page("exponential", query={"lang": "de"}).button}
    assert german["exponential__preset_industry_groups"] == (
        "Branchengruppen, ε = 0,1, 1.000 Durchläufe (Schweizer Lehr-Notebooks)"
    )


def test_the_disease_preset_shows_the_notebooks_table_from_typed_counts():
    """shared/README: at ε = 0.1 the German notebook's weights are [3.320, 1.492, 4.055, 1.284]
    and the probabilities 0.327 / 0.147 / 0.399 / 0.126; it then draws 10 answers."""
    at = typed(open_page("exponential"), "A=3, B=1")
    widget(at.toggle, "exponential_monotonic").set_value(True)
    at = set_epsilon(rerun(at), "2")
    at = click_preset(at, "exponential", "diseases")
    assert widget(at.radio, "exponential_source").value == "data"
    assert widget(at.selectbox, "exponential_dataset").value == "diseases"
    assert widget(at.selectbox, "exponential_column").value == "disease"
    assert widget(at.select_slider, EPS_SLIDER).value == 0.1
    assert widget(at.toggle, "exponential_monotonic").value is False
    assert widget(at.select_slider, "exponential_draws").value == 10
    assert shown_draws(at, held="1,000") == "10"  # the browser is sent the new N
    assert address(at, "exponential_epsilon") == "0.1"
    assert address(at, "exponential_draws") == "10"
    for key in ("exponential_source", "exponential_dataset", "exponential_monotonic"):
        assert key not in at.query_params, key  # at their defaults
    table = main_table(at)
    assert table["probability"].to_dict() == PUBLISHED["0.1"]
    assert table[WEIGHT].to_dict() == NOTEBOOK_WEIGHTS
    assert table["sampled runs"].sum() == 10
    at = set_epsilon(at, "1")
    assert address(at, "exponential_epsilon") == "1"  # no longer the example's ε = 0.1


def test_the_disease_preset_lists_the_notebooks_ten_draws_in_order_beside_their_tally():
    """The notebook normalises the weights and draws 10 answers: the page lists the 10 runs in
    the order drawn (the page's seeded stream, inverse transform on dp_core's probabilities),
    and their tally is the table's column; with more runs it lists the first 10."""
    at = click_preset(open_page("exponential"), "exponential", "diseases")
    counts = {"Flu": 28, "Diabetes": 24, "Hepatitis": 8, "HIV": 5}  # by count, as the page
    p = exponential_probabilities(list(counts.values()), 0.1, 1.0)
    seed = [DEFAULT_SEED, 0, zlib.crc32(b"exponential"), zlib.crc32(b"table")]
    uniforms = np.random.default_rng(seed).random(10)
    names = list(counts)
    expected = [names[int(np.argmax(u < np.cumsum(p)))] for u in uniforms]
    listed = live_texts(at)["exponential_runs"]["now"]
    assert listed == f"The 10 runs in the order they were drawn: {', '.join(expected)}."
    tally = main_table(at)["sampled runs"]
    assert Counter(expected) == {name: n for name, n in tally.items() if n}
    widget(at.select_slider, "exponential_draws").set_value(1_000)
    listed = live_texts(rerun(at))["exponential_runs"]["now"]
    assert listed.startswith("The first 10 of the 1,000 runs, in the order they were drawn: ")
    german = click_preset(open_page("exponential", query={"lang": "de"}), "exponential", "diseases")
    assert "Grippe" in live_texts(german)["exponential_runs"]["now"]


def test_the_industry_groups_preset_finds_the_most_common_group_95_percent_of_the_time():
    """shared/README: at ε = 0.1 the exact chance of the true most common group (682 rows,
    the next ten 576) is 0.9501; 1,000 sampled draws gave 949."""
    at = open_page("exponential")
    widget(at.select_slider, "exponential_draws").set_value(10)
    at = rerun(at)
    at = section(
        click_preset(at, "exponential", "industry_groups"), TABLE
    )  # the table first, then the curves
    assert widget(at.radio, "exponential_source").value == "data"
    assert widget(at.selectbox, "exponential_dataset").value == "industry_groups"
    assert widget(at.selectbox, "exponential_column").value == "industry_group"
    assert widget(at.select_slider, EPS_SLIDER).value == 0.1
    assert widget(at.toggle, "exponential_monotonic").value is False
    assert widget(at.select_slider, "exponential_draws").value == 1_000
    assert address(at, "exponential_dataset") == "industry_groups"
    assert address(at, "exponential_epsilon") == "0.1"
    assert "exponential_draws" not in at.query_params  # 1,000: the default
    assert metric(at, "P(true best answer)") == "0.950"
    table = main_table(at)
    assert table["true count"].max() == 682
    best = table["true count"].idxmax()
    assert abs(table.loc[best, "sampled runs"] - 950) < 5 * (1_000 * 0.95 * 0.05) ** 0.5
    at = section(at, CURVES)
    assert metric(at, "Exponential mechanism") == "0.9501"
    # opening a section keeps the example's values
    assert widget(at.selectbox, "exponential_dataset").value == "industry_groups"
    assert widget(at.select_slider, EPS_SLIDER).value == 0.1
    assert address(at, "exponential_dataset") == "industry_groups"
    assert address(at, "exponential_epsilon") == "0.1"
    section(at, TABLE)
