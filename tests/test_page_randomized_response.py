"""The randomized-response page through AppTest: coins, ε mode, survey, sections, own data."""

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
    live_texts,
    markdowns,
    metric,
    open_page,
    page_downloads,
    rerun,
    successes,
    texts,
    upload_file,
    warnings,
    widget,
)
from fragment_helpers import fragment_of, parent_fragment, run_fragment
from streamlit.testing.v1 import AppTest

from ui.local.exercises import EXERCISES

PAGE = "randomized_response"
COINS, SURVEY, ERROR, CENTRAL = (
    "1. The coin game",
    "2. The survey",
    "3. More people, smaller error",
    "4. Local vs central at the same ε",
)


def number(text: str) -> float:
    return float(text.replace(",", "").replace("+", "").replace("×", ""))


def section(at, label: str):
    at.session_state["rr__section"] = label
    return rerun(at)


def tree_labels(at) -> list[str]:
    return chart_data(at, "tree_edges")["text"].tolist()


def leaf_labels(at) -> list[str]:
    nodes = chart_data(at, "tree_nodes")
    return nodes[nodes["kind"] == "leaf"]["text"].tolist()


@pytest.fixture(scope="module")
def default_page():
    return open_page(PAGE)


def test_fair_coins_give_ln3_and_the_tree_shows_them(default_page):
    at = default_page
    assert metric(at, "ε of one answer") == f"{math.log(3):.4g}"
    assert tree_labels(at)[:2] == ["t = 0.500", "1 − t = 0.500"]
    nodes = chart_data(at, "tree_nodes").set_index("kind")
    assert "says the true answer\noverall 0.500" in nodes.loc["leaf", "text"].tolist()
    assert "says yes (y = 0.500)\noverall 0.250" in nodes.loc["leaf", "text"].tolist()
    table = at.table[0].value
    assert table.loc["yes", "says yes"] == "0.7500" and table.loc["no", "says yes"] == "0.2500"
    page = texts(at)
    assert "Neighbouring datasets on this page: one person's answer replaced" in page
    assert "A 'yes' is 3× as likely from a true yes" in page
    assert "at most e^ε = 3×" in page


def gamma_line(at) -> str:
    line = live_texts(at)["rr_gamma"]["now"]
    assert line.startswith("γ form")
    return line


def test_fair_coins_in_the_gamma_form_tell_the_truth_with_three_quarters(default_page):
    # shared/README: the tutorial tells the truth w.p. 1/2 + gamma; gamma = 0.25 gives 0.75
    line = gamma_line(default_page)
    assert "½ + γ = 0.75" in line and "½ − γ = 0.25" in line and "γ = 0.25" in line
    assert f"ε = ln((½ + γ)/(½ − γ)) = {math.log(3):.4g}" in line  # ln 3 = ln(0.75 / 0.25)
    assert metric(default_page, "ε of one answer") == f"{math.log(3):.4g}"  # the same ε


def test_the_gamma_form_follows_the_coins_and_epsilon():
    at = open_page(PAGE)
    widget(at.select_slider, "rr_truth").set_value(0.9)  # coin 2 fair: gamma = t / 2
    rerun(at)
    line = gamma_line(at)
    assert "½ + γ = 0.95" in line and "γ = 0.45" in line
    assert f"= {math.log(0.95 / 0.05):.4g}" in line
    widget(at.select_slider, "rr_random_yes").set_value(0.25)  # a lopsided coin 2: one γ per answer
    rerun(at)
    line = gamma_line(at)
    p, not_q = 0.9 + 0.1 * 0.25, 1 - 0.1 * 0.25
    assert f"a true yes is told with probability ½ + γ = {p:g} (γ = {p - 0.5:g})" in line
    assert f"a true no with ½ + γ = {not_q:g} (γ = {not_q - 0.5:g})" in line
    assert "needs a fair coin 2" in line
    widget(at.radio, "rr_mode").set_value("epsilon")
    rerun(at)
    widget(at.text_input, "rr_epsilon__text").input("2")
    rerun(at)
    truth = math.exp(2) / (1 + math.exp(2))
    line = gamma_line(at)
    assert f"½ + γ = {truth:.4f}" in line and f"γ = {truth - 0.5:.4f}" in line
    assert "ε = ln((½ + γ)/(½ − γ)) = 2." in line


def test_the_guarantee_is_local_and_names_the_noise(default_page):
    box = successes(default_page)[0]
    assert "Guarantee: 1.099-DP" in box
    assert "each person (`person_id`, with all their rows)" in box
    assert "32,561 yes/no answers, each randomized by its own person" in box
    assert "numpy's draws from the seed" in box and "A real survey asks once" in box


def test_the_survey_estimates_sales_with_a_wald_interval(default_page):
    at = section(default_page, SURVEY)
    assert metric(at, "Truth") == "3,650"
    estimate = number(metric(at, "Debiased estimate"))
    said_yes = number(metric(at, "Said yes"))
    assert estimate == pytest.approx(2 * (said_yes - 32_561 / 4))  # shared/README estimator
    assert abs(estimate - 3_650) < 5 * 156.0  # sd of the estimate is 156 persons
    assert number(metric(at, "Error")) == pytest.approx(estimate - 3_650, abs=0.06)
    page = texts(at)
    assert "3,650 of 32,561 persons would truly say yes" in page
    assert "1,843 persons with no occupation answer no" in page
    assert "5.8% off" in page  # the published run is quoted for census Sales
    assert "Wald interval" in page and "plug-in, clipped to [0, n]" in page
    assert "the variance is exact" not in page
    note = next(m.delta for m in at.metric if m.label == "Debiased estimate")
    low, high = (number(v) for v in note.removeprefix("95%: ").split(" to "))
    half = 1.959964 * math.sqrt(0.75 * 32_561)  # fair coins: Var = 3n/4 at every count
    assert (low + high) / 2 == pytest.approx(estimate, abs=1)
    assert (high - low) / 2 == pytest.approx(half, abs=1)
    marks = chart_data(at, "survey_marks").set_index("which")
    assert marks.loc["truth", "x"] == 3_650
    assert marks.loc["survey", "x"] == pytest.approx(estimate, abs=0.05)
    interval = chart_data(at, "survey_interval")
    assert interval["low"].iloc[0] == pytest.approx(low, abs=0.5)
    curve = chart_data(at, "estimate_curve")
    assert curve["y"].sum() == pytest.approx(1, abs=1e-3)  # the exact distribution's bulk


def test_the_first_20_respondents_open_lazily(default_page):
    at = section(default_page, SURVEY)
    assert not at.dataframe
    at.session_state["rr_first20"] = True
    rerun(at)
    first = at.dataframe[0].value
    assert len(first) == 20 and set(first["says"]) <= {"yes", "no"}
    truthful = first["coin 1"] == "tell the truth"
    assert (first.loc[truthful, "says"] == first.loc[truthful, "true answer"]).all()
    assert (first.loc[~truthful, "says"] == first.loc[~truthful, "coin 2"]).all()
    at.session_state["rr_first20"] = False
    rerun(at)


def test_local_vs_central_at_ln3(default_page):
    at = section(default_page, CENTRAL)
    # central expected error 1/eps = 0.91
    assert metric(at, "Central Laplace") == "0.91"
    assert number(metric(at, "Local expected")) == pytest.approx(124.7, abs=0.1)
    assert number(metric(at, "Local / central")) == pytest.approx(124.7 * math.log(3), abs=1)
    page = texts(at)
    # the published comparison: local at eps = ln 3, central Laplace at eps = 1
    assert "locally (fair coins, ε = ln 3 ≈ 1.10)" in page
    assert "central Laplace at ε = 1 (Near & Abuah" in page
    assert "also protects each answer against the collector" in page
    assert "needs a trusted curator" in page
    assert "Same ε, same protection" not in page
    lines = chart_data(at, "local_central")
    central = lines[lines["series"].str.startswith("central")]["error"]
    assert np.allclose(central, 1 / math.log(3))
    assert chart_data(at, "local_now")["x"].tolist() == [32_561]


def test_error_against_n_falls_like_one_over_root_n(default_page):
    at = section(default_page, ERROR)
    exact = chart_data(at, "share_exact").set_index("n")["error"]
    share = 3_650 / 32_561
    for n in (100, 10_000, 1_000_000):
        count = round(share * n)
        sd = math.sqrt(count * 0.75 * 0.25 + (n - count) * 0.25 * 0.75) / 0.5 / n
        assert exact.loc[n] == pytest.approx(100 * sd, rel=1e-6)  # percentage points
    simulated = chart_data(at, "share_simulated").set_index("n")["error"]
    assert np.allclose(simulated, exact.loc[simulated.index], rtol=0.25)  # 400 surveys each
    assert chart_data(at, "share_now")["label"].tolist() == ["n = 32,561"]
    assert "For a true share of 11.2%" in texts(at)


def test_same_seed_same_answers(default_page):
    at = section(default_page, SURVEY)
    first = metric(at, "Debiased estimate")
    assert metric(rerun(at), "Debiased estimate") == first
    at.sidebar.button[0].click()
    assert metric(rerun(at), "Debiased estimate") != first


def test_coin_sliders_move_epsilon_and_the_tree():
    at = open_page(PAGE)
    widget(at.select_slider, "rr_truth").set_value(0.9)
    rerun(at)
    assert metric(at, "ε of one answer") == f"{math.log(19):.4g}"  # (0.95 / 0.05)
    assert "t = 0.900" in tree_labels(at)
    edges = chart_data(at, "tree_edges")
    assert edges["width"].tolist()[:2] == pytest.approx([1 + 14 * 0.9, 1 + 14 * 0.1])
    widget(at.select_slider, "rr_truth").set_value(0.5)
    widget(at.select_slider, "rr_random_yes").set_value(0.25)
    rerun(at)
    assert metric(at, "ε of one answer") == f"{math.log(5):.4g}"  # P(yes|yes)/P(yes|no) = 5


def test_always_truthful_is_exact_and_not_private():
    at = open_page(PAGE)
    widget(at.select_slider, "rr_truth").set_value(1.0)
    rerun(at)
    assert metric(at, "ε of one answer") == "∞"
    assert "ε = ∞" in warnings(at)
    assert "No guarantee: ε = ∞" in errors(at)
    assert not successes(at)
    section(at, SURVEY)
    assert number(metric(at, "Debiased estimate")) == 3_650
    assert metric(at, "Error") == "+0.0"
    section(at, ERROR)
    assert "the error is 0 at every n" in infos(at)
    section(at, CENTRAL)
    assert "With ε = ∞ there is no privacy to compare" in infos(at)


def test_at_t_1_the_table_reads_0_and_no_answer_is_called_deniable():
    at = open_page(PAGE)
    widget(at.select_slider, "rr_truth").set_value(1.0)
    rerun(at)
    table = at.table[0].value
    assert table.loc["no", "says yes"] == "0" and table.loc["yes", "says no"] == "0"
    assert table.loc["yes", "says yes"] == "1.0000" and table.loc["no", "says no"] == "1.0000"
    page = texts(at)  # only the closing notice says it, with its condition
    assert "Every single answer is deniable" not in page
    assert page.count("every single answer is deniable") == page.count(
        "While t < 1 and y is strictly between 0 and 1, every single answer is deniable"
    )
    said = live_texts(at)["rr_deniable"]
    assert said["now"] == (
        "Coin 1 always asks for the truth here (t = 1), so every answer is the person's true "
        "answer and no answer is deniable."
    )
    # the sentence follows coin 1's thumb: at every stop below 1 (y = ½) each answer is deniable
    stops = said["texts"]["rr_truth"]
    assert stops[-1] == said["now"] and stops[0].startswith("Coin 1 never asks for the truth")
    assert all("every single answer is deniable" in stop for stop in stops[1:-1])


@pytest.mark.parametrize(
    ("y", "exposed"),
    [(0.0, "a *yes* can only be the truth"), (1.0, "a *no* can only be the truth")],
)
def test_a_certain_second_coin_leaves_one_answer_deniable(y, exposed):
    at = open_page(PAGE)
    widget(at.select_slider, "rr_random_yes").set_value(y)
    rerun(at)
    said = live_texts(at)["rr_deniable"]["now"]
    assert exposed in said and "every single answer" not in said


def test_a_guarantee_above_the_epsilon_shown_says_it_is_rounded_up():
    at = open_page(PAGE)  # fair coins: ln 3 = 1.0986 reads 1.099 both ways
    assert live_texts(at)["rr_rounded_up"]["now"] == ""
    widget(at.select_slider, "rr_truth").set_value(0.9)  # ln 19 = 2.9444: 2.944, bound 2.945
    rerun(at)
    assert metric(at, "ε of one answer") == "2.944"
    assert "Guarantee: 2.945-DP" in successes(at)[0]
    said = live_texts(at)["rr_rounded_up"]
    assert said["now"] == (
        "The guarantee reads 2.945-DP beside ε = 2.944 on purpose: it rounds ε up, never down, "
        "because a bound must never be understated."
    )
    assert "" in said["texts"]["rr_truth"]  # where the two read alike, nothing to explain


def test_never_truthful_cannot_be_estimated():
    at = open_page(PAGE)
    widget(at.select_slider, "rr_truth").set_value(0.0)
    rerun(at)
    assert metric(at, "ε of one answer") == "0"
    assert "ε = 0" in warnings(at)
    section(at, SURVEY)
    assert "Nothing can be estimated" in errors(at)
    assert not [m for m in at.metric if m.label.startswith("Debiased")]
    for label in (ERROR, CENTRAL):
        section(at, label)
        assert "Nothing can be estimated with t = 0" in infos(at)
        assert not charts(at)


def test_lopsided_second_coin_is_not_private():
    at = open_page(PAGE)
    widget(at.select_slider, "rr_random_yes").set_value(1.0)
    rerun(at)
    assert metric(at, "ε of one answer") == "∞"
    widget(at.select_slider, "rr_random_yes").set_value(0.0)
    rerun(at)
    assert metric(at, "ε of one answer") == "∞"
    assert "says no (1 − y = 1.000)\noverall 0.500" in leaf_labels(at)
    colors = chart_data(at, "tree_edges")["color"].tolist()
    assert colors[3] != colors[4]  # the branch nobody walks (y = 0) is drawn muted


def test_epsilon_mode_moves_the_coins():
    at = open_page(PAGE)
    widget(at.radio, "rr_mode").set_value("epsilon")
    rerun(at)
    widget(at.text_input, "rr_epsilon__text").input("2")
    rerun(at)
    assert metric(at, "ε of one answer") == "2"
    assert widget(at.select_slider, "rr_truth").value == pytest.approx(math.tanh(1.0))
    assert widget(at.select_slider, "rr_random_yes").value == 0.5
    assert widget(at.select_slider, "rr_truth").disabled
    widget(at.select_slider, "rr_epsilon").set_value(0.01)
    rerun(at)
    assert metric(at, "ε of one answer") == "0.01"
    assert "Guarantee: 0.01-DP" in successes(at)[0]
    widget(at.select_slider, "rr_epsilon").set_value(10.0)
    rerun(at)
    assert metric(at, "ε of one answer") == "10"
    # Back to the coins: they start where epsilon left them.
    widget(at.radio, "rr_mode").set_value("coins")
    rerun(at)
    assert metric(at, "ε of one answer") == "10"


@pytest.mark.parametrize(
    ("typed", "message"),
    [("0", "greater than 0"), ("-1", "greater than 0"), ("abc", "a number"), ("1e300", "between")],
)
def test_bad_typed_epsilon_shows_a_message(typed, message):
    at = open_page(PAGE)
    widget(at.radio, "rr_mode").set_value("epsilon")
    rerun(at)
    widget(at.text_input, "rr_epsilon__text").input(typed)
    rerun(at)
    assert "Could not use" in errors(at) and message in errors(at)
    assert metric(at, "ε of one answer") == f"{math.log(3):.4g}"  # the last good value
    section(at, SURVEY)
    assert metric(at, "Truth") == "3,650"


@pytest.mark.parametrize("typed", ["40", "100"])
def test_typed_huge_epsilon_is_shown_as_asked_not_infinity(typed):
    # tanh(eps / 2) rounds to 1 from eps = 38 on; the probabilities must come from eps itself
    at = open_page(PAGE)
    widget(at.radio, "rr_mode").set_value("epsilon")
    rerun(at)
    widget(at.text_input, "rr_epsilon__text").input(typed)
    rerun(at)
    assert not at.error
    assert metric(at, "ε of one answer") == typed
    assert "ε = ∞" not in warnings(at)
    assert f"Guarantee: {typed}-DP" in successes(at)[0]
    table = at.table[0].value
    eps = float(typed)
    q = 1 / (1 + math.exp(eps))  # P(yes | no) = P(no | yes) = 1 / (1 + e^eps), closed form
    for truth, column in (("no", "says yes"), ("yes", "says no")):
        shown = table.loc[truth, column]
        assert 0 < float(shown) == pytest.approx(q, rel=1e-2), (truth, column, shown)
    section(at, CENTRAL)
    assert "With ε = ∞ there is no privacy to compare" not in infos(at)
    assert metric(at, "Central Laplace") == f"{1 / eps:,.2f}"
    section(at, ERROR)
    assert not at.exception


def test_tiny_survey_warns_and_tips_smokers_are_real():
    at = open_page(PAGE)
    widget(at.select_slider, "rr_n").set_value(10)
    section(at, SURVEY)
    assert "Only 10 respondents" in warnings(at)
    assert number(metric(at, "Truth")) <= 10
    assert "10 yes/no answers" in successes(at)[0]
    section(at, CENTRAL)
    assert metric(at, "Local expected |error| at n = 10").replace(".", "").isdigit()
    assert chart_data(at, "local_now")["x"].tolist() == [10]
    widget(at.selectbox, "rr_dataset").set_value("tips")
    rerun(at)
    widget(at.selectbox, "rr_column").set_value("smoker")
    rerun(at)
    widget(at.selectbox, "rr_category").set_value("Yes")
    section(at, SURVEY)
    assert metric(at, "Truth") == "93"  # 93 smokers among 244 real bills
    assert "93 of 244 persons" in texts(at)
    assert "That is an assumption, not a fact: a bill is a party" in texts(at)
    assert "each record (each bill is taken as one person" in successes(at)[0]


def test_the_question_offers_the_public_categories_in_their_order():
    at = open_page(PAGE)
    widget(at.selectbox, "rr_dataset").set_value("diseases")
    rerun(at)
    question = widget(at.selectbox, "rr_category")
    assert question.options == ["Diabetes", "Hepatitis", "Flu", "HIV"]
    question.set_value("HIV")
    section(at, SURVEY)
    assert metric(at, "Truth") == "5"  # shared/README: 5 of the 65 persons have HIV
    assert "5 of 65 persons would truly say yes" in texts(at)


def test_a_link_opens_its_section_with_its_epsilon():
    at = open_page(
        PAGE,
        query={
            "rr_section": "central",
            "rr_mode": "epsilon",
            "rr_epsilon": "2",
            "seed": "7",
            "draw": "1",
        },
    )
    assert "Guarantee: 2-DP" in successes(at)[0]
    assert metric(at, "Central Laplace") == "0.50"


# --- Fragments ----------------------------------------------------------------------------------


def test_a_step_of_the_coins_reruns_the_fragment_not_the_page():
    at = section(open_page(PAGE), SURVEY)
    outer = fragment_of(at, "rr_truth")
    assert outer is not None
    assert fragment_of(at, "rr_dataset") is None  # the data controls rerun the whole page
    assert fragment_of(at, "rr_random_yes") == outer
    assert fragment_of(at, "rr_n") == outer
    assert fragment_of(at, "rr__section") == outer  # switching tabs reruns the fragment too
    widget(at.select_slider, "rr_truth").set_value(0.9)
    run_fragment(at, outer)
    assert not at.title  # the page header did not run
    assert not [s for s in at.selectbox if s.key == "rr_dataset"]
    assert metric(at, "Truth") == "3,650"
    said_yes, estimate = number(metric(at, "Said yes")), number(metric(at, "Debiased estimate"))
    p, q = 0.95, 0.05
    assert estimate == pytest.approx((said_yes - 32_561 * q) / (p - q), abs=0.06)
    full = rerun(at)  # the whole page shows the same numbers
    assert at.title and number(metric(full, "Debiased estimate")) == estimate


def test_opening_the_first_respondents_reruns_only_that_part():
    at = section(open_page(PAGE), SURVEY)
    outer, own = fragment_of(at, "rr_truth"), fragment_of(at, "rr_first20")
    assert own not in (None, outer) and parent_fragment(at, own) == outer
    at.session_state["rr_first20"] = True
    run_fragment(at, own)
    assert len(at.dataframe[0].value) == 20
    assert not at.metric and not at.select_slider and not charts(at)  # nothing else was redrawn


# --- The user's own file ------------------------------------------------------------------------
# person, shop, answer: p1 has 5 rows (all shop A); p9 alone answers "unsure".
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
    ("p9", "B", "unsure"),
]
CSV = b"person,shop,answer\n" + b"".join(",".join(row).encode() + b"\n" for row in ROWS)
EACH_ROW = "(each row is a different person)"


def first_rows() -> list[tuple[str, str, str]]:
    """Each person's first row in the file, in file order."""
    seen: dict[str, tuple[str, str, str]] = {}
    for row in ROWS:
        seen.setdefault(row[0], row)
    return list(seen.values())


def person_box(at):
    return next(s for s in at.selectbox if s.key.startswith("rr_person_"))


def declare(at, column: str, categories: str):
    area = next(t for t in at.text_area if t.key == "rr_cats")
    area.set_value(categories)
    return rerun(at)


def own(data: bytes = CSV, column: str = "answer", declared: str | None = "yes\nno"):
    at = upload_file(open_page(PAGE), "rr", data, "survey.csv")
    if column is not None:
        widget(at.selectbox, "rr_column").set_value(column)
        rerun(at)
    if declared is not None:
        declare(at, column, declared)
    return at


def test_own_file_proposes_the_person_column_and_asks_each_person_once():
    at = own()
    assert person_box(at).value == "person"  # its values repeat: proposed
    widget(at.selectbox, "rr_category").set_value("yes")
    section(at, SURVEY)
    persons = first_rows()
    yes = sum(answer == "yes" for _, _, answer in persons)
    assert metric(at, "Truth") == f"{yes:,}" == "3"
    page = texts(at)
    assert f"each of the {len(persons)} persons answers once, with their first row" in page
    assert f"({len(ROWS) - len(persons)} later rows are left out)" in page
    # p9's "unsure" is not declared: counted as holding neither (p9 answers no), never shown
    assert "1 rows hold a value that is not declared" in page and "unsure" not in page
    assert "count as holding none of the categories" in page
    assert f"{yes} of {len(persons)} persons would truly say yes" in page
    assert "one person's answer replaced" not in page  # that caption is the coin game's
    assert "each person (`person`, with all their rows)" in successes(at)[0]
    assert "partition selection by a curator does not apply" in page


def test_own_file_by_rows_and_the_fair_coin_estimator():
    at = own()
    person_box(at).set_value(EACH_ROW)
    rerun(at)
    assert "`person` repeats (up to 5 rows" in warnings(at)
    widget(at.selectbox, "rr_category").set_value("yes")
    section(at, SURVEY)
    kept = ROWS  # every row answers: an undeclared value holds neither category
    yes = sum(answer == "yes" for _, _, answer in kept)
    assert metric(at, "Truth") == f"{yes:,}" == "7"
    said_yes, estimate = number(metric(at, "Said yes")), number(metric(at, "Debiased estimate"))
    assert estimate == pytest.approx(2 * (said_yes - len(kept) / 4), abs=0.06)  # fair coins
    assert f"7 of {len(kept)} persons would truly say yes" in texts(at)
    at.session_state["rr_first20"] = True
    first = rerun(at).dataframe[-1].value
    assert first["true answer"].tolist() == ["yes" if r[2] == "yes" else "no" for r in kept]


def test_own_file_releases_the_declared_categories_one_person_and_absent_ones_included():
    at = own(declared="yes\nno\nunsure\nmaybe")
    question = widget(at.selectbox, "rr_category")
    assert question.options == ["yes", "no", "unsure", "maybe"]  # declared, in their order
    assert "not declared" not in texts(at)
    question.set_value("unsure")  # one person holds it
    section(at, SURVEY)
    assert metric(at, "Truth") == "1"
    assert f"1 of {len(first_rows())} persons would truly say yes" in texts(at)
    widget(at.selectbox, "rr_category").set_value("maybe")  # nobody holds it
    section(at, SURVEY)
    assert metric(at, "Truth") == "0"


def test_own_file_needs_declared_categories():
    at = own(declared=None)
    assert "Type the categories to release." in infos(at)
    assert "let DP choose" not in infos(at)
    modes = next(r for r in at.radio if r.key == "rr_cats_mode")
    assert modes.options == ["I declare them (a public list)"]  # no DP selection locally
    assert metric(at, "ε of one answer") == f"{math.log(3):.4g}"  # the coin game still runs
    section(at, SURVEY)
    assert "The survey needs data" in infos(at)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x00\x01", "does not look like a text file"),
        (b"x\n1.5\n2.5\n", "no category column"),
        (b"", "is empty"),
    ],
)
def test_a_bad_upload_keeps_the_coin_game(data, message):
    at = upload_file(open_page(PAGE), "rr", data, "bad.csv")
    assert message in errors(at)
    assert metric(at, "ε of one answer") == f"{math.log(3):.4g}"


def test_a_column_with_one_value_says_every_answer_is_yes():
    at = upload_file(open_page(PAGE), "rr", b"c\nred\nred\n", "red.csv")
    declare(at, "c", "red")
    assert "Everyone's c is “red”" in infos(at)
    section(at, SURVEY)
    assert metric(at, "Truth") == "2"


def test_whether_the_survey_runs_never_depends_on_one_person():
    """Declared "maybe", held by nobody: every person still answers (no), so the survey runs
    as it would were one person to hold it (the page used to refuse: "Nobody holds...")."""
    at = own(declared="maybe")
    assert not errors(at)
    section(at, SURVEY)
    assert metric(at, "Truth") == "0"
    assert f"0 of {len(first_rows())} persons would truly say yes" in texts(at)


def test_counts_per_category_match_the_file():
    at = own(column="shop", declared="A\nB\nC")
    widget(at.selectbox, "rr_category").set_value("B")
    section(at, SURVEY)
    shops = Counter(shop for _, shop, _ in first_rows())
    assert metric(at, "Truth") == str(shops["B"]) == "5"


# --- A fixed group (the Chinese local-DP notebook's 200 sales staff) -----------------------------


def group(at, n: int, yes: int, section_label: str = SURVEY):
    widget(at.radio, "rr_who").set_value("group")
    rerun(at)
    widget(at.number_input, "rr_group_n").set_value(n)
    widget(at.number_input, "rr_group_yes").set_value(yes)
    return section(at, section_label)


def test_a_fixed_group_of_200_has_the_exact_distribution_for_that_n():
    at = group(open_page(PAGE), 200, 50)
    assert metric(at, "Truth") == "50"
    assert "50 of its 200 persons would truly say yes" in texts(at)
    assert "200 yes/no answers" in successes(at)[0]
    assert "each respondent (one answer each)" in successes(at)[0]
    curve = chart_data(at, "estimate_curve")
    assert curve["y"].sum() == pytest.approx(1, abs=1e-4)  # the bulk; tails below 1e-5 of the peak
    assert (curve["x"] * curve["y"]).sum() == pytest.approx(50, abs=0.05)  # unbiased
    said_yes, estimate = number(metric(at, "Said yes")), number(metric(at, "Debiased estimate"))
    assert estimate == pytest.approx(2 * (said_yes - 200 / 4), abs=0.06)
    again = group(open_page(PAGE), 200, 50)  # the same seed, the same survey
    assert metric(again, "Debiased estimate") == metric(at, "Debiased estimate")
    at.session_state["rr_first20"] = True
    first = rerun(at).dataframe[-1].value
    assert len(first) == 20 and set(first["true answer"]) <= {"yes", "no"}


CHINESE_NOTEBOOK = {  # the source of the 200 sales staff: (in the caption, in "try this")
    "en": ("Chinese local-DP notebook's", "the Chinese local-DP notebook asks"),
    "de": ("chinesischen Notebooks zur lokalen DP", "das chinesische Notebook zur lokalen DP"),
    "es": ("cuaderno chino de DP local", "el cuaderno chino de DP local pregunta"),
    "ja": ("中国語のローカルDPのノートブック", "中国語のローカルDPのノートブックが"),
    "zh": ("中文本地差分隐私笔记本", "像中文本地差分隐私笔记本询问"),
}
SPANISH = ("Spanish", "spanisch", "en español", "スペイン語", "西班牙语")


@pytest.mark.parametrize("lang", list(CHINESE_NOTEBOOK))
def test_the_200_sales_staff_are_credited_to_the_chinese_notebook(lang):
    # shared/README: the Chinese local-DP notebook asks 200 persons who all work in Sales;
    # one run gave 153 yes and 47 no. The Spanish tutorial has no such group.
    at = open_page(PAGE, query={"lang": lang, "rr_who": "group"})
    caption = next(c.value for c in at.caption if "200" in c.value and "153" in c.value)
    try_this = infos(at)
    in_caption, in_try_this = CHINESE_NOTEBOOK[lang]
    assert in_caption in caption and "47" in caption
    assert in_try_this in try_this
    assert not any(word in caption + try_this for word in SPANISH)


ANSWERS = {
    "en": ("yes", "no"),
    "de": ("ja", "nein"),
    "es": ("sí", "no"),
    "ja": ("はい", "いいえ"),
    "zh": ("是", "否"),
}


@pytest.mark.parametrize("lang", list(ANSWERS))
def test_the_formulas_write_the_answers_in_the_readers_language(lang):
    at = open_page(PAGE, query={"lang": lang})
    at.session_state["randomized_response_formula"] = True  # the box draws only when open
    rerun(at)
    formulas = " ".join(formula.value for formula in at.latex)
    yes, no = ANSWERS[lang]
    assert set(re.findall(r"\\text\{([^}]*)\}", formulas)) == {yes, no}, formulas
    assert rf"P(\text{{{yes}}}\mid\text{{{no}}})" in formulas
    assert not re.search(r"\bfor\b", formulas)  # no English word: "for t = y = ½" is a sign
    sources = next(m for m in markdowns(at) if "Binomial(n_" in m)
    assert f"Binomial(n_{yes}, p) + Binomial(n_{no}, q)" in sources


def test_a_group_with_more_yes_than_persons_says_so():
    at = group(open_page(PAGE), 10, 20)
    assert "cannot hold 20 true yes answers" in errors(at)
    assert "The survey needs data" in infos(at)


def test_an_interval_leaving_0_to_n_is_shown_clipped_beside_it():
    at = group(open_page(PAGE), 40, 0)
    note = next(m.delta for m in at.metric if m.label == "Debiased estimate")
    wald, clipped = note.split(" · within [0, n]: ")
    low, high = (number(v) for v in wald.removeprefix("95%: ").split(" to "))
    shown_low, shown_high = (number(v) for v in clipped.split(" to "))
    assert low < 0 and shown_low == 0 and shown_high == min(high, 40)
    assert "Why the interval leaves the possible range" in texts(at)
    assert chart_data(at, "survey_interval")["low"].iloc[0] == 0


# --- The address ---------------------------------------------------------------------------------


def survey_view(at) -> dict:
    return {
        "metrics": [(m.label, m.value, m.delta) for m in at.metric],
        "curve": chart_data(at, "estimate_curve"),
        "marks": chart_data(at, "survey_marks"),
    }


def test_a_link_with_the_settings_shows_what_moving_the_controls_shows():
    link = {
        "rr_who": "group",
        "rr_group_n": "400",
        "rr_group_yes": "120",
        "rr_mode": "epsilon",
        "rr_epsilon": "2",
        "rr_section": "survey",
    }
    opened = open_page(PAGE, query=link)
    at = open_page(PAGE)
    widget(at.radio, "rr_mode").set_value("epsilon")
    rerun(at)
    widget(at.text_input, "rr_epsilon__text").input("2")
    rerun(at)
    group(at, 400, 120)
    moved, linked = survey_view(at), survey_view(opened)
    assert moved["metrics"] == linked["metrics"] and metric(at, "Truth") == "120"
    for name in ("curve", "marks"):
        pd.testing.assert_frame_equal(moved[name], linked[name])
    for key in link:  # the page writes every one of them
        assert at.query_params[key] == link[key], key


def question_view(at) -> dict:
    """The dataset's survey as it shows: the question and the survey's numbers."""
    return {
        "question": next(m.value for m in at.markdown if m.value.startswith("**The question")),
        "metrics": [(m.label, m.value, m.delta) for m in at.metric],
    }


def test_a_link_made_on_the_fixed_group_reopens_on_the_same_group_and_question():
    # The column and question as a link holds them (as the browser writes them), a sample size
    at = open_page(
        PAGE,
        query={
            "rr_column": "marital_status",
            "rr_category": "Never-married",
        },
    )
    widget(at.select_slider, "rr_n").set_value(1_000)
    rerun(at)
    group(at, 400, 120)
    address = {key: at.query_params[key] for key in at.query_params}
    for key, value in {
        "rr_column": "marital_status",  # the column and question stay in the address
        "rr_category": "Never-married",
        "rr_n": "1000",
        "rr_who": "group",
        "rr_group_n": "400",  # and so does the group the page shows
        "rr_group_yes": "120",
    }.items():
        assert address.get(key) == value, key
    reopened = open_page(PAGE, query=address)
    assert metric(reopened, "Truth") == "120"
    moved, linked = survey_view(at), survey_view(reopened)
    assert moved["metrics"] == linked["metrics"]
    for name in ("curve", "marks"):
        pd.testing.assert_frame_equal(moved[name], linked[name])
    # Back to the dataset's persons: the same column, question and sample in both
    for page in (at, reopened):
        widget(page.radio, "rr_who").set_value("data")
        rerun(page)
    assert question_view(at) == question_view(reopened)
    assert "Never-married" in question_view(reopened)["question"]
    assert widget(reopened.selectbox, "rr_column").value == "marital_status"
    assert widget(reopened.select_slider, "rr_n").value == 1_000
    assert at.query_params["rr_group_n"] == "400"  # the group stays while the data answer


def test_the_address_holds_the_coins_or_epsilon_only_while_in_use():
    at = open_page(PAGE)
    widget(at.select_slider, "rr_truth").set_value(0.9)
    rerun(at)
    assert at.query_params["rr_truth"] == "0.9" and "rr_random_yes" not in at.query_params
    linked = open_page(PAGE, query={"rr_truth": "0.9", "rr_random_yes": "0.25"})
    assert metric(linked, "ε of one answer") == f"{math.log(0.925 / 0.025):.4g}"
    widget(at.radio, "rr_mode").set_value("epsilon")
    rerun(at)
    assert "rr_truth" not in at.query_params and at.query_params["rr_mode"] == "epsilon"
    assert float(at.query_params["rr_epsilon"]) == pytest.approx(math.log(3))  # the fair coins
    widget(at.radio, "rr_mode").set_value("coins")
    rerun(at)
    assert "rr_epsilon" not in at.query_params and "rr_mode" not in at.query_params


def test_in_epsilon_mode_the_thumb_shows_the_epsilon_in_use():
    at = open_page(PAGE)
    widget(at.radio, "rr_mode").set_value("epsilon")
    rerun(at)
    thumb = widget(at.select_slider, "rr_epsilon")
    assert thumb.value == pytest.approx(math.log(3))  # not the nearest nice value 1.2
    assert metric(at, "ε of one answer") == "1.099"
    widget(at.text_input, "rr_epsilon__text").input("1.3")
    rerun(at)
    assert widget(at.select_slider, "rr_epsilon").value == 1.3


def test_in_german_the_epsilon_has_a_decimal_comma():
    at = open_page(PAGE, query={"lang": "de"})
    assert metric(at, "ε einer Antwort") == "1,099"
    assert at.tabs[0].label == "1. Das Münzspiel"


# --- The export ----------------------------------------------------------------------------------


def downloads(query: dict[str, str]) -> tuple[AppTest, dict[str, object]]:
    """The page and the files its two download buttons give (their own callbacks)."""
    return page_downloads(PAGE, query)


def test_the_export_csv_opens_with_pandas_and_holds_what_the_page_shows():
    at, files = downloads({"rr_section": "survey"})
    archive = zipfile.ZipFile(io.BytesIO(download(files, "randomized_response_census", ".zip")))
    (name,) = [n for n in archive.namelist() if n.endswith(".csv")]
    assert name == "randomized_response_census.csv"  # coins, not ε, are in the address
    back = pd.read_csv(io.BytesIO(archive.read(name)))  # no options
    row = back.iloc[0]
    assert row["truly yes"] == 3_650 and row["respondents n"] == 32_561
    assert row["said yes"] == number(metric(at, "Said yes"))
    assert row["debiased estimate"] == number(metric(at, "Debiased estimate"))
    assert row["said yes (%)"] == pytest.approx(100 * row["said yes"] / 32_561, abs=0.005)
    assert row["relative error (%)"] > 1  # a percentage, not a fraction
    assert row["within [0, n] from"] == row["95% interval from"]  # inside [0, n] here
    settings = json.loads(archive.read(name.replace(".csv", ".json")))
    assert settings["epsilon"] == "1.099" and settings["t"] == "0.5"
    assert "32,561 yes/no answers" in settings["guarantee"]
    assert {"charts/coin_tree.svg", "charts/estimate_distribution.png"} <= set(archive.namelist())
    assert "debiased estimate" in download(files, "randomized_response_census", "_report.html")


LN4 = {"rr_truth": "0.6", "rr_section": "survey"}  # p = 0.8, q = 0.2: ε = ln 4 = 1.386294…


def epsilon_everywhere(at, files: dict, stem: str) -> dict[str, str]:
    """How ε reads in the settings, the guarantee (page and export) and the board report."""
    archive = zipfile.ZipFile(io.BytesIO(download(files, stem, ".zip")))
    (name,) = [n for n in archive.namelist() if n.endswith(".json")]
    settings = json.loads(archive.read(name))
    return {
        "settings": settings["epsilon"],
        "guarantee": settings["guarantee"],
        "box": successes(at)[0],
        "report": download(files, stem, "_report.html"),
    }


@pytest.mark.parametrize(
    ("who", "stem"), [("group", "randomized_response"), (None, "randomized_response_census")]
)
def test_the_report_writes_epsilon_as_its_settings_do(who, stem):
    """ε = ln 4 = 1.386294…: one figure everywhere, rounded up as a bound (never 1.386, below
    the truth, nor 1.38629 beside a 1.386 in the settings)."""
    at, files = downloads({**LN4, "rr_who": who} if who else LN4)
    shown = epsilon_everywhere(at, files, stem)
    assert shown["settings"] == "1.387"
    for where in ("guarantee", "box", "report"):
        assert "1.387-DP" in shown[where], where
        assert "1.38629" not in shown[where] and "1.386-DP" not in shown[where], where


# --- Exercises -----------------------------------------------------------------------------------


def exercise(key: str):
    return next(e for e in EXERCISES if e.key == key)


def open_exercise(at, key: str):
    at.session_state[f"exercise_{key}"] = True
    at.session_state[f"exercise_{key}_show"] = True
    return rerun(at)


def answer(at, key: str, given) -> str:
    at.session_state[f"exercise_{key}_given"] = given
    rerun(at)
    return " ".join(s for s in successes(at)) + " ".join(w.value for w in at.warning)


def test_the_fair_coins_exercise_is_what_the_page_shows():
    at = open_exercise(open_page(PAGE), "local.fair_epsilon")
    shown = metric(at, "ε of one answer")
    assert "ε = ln 3 ≈ 1.099" in infos(at) and shown == "1.099"
    assert "Right." in answer(at, "local.fair_epsilon", 1.099)
    assert "Not quite" in answer(at, "local.fair_epsilon", 1.2)


def test_the_group_exercise_is_the_metric_of_the_group_of_200():
    at = group(open_page(PAGE), 200, 50, CENTRAL)
    open_exercise(at, "local.group")
    shown = number(metric(at, "Local expected |error| at n = 200"))
    assert f"About {shown:.1f} persons" in infos(at)
    assert "Right." in answer(at, "local.group", shown)
    assert "Not quite" in answer(at, "local.group", 2 * shown)


def test_the_quadruple_exercise_quotes_the_chart():
    at = open_page(PAGE)
    widget(at.select_slider, "rr_n").set_value(100)
    section(at, ERROR)
    open_exercise(at, "local.quadruple")
    exact = chart_data(at, "share_exact").set_index("n")["error"]
    assert f"n = 100 gives {exact.loc[100]:.3g} percentage points" in infos(at)
    assert "Right." in answer(at, "local.quadruple", "halves")
    assert "Not quite" in answer(at, "local.quadruple", "quarters")


def test_the_curator_exercise_is_false():
    at = open_exercise(section(open_page(PAGE), CENTRAL), "local.curator")
    assert "False. In the local model each person randomizes" in infos(at)
    assert "Right." in answer(at, "local.curator", "false")
    assert "Not quite" in answer(at, "local.curator", "true")


# --- Presets: the teaching material's examples in one click (ui/local/rr_presets.py) -------------


def test_the_coin_game_preset_asks_all_of_census_about_sales_with_fair_coins():
    # shared/README (Programming DP): "are you in Sales?" with fair coins: P(yes | yes) = 0.75,
    # P(yes | no) = 0.25, eps = ln 3 = 1.0986; estimate 2 (#yes - n/4) of a true 3,650
    at = open_page(PAGE)
    widget(at.selectbox, "rr_column").set_value("marital_status")
    rerun(at)
    widget(at.select_slider, "rr_n").set_value(1_000)
    widget(at.select_slider, "rr_truth").set_value(0.9)
    rerun(at)
    widget(at.radio, "rr_who").set_value("group")
    rerun(at)
    moved = {"rr_who": "group", "rr_column": "marital_status", "rr_n": "1000", "rr_truth": "0.9"}
    assert {k: at.query_params.get(k) for k in moved} == moved
    button = at.button(key="rr__preset_coin_game")
    assert button.label == "Coin game, fair coins, ε = ln 3 (Programming DP)"
    click_preset(at, "rr", "coin_game")
    assert widget(at.radio, "rr_who").value == "data"
    assert widget(at.selectbox, "rr_dataset").value == "census"
    assert widget(at.selectbox, "rr_column").value == "occupation"
    assert widget(at.selectbox, "rr_category").value == "Sales"
    assert widget(at.select_slider, "rr_n").value == 32_561  # everyone
    assert widget(at.radio, "rr_mode").value == "coins"
    assert widget(at.select_slider, "rr_truth").value == 0.5
    assert widget(at.select_slider, "rr_random_yes").value == 0.5
    # every value is the setting's default: the address leaves them all out
    for key in (*moved, "rr_dataset", "rr_category", "rr_mode", "rr_random_yes", "rr_epsilon"):
        assert key not in at.query_params, key
    section(at, COINS)  # the coins' figures, whichever section the click opened
    assert metric(at, "ε of one answer") == "1.099" == f"{math.log(3):.4g}"
    table = at.table[0].value
    assert table.loc["yes", "says yes"] == "0.7500" and table.loc["no", "says yes"] == "0.2500"
    section(at, SURVEY)
    assert metric(at, "Truth") == "3,650"
    said_yes, estimate = number(metric(at, "Said yes")), number(metric(at, "Debiased estimate"))
    assert estimate == pytest.approx(2 * (said_yes - 32_561 / 4))
    assert "3,650 of 32,561 persons would truly say yes" in texts(at)
    # opening a section keeps the example: its values, and an address without them
    assert widget(at.selectbox, "rr_category").value == "Sales"
    assert widget(at.select_slider, "rr_n").value == 32_561
    assert widget(at.radio, "rr_mode").value == "coins"
    for key in (*moved, "rr_dataset", "rr_category", "rr_mode", "rr_random_yes", "rr_epsilon"):
        assert key not in at.query_params, key


def test_the_sales_staff_preset_asks_200_persons_who_all_say_yes():
    # shared/README (Chinese notebook): 200 sales staff, every true answer yes, fair coins
    at = group(open_page(PAGE), 400, 50)
    widget(at.select_slider, "rr_random_yes").set_value(0.25)
    rerun(at)
    assert at.query_params["rr_group_n"] == "400"
    click_preset(at, "rr", "sales_staff")
    assert widget(at.radio, "rr_who").value == "group"
    assert widget(at.number_input, "rr_group_n").value == 200
    assert widget(at.number_input, "rr_group_yes").value == 200
    assert widget(at.radio, "rr_mode").value == "coins"
    assert widget(at.select_slider, "rr_truth").value == 0.5
    assert widget(at.select_slider, "rr_random_yes").value == 0.5
    assert at.query_params["rr_who"] == "group" and at.query_params["rr_group_yes"] == "200"
    for key in ("rr_group_n", "rr_random_yes", "rr_truth", "rr_mode"):  # at their defaults
        assert key not in at.query_params, key
    assert at.button(key="rr__preset_sales_staff").label == (
        "200 sales staff, all yes (Chinese notebook)"
    )
    assert metric(at, "Truth") == "200"  # the survey section stayed open
    assert "200 of its 200 persons would truly say yes" in texts(at)
    box = successes(at)[0]
    assert "Guarantee: 1.099-DP" in box and "200 yes/no answers" in box  # ln 3, 200 asked
    said_yes, estimate = number(metric(at, "Said yes")), number(metric(at, "Debiased estimate"))
    assert estimate == pytest.approx(2 * (said_yes - 200 / 4), abs=0.06)


def test_the_gamma_preset_sets_epsilon_to_tell_the_truth_with_three_quarters():
    # shared/README (Spanish tutorial): the truth with probability 1/2 + gamma, gamma = 0.25
    # gives 0.75 / 0.25 and eps = ln(0.75 / 0.25). The page says it in "set ε" mode.
    at = open_page(PAGE)
    widget(at.select_slider, "rr_truth").set_value(0.9)
    rerun(at)
    assert "γ = 0.45" in gamma_line(at)
    click_preset(at, "rr", "gamma")
    assert at.button(key="rr__preset_gamma").label == (
        "γ = 0.25: the truth with probability 0.75 (Spanish tutorial)"
    )
    assert widget(at.radio, "rr_mode").value == "epsilon"
    assert widget(at.select_slider, "rr_epsilon").value == pytest.approx(math.log(3))
    truth = widget(at.select_slider, "rr_truth")
    assert truth.value == pytest.approx(0.5) and truth.proto.disabled  # the coins follow ε
    assert at.query_params["rr_mode"] == "epsilon" and "rr_truth" not in at.query_params
    assert float(at.query_params["rr_epsilon"]) == pytest.approx(math.log(0.75 / 0.25))
    line = gamma_line(at)
    assert "½ + γ = 0.75" in line and "½ − γ = 0.25" in line and "γ = 0.25" in line
    assert f"ε = ln((½ + γ)/(½ − γ)) = {math.log(3):.4g}" in line
    assert metric(at, "ε of one answer") == "1.099"
    reopened = rerun(open_page(PAGE, query=dict(at.query_params)))  # a link keeps the example
    assert widget(reopened.radio, "rr_mode").value == "epsilon"
    assert widget(reopened.select_slider, "rr_epsilon").value == pytest.approx(math.log(3))
    assert dict(reopened.query_params) == dict(at.query_params) and gamma_line(reopened) == line
    widget(at.text_input, "rr_epsilon__text").input("2")
    rerun(at)
    assert at.query_params["rr_epsilon"] == "2"  # another ε: no longer the example
    assert "γ = 0.25" not in gamma_line(at)
    click_preset(at, "rr", "coin_game")  # back to the coins, fair
    assert widget(at.radio, "rr_mode").value == "coins"
    assert widget(at.select_slider, "rr_truth").value == 0.5
    assert widget(at.select_slider, "rr_random_yes").value == 0.5
    assert "rr_mode" not in at.query_params and "rr_epsilon" not in at.query_params
