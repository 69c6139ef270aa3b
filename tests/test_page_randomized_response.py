"""The randomized-response page through AppTest: coins, epsilon mode, survey, bad input."""

from __future__ import annotations

import math

import pytest
from apptest_helpers import metric, open_page, plotly_figures, rerun, texts, widget

PAGE = "randomized_response"


def number(text: str) -> float:
    return float(text.replace(",", "").replace("+", "").replace("×", ""))


@pytest.fixture(scope="module")
def default_page():
    return open_page(PAGE)


def test_fair_coins_give_ln3_and_a_sensible_sales_estimate(default_page):
    at = default_page
    assert metric(at, "ε of one answer") == f"{math.log(3):.4g}"
    assert metric(at, "Truth") == "3,650"
    estimate = number(metric(at, "Debiased estimate"))
    said_yes = number(metric(at, "Said yes"))
    assert estimate == pytest.approx(2 * (said_yes - 32_561 / 4))  # shared/README estimator
    assert abs(estimate - 3_650) < 5 * 156.0  # sd of the estimate is 156 persons
    assert number(metric(at, "Error")) == pytest.approx(estimate - 3_650, abs=0.06)
    # Local vs central at eps = ln 3: central expected error 1/eps = 0.91.
    assert metric(at, "Central Laplace") == "0.91"
    assert number(metric(at, "Local expected")) == pytest.approx(124.7, abs=0.1)
    tree = plotly_figures(at)[0]
    labels = [a["text"] for a in tree["layout"]["annotations"]]
    assert "t = 0.500" in labels and "y = 0.500" in labels
    assert "5.8% off" in texts(at)  # the published run is quoted for census Sales
    page_text = texts(at)
    # the published comparison: local at eps = ln 3, central Laplace at eps = 1
    assert "locally (fair coins, ε = ln 3 ≈ 1.10)" in page_text
    assert "central Laplace at ε = 1 (Near & Abuah" in page_text
    assert "also protects each answer against the collector" in page_text
    assert "needs a trusted curator" in page_text
    assert "Same ε, same protection" not in page_text
    assert "Neighbouring datasets on this page: one person's answer replaced" in page_text
    assert "Wald interval" in page_text and "plug-in, clipped to [0, n]" in page_text
    assert "the variance is exact" not in page_text
    note = next(m.delta for m in at.metric if m.label == "Debiased estimate")
    low, high = (number(v) for v in note.removeprefix("95%: ").split(" to "))
    half = 1.959964 * math.sqrt(0.75 * 32_561)  # fair coins: Var = 3n/4 at every count
    assert (low + high) / 2 == pytest.approx(estimate, abs=1)
    assert (high - low) / 2 == pytest.approx(half, abs=1)


def test_same_seed_same_answers(default_page):
    first = metric(default_page, "Debiased estimate")
    assert metric(rerun(default_page), "Debiased estimate") == first


def test_coin_sliders_move_epsilon_and_the_tree():
    at = open_page(PAGE)
    widget(at.slider, "rr_truth").set_value(0.9)
    rerun(at)
    assert metric(at, "ε of one answer") == f"{math.log(19):.4g}"  # (0.95 / 0.05)
    assert "t = 0.900" in [a["text"] for a in plotly_figures(at)[0]["layout"]["annotations"]]
    widget(at.slider, "rr_truth").set_value(0.5)
    widget(at.slider, "rr_random_yes").set_value(0.25)
    rerun(at)
    assert metric(at, "ε of one answer") == f"{math.log(5):.4g}"  # P(yes|yes)/P(yes|no) = 5


def test_always_truthful_is_exact_and_not_private():
    at = open_page(PAGE)
    widget(at.slider, "rr_truth").set_value(1.0)
    rerun(at)
    assert metric(at, "ε of one answer") == "∞"
    assert any("ε = ∞" in w.value for w in at.warning)
    assert number(metric(at, "Debiased estimate")) == 3_650
    assert metric(at, "Error") == "+0.0"


def test_never_truthful_cannot_be_estimated():
    at = open_page(PAGE)
    widget(at.slider, "rr_truth").set_value(0.0)
    rerun(at)
    assert metric(at, "ε of one answer") == "0"
    assert any("Nothing can be estimated" in e.value for e in at.error)
    assert not [m for m in at.metric if m.label.startswith("Debiased")]


def test_lopsided_second_coin_is_not_private():
    at = open_page(PAGE)
    widget(at.slider, "rr_random_yes").set_value(1.0)
    rerun(at)
    assert metric(at, "ε of one answer") == "∞"


def test_epsilon_mode_moves_the_coins():
    at = open_page(PAGE)
    widget(at.radio, "rr_mode").set_value("Set ε: the coins follow")
    rerun(at)
    widget(at.text_input, "rr_epsilon__text").input("2")
    rerun(at)
    assert metric(at, "ε of one answer") == "2"
    assert widget(at.slider, "rr_truth").value == pytest.approx(math.tanh(1.0))
    assert widget(at.slider, "rr_random_yes").value == 0.5
    widget(at.select_slider, "rr_epsilon__slider").set_value(0.01)
    rerun(at)
    assert metric(at, "ε of one answer") == "0.01"
    widget(at.select_slider, "rr_epsilon__slider").set_value(10.0)
    rerun(at)
    assert metric(at, "ε of one answer") == "10"
    # Back to the coins: they start where epsilon left them.
    widget(at.radio, "rr_mode").set_value("Set the coins: ε follows")
    rerun(at)
    assert metric(at, "ε of one answer") == "10"


@pytest.mark.parametrize("typed", ["0", "-1", "abc"])
def test_bad_typed_epsilon_shows_a_message(typed):
    at = open_page(PAGE)
    widget(at.radio, "rr_mode").set_value("Set ε: the coins follow")
    rerun(at)
    widget(at.text_input, "rr_epsilon__text").input(typed)
    rerun(at)
    assert at.error and "Could not use" in at.error[0].value
    assert metric(at, "Truth") == "3,650"


def test_tiny_survey_warns_and_tips_smokers_are_real():
    at = open_page(PAGE)
    widget(at.select_slider, "rr_n_census").set_value(10)
    rerun(at)
    assert any("Only 10 respondents" in w.value for w in at.warning)
    assert number(metric(at, "Truth")) <= 10
    widget(at.selectbox, "rr_dataset").set_value("tips")
    rerun(at)
    widget(at.selectbox, "rr_column_tips").set_value("smoker")
    rerun(at)
    widget(at.selectbox, "rr_category_tips_smoker").set_value("Yes")
    rerun(at)
    assert metric(at, "Truth") == "93"  # 93 smokers among 244 real bills
    assert "93 of 244 persons" in texts(at)
    assert "That is an assumption, not a fact: a bill is a party" in texts(at)


@pytest.mark.parametrize("typed", ["40", "100"])
def test_typed_huge_epsilon_is_shown_as_asked_not_infinity(typed):
    # tanh(eps / 2) rounds to 1 from eps = 38 on; the probabilities must come from eps itself
    at = open_page(PAGE)
    widget(at.radio, "rr_mode").set_value("Set ε: the coins follow")
    rerun(at)
    widget(at.text_input, "rr_epsilon__text").input(typed)
    rerun(at)
    assert not at.error
    assert metric(at, "ε of one answer") == typed
    assert not any("ε = ∞" in w.value for w in at.warning)
    table = at.dataframe[0].value.set_index("true answer")
    eps = float(typed)
    q = 1 / (1 + math.exp(eps))  # P(yes | no) = P(no | yes) = 1 / (1 + e^eps), closed form
    for truth, column in (("no", "says yes"), ("yes", "says no")):
        shown = table.loc[truth, column]
        assert 0 < float(shown) == pytest.approx(q, rel=1e-2), (truth, column, shown)
    assert "With ε = ∞ there is no privacy to compare" not in infos(at)
    assert metric(at, "Central Laplace") == f"{1 / eps:,.2f}"


def infos(at) -> str:
    return " ".join(i.value for i in at.info)
