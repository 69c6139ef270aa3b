"""The attacker page through AppTest: numbers shown at both ends of every slider, in every
section, bad input, the floating-point attack, and which parts rerun when a slider moves."""

from __future__ import annotations

import io
import math
import re
import zipfile

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import (
    chart_data,
    charts,
    metric,
    open_page,
    rerun,
    set_widget,
    successes,
    texts,
    widget,
)
from dp_accounting.gaussian_mechanism import get_sigma_gaussian
from dp_accounting.pld import privacy_loss_distribution as pld
from dp_accounting.pld.common import DifferentialPrivacyParameters
from fragment_helpers import ran_fragments, run_fragment
from scipy import stats

from dp_core.floating_point_attack import lattice_reachable, reachable

EPS_SLIDER, EPS_TEXT = "attacker_epsilon", "attacker_epsilon__text"
DELTA_SLIDER, DELTA_TEXT = "attacker_delta", "attacker_delta__text"
GUESS, TEST, RELEASES, FLOATING = (
    "1. The attacker's guess",
    "2. The best membership test",
    "3. Many releases",
    "4. The floating-point attack",
)
# dp-accounting's PLD of the Gaussian mechanism, the reference for the exact total: a grid of
# 1e-4 gives the epsilon of 1e-5 to 1e-6 relative (k = 10 and 1,000) at a tenth of the CPU.
GRID = 1e-4
SLACK = math.log(10 / 9)  # (eps, delta)-DP: loss beyond eps + ln(10/9) has chance <= 10 delta


def _posterior(prior: float, eps: float) -> float:
    return prior * math.exp(eps) / (prior * math.exp(eps) + 1 - prior)


def _as_shown(p: float, shown: str) -> str:
    """p as a percentage with as many decimals as ``shown`` has."""
    return f"{p:.{len(shown.rstrip('%').partition('.')[2])}%}"


def _number(shown: str) -> float:
    return float(shown.replace(",", ""))


def _delta_line(at, label_start: str) -> str:
    """The small line under the metric whose label starts with label_start."""
    return next(m.delta for m in at.metric if m.label.startswith(label_start))


def section(at, label: str):
    """Open a section's tab (only the open section runs)."""
    at.session_state["attacker__section"] = label
    return rerun(at)


def curve(at, dataset: str, name_start: str, x: str, y: str) -> tuple[np.ndarray, np.ndarray]:
    """One series of a chart's long dataset: its x and y values."""
    frame = chart_data(at, dataset)
    rows = frame[frame["series"].str.startswith(name_start)]
    assert len(rows), f"no series starting {name_start!r}: {frame['series'].unique()}"
    return rows[x].to_numpy(dtype=float), rows[y].to_numpy(dtype=float)


ROWS = {
    "Basic": "basic composition",
    "Advanced": "advanced composition",
    "Optimal": "optimal composition",
    "zCDP": "zero-concentrated DP",
    "PLD": "privacy loss distributions",
    "Gaussian": "the exact accounting of the Gaussian",
}


def totals_table(at):
    """Section 3's table of totals at k, as shown (one row per accounting)."""
    table = next(d.value for d in at.dataframe if "accounting" in d.value.columns)
    return table.set_index("accounting")


def total(at, row: str) -> str:
    """The total ε the table shows for one accounting (a key of ROWS)."""
    table = totals_table(at)
    name = next(n for n in table.index if n.startswith(ROWS[row]))
    return table.loc[name, "total ε"]


def series_names(at, *datasets: str) -> list[str]:
    return [name for d in datasets for name in chart_data(at, d)["series"].unique()]


@pytest.fixture(scope="module")
def default_page():
    return open_page("attacker")


@pytest.fixture
def page():
    return open_page("attacker")


def test_defaults_posterior_advantage_and_composition(page):
    at = page
    assert f"{_posterior(0.5, 1):.3f}" == "0.731"
    # delta > 0: the metrics hold on all outputs but a 10 delta chance, at eps + ln(10/9)
    assert metric(at, "Highest posterior") == f"{_posterior(0.5, 1 + SLACK):.1%}" == "75.1%"
    assert metric(at, "Lowest posterior") == "24.9%"
    assert metric(at, "Odds on") == "×3.02"
    assert "73.1%" in _delta_line(at, "Highest posterior")  # the eps bound, labelled
    assert "26.9%" in _delta_line(at, "Lowest posterior")
    assert "×2.72" in _delta_line(at, "Odds on")
    shown = texts(at)
    assert "50% chance of being in the data" in shown and "at most 75.1% sure" in shown
    assert "The bound at ε itself, 73.1%, holds for every output only when δ = 0" in shown
    # delta = 1e-5: the caveat states the Markov bound at eps + ln(10/9), failing chance 10 delta
    caveat = " ".join(w.value for w in at.warning)
    assert "10δ = 10⁻⁴" in caveat and f"{_posterior(0.5, 1 + math.log(10 / 9)):.1%}" in caveat
    # best test at a 50/50 prior: (1 + (e - 1 + 2 delta) / (e + 1)) / 2
    section(at, TEST)
    e = math.e
    assert metric(at, "Best accuracy of any test") == f"{(1 + (e - 1 + 2e-5) / (e + 1)) / 2:.1%}"
    assert metric(at, "Laplace count: best accuracy") == f"{1 - math.exp(-0.5) / 2:.1%}" == "69.7%"
    sigma = get_sigma_gaussian(1.0, 1e-5)
    assert metric(at, "Gaussian count: best accuracy") == f"{stats.norm.cdf(0.5 / sigma):.1%}"
    # k = 10 releases, delta' = 1e-6
    section(at, RELEASES)
    shown = texts(at)
    assert total(at, "Basic") == "10"
    advanced = math.sqrt(2 * 10 * math.log(1e6)) + 10 * (e - 1)
    assert total(at, "Advanced") == f"{advanced:.4g}" == "33.81"
    exact = pld.from_gaussian_mechanism(sigma, value_discretization_interval=GRID).self_compose(10)
    shown_gaussian = _number(total(at, "Gaussian"))
    assert shown_gaussian == pytest.approx(exact.get_epsilon_for_delta(10 * 1e-5 + 1e-6), rel=2e-3)
    assert "the exact accounting of the Gaussian mechanism gives less" in shown
    # the optimal total is within 0.01% of k eps here, at a larger delta: basic wins the tie
    assert _number(total(at, "Optimal")) == pytest.approx(10, rel=1e-4)
    assert "for any (1, 10⁻⁵)-DP mechanisms, basic composition (k·ε) gives the best total" in shown
    assert f"at most {_posterior(0.5, shown_gaussian + SLACK):.1%} sure" in shown
    assert "except on outputs whose total chance is at most 10δ = 1.01×10⁻³" in shown
    assert metric(at, "Noise on the average of 10") == f"{sigma / math.sqrt(10):.4g}"
    assert metric(at, "Accuracy from the average of 10") == (
        f"{stats.norm.cdf(math.sqrt(10) / (2 * sigma)):.1%}"
    )


def test_figures_carry_the_exact_curves(page):
    at = page
    priors, upper = curve(at, "curves", "highest", "prior", "posterior")  # all but 10 delta
    middle = np.argmin(np.abs(priors - 0.5))
    assert upper[middle] == pytest.approx(_posterior(0.5, 1 + SLACK))
    assert upper == pytest.approx(_posterior(priors, 1 + SLACK))
    _, epsilon_bound = curve(at, "curves", "ε bound", "prior", "posterior")  # dashed
    assert epsilon_bound[middle] == pytest.approx(math.e / (1 + math.e))
    band = chart_data(at, "band")  # the shaded area between the two curves that hold
    assert band["high"].to_numpy() == pytest.approx(upper)
    section(at, TEST)
    alphas, ceiling = curve(at, "roc", "ceiling", "fpr", "tpr")
    formula = np.minimum.reduce(
        [np.ones_like(alphas), math.e * alphas + 1e-5, 1 - (1 - 1e-5 - alphas) / math.e]
    )
    assert ceiling == pytest.approx(formula, abs=1e-12)
    _, laplace = curve(at, "roc", "Laplace count", "fpr", "tpr")
    grid = np.linspace(-10, 10, 20_001)
    exact_fpr, exact_tpr = stats.laplace.sf(grid), stats.laplace.sf(grid, loc=1)
    assert laplace == pytest.approx(np.interp(alphas, exact_fpr[::-1], exact_tpr[::-1]), abs=2e-3)
    fpr, tpr = curve(at, "simulated", "Laplace: simulated", "fpr", "tpr")
    assert len(fpr) == 11
    assert np.all(np.abs(tpr - np.interp(fpr, exact_fpr[::-1], exact_tpr[::-1])) < 0.06)
    section(at, RELEASES)
    ks, basic = curve(at, "totals", "basic", "k", "epsilon")
    assert ks[0] == 1 and ks[-1] == 1000
    assert basic == pytest.approx(ks)
    assert chart_data(at, "k_now")["label"].tolist() == ["k = 10"]


def test_the_chart_specs_do_not_change_with_the_sliders(page):
    # Only the named datasets move between slider steps, so the browser swaps data only.
    before = [spec for spec, _ in charts(page)]
    at = set_widget(page, page.select_slider, EPS_SLIDER, 0.1)
    at = set_widget(at, at.slider, "attacker_prior", 0.2)
    assert [spec for spec, _ in charts(at)] == before
    section(at, RELEASES)
    before = [spec for spec, _ in charts(at)]
    at = set_widget(at, at.select_slider, "attacker_k", 1000)
    assert [spec for spec, _ in charts(at)] == before


@pytest.mark.parametrize(
    ("eps", "high", "low", "laplace_accuracy"),
    [(0.01, "50.2%", "49.8%", "50.2%"), (10.0, "99.9955%", "0.0045%", "99.66%")],
)
def test_epsilon_slider_at_both_ends(page, eps, high, low, laplace_accuracy):
    at = set_widget(page, page.select_slider, EPS_SLIDER, eps)
    assert f"ε bound {high}:" in _delta_line(at, "Highest posterior")
    assert high == _as_shown(_posterior(0.5, eps), high)
    assert f"ε bound {low}:" in _delta_line(at, "Lowest posterior")
    shown = metric(at, "Highest posterior")
    assert shown == _as_shown(_posterior(0.5, eps + SLACK), shown)
    section(at, TEST)
    assert metric(at, "Laplace count: best accuracy") == laplace_accuracy
    alphas, ceiling = curve(at, "roc", "ceiling", "fpr", "tpr")
    assert ceiling == pytest.approx(
        np.minimum.reduce(
            [
                np.ones_like(alphas),
                math.exp(eps) * alphas + 1e-5,
                1 - math.exp(-eps) * (1 - 1e-5 - alphas),
            ]
        ),
        abs=1e-12,
    )
    section(at, RELEASES)
    assert total(at, "Basic") == f"{10 * eps:.4g}"


@pytest.mark.parametrize(
    ("prior", "high", "low"), [(0.01, "2.7%", "0.37%"), (0.99, "99.63%", "97.3%")]
)
def test_prior_slider_near_the_ends(page, prior, high, low):
    at = set_widget(page, page.slider, "attacker_prior", prior)
    assert f"ε bound {high}:" in _delta_line(at, "Highest posterior")
    assert f"ε bound {low}:" in _delta_line(at, "Lowest posterior")
    assert high == _as_shown(_posterior(prior, 1), high)
    assert low == _as_shown(_posterior(prior, -1), low)
    shown_high, shown_low = metric(at, "Highest posterior"), metric(at, "Lowest posterior")
    assert shown_high == _as_shown(_posterior(prior, 1 + SLACK), shown_high)
    assert shown_low == _as_shown(_posterior(prior, -1 - SLACK), shown_low)
    assert f"{prior:.0%} chance of being in the data" in texts(at)
    assert chart_data(at, "prior")["label"].tolist() == [f"prior {prior:.0%}"]


@pytest.mark.parametrize(("prior", "side"), [(0.0, "out"), (1.0, "in")])
def test_certain_prior_has_nothing_to_learn(page, prior, side):
    at = set_widget(page, page.slider, "attacker_prior", prior)
    warnings = " ".join(w.value for w in at.warning)
    assert f"already certain Alice is {side}" in warnings and "nothing to learn" in warnings
    assert "chance of being in the data" not in texts(at)
    assert metric(at, "Highest posterior") == metric(at, "Lowest posterior") == f"{prior:.0%}"
    assert len(charts(at)) == 1
    section(at, RELEASES)  # no posterior statement for the total either
    assert "What that total means to the attacker" not in texts(at)
    assert total(at, "Basic") == "10"


def test_pure_dp_toggle(page):
    at = set_widget(page, page.toggle, "attacker_pure", True)
    assert not any(s.key == DELTA_SLIDER for s in at.select_slider)
    assert not at.warning
    assert metric(at, "Highest posterior after any output") == "73.1%"
    assert "unless the output" not in texts(at)
    section(at, TEST)
    assert metric(at, "Best accuracy of any test") == "73.1%"  # = e / (1 + e), the posterior
    assert "equals the posterior bound at a 50% prior, 73.1%" in texts(at)
    labels = [m.label for m in at.metric]
    assert not any(label.startswith("Gaussian") for label in labels)
    # diagonal, ceiling, Laplace, simulated Laplace: no Gaussian curve or simulation
    assert len(series_names(at, "roc", "simulated")) == 4
    assert not any(name.startswith("Gaussian") for name in series_names(at, "roc", "simulated"))
    section(at, RELEASES)
    assert total(at, "Advanced") == f"{math.sqrt(20 * math.log(1e6)) + 10 * (math.e - 1):.4g}"
    assert "basic composition (k·ε) gives the best total: ε = 10 (δ = 0)" in texts(at)
    assert metric(at, "Any test on 10 answers") == f"{_posterior(0.5, 10):.4%}"
    assert metric(at, "Noise on one answer (Laplace std)") == f"{math.sqrt(2):.4g}"
    assert "The Gaussian curve needs δ > 0" in texts(at)
    assert "Gaussian mechanism, exact" not in series_names(at, "totals")


@pytest.mark.parametrize(("k", "tightest"), [(1, "exact accounting"), (1000, "exact accounting")])
def test_k_slider_at_both_ends(page, k, tightest):
    at = section(page, RELEASES)
    at = set_widget(at, at.select_slider, "attacker_k", k)
    sigma = get_sigma_gaussian(1.0, 1e-5)
    total_delta = k * 1e-5 + 1e-6
    assert total(at, "Basic") == f"{k:,.4g}"  # grouped: 1,000
    advanced = math.sqrt(2 * k * math.log(1e6)) + k * (math.e - 1)
    assert total(at, "Advanced") == f"{advanced:,.4g}"
    exact = pld.from_gaussian_mechanism(sigma, value_discretization_interval=GRID).self_compose(k)
    assert _number(total(at, "Gaussian")) == pytest.approx(
        exact.get_epsilon_for_delta(total_delta), rel=2e-3
    )
    assert tightest in texts(at)
    assert metric(at, f"Noise on the average of {k:,}") == f"{sigma / math.sqrt(k):.4g}"
    assert chart_data(at, "k_now")["label"].tolist() == [f"k = {k:,}"]


def test_small_epsilon_many_releases_advanced_beats_basic_and_optimal_wins(page):
    at = set_widget(page, page.toggle, "attacker_pure", True)
    at = set_widget(at, at.select_slider, EPS_SLIDER, 0.1)
    section(at, RELEASES)
    at = set_widget(at, at.select_slider, "attacker_k", 1000)
    advanced = math.sqrt(2 * 1000 * math.log(1e6)) * 0.1 + 100 * math.expm1(0.1)
    assert total(at, "Advanced") == f"{advanced:.4g}" == "27.14"
    shown = texts(at)
    assert "Advanced composition is below k·ε here" in shown
    # k* = 2 ln(1e6) / (2 - e^0.1)^2 (Dwork & Roth Thm 3.20 solved for k)
    assert f"= {2 * math.log(1e6) / (2 - math.exp(0.1)) ** 2:,.1f}" in shown
    one = pld.from_privacy_parameters(DifferentialPrivacyParameters(0.1, 0.0))
    optimal = one.self_compose(1000).get_epsilon_for_delta(1e-6)
    assert _number(total(at, "Optimal")) == pytest.approx(optimal, rel=1e-3)
    shown_optimal = total(at, "Optimal")
    best = "optimal composition (Kairouz, Oh & Viswanath) gives the best total: ε = "
    assert best + shown_optimal in shown
    at = set_widget(at, at.select_slider, "attacker_delta_prime", 1e-12)
    advanced = math.sqrt(2 * 1000 * math.log(1e12)) * 0.1 + 100 * math.expm1(0.1)
    assert total(at, "Advanced") == f"{advanced:.4g}"
    at = set_widget(at, at.select_slider, "attacker_delta_prime", 1e-3)
    assert total(at, "Advanced") == (
        f"{math.sqrt(2 * 1000 * math.log(1e3)) * 0.1 + 100 * math.expm1(0.1):.4g}"
    )


def test_void_total_delta_is_explained(page):
    at = set_widget(page, page.select_slider, DELTA_SLIDER, 1e-2)
    section(at, RELEASES)
    at = set_widget(at, at.select_slider, "attacker_k", 1000)
    warnings = " ".join(w.value for w in at.warning)
    assert "the total guarantee is empty" in warnings
    assert total(at, "Advanced") == total(at, "Gaussian") == "—"
    assert total(at, "Basic") == "—"  # 1000 x 0.01 = 1: no guarantee either


@pytest.mark.parametrize("typed", ["0", "-1", "abc"])
def test_bad_epsilon_is_explained(page, typed):
    at = set_widget(page, page.text_input, EPS_TEXT, typed)
    assert any("Could not use" in e.value for e in at.error)
    assert metric(at, "Highest posterior") == "75.1%"  # still eps = 1, at eps + ln(10/9)
    assert len(charts(at)) == 1


@pytest.mark.parametrize(
    ("typed", "message"), [("1", "below 1"), ("2", "below 1"), ("x", "number")]
)
def test_bad_delta_is_explained(page, typed, message):
    at = set_widget(page, page.text_input, DELTA_TEXT, typed)
    errors = " ".join(e.value for e in at.error)
    assert message in errors and "Still showing δ = 10⁻⁵" in errors
    section(at, RELEASES)
    assert total(at, "Basic") == "10"


def test_new_draw_changes_only_the_simulation(page):
    at = section(page, TEST)
    before_sim = curve(at, "simulated", "Laplace", "fpr", "tpr")[1]
    before_exact = curve(at, "roc", "Laplace count", "fpr", "tpr")[1]
    at = rerun(at)
    assert curve(at, "simulated", "Laplace", "fpr", "tpr")[1] == pytest.approx(before_sim)
    at.sidebar.button[0].click()
    at = rerun(at)
    assert not np.array_equal(curve(at, "simulated", "Laplace", "fpr", "tpr")[1], before_sim)
    assert curve(at, "roc", "Laplace count", "fpr", "tpr")[1] == pytest.approx(before_exact)


@pytest.mark.parametrize(("typed", "odds"), [("50", "×5.18e+21"), ("100", "×2.69e+43")])
def test_huge_typed_epsilon_does_not_overflow(page, typed, odds):
    at = set_widget(page, page.text_input, EPS_TEXT, typed)
    assert not at.error
    assert metric(at, "Highest posterior") == "> 99.9999%"  # never shown as certain
    assert metric(at, "Lowest posterior") == "< 0.0001%"
    assert f"ε bound ×{odds[1:]}:" in _delta_line(at, "Odds on")  # e^eps
    assert metric(at, "Odds on") == f"×{10 / 9 * math.exp(float(typed)):,.3g}"
    section(at, RELEASES)
    assert total(at, "Basic") == f"{10 * float(typed):,.4g}"
    section(at, FLOATING)  # the worked example at eps = 100: scale 0.01
    assert "One release at ε = " + typed in texts(at)


def test_epsilon_beyond_100_is_refused(page):
    at = set_widget(page, page.text_input, EPS_TEXT, "1000")
    assert any("type an ε between 0.0001 and 100" in e.value for e in at.error)
    assert metric(at, "Odds on") == "×3.02"  # still showing epsilon = 1: (10/9) e


def test_delta_headline_states_only_what_holds(default_page):
    # at (1, 1e-5) the analytic Gaussian exceeds the eps bound with chance 1.6e-4 = 16 delta,
    # so "at most 73.1% sure unless the output is one of the rare ones delta allows" is false
    at = default_page
    shown = texts(at)
    assert "unless the output is one of the rare ones δ allows" not in shown
    assert "rare ones δ allows" not in shown
    # what holds (Markov): the bound at eps + ln(10/9), except on outputs of chance <= 10 delta
    holds = _posterior(0.5, 1 + math.log(10 / 9))
    assert f"at most {holds:.1%} sure" in shown and "10δ = 10⁻⁴" in shown
    high = next(m for m in at.metric if m.label.startswith("Highest posterior"))
    low = next(m for m in at.metric if m.label.startswith("Lowest posterior"))
    assert "10δ" in high.label and high.value == f"{holds:.1%}" == "75.1%"
    assert low.value == f"{1 - holds:.1%}"
    assert "73.1%" in high.delta and "only when δ = 0" in high.delta  # the eps bound, labelled
    odds = next(m for m in at.metric if m.label.startswith("Odds on"))
    assert odds.label.endswith("same outputs") and "10δ" in odds.help
    assert odds.value == f"×{10 / 9 * math.e:,.3g}"
    sigma = get_sigma_gaussian(1.0, 1e-5)
    tail = stats.norm.sf(1.0, loc=1 / (2 * sigma**2), scale=1 / sigma)  # P_in(L > eps)
    assert f"{tail / 1e-5:.0f}δ" == "16δ"
    assert "16δ" in " ".join(w.value for w in at.warning)
    names = series_names(at, "curves", "markers")
    assert not any("highest possible posterior" in name for name in names)
    assert any("10δ" in name for name in names)
    assert any("only when δ = 0" in name for name in names)


def test_pure_headline_keeps_the_epsilon_bound_for_every_output(page):
    at = set_widget(page, page.toggle, "attacker_pure", True)
    names = series_names(at, "curves", "markers")
    assert "highest possible posterior (ε = 1)" in names
    assert not any("ε bound" in name for name in names)  # no dashed comparison curve
    assert not any("10δ" in m.label for m in at.metric)
    assert metric(at, "Odds on") == "×2.72"


def test_too_large_delta_gets_no_promise(page):
    at = set_widget(page, page.text_input, DELTA_TEXT, "0.2")
    assert metric(at, "Highest posterior") == "—"  # Markov: fails on at most 10 delta >= 1
    assert "you can be at most" not in texts(at)
    assert "the bound at ε + ln(10/9) promises nothing" in texts(at)
    assert "10δ ≥ 1 (δ is too large)" in " ".join(w.value for w in at.warning)
    _, upper = curve(at, "curves", "highest", "prior", "posterior")
    assert np.all(upper[1:] == 1)  # every posterior possible: no promise


def test_whatever_the_attacker_knows_has_the_correlation_caveat(default_page, page):
    for at in (default_page, set_widget(page, page.toggle, "attacker_pure", True)):
        shown = texts(at)
        assert "correlated with Alice's" in shown
        assert "not about every fact about her" in shown


def test_optimal_composition_on_the_page(page):
    at = set_widget(page, page.toggle, "attacker_pure", True)
    at = set_widget(at, at.select_slider, EPS_SLIDER, 0.1)
    section(at, RELEASES)
    at = set_widget(at, at.select_slider, "attacker_k", 100)
    one = pld.from_privacy_parameters(DifferentialPrivacyParameters(0.1, 0.0))
    exact = one.self_compose(100).get_epsilon_for_delta(1e-6)  # dp-accounting: 4.7746
    assert total(at, "Optimal") == f"{exact:.4g}" == "4.775"
    assert total(at, "Advanced") == "6.308"  # Dwork-Rothblum-Vadhan
    shown = texts(at)
    assert "optimal composition (Kairouz, Oh & Viswanath) gives the best total: ε = 4.775" in shown
    assert "advanced composition grows like √k" not in shown.lower() and "linearly in k" in shown
    ks, optimal = curve(at, "totals", "optimal", "k", "epsilon")
    want = [one.self_compose(int(k)).get_epsilon_for_delta(1e-6) for k in ks[ks <= 100][::10]]
    assert optimal[ks <= 100][::10] == pytest.approx(want, rel=1e-3)


def test_optimal_composition_is_a_bound_for_every_mechanism_not_exact_for_any(page):
    # Kairouz-Oh-Viswanath is tight over all (eps, delta)-DP mechanisms (randomized response
    # reaches it); for a given noise, e.g. Gaussian, the true total can be far below it.
    at = set_widget(page, page.toggle, "attacker_pure", True)
    at = set_widget(at, at.select_slider, EPS_SLIDER, 0.1)
    section(at, RELEASES)
    at = set_widget(at, at.select_slider, "attacker_k", 100)
    shown = texts(at)
    for overstated in ("exact for any", "exact total for any", "It is exact"):
        assert overstated not in shown, overstated
    assert "no smaller total ε at this total δ holds for every k such releases" in shown.lower()
    assert "it is exact only for the worst of them (randomized response" in shown
    assert "Optimal composition is the tightest total that holds for every mechanism" in shown
    names = series_names(at, "totals")
    assert "optimal composition (the worst case over all mechanisms)" in names


def test_composition_text_does_not_say_advanced_grows_like_sqrt_k(page):
    # its k eps (e^eps - 1) term grows linearly in k (Dwork & Roth Thm 3.20)
    shown = texts(section(page, RELEASES)).lower()
    assert "advanced composition grows like √k" not in shown
    assert "grows like √k for small ε" not in shown
    assert "kε(e^ε − 1)" in shown and "linearly in k" in shown


# --- 4. The floating-point attack ---------------------------------------------------------------
FP_EPSILONS = (0.1, 0.3, 1.0, 3.0)
FP_DRAWS = 4000


def rates(at, dataset: str, noise: str) -> np.ndarray:
    """A floating-point chart's bars for one noise (numpy or OpenDP), in ε order."""
    frame = chart_data(at, dataset)
    rows = frame[frame["series"].str.startswith(noise)]
    assert rows["epsilon"].tolist() == [f"ε = {e:g}" for e in FP_EPSILONS]
    return rows["rate"].to_numpy(dtype=float)


def worked_example(at) -> dict[str, tuple[float, bool, bool, str]]:
    """The example's table: per noise, (value, from 0?, from 1?, guess)."""
    table = next(m.value for m in at.markdown if "| noise |" in m.value)
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0].startswith(("numpy", "OpenDP")):
            value = float(cells[1].strip("`"))
            rows[cells[0].split()[0]] = (value, cells[2] == "yes", cells[3] == "yes", cells[4])
    return rows


def test_the_floating_point_attack_breaks_numpy_noise_and_not_opendp(page):
    at = section(page, FLOATING)
    certain = rates(at, "fp_certain", "numpy")
    success = rates(at, "fp_success", "numpy")
    best = chart_data(at, "best")["rate"].to_numpy(dtype=float)
    # the best any attacker can do against true Laplace noise: (1 + (1 - e^(-eps/2))) / 2
    assert best == pytest.approx([1 - math.exp(-e / 2) / 2 for e in FP_EPSILONS])
    at_one = FP_EPSILONS.index(1.0)
    assert certain[at_one] > 0.7
    assert np.all(certain > 0.7)  # about 81% at 0.1, 0.3 and 1: not falling with epsilon
    assert np.all(success > best)
    assert metric(at, "numpy noise, ε = 1") == f"{success[at_one]:.1%}"
    assert metric(at, "True Laplace, ε = 1") == "69.7%"
    # OpenDP: never certain, and right as often as a coin (Binomial(4000, 1/2), 4 std errors)
    assert np.all(rates(at, "fp_certain", "OpenDP") == 0)
    opendp = rates(at, "fp_success", "OpenDP")
    assert np.all(np.abs(opendp - 0.5) < 4 * math.sqrt(0.25 / FP_DRAWS))
    shown = texts(at)
    assert "never wrongly" in shown and "never certain" in shown
    assert f"certain in {certain[0]:.1%}" in shown
    assert "“Secure release” on the Laplace, Gaussian and bounding pages" in shown


@pytest.mark.parametrize("eps", [0.01, 1.0, 10.0])
def test_the_worked_example_agrees_with_dp_core(page, eps):
    at = set_widget(page, page.select_slider, EPS_SLIDER, eps)
    at = section(at, FLOATING)
    truth = float(re.search(r"The true count is \*\*([01])\*\*", texts(at)).group(1))
    example = worked_example(at)
    value, from_zero, from_one, guess = example["numpy"]
    assert (from_zero, from_one) == (
        bool(reachable(value, 0.0, 1 / eps)),
        bool(reachable(value, 1.0, 1 / eps)),
    )
    assert (from_zero, from_one)[int(truth)]  # the true count can always produce it
    if from_zero != from_one:
        assert f"**{int(truth)}, for certain** (right)" == guess
    else:
        assert guess.startswith("none")
    value, from_zero, from_one, guess = example["OpenDP"]
    assert from_zero and from_one  # OpenDP: every output possible from both counts
    assert bool(lattice_reachable(value, 0.0)) and guess.startswith("none")


def test_the_worked_example_follows_the_seed(page):
    at = section(page, FLOATING)
    first = worked_example(at)["numpy"][0]
    assert worked_example(rerun(at))["numpy"][0] == first
    at.sidebar.button[0].click()
    assert worked_example(rerun(at))["numpy"][0] != first


def test_a_link_opens_the_floating_point_section() -> None:
    at = open_page("attacker", query={"attacker_section": "floating-point", "seed": "7"})
    assert at.session_state["attacker__section"] == FLOATING
    assert rates(at, "fp_certain", "numpy")[FP_EPSILONS.index(1.0)] > 0.7
    same = open_page("attacker", query={"attacker_section": "floating-point", "seed": "7"})
    np.testing.assert_array_equal(
        rates(at, "fp_success", "numpy"), rates(same, "fp_success", "numpy")
    )


# --- Which parts rerun ------------------------------------------------------------------------
def fragments(at) -> list[str]:
    """Ids of the fragments that have run, in the order they first ran (the ε fragment first)."""
    return ran_fragments(at)


@pytest.fixture
def calls(monkeypatch):
    """How often the page ran to its end (its closing) and the outer fragment ran (its ε input).

    (Under AppTest a run may start the page twice: a first pass that stops at the header to
    switch on the app's navigation, then the page itself; the closing counts only the latter.)
    """
    import ui.attacker.closing as attacker_closing
    import ui.attacker.controls as attacker_controls

    counts = {"page": 0, "outer": 0}

    def counted(name, function):
        def wrapper(*args, **kwargs):
            counts[name] += 1
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(attacker_closing, "closing", counted("page", attacker_closing.closing))
    monkeypatch.setattr(
        attacker_controls, "epsilon_slider", counted("outer", attacker_controls.epsilon_slider)
    )
    return counts


def test_an_epsilon_step_reruns_the_fragment_not_the_page(page, calls):
    outer = fragments(page)[0]
    rerun(page)
    assert calls == {"page": 1, "outer": 1}
    widget(page.select_slider, EPS_SLIDER).set_value(0.1)
    at = run_fragment(page, outer)
    assert calls == {"page": 1, "outer": 2}
    assert not at.title  # the page's header was not redrawn
    assert metric(at, "Highest posterior") == f"{_posterior(0.5, 0.1 + SLACK):.1%}"


def test_moving_k_reruns_only_the_many_releases_section(page, calls):
    outer = fragments(page)[0]
    at = section(page, RELEASES)
    inner = next(f for f in fragments(at) if f != outer)
    before = dict(calls)
    widget(at.select_slider, "attacker_k").set_value(1000)
    run_fragment(at, inner)
    assert calls == before  # neither the page nor the ε fragment ran
    assert [s.key for s in at.select_slider] == ["attacker_k", "attacker_delta_prime"]
    assert total(at, "Basic") == "1,000"
    assert chart_data(at, "k_now")["label"].tolist() == ["k = 1,000"]
    widget(at.select_slider, "attacker_delta_prime").set_value(1e-12)
    run_fragment(at, inner)
    assert calls == before
    advanced = math.sqrt(2 * 1000 * math.log(1e12)) + 1000 * (math.e - 1)
    assert total(at, "Advanced") == f"{advanced:,.4g}"


def test_new_opendp_releases_redraw_only_the_opendp_bars(page, calls):
    outer = fragments(page)[0]
    at = section(page, FLOATING)
    inner = next(f for f in fragments(at) if f != outer)
    numpy_before = rates(at, "fp_success", "numpy")
    opendp_before = rates(at, "fp_success", "OpenDP")
    assert np.array_equal(rates(rerun(at), "fp_success", "OpenDP"), opendp_before)  # held
    before = dict(calls)
    at.button(key="attacker_fp_draw_button").click()
    run_fragment(at, inner)
    assert calls == before
    np.testing.assert_array_equal(rates(at, "fp_success", "numpy"), numpy_before)
    assert not np.array_equal(rates(at, "fp_success", "OpenDP"), opendp_before)


def test_the_formulas_are_drawn_when_their_box_is_opened(page):
    assert not page.latex  # closed: nothing drawn (they are most of the page's elements)
    page.session_state["attacker_formula"] = True
    at = rerun(page)
    assert len(at.latex) == 7
    assert "Kairouz, Oh & Viswanath (2015), Thm 3.3" in texts(at)
    assert "Mironov, *On significance of the least significant bits" in texts(at)


# --- The accountants, the address, exports, German numbers, exercises ---------------------------
def test_the_totals_are_the_planners_accountants(page):
    from dp_core import accountants
    from dp_core.gaussian import analytic_gaussian_sigma

    at = section(page, RELEASES)
    sigma = analytic_gaussian_sigma(1.0, 1.0, 1e-5)
    release = accountants.NoiseRelease("gaussian", sigma, 1.0, 1.0, 1e-5)
    found = {t.key: t for t in accountants.compare_accountants([release] * 10, 10 * 1e-5 + 1e-6)}
    for row, key in (("Optimal", "optimal"), ("zCDP", "zcdp"), ("PLD", "pld")):
        assert total(at, row) == f"{found[key].epsilon:.4g}"
    assert total(at, "Gaussian") == f"{found['gaussian'].epsilon:.4g}"
    assert set(totals_table(at)["total δ"]) == {"10⁻⁴", "1.01×10⁻⁴"}  # basic: k·δ
    # the chart's optimal curve at k = 10 is the table's optimal total
    ks, optimal = curve(at, "totals", "optimal", "k", "epsilon")
    assert f"{optimal[ks == 10].item():.4g}" == total(at, "Optimal")


LINK = {
    "attacker_pure": "true",
    "attacker_epsilon": "0.1",
    "attacker_prior": "0.2",
    "attacker_k": "100",
    "attacker_delta_prime": "1e-09",
}


def _first_section(at):
    """What section 1 shows: its metrics, chart data and sentences."""
    return (
        [(m.label, m.value) for m in at.metric],
        [data for _, data in charts(at)],
        texts(at),
    )


def test_a_link_with_the_settings_opens_what_moving_the_controls_shows():
    moved = open_page("attacker")
    set_widget(moved, moved.toggle, "attacker_pure", True)
    set_widget(moved, moved.select_slider, EPS_SLIDER, 0.1)
    set_widget(moved, moved.slider, "attacker_prior", 0.2)
    linked = open_page("attacker", query=LINK)
    (metrics, data, shown), (metrics_l, data_l, shown_l) = map(_first_section, (moved, linked))
    assert metrics == metrics_l and shown == shown_l
    assert metrics[0] == ("Highest posterior after any output", "21.6%")  # e^0.1 odds on 1:4
    for ours, theirs in zip(data, data_l, strict=True):
        for name in ours:
            pd.testing.assert_frame_equal(ours[name], theirs[name])
    section(moved, RELEASES)
    set_widget(moved, moved.select_slider, "attacker_k", 100)
    set_widget(moved, moved.select_slider, "attacker_delta_prime", 1e-9)
    linked = open_page("attacker", query={**LINK, "attacker_section": "releases"})
    pd.testing.assert_frame_equal(totals_table(moved), totals_table(linked))
    pd.testing.assert_frame_equal(chart_data(moved, "totals"), chart_data(linked, "totals"))
    assert texts(moved) == texts(linked)
    assert total(linked, "Basic") == "10" and chart_data(linked, "k_now")["label"].item() == (
        "k = 100"
    )


def _zip_csv(export) -> pd.DataFrame:
    """The CSV of the ZIP the export button builds, read as a spreadsheet would."""
    from ui.common.export import results_zip

    archive = zipfile.ZipFile(io.BytesIO(results_zip(export, {"address": "x"}, "attacker")))
    assert {"charts/posterior.svg", "charts/composition.svg"} & set(archive.namelist())
    return pd.read_csv(io.BytesIO(archive.read("attacker.csv")))


def test_the_exports_hold_the_tables_as_shown(page):
    from ui.attacker import guess as guess_section
    from ui.attacker import posteriors, releases, settings

    s = settings.Settings(1.0, False, 1e-5, 0.5)
    chart = guess_section._posterior_chart(s, posteriors.posterior(s, s.prior))
    guess = _zip_csv(posteriors.posterior_export(s, chart))
    at_half = guess.set_index("prior (%)").loc[50.0]
    assert f"{at_half['highest posterior (%)']:.1f}%" == metric(page, "Highest posterior")
    assert f"{at_half['highest at ε, only when δ = 0 (%)']:.1f}%" == "73.1%"
    assert list(guess["prior (%)"]) == [1, 5, 10, 25, 50, 75, 90, 95, 99]
    r = releases.ReleaseSettings(s, 10, 1e-6)
    export = releases.composition_export(r, chart)
    assert export.settings["k: number of releases"] == "10"
    table = _zip_csv(export).set_index("accounting")
    at = section(page, RELEASES)
    shown = totals_table(at)
    assert list(table.index) == list(shown.index)
    for name in table.index:
        assert f"{table.loc[name, 'total ε']:.4g}" == shown.loc[name, "total ε"].replace(",", "")
    assert table["total δ"].tolist() == [1e-4] + [1.01e-4] * 5


def test_german_numbers_have_a_decimal_comma():
    at = open_page("attacker", query={"lang": "de"})
    assert [m.value for m in at.metric] == ["75,1%", "24,9%", "×3,02"]


def _reveal(at, key: str) -> str:
    at.session_state[f"exercise_{key}"] = True
    rerun(at)
    widget(at.toggle, f"exercise_{key}_show").set_value(True)
    return rerun(at).info[-1].value


def _verdict(at, elements, key: str, value) -> str:
    widget(elements, f"exercise_{key}_given").set_value(value)
    rerun(at)
    return " ".join([s for s in successes(at)] + [w.value for w in at.warning])


def test_the_posterior_exercise_states_the_highest_posterior_shown(page):
    at = set_widget(page, page.toggle, "attacker_pure", True)
    shown = metric(at, "Highest posterior after any output")
    assert shown == "73.1%"
    assert _reveal(at, "attacker.posterior").startswith(f"{shown}:")
    assert "Right." in _verdict(at, at.number_input, "attacker.posterior", 73.1)
    assert "Not quite" in _verdict(at, at.number_input, "attacker.posterior", 75.1)


def test_the_hundred_releases_exercise_quotes_the_optimal_total(page):
    at = set_widget(page, page.toggle, "attacker_pure", True)
    at = set_widget(at, at.select_slider, EPS_SLIDER, 0.1)
    at = section(at, RELEASES)
    at = set_widget(at, at.select_slider, "attacker_k", 100)
    answer = _reveal(at, "attacker.hundred")
    assert total(at, "Basic") == "10" and total(at, "Optimal") == "4.775"
    assert answer.startswith("True.") and "optimal composition gives only ε = 4.775" in answer
    assert "Right." in _verdict(at, at.radio, "attacker.hundred", "true")
    assert "Not quite" in _verdict(at, at.radio, "attacker.hundred", "false")


@pytest.mark.parametrize(("eps", "larger"), [(1.0, "basic"), (10.0, "same")])
def test_the_basic_or_optimal_exercise_compares_the_table(page, eps, larger):
    at = set_widget(page, page.select_slider, EPS_SLIDER, eps)
    at = section(at, RELEASES)
    at = set_widget(at, at.select_slider, "attacker_k", 100)
    basic, optimal = total(at, "Basic"), total(at, "Optimal")
    answer = _reveal(at, "attacker.larger")
    assert basic in answer and optimal in answer
    assert (_number(optimal) < _number(basic) * (1 - 1e-4)) == (larger == "basic")
    assert "Right." in _verdict(at, at.radio, "attacker.larger", larger)
    assert "Not quite" in _verdict(at, at.radio, "attacker.larger", "optimal")


@pytest.mark.parametrize(
    "lang, most",
    [
        ("en", "your prior → at most 75.1% (all but ≤ 10δ of outputs)"),
        ("ja", "あなたの事前確率 → 高々 75.1%（確率 ≤ 10δ の出力を除く）"),
    ],
)
def test_the_markers_with_delta_are_named_by_whole_sentences(lang, most):
    """With δ > 0 the markers hold on all but the rarest outputs: one message says so, not a
    note glued to another (in Japanese a glued note began with a stray space)."""
    at = open_page("attacker", query={"lang": lang})
    names = list(chart_data(at, "markers")["series"])
    assert names[0] == most
    assert "(" in names[1] or "（" in names[1]
