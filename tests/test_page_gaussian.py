"""The Gaussian page through AppTest: sliders at both ends, mechanisms, sections, own data."""

from __future__ import annotations

import html
import io
import json
import math
import re
import sys
import zipfile

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import (
    READ_CAP,
    READ_CATEGORIES,
    chart_data,
    charts,
    click_preset,
    metric,
    noisy_answers,
    not_private,
    open_page,
    problems,
    rerun,
    set_widget,
    successes,
    texts,
    upload_file,
    widget,
)
from dp_accounting.gaussian_mechanism import get_sigma_gaussian
from fragment_helpers import keyed_fragment, parent_fragment, run_fragment

from dp_core import analytic_gaussian_sigma
from dp_core.release import opendp_gaussian_sigma

EPS_SLIDER, EPS_TEXT = "gaussian_epsilon", "gaussian_epsilon__text"
DELTA_SLIDER, DELTA_TEXT = "gaussian_delta", "gaussian_delta__text"
ANSWERS, SIGMA = "1. Noisy vs true answers", "2. Classic vs analytic σ"
NOISE, K, DELTA = (
    "3. Laplace vs Gaussian noise",
    "4. One person affects k statistics",
    "5. What δ means",
)
Z95 = 1.959963984540054


def _classic(eps: float, delta: float) -> float:
    """Dwork & Roth Thm A.1, written out independently of dp_core."""
    return math.sqrt(2 * math.log(1.25 / delta)) / eps


def _shown(value: float) -> str:
    return f"{value:,.4g}"


def section(at, label: str):
    at.session_state["gaussian__section"] = label
    return rerun(at)


def advice(at) -> str:
    return " ".join(s for s in successes(at))


@pytest.fixture
def page():
    return open_page("gaussian")


def test_defaults_show_sigmas_and_crossover(page):
    sigma = get_sigma_gaussian(1.0, 1e-5)
    assert metric(page, "Noise standard deviation") == _shown(sigma) == "3.731"
    assert metric(page, "95% half-width") == _shown(Z95 * sigma)
    np.testing.assert_allclose(noisy_answers(page)["half"], Z95 * sigma, rtol=1e-9)
    assert "Guarantee: (1, 10⁻⁵)-DP" in successes(page)[0]
    at = section(page, SIGMA)
    assert metric(at, "Analytic σ") == _shown(sigma) == "3.731"
    assert metric(at, "Classic σ") == "—"  # epsilon = 1: the classic proof does not apply
    assert metric(at, "Ratio classic") == "—"
    assert "needs ε < 1" in texts(at)
    assert "ρ = Δ²/(2σ²) = 0.03593" in texts(at)
    # shared/README: with eps 1, delta 1e-5 Gaussian wins from about 7 statistics on
    at = section(at, K)
    assert metric(at, "Break-even k") == f"{sigma**2 / 2:.2f}" == "6.96"
    assert metric(at, "Gaussian noise is smaller from k") == "7"
    assert chart_data(at, "crossover")["label"].tolist() == ["break-even k = 6.96"]
    assert chart_data(at, "chosen")["x"].tolist() == [10]


@pytest.mark.parametrize(
    ("eps", "delta"), [(0.01, 1e-12), (0.01, 1e-2), (10.0, 1e-12), (10.0, 1e-2)]
)
def test_both_sliders_at_both_ends(page, eps, delta):
    at = set_widget(page, page.select_slider, EPS_SLIDER, eps)
    at = set_widget(at, at.select_slider, DELTA_SLIDER, delta)
    analytic = get_sigma_gaussian(eps, delta)
    assert metric(at, "Noise standard deviation") == _shown(analytic)
    at = section(at, SIGMA)
    assert metric(at, "Analytic σ") == _shown(analytic)
    if eps < 1:
        classic = _classic(eps, delta)
        assert metric(at, "Classic σ") == _shown(classic)
        assert metric(at, "Ratio classic") == f"{classic / analytic:.3f}"
    else:
        assert metric(at, "Classic σ") == "—"
    curves = chart_data(at, "curves")
    analytic_curve = curves[curves["series"] == "analytic Gaussian σ"]["sigma"].to_numpy()
    assert analytic_curve[0] == pytest.approx(get_sigma_gaussian(eps, 1e-12), rel=1e-9)
    assert analytic_curve[-1] == pytest.approx(get_sigma_gaussian(eps, 1e-2), rel=1e-9)
    assert ("classic Gaussian σ" in set(curves["series"])) == (eps < 1)
    assert chart_data(at, "now")["x"].tolist() == [delta]  # the current δ is marked
    at = section(at, K)
    crossover = (eps * analytic) ** 2 / 2
    assert metric(at, "Break-even k") == f"{crossover:.2f}"
    assert metric(at, "Gaussian noise is smaller from k") == str(max(1, math.floor(crossover) + 1))
    assert charts(section(at, NOISE))
    assert "P(loss > ε)" in texts(section(at, DELTA))


def test_classic_published_figure_at_eps_01_delta_1e4(page):
    # shared/README: eps 0.1, delta 1e-4 -> classic sigma 43.4, mean absolute error about 35
    at = set_widget(page, page.select_slider, EPS_SLIDER, 0.1)
    at = set_widget(at, at.text_input, DELTA_TEXT, "1e-4")
    at = set_widget(at, at.radio, "gaussian_mechanism", "classic")
    assert metric(at, "Noise standard deviation") == "43.44"
    assert metric(at, "Expected |error|") == "34.66"
    assert "Guarantee: (0.1, 10⁻⁴)-DP" in successes(at)[0]
    at = section(at, SIGMA)
    assert metric(at, "Classic σ") == "43.44"
    at = section(at, NOISE)  # the classic Gaussian is the one drawn
    assert "Gaussian σ = 43.4" in texts(at)
    assert "Classic Gaussian: exact density" in set(chart_data(at, "curve")["series"])


def test_mechanism_switch(page):
    at = set_widget(page, page.radio, "gaussian_mechanism", "laplace")
    box = successes(at)[0]
    assert "Guarantee: 1-DP" in box and "the 4 noisy counts (ε = 1)" in box  # (ε, 0)
    assert "make_laplace" not in box  # teaching draws
    assert metric(at, "Noise standard deviation") == _shown(math.sqrt(2))
    assert metric(at, "95% half-width") == _shown(math.log(20))
    np.testing.assert_allclose(noisy_answers(at)["half"], math.log(20))
    at = set_widget(at, at.radio, "gaussian_mechanism", "classic")  # epsilon 1: not applicable
    assert any("only for ε below 1" in w.value for w in at.warning)
    assert not successes(at)  # no release, so no guarantee
    assert not charts(at)  # the noisy answers are withheld, the rest stays
    assert "does not apply" in " ".join(i.value for i in at.info)
    for other in (SIGMA, NOISE, K):
        assert charts(section(at, other)), other
    at = section(at, ANSWERS)
    at = set_widget(at, at.select_slider, EPS_SLIDER, 0.5)
    assert metric(at, "Noise standard deviation") == _shown(_classic(0.5, 1e-5))
    at = set_widget(at, at.radio, "gaussian_mechanism", "analytic")
    assert metric(at, "Noise standard deviation") == _shown(get_sigma_gaussian(0.5, 1e-5))


def test_k_slider_says_which_to_pick_at_both_ends(page):
    at = section(page, K)
    at = set_widget(at, at.slider, "gaussian_k", 3)
    assert "pick the Laplace mechanism" in advice(at)
    at = set_widget(at, at.slider, "gaussian_k", 20)
    assert "For k = 20, pick the Gaussian mechanism" in advice(at)
    sigma = get_sigma_gaussian(1.0, 1e-5)
    assert f"{math.sqrt(20) * sigma:,.3g}" in advice(at)
    assert f"{math.sqrt(2) * 20:,.3g}" in advice(at)
    at = set_widget(at, at.slider, "gaussian_k", 1)
    assert "For k = 1, pick the Laplace mechanism" in advice(at)
    at = set_widget(at, at.slider, "gaussian_k", 100)
    assert "For k = 100, pick the Gaussian mechanism" in advice(at)
    assert chart_data(at, "curves")["k"].max() == 100
    assert chart_data(at, "chosen")["label"].tolist() == ["k = 100"]


def test_moving_k_reruns_only_its_section(page):
    """The k slider's section is a fragment: a rerun for it draws nothing else."""
    at = section(page, K)
    k_fragment = keyed_fragment(at, "gaussian_k_section")
    widget(at.slider, "gaussian_k").set_value(20)
    run_fragment(at, k_fragment)
    assert "For k = 20, pick the Gaussian mechanism" in advice(at)
    assert [s.key for s in at.slider] == ["gaussian_k"]
    assert not at.select_slider and not at.title and not at.radio  # ε, δ, the page: not rerun
    assert [list(d) for _, d in charts(at)] == [["curves", "crossover", "chosen"]]


def test_moving_epsilon_reruns_the_sections_not_the_page(page):
    """ε sits in the outer fragment: a step reruns the guarantee and the open section only."""
    at = section(page, K)
    k_fragment = keyed_fragment(at, "gaussian_k_section")
    outer = parent_fragment(at, k_fragment)
    widget(at.select_slider, EPS_SLIDER).set_value(0.5)
    run_fragment(at, outer)
    assert [s.key for s in at.select_slider] == [EPS_SLIDER, DELTA_SLIDER]
    assert "Guarantee: (0.5, 10⁻⁵)-DP" in advice(at)
    assert metric(at, "Break-even k") == f"{(0.5 * get_sigma_gaussian(0.5, 1e-5)) ** 2 / 2:.2f}"
    assert not at.title and not at.toggle  # the header and the data controls did not rerun
    assert all(not s.key.startswith("gaussian_dataset") for s in at.selectbox)


def test_typed_delta_between_powers_is_used(page):
    at = set_widget(page, page.text_input, DELTA_TEXT, "3e-7")
    assert metric(at, "Noise standard deviation") == _shown(get_sigma_gaussian(1.0, 3e-7))
    assert not at.error
    assert "Guarantee: (1, 3×10⁻⁷)-DP" in successes(at)[0]


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("0", "needs the Laplace mechanism"),
        ("1", "below 1"),
        ("1.5", "below 1"),
        ("abc", "must be a number"),
    ],
)
def test_bad_delta_is_explained_and_the_page_keeps_working(page, typed, message):
    at = set_widget(page, page.text_input, DELTA_TEXT, typed)
    errors = " ".join(e.value for e in at.error)
    assert message in errors and "Still showing δ = 10⁻⁵" in errors
    assert metric(at, "Noise standard deviation") == "3.731"
    assert charts(at)
    at = section(at, SIGMA)
    assert metric(at, "Analytic σ") == "3.731"
    assert charts(at)


@pytest.mark.parametrize("typed", ["0", "-1", "ten"])
def test_bad_epsilon_is_explained(page, typed):
    at = set_widget(page, page.text_input, EPS_TEXT, typed)
    assert any("Could not use" in e.value for e in at.error)
    assert metric(at, "Noise standard deviation") == "3.731"


def test_delta_at_least_one_over_n_warns(page):
    at = section(page, DELTA)
    assert not any("1/n" in w.value for w in at.warning)
    assert "1/n = 0.0154" not in texts(at) and "times smaller" in texts(at)
    at = set_widget(at, at.text_input, DELTA_TEXT, "0.05")  # diseases: n = 65, 1/n = 0.0154
    warnings = " ".join(w.value for w in at.warning)
    assert "at least 1/n" in warnings and "(0, 1/n)-DP" in warnings
    assert "n = 65 people" in texts(at)


def test_delta_meaning_states_the_loss_tail(page):
    shown = texts(section(page, DELTA))
    # P(privacy loss > 1) for sigma 3.7306 is Phi(1/(2 sigma) - sigma) = 1.612e-4 > delta
    assert "P(loss > ε) = 1.612×10⁻⁴" in shown
    assert "×16.1" in shown
    assert "δ = 10⁻⁵ is 1,538 times smaller" in shown  # 1 / (1e-5 * 65)


def test_the_noise_section_draws_around_both_exact_densities(page):
    at = section(page, NOISE)
    histogram = chart_data(at, "histogram")
    for name, bars in histogram.groupby("series"):
        width = bars["x2"] - bars["x"]
        assert float((bars["y"] * width).sum()) == pytest.approx(1, abs=0.01), name
    assert set(chart_data(at, "curve")["series"]) == {
        "Laplace: exact density",
        "Analytic Gaussian: exact density",
    }
    shown = texts(at)
    assert "Laplace: 95% within ±3 (exact)" in shown  # b ln 20 = 2.996
    assert "Gaussian σ = 3.73: 95% within ±7.31 (exact)" in shown
    assert "the Gaussian is wider here" in shown


@pytest.mark.parametrize(
    ("lang", "noise", "normal", "formula"),
    [
        ("en", "3. Laplace vs Gaussian noise",
         "Gaussian noise is drawn from the normal distribution N(0, σ²)",
         "N(0, σ²) is the normal distribution"),
        ("de", "3. Laplace- vs. Gauß-Rauschen",
         "Gauß-Rauschen wird aus der Normalverteilung N(0, σ²) gezogen",
         "N(0, σ²) ist die Normalverteilung"),
    ],
)  # fmt: skip
def test_the_page_says_the_gaussian_is_the_normal_distribution(lang, noise, normal, formula):
    """Where the noise is introduced, and beside the formulas: Gaussian = normal distribution."""
    at = section(open_page("gaussian", query={"lang": lang}), noise)
    assert normal in texts(at)
    at.session_state["gaussian_formula"] = True
    assert formula in texts(rerun(at))


def test_person_in_several_statistics_uses_l1_for_laplace_and_l2_for_gaussian(page):
    # restaurant week: the public rule is at most one visit a day, so 7 days: a count per
    # day has L1 sensitivity 7 and L2 sensitivity sqrt(7)
    at = set_widget(page, page.selectbox, "gaussian_dataset", "restaurant")
    assert "L2 sensitivity 2.646" in texts(at)
    assert metric(at, "Noise standard deviation") == _shown(
        math.sqrt(7) * get_sigma_gaussian(1.0, 1e-5)
    )
    at = set_widget(at, at.radio, "gaussian_mechanism", "laplace")
    assert metric(at, "Noise standard deviation") == _shown(7 * math.sqrt(2))
    at = section(at, SIGMA)
    assert metric(at, "Laplace scale b") == "7"
    assert metric(at, "Analytic σ") == _shown(math.sqrt(7) * get_sigma_gaussian(1.0, 1e-5))
    assert "L2 sensitivity 2.646" in texts(at)


def test_same_seed_same_draws_and_new_draw_changes_them(page):
    first = noisy_answers(page)["noisy"].to_numpy()
    rerun(page)
    np.testing.assert_array_equal(noisy_answers(page)["noisy"].to_numpy(), first)
    page.sidebar.button[0].click()
    rerun(page)
    assert not np.array_equal(noisy_answers(page)["noisy"].to_numpy(), first)


def test_delta_is_kept_in_the_link():
    at = open_page("gaussian", query={"gaussian_delta": "1e-07"})
    assert metric(at, "Noise standard deviation") == _shown(get_sigma_gaussian(1.0, 1e-7))
    assert at.query_params["gaussian_delta"] == "1e-07"
    at = set_widget(at, at.select_slider, DELTA_SLIDER, 1e-3)
    assert at.query_params["gaussian_delta"] == "0.001"


def test_a_link_opens_its_section_and_a_bad_delta_falls_back_to_the_default():
    at = open_page("gaussian", query={"gaussian_delta": "0", "gaussian_section": "sigma"})
    assert metric(at, "Analytic σ") == "3.731"


def test_query_that_cannot_run_leaves_the_rest_of_the_page_working(page):
    at = set_widget(page, page.selectbox, "gaussian_dataset", "own_csv")  # nothing uploaded yet
    assert "until the query above can run" in texts(at)
    assert not successes(at) and not charts(at)
    at = section(at, SIGMA)
    assert metric(at, "Analytic σ") == "3.731"  # sensitivity 1
    at = section(at, K)
    assert metric(at, "Break-even k") == "6.96"
    at = section(at, DELTA)
    assert "P(loss > ε)" in texts(at) and "Rule of thumb" not in texts(at)


def test_clipped_mean_with_each_mechanism(page):
    at = set_widget(page, page.selectbox, "gaussian_dataset", "restaurant")
    at = set_widget(at, at.radio, "gaussian_kind", "mean")
    widths = {}
    for mechanism in ("laplace", "analytic"):
        at = set_widget(at, at.radio, "gaussian_mechanism", mechanism)
        assert "each mean is within" in texts(at)
        noisy = noisy_answers(at)["noisy"].to_numpy()
        assert np.all((noisy >= 0) & (noisy <= 50))  # clamped to [L, U]
        widths[mechanism] = float(metric(at, "95% half-width (median group)").replace(",", ""))
        guarantee = "Guarantee: 1-DP" if mechanism == "laplace" else "Guarantee: (1, 10⁻⁵)-DP"
        assert guarantee in successes(at)[0]
    # A visitor is in up to 7 daily means (L1 7, L2 sqrt 7). With half the budget on the sum,
    # whichever sum noise is smaller gives the narrower bands.
    laplace_sum_std = math.sqrt(2) * 7 * 50 / 0.5
    gaussian_sum_std = analytic_gaussian_sigma(math.sqrt(7) * 50, 0.5, 5e-6)
    assert (widths["laplace"] < widths["analytic"]) == (laplace_sum_std < gaussian_sum_std)


def test_classic_mean_below_epsilon_one(page):
    at = set_widget(page, page.selectbox, "gaussian_dataset", "restaurant")
    at = set_widget(at, at.radio, "gaussian_kind", "mean")
    at = set_widget(at, at.select_slider, EPS_SLIDER, 0.5)
    at = set_widget(at, at.radio, "gaussian_mechanism", "classic")
    assert "With the classic Gaussian mechanism, a noisy sum over a noisy count" in texts(at)
    assert "Guarantee: (0.5, 10⁻⁵)-DP" in successes(at)[0]


def test_predicate_count_on_the_census(page):
    at = set_widget(page, page.selectbox, "gaussian_dataset", "census")
    at = set_widget(at, at.radio, "gaussian_kind", "predicate")
    at = set_widget(at, at.selectbox, "gaussian_pred_column", "age")
    at = set_widget(at, at.number_input, "gaussian_pred_number", 40.0)
    shown = noisy_answers(at)
    assert shown.index.tolist() == ["age ≥ 40"]
    assert shown["true"].tolist() == [14_237]  # the published Adult figure
    assert "It covers the noisy count (ε = 1, δ = 10⁻⁵)" in successes(at)[0]


def test_results_table_and_download_for_each_mechanism(page):
    for mechanism in ("laplace", "analytic"):
        at = set_widget(page, page.radio, "gaussian_mechanism", mechanism)
        assert [b.proto.label for b in at.get("download_button")] == [
            "Download these results (ZIP: CSV, settings, charts)",
            "One-page report for a privacy board (HTML)",
        ]
    at.session_state["gaussian_table"] = True
    rows = rerun(at).dataframe[0].value
    assert rows["group"].tolist() == ["Diabetes", "Hepatitis", "Flu", "HIV"]
    np.testing.assert_allclose(rows["error"], rows["noisy count"] - rows["true count"], atol=0.01)
    np.testing.assert_allclose(rows["95% half-width"], round(Z95 * 3.7306, 2), atol=0.01)


def test_more_than_thirty_groups_show_the_largest_noisy_answers(page):
    at = set_widget(page, page.selectbox, "gaussian_dataset", "industry_groups")
    assert len(noisy_answers(at)) == 30
    assert "The chart shows the 30 largest noisy answers of 119" in texts(at)


# --- Secure releases ----------------------------------------------------------------------------


def test_a_secure_gaussian_release_uses_opendps_sigma_and_says_so(page):
    teaching = noisy_answers(page)["noisy"].to_numpy()
    at = set_widget(page, page.toggle, "gaussian_secure", True)
    opendp = opendp_gaussian_sigma(1.0, 1.0, 1e-5, length=4)
    assert _shown(opendp) == "4.045"  # OpenDP's zCDP conversion: above the analytic 3.731
    box = successes(at)[0]
    assert "OpenDP make_gaussian: discrete Gaussian" in box
    assert "OpenDP's σ = 4.045, larger than the analytic σ = 3.731 the charts use" in box
    assert metric(at, "OpenDP σ (this release)") == "4.045"
    assert metric(at, "Analytic σ (used by the charts)") == "3.731"
    assert metric(at, "95% half-width") == _shown(Z95 * opendp)
    np.testing.assert_allclose(noisy_answers(at)["half"], Z95 * opendp, rtol=1e-9)
    released = noisy_answers(at)["noisy"].to_numpy()
    assert not np.array_equal(released, teaching)
    rerun(at)  # a rerun shows the same release: redrawing would publish again
    np.testing.assert_array_equal(noisy_answers(at)["noisy"].to_numpy(), released)
    at.button(key="gaussian__release_again_button").click()
    rerun(at)
    assert not np.array_equal(noisy_answers(at)["noisy"].to_numpy(), released)
    assert "Download the release" in at.get("download_button")[0].proto.label
    at = section(at, SIGMA)
    assert "OpenDP's σ = 4.045" in texts(at)


def test_a_held_release_is_redrawn_when_the_cap_changes_the_sensitivity(page):
    at = set_widget(page, page.selectbox, "gaussian_dataset", "restaurant")
    at = set_widget(at, at.toggle, "gaussian_secure", True)
    first = noisy_answers(at)["noisy"].to_numpy()
    assert metric(at, "OpenDP σ") == _shown(
        opendp_gaussian_sigma(math.sqrt(7), 1.0, 1e-5, length=7)
    )
    at = set_widget(at, at.number_input, "gaussian_cap", 3)
    assert metric(at, "OpenDP σ") == _shown(
        opendp_gaussian_sigma(math.sqrt(3), 1.0, 1e-5, length=7)
    )
    assert not np.array_equal(noisy_answers(at)["noisy"].to_numpy(), first)


def test_a_secure_release_with_each_other_mechanism(page):
    at = set_widget(page, page.toggle, "gaussian_secure", True)
    at = set_widget(at, at.radio, "gaussian_mechanism", "laplace")
    box = successes(at)[0]
    assert "OpenDP make_laplace: discrete Laplace" in box and "Guarantee: 1-DP" in box
    assert "OpenDP's σ" not in box
    assert metric(at, "Noise standard deviation") == _shown(math.sqrt(2))
    at = set_widget(at, at.select_slider, EPS_SLIDER, 0.5)
    at = set_widget(at, at.radio, "gaussian_mechanism", "classic")
    box = successes(at)[0]
    assert f"the classic σ = {_shown(_classic(0.5, 1e-5))}" in box
    assert metric(at, "Classic σ (used by the charts)") == _shown(_classic(0.5, 1e-5))
    assert metric(at, "OpenDP σ (this release)") == _shown(
        opendp_gaussian_sigma(1.0, 0.5, 1e-5, length=4)
    )


def test_a_secure_mean_states_both_sigmas_of_both_halves(page):
    at = set_widget(page, page.selectbox, "gaussian_dataset", "restaurant")
    at = set_widget(at, at.radio, "gaussian_kind", "mean")
    at = set_widget(at, at.toggle, "gaussian_secure", True)
    box = successes(at)[0]
    sums = opendp_gaussian_sigma(math.sqrt(7) * 50, 0.5, 5e-6, length=7)
    counts = opendp_gaussian_sigma(math.sqrt(7), 0.5, 5e-6, length=7)
    analytic_sums = analytic_gaussian_sigma(math.sqrt(7) * 50, 0.5, 5e-6)
    assert f"noisy sums: {sums:,.4g} against {analytic_sums:,.4g}" in box
    assert f"noisy counts: {counts:,.4g}" in box
    noisy = noisy_answers(at)["noisy"].to_numpy()
    assert np.all((noisy >= 0) & (noisy <= 50))


# --- The user's own file ------------------------------------------------------------------------
# 401 patients: p1 has 3 rows; p2..p400 one each, Flu or Cold; "Rare" is held by p401 alone.
PATIENTS = (
    "patient_id,diagnosis,cost\np1,Flu,10\np1,Flu,12\np1,Cold,5\n"
    + "".join(f"p{i},{'Flu' if i % 2 else 'Cold'},{i % 30}\n" for i in range(2, 401))
    + "p401,Rare,40\n"
).encode()


def own(at):
    upload_file(at, "gaussian", PATIENTS, "patients.csv")
    return at


def type_cap(at, cap: int):
    """Type the cap into its empty box, as a careful user fixes it in advance."""
    next(n for n in at.number_input if n.key == "gaussian_cap").set_value(cap)
    return rerun(at)


def test_own_file_declared_categories_are_released_whatever_the_file_holds(page):
    at = own(page)
    assert "up to 3 rows share one `patient_id`" in texts(at)
    assert any("Type the categories to release" in i.value for i in at.info)
    area = next(t for t in at.text_area if t.key.endswith("_cats"))
    area.set_value("Flu\nCold\nMeasles")
    rerun(at)
    (statement,) = not_private(at)  # the empty cap box: p1's 3 rows, read from the data
    assert READ_CAP in statement and READ_CATEGORIES not in statement and not problems(at)
    assert "each person (`patient_id`, with all their rows)" in statement
    type_cap(at, 3)  # the same number, typed: fixed in advance
    assert not at.error
    shown = noisy_answers(at)
    assert shown.index.tolist() == ["Flu", "Cold", "Measles"]  # Measles: a noisy zero
    assert shown.loc["Measles", "true"] == 0
    assert "1 rows hold a value that is not declared" in texts(at)
    assert "Rare" not in texts(at)  # a value outside the domain is never shown
    assert "Guarantee: (1, 10⁻⁵)-DP" in successes(at)[0]
    assert "each person (`patient_id`, with all their rows)" in successes(at)[0]


def test_own_file_partition_selection_hides_the_one_person_category_and_counts_its_cost(page):
    at = own(page)
    mode = next(r for r in at.radio if r.key.endswith("_cats_mode"))
    mode.set_value("selected")
    rerun(at)
    (statement,) = not_private(at)  # the empty cap box; categories chosen with DP are not read
    assert READ_CAP in statement and READ_CATEGORIES not in statement and not problems(at)
    type_cap(at, 3)
    assert not at.error
    shown = noisy_answers(at)
    assert "Rare" not in shown.index  # one person: kept with probability at most delta
    assert set(shown.index) == {"Flu", "Cold"}
    box = successes(at)[0]
    assert "which categories are shown (ε = 0.5, δ = 10⁻⁶)" in box
    assert "the 2 noisy counts (ε = 1, δ = 10⁻⁵)" in box
    assert "Guarantee: (1.5, 1.1×10⁻⁵)-DP" in box
    assert "suppressed" in texts(at)
    at = section(at, DELTA)
    assert "n = 401 people" in texts(at)


def test_a_closed_settings_box_keeps_an_own_file_and_its_dp_selection_without_drawing_them(page):
    """On a projector the selection's ε and δ, the cap and the upload stay in force while the
    box is closed: no slider, typed box or number box of theirs is sent."""
    at = own(page)
    next(r for r in at.radio if r.key.endswith("_cats_mode")).set_value("selected")
    at = type_cap(rerun(at), 3)
    box = successes(at)[0]
    at.session_state["present"] = True
    at = rerun(at)
    assert [s.key for s in at.main.select_slider] == [EPS_SLIDER, DELTA_SLIDER]
    assert [t.key for t in at.main.text_input] == [EPS_TEXT, DELTA_TEXT]
    assert not at.main.number_input and not at.main.radio[1:]  # the mechanism's radio alone
    assert successes(at)[0] == box and "Guarantee: (1.5, 1.1×10⁻⁵)-DP" in box
    assert set(noisy_answers(at).index) == {"Flu", "Cold"}


def test_presenter_mode_folds_the_data_controls_and_keeps_the_sliders_in_view():
    at = open_page("gaussian", query={"present": "1"})
    assert "Data, query and noise" in [e.label for e in at.expander]
    assert [s.key for s in at.select_slider][:2] == [EPS_SLIDER, DELTA_SLIDER]
    assert metric(at, "Noise standard deviation") == "3.731"


def test_folded_controls_are_read_not_drawn_and_opening_draws_them_at_the_same_values():
    """A closed settings box sends no widget, caption or data card (ui.common.folding), yet the
    page computes with its settings: here a link's restaurant week (L2 sensitivity √7)."""
    at = open_page("gaussian", query={"present": "1", "gaussian_dataset": "restaurant"})
    folded = next(e for e in at.expander if e.label == "Data, query and noise")
    assert not folded.children  # nothing drawn inside: no toggle, select box, caption or card
    assert not at.main.selectbox and not at.main.toggle
    sigma = _shown(math.sqrt(7) * get_sigma_gaussian(1.0, 1e-5))
    assert "L2 sensitivity 2.646" in texts(at) and metric(at, "Noise standard deviation") == sigma
    assert at.query_params["gaussian_dataset"] == "restaurant"  # the link is kept
    at.session_state["settings_area"] = True  # opened: every control, at the link's values
    at = rerun(at)
    assert widget(at.selectbox, "gaussian_dataset").value == "restaurant"
    assert not widget(at.toggle, "gaussian_secure").value
    assert metric(at, "Noise standard deviation") == sigma
    at = set_widget(at, at.selectbox, "gaussian_dataset", "diseases")
    at.session_state["settings_area"] = False  # closed again: the choice made inside holds
    at = rerun(at)
    assert not at.main.selectbox and metric(at, "Noise standard deviation") == "3.731"


# --- The address ----------------------------------------------------------------------------------
LINK = {
    "gaussian_epsilon": "0.5",
    "gaussian_delta": "1e-06",
    "gaussian_mechanism": "classic",
    "gaussian_k": "20",
}


def _assert_same_view(first, second) -> None:
    """The same metrics, boxes and chart data (every dataset of every chart)."""
    assert [(m.label, m.value) for m in first.metric] == [(m.label, m.value) for m in second.metric]
    assert [s for s in successes(first)] == [s for s in successes(second)]
    first_charts, second_charts = charts(first), charts(second)
    assert len(first_charts) == len(second_charts) > 0
    for (_, one), (_, other) in zip(first_charts, second_charts, strict=True):
        assert list(one) == list(other)
        for name in one:
            pd.testing.assert_frame_equal(one[name], other[name])


def test_a_link_with_the_settings_shows_what_moving_the_controls_shows(page):
    linked = open_page("gaussian", query={**LINK, "gaussian_section": "k"})
    assert widget(linked.radio, "gaussian_mechanism").value == "classic"
    assert widget(linked.slider, "gaussian_k").value == 20
    assert linked.query_params["gaussian_mechanism"] == "classic"  # the key, not the label
    moved = set_widget(page, page.select_slider, EPS_SLIDER, 0.5)
    moved = set_widget(moved, moved.text_input, DELTA_TEXT, "1e-6")
    moved = set_widget(moved, moved.radio, "gaussian_mechanism", "classic")
    moved = set_widget(section(moved, K), moved.slider, "gaussian_k", 20)
    assert "For k = 20, pick the Gaussian mechanism" in advice(linked)
    _assert_same_view(linked, moved)
    linked, moved = section(linked, ANSWERS), section(moved, ANSWERS)
    assert metric(linked, "Noise standard deviation") == _shown(_classic(0.5, 1e-6))
    _assert_same_view(linked, moved)
    np.testing.assert_array_equal(noisy_answers(linked)["noisy"], noisy_answers(moved)["noisy"])


def test_a_link_keeps_the_mechanism_in_any_language_and_the_secure_release():
    at = open_page("gaussian", query={"lang": "de", "gaussian_mechanism": "laplace"})
    assert widget(at.radio, "gaussian_mechanism").value == "laplace"
    assert metric(at, "Standardabweichung des Rauschens") == "1,414"  # √2 · 1 / 1
    at = open_page("gaussian", query={"gaussian_secure": "true", "gaussian_mechanism": "nonsense"})
    assert widget(at.toggle, "gaussian_secure").value is True
    assert widget(at.radio, "gaussian_mechanism").value == "analytic"  # a bad value: the default
    assert metric(at, "OpenDP σ (this release)") == _shown(
        opendp_gaussian_sigma(1, 1, 1e-5, length=4)
    )


# --- Languages ------------------------------------------------------------------------------------


def test_german_writes_decimal_commas_and_its_own_words():
    at = open_page("gaussian", query={"lang": "de"})
    assert metric(at, "Standardabweichung des Rauschens") == "3,731"
    assert metric(at, "95-%-Halbbreite (exakt)") == "7,312"
    assert widget(at.radio, "gaussian_mechanism").options == [
        "Laplace (reine ε-DP)",
        "Klassischer Gauß",
        "Analytischer Gauß",
    ]
    assert "Mechanismus „analytischer Gauß“ bei ε = 1 und δ = 10⁻⁵" in texts(at)
    assert "Verrauscht (± 95 % des Rauschens)" in set(chart_data(at, "bars")["series"])


# --- Exports --------------------------------------------------------------------------------------


def _archive(built_downloads) -> zipfile.ZipFile:
    (name,) = [
        n for n in built_downloads if n.startswith("gaussian_diseases") and n.endswith(".zip")
    ]
    return zipfile.ZipFile(io.BytesIO(built_downloads[name]))


def test_the_exported_csv_opens_with_pandas_as_the_table_on_screen(page, built_downloads):
    at = set_widget(page, page.select_slider, EPS_SLIDER, 0.5)
    at.session_state["gaussian_table"] = True
    shown = rerun(at).dataframe[0].value
    archive = _archive(built_downloads)
    stem = "gaussian_diseases_epsilon-0.5_delta-1e-05"
    assert {f"{stem}.csv", f"{stem}.json", "charts/answers.svg", "charts/answers.png"} <= set(
        archive.namelist()
    )
    table = pd.read_csv(io.BytesIO(archive.read(f"{stem}.csv")))  # no options
    pd.testing.assert_frame_equal(table, shown)
    relative = 100 * (table["noisy count"] - table["true count"]).abs() / table["true count"]
    np.testing.assert_allclose(table["relative error (%)"], relative, rtol=1e-3)  # percent
    assert table["relative error (%)"].max() > 1  # a percentage, not a fraction
    settings = json.loads(archive.read(f"{stem}.json"))
    assert settings["mechanism"] == "Analytic Gaussian" and settings["epsilon"] == "0.5"
    assert settings["dataset"] and "Guarantee: (0.5, 10⁻⁵)-DP" in settings["guarantee"]
    (name,) = [n for n in built_downloads if n.endswith("_report.html")]
    report = built_downloads[name]
    assert "What does delta buy" in report and "relative error (%)" in report


def test_the_exported_csv_is_in_the_readers_language(built_downloads):
    at = open_page("gaussian", query={"lang": "ja"})
    assert not at.exception
    archive = _archive(built_downloads)
    name = next(n for n in archive.namelist() if n.endswith(".csv"))
    table = pd.read_csv(io.BytesIO(archive.read(name)))
    assert list(table.columns)[:1] == ["グループ"]
    assert {"誤差", "相対誤差（%）", "95% 半幅"} <= set(table.columns)
    settings = json.loads(archive.read(name.replace(".csv", ".json")))
    assert settings["メカニズム"] == "解析的ガウス"


def test_without_vl_convert_the_browser_draws_the_exports_charts(built_downloads, monkeypatch):
    """vl-convert is an optional extra: with it the report embeds its charts as SVG; without
    it the report and the ZIP carry each chart's spec for the reader's browser to draw, and
    the page names the pip command for SVG and PNG files."""
    command = 'pip install "vl-convert-python==1.9.0.post1"'

    def report() -> str:
        (name,) = [n for n in built_downloads if n.endswith("_report.html")]
        return built_downloads.pop(name)

    at = open_page("gaussian")
    drawn = report().count("<svg")
    assert drawn >= 1 and command not in texts(at)
    monkeypatch.setitem(sys.modules, "vl_convert", None)  # "import vl_convert" fails
    at = open_page("gaussian")
    assert not at.exception and command in texts(at)
    charts = [n for n in _archive(built_downloads).namelist() if n.startswith("charts/")]
    assert charts and all(name.endswith(".html") for name in charts)
    scripted = report()
    assert "<svg" not in scripted and command not in html.unescape(scripted)
    assert scripted.count('<figure><script type="application/json">') == drawn


# --- Exercises ------------------------------------------------------------------------------------


def _reveal(at, key: str) -> str:
    at.session_state[f"exercise_{key}"] = True
    rerun(at)
    widget(at.toggle, f"exercise_{key}_show").set_value(True)
    return rerun(at).info[-1].value


def _verdict(at, elements, key: str, given) -> str:
    widget(elements, f"exercise_{key}_given").set_value(given)
    rerun(at)
    if any(s == "Right." for s in successes(at)):
        return "right"
    assert any("Not quite" in w.value for w in at.warning)
    return "wrong"


def test_the_delta_exercise_is_false_and_quotes_the_ends_of_the_sigma_chart(page):
    at = section(page, SIGMA)
    curves = chart_data(at, "curves")
    analytic = curves[curves["series"] == "analytic Gaussian σ"]["sigma"].to_numpy()
    answer = _reveal(at, "gaussian.smaller_delta")
    assert answer.startswith("False")
    assert f"is {_shown(analytic[0])} at δ = 10⁻¹² and {_shown(analytic[-1])} at δ = 10⁻²" in answer
    assert _verdict(at, at.radio, "gaussian.smaller_delta", "false") == "right"
    assert _verdict(at, at.radio, "gaussian.smaller_delta", "true") == "wrong"


def test_the_doubling_exercise_is_the_ratio_of_the_two_analytic_sigmas_shown(page):
    at = section(page, SIGMA)
    at = set_widget(at, at.select_slider, EPS_SLIDER, 0.5)
    half = metric(at, "Analytic σ")
    at = set_widget(at, at.select_slider, EPS_SLIDER, 1.0)
    full = metric(at, "Analytic σ")
    answer = _reveal(at, "gaussian.double_epsilon")
    assert f"is {half} at ε = 0.5 and {full} at ε = 1" in answer
    ratio = float(half) / float(full)
    assert answer.startswith(f"By a factor of {ratio:.3f}")
    key = "gaussian.double_epsilon"
    assert _verdict(at, at.number_input, key, round(ratio, 2)) == "right"
    assert _verdict(at, at.number_input, key, 2.0) == "wrong"  # not halved


def test_the_other_name_exercise_is_the_normal_distribution_with_the_captions_sigma(page):
    # the German notebook's control question: the Gaussian is also the normal distribution
    at = section(page, NOISE)
    sigma, half = re.search(r"Gaussian σ = (\S+): 95% within ±(\S+) \(exact\)", texts(at)).groups()
    answer = _reveal(at, "gaussian.other_name")
    assert answer.startswith("The normal distribution, N(0, σ²)")
    assert f"σ = {sigma}, so 95% of the draws lie within ±{half}." in answer
    assert _verdict(at, at.radio, "gaussian.other_name", "normal") == "right"
    assert _verdict(at, at.radio, "gaussian.other_name", "laplace") == "wrong"
    german = section(open_page("gaussian", query={"lang": "de"}), "3. Laplace- vs. Gauß-Rauschen")
    assert _reveal(german, "gaussian.other_name").startswith("Die Normalverteilung, N(0, σ²)")
    assert "Übung: Wie heißt die Gauß-Verteilung auch?" in [e.label for e in german.expander]
    assert widget(german.radio, "exercise_gaussian.other_name_given").options == [
        "die Normalverteilung",
        "die Laplace-Verteilung",
        "die Gleichverteilung",
    ]


def test_the_many_statistics_exercise_names_the_mechanism_the_k_section_picks(page):
    at = set_widget(section(page, K), page.slider, "gaussian_k", 20)
    gaussian_std, laplace_std = re.search(
        r"standard deviation (\S+), against (\S+) for Laplace", advice(at)
    ).groups()
    answer = _reveal(at, "gaussian.many")
    assert answer.startswith("Gauss, at ε = 1 and δ = 10⁻⁵")
    assert f"{gaussian_std} with the analytic Gaussian against {laplace_std} with Laplace" in answer
    assert _verdict(at, at.radio, "gaussian.many", "gaussian") == "right"
    assert _verdict(at, at.radio, "gaussian.many", "laplace") == "wrong"
    at = set_widget(at, at.select_slider, DELTA_SLIDER, 1e-12)  # so small a δ: Laplace wins
    assert "For k = 20, pick the Laplace mechanism" in advice(at)
    laplace_std, gaussian_std = re.search(
        r"standard deviation (\S+), against (\S+) for the analytic", advice(at)
    ).groups()
    answer = at.info[-1].value
    assert answer.startswith("Laplace, at ε = 1 and δ = 10⁻¹²")
    assert f"{laplace_std} with Laplace against {gaussian_std} with the analytic" in answer
    assert _verdict(at, at.radio, "gaussian.many", "laplace") == "right"


# --- Presets from the teaching material ---------------------------------------------------------
def test_the_presets_are_named_in_the_readers_language():
    at = open_page("gaussian")
    labels = {b.key: b.label for b in at.button}
    assert labels["gaussian__preset_classic"] == (
        "Classic Gaussian, ε = 0.1, δ = 10⁻⁴ (Swiss notebooks)"
    )
    german = {b.key: b.label for b in open_page("gaussian", query={"lang": "de"}).button}
    assert german["gaussian__preset_laplace_or_gauss"] == (
        "Laplace oder Gauß? ε = 1, δ = 10⁻⁵, k = 7 (Schweizer Lehr-Notebooks)"
    )


def test_the_classic_preset_gives_the_notebooks_sigma_of_43_4():
    """shared/README (Swiss notebooks): the classic σ = √(2 ln(1.25/δ)) · s / ε of a count at
    ε = 0.1, δ = 10⁻⁴ is 43.4, and the mean absolute error about 35."""
    at = open_page("gaussian")
    widget(at.selectbox, "gaussian_dataset").set_value("restaurant")
    rerun(at)
    at = set_widget(at, at.radio, "gaussian_mechanism", "laplace")
    at = set_widget(at, at.select_slider, EPS_SLIDER, 2.0)
    at = click_preset(at, "gaussian", "classic")
    assert widget(at.selectbox, "gaussian_dataset").value == "diseases"
    assert widget(at.radio, "gaussian_kind").value == "count"
    assert widget(at.selectbox, "gaussian_category").value == "disease"
    assert widget(at.select_slider, EPS_SLIDER).value == 0.1
    assert widget(at.select_slider, DELTA_SLIDER).value == 1e-4
    assert widget(at.radio, "gaussian_mechanism").value == "classic"
    address = dict(at.query_params)
    assert {k: address.get(k) for k in ("gaussian_epsilon", "gaussian_delta")} == {
        "gaussian_epsilon": "0.1",
        "gaussian_delta": "0.0001",
    }
    assert address["gaussian_mechanism"] == "classic"
    for key in ("gaussian_dataset", "gaussian_kind", "gaussian_category"):  # at their defaults
        assert key not in address, key
    sigma = _classic(0.1, 1e-4)
    assert round(sigma, 1) == 43.4
    assert metric(at, "Noise standard deviation") == _shown(sigma) == "43.44"
    assert metric(at, "Expected |error|") == "34.66"  # σ·√(2/π): "about 35"
    assert round(sigma * math.sqrt(2 / math.pi)) == 35
    assert noisy_answers(at)["true"].tolist() == [24, 8, 28, 5]
    at = set_widget(at, at.radio, "gaussian_mechanism", "analytic")
    assert "gaussian_mechanism" not in at.query_params  # analytic: no longer the example's


def test_the_laplace_or_gauss_preset_breaks_even_near_7_statistics():
    """shared/README (Swiss notebooks): at ε = 1, δ = 10⁻⁵ Laplace adds less noise when one
    person changes fewer than about 7 statistics; beyond that Gaussian wins."""
    at = section(open_page("gaussian"), K)
    at = set_widget(at, at.slider, "gaussian_k", 20)
    at = set_widget(at, at.select_slider, EPS_SLIDER, 0.1)
    at = set_widget(at, at.text_input, DELTA_TEXT, "1e-8")
    at = set_widget(at, at.radio, "gaussian_mechanism", "classic")
    at = click_preset(at, "gaussian", "laplace_or_gauss")
    assert widget(at.slider, "gaussian_k").value == 7
    assert widget(at.select_slider, EPS_SLIDER).value == 1.0
    assert widget(at.select_slider, DELTA_SLIDER).value == 1e-5
    assert widget(at.radio, "gaussian_mechanism").value == "analytic"
    address = dict(at.query_params)
    assert {k: address.get(k) for k in ("gaussian_epsilon", "gaussian_delta", "gaussian_k")} == {
        "gaussian_epsilon": "1",
        "gaussian_delta": "1e-05",
        "gaussian_k": "7",
    }
    assert "gaussian_mechanism" not in address  # analytic: the default
    assert metric(at, "Break-even k") == "6.96"
    assert metric(at, "Gaussian noise is smaller from k =") == "7"
    assert "For k = 7, pick the Gaussian mechanism" in advice(at)
    at = set_widget(at, at.slider, "gaussian_k", 6)
    assert "For k = 6, pick the Laplace mechanism" in advice(at)
    assert at.query_params["gaussian_k"] == "6"  # no longer the example's k = 7
