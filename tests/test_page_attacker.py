"""The attacker page through AppTest: numbers shown at both ends of every slider, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from apptest_helpers import (
    metric,
    open_page,
    plotly_figures,
    rerun,
    set_widget,
    texts,
    trace_array,
)
from dp_accounting.gaussian_mechanism import get_sigma_gaussian
from dp_accounting.pld import privacy_loss_distribution as pld
from scipy import stats

EPS_SLIDER, EPS_TEXT = "attacker_epsilon__slider", "attacker_epsilon__text"
DELTA_SLIDER, DELTA_TEXT = "attacker_delta__slider", "attacker_delta__text"


def _posterior(prior: float, eps: float) -> float:
    return prior * math.exp(eps) / (prior * math.exp(eps) + 1 - prior)


def _as_shown(p: float, shown: str) -> str:
    """p as a percentage with as many decimals as ``shown`` has."""
    return f"{p:.{len(shown.rstrip('%').partition('.')[2])}%}"


def _number(shown: str) -> float:
    return float(shown.replace(",", ""))


@pytest.fixture(scope="module")
def default_page():
    return open_page("attacker")


@pytest.fixture
def page():
    return open_page("attacker")


def test_defaults_posterior_advantage_and_composition(default_page):
    at = default_page
    assert f"{_posterior(0.5, 1):.3f}" == "0.731"
    assert metric(at, "Highest posterior") == "73.1%"
    assert metric(at, "Lowest posterior") == "26.9%"
    assert metric(at, "Odds on") == "×2.72"
    shown = texts(at)
    assert "50% chance of being in the data" in shown and "at most 73.1% sure" in shown
    assert "unless the output is one of the rare ones δ allows" in shown
    # delta = 1e-5: the caveat states the Markov bound at eps + ln(10/9), failing chance 10 delta
    caveat = " ".join(w.value for w in at.warning)
    assert "10δ = 10⁻⁴" in caveat and f"{_posterior(0.5, 1 + math.log(10 / 9)):.1%}" in caveat
    # best test at a 50/50 prior: (1 + (e - 1 + 2 delta) / (e + 1)) / 2
    e = math.e
    assert metric(at, "Best accuracy of any test") == f"{(1 + (e - 1 + 2e-5) / (e + 1)) / 2:.1%}"
    assert metric(at, "Laplace count: best accuracy") == f"{1 - math.exp(-0.5) / 2:.1%}" == "69.7%"
    sigma = get_sigma_gaussian(1.0, 1e-5)
    assert metric(at, "Gaussian count: best accuracy") == f"{stats.norm.cdf(0.5 / sigma):.1%}"
    # k = 10 releases, delta' = 1e-6
    assert metric(at, "Basic: total ε") == "10"
    advanced = math.sqrt(2 * 10 * math.log(1e6)) + 10 * (e - 1)
    assert metric(at, "Advanced: total ε") == f"{advanced:.4g}" == "33.81"
    exact = pld.from_gaussian_mechanism(sigma, value_discretization_interval=1e-5).self_compose(10)
    shown_gaussian = _number(metric(at, "Gaussian, exact: total ε"))
    assert shown_gaussian == pytest.approx(exact.get_epsilon_for_delta(10 * 1e-5 + 1e-6), rel=2e-3)
    assert "exact accounting of the Gaussian mechanism gives the smallest total" in shown
    assert "For other (1, 10⁻⁵)-DP mechanisms the best bound here is basic composition" in shown
    assert f"at most {_posterior(0.5, shown_gaussian):.1%} sure" in shown
    assert metric(at, "Noise on the average of 10") == f"{sigma / math.sqrt(10):.4g}"
    assert metric(at, "Accuracy from the average of 10") == (
        f"{stats.norm.cdf(math.sqrt(10) / (2 * sigma)):.1%}"
    )


def test_figures_carry_the_exact_curves(default_page):
    posterior, roc, composition = plotly_figures(default_page)
    priors = trace_array(posterior["data"][2]["x"])
    upper = trace_array(posterior["data"][2]["y"])
    assert upper[np.argmin(np.abs(priors - 0.5))] == pytest.approx(math.e / (1 + math.e))
    alphas = trace_array(roc["data"][1]["x"])
    ceiling = trace_array(roc["data"][1]["y"])
    formula = np.minimum.reduce(
        [np.ones_like(alphas), math.e * alphas + 1e-5, 1 - (1 - 1e-5 - alphas) / math.e]
    )
    assert ceiling == pytest.approx(formula, abs=1e-12)
    laplace = trace_array(roc["data"][2]["y"])
    grid = np.linspace(-10, 10, 20_001)
    exact_fpr, exact_tpr = stats.laplace.sf(grid), stats.laplace.sf(grid, loc=1)
    assert laplace == pytest.approx(np.interp(alphas, exact_fpr[::-1], exact_tpr[::-1]), abs=2e-3)
    simulated = roc["data"][4]
    fpr, tpr = trace_array(simulated["x"]), trace_array(simulated["y"])
    assert len(fpr) == 11
    assert np.all(np.abs(tpr - np.interp(fpr, exact_fpr[::-1], exact_tpr[::-1])) < 0.06)
    ks = trace_array(composition["data"][0]["x"])
    assert ks[0] == 1 and ks[-1] == 1000
    assert trace_array(composition["data"][0]["y"]) == pytest.approx(ks)


@pytest.mark.parametrize(
    ("eps", "high", "low", "laplace_accuracy"),
    [(0.01, "50.2%", "49.8%", "50.2%"), (10.0, "99.9955%", "0.0045%", "99.66%")],
)
def test_epsilon_slider_at_both_ends(page, eps, high, low, laplace_accuracy):
    at = set_widget(page, page.select_slider, EPS_SLIDER, eps)
    assert metric(at, "Highest posterior") == high == _as_shown(_posterior(0.5, eps), high)
    assert metric(at, "Lowest posterior") == low
    assert metric(at, "Laplace count: best accuracy") == laplace_accuracy
    assert metric(at, "Basic: total ε") == f"{10 * eps:.4g}"
    roc = plotly_figures(at)[1]
    alphas, ceiling = trace_array(roc["data"][1]["x"]), trace_array(roc["data"][1]["y"])
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


@pytest.mark.parametrize(
    ("prior", "high", "low"), [(0.01, "2.7%", "0.37%"), (0.99, "99.63%", "97.3%")]
)
def test_prior_slider_near_the_ends(page, prior, high, low):
    at = set_widget(page, page.slider, "attacker_prior", prior)
    assert metric(at, "Highest posterior") == high == _as_shown(_posterior(prior, 1), high)
    assert metric(at, "Lowest posterior") == low == _as_shown(_posterior(prior, -1), low)
    assert f"{prior:.0%} chance of being in the data" in texts(at)


@pytest.mark.parametrize(("prior", "side"), [(0.0, "out"), (1.0, "in")])
def test_certain_prior_has_nothing_to_learn(page, prior, side):
    at = set_widget(page, page.slider, "attacker_prior", prior)
    warnings = " ".join(w.value for w in at.warning)
    assert f"already certain Alice is {side}" in warnings and "nothing to learn" in warnings
    assert "chance of being in the data" not in texts(at)
    assert metric(at, "Highest posterior") == metric(at, "Lowest posterior") == f"{prior:.0%}"
    assert len(plotly_figures(at)) == 3


def test_pure_dp_toggle(page):
    at = set_widget(page, page.toggle, "attacker_pure", True)
    assert not any(s.key == DELTA_SLIDER for s in at.select_slider)
    assert not at.warning
    assert metric(at, "Highest posterior after any output") == "73.1%"
    assert "unless the output" not in texts(at)
    assert metric(at, "Best accuracy of any test") == "73.1%"  # = e / (1 + e), the posterior
    assert "equals the posterior bound at a 50% prior, 73.1%" in texts(at)
    labels = [m.label for m in at.metric]
    assert not any(label.startswith("Gaussian") for label in labels)
    assert len(plotly_figures(at)[1]["data"]) == 4  # diagonal, ceiling, Laplace, simulated
    assert (
        metric(at, "Advanced: total ε")
        == f"{math.sqrt(20 * math.log(1e6)) + 10 * (math.e - 1):.4g}"
    )
    assert "basic composition (k·ε) gives the smallest total: ε = 10 (δ = 0)" in texts(at)
    assert metric(at, "Any test on 10 answers") == f"{_posterior(0.5, 10):.4%}"
    assert metric(at, "Noise on one answer (Laplace std)") == f"{math.sqrt(2):.4g}"


@pytest.mark.parametrize(("k", "tightest"), [(1, "exact accounting"), (1000, "exact accounting")])
def test_k_slider_at_both_ends(page, k, tightest):
    at = set_widget(page, page.select_slider, "attacker_k", k)
    sigma = get_sigma_gaussian(1.0, 1e-5)
    total_delta = k * 1e-5 + 1e-6
    assert metric(at, "Basic: total ε") == f"{k:.4g}"
    advanced = math.sqrt(2 * k * math.log(1e6)) + k * (math.e - 1)
    assert metric(at, "Advanced: total ε") == f"{advanced:.4g}"
    exact = pld.from_gaussian_mechanism(sigma, value_discretization_interval=1e-5).self_compose(k)
    assert _number(metric(at, "Gaussian, exact: total ε")) == pytest.approx(
        exact.get_epsilon_for_delta(total_delta), rel=2e-3
    )
    assert tightest in texts(at)
    assert metric(at, f"Noise on the average of {k:,}") == f"{sigma / math.sqrt(k):.4g}"


def test_small_epsilon_many_releases_advanced_wins(page):
    at = set_widget(page, page.toggle, "attacker_pure", True)
    at = set_widget(at, at.select_slider, EPS_SLIDER, 0.1)
    at = set_widget(at, at.select_slider, "attacker_k", 1000)
    advanced = math.sqrt(2 * 1000 * math.log(1e6)) * 0.1 + 100 * math.expm1(0.1)
    assert metric(at, "Advanced: total ε") == f"{advanced:.4g}" == "27.14"
    assert "advanced composition gives the smallest total: ε = 27.14" in texts(at)
    at = set_widget(at, at.select_slider, "attacker_delta_prime", 1e-12)
    advanced = math.sqrt(2 * 1000 * math.log(1e12)) * 0.1 + 100 * math.expm1(0.1)
    assert metric(at, "Advanced: total ε") == f"{advanced:.4g}"
    at = set_widget(at, at.select_slider, "attacker_delta_prime", 1e-3)
    assert metric(at, "Advanced: total ε") == (
        f"{math.sqrt(2 * 1000 * math.log(1e3)) * 0.1 + 100 * math.expm1(0.1):.4g}"
    )


def test_void_total_delta_is_explained(page):
    at = set_widget(page, page.select_slider, DELTA_SLIDER, 1e-2)
    at = set_widget(at, at.select_slider, "attacker_k", 1000)
    warnings = " ".join(w.value for w in at.warning)
    assert "the total guarantee is empty" in warnings
    assert metric(at, "Advanced: total ε") == metric(at, "Gaussian, exact: total ε") == "—"
    assert metric(at, "Basic: total ε") == "—"  # 1000 x 0.01 = 1: no guarantee either


@pytest.mark.parametrize("typed", ["0", "-1", "abc"])
def test_bad_epsilon_is_explained(page, typed):
    at = set_widget(page, page.text_input, EPS_TEXT, typed)
    assert any("Could not use" in e.value for e in at.error)
    assert metric(at, "Highest posterior") == "73.1%"
    assert len(plotly_figures(at)) == 3


@pytest.mark.parametrize(
    ("typed", "message"), [("1", "below 1"), ("2", "below 1"), ("x", "number")]
)
def test_bad_delta_is_explained(page, typed, message):
    at = set_widget(page, page.text_input, DELTA_TEXT, typed)
    errors = " ".join(e.value for e in at.error)
    assert message in errors and "Still showing δ = 10⁻⁵" in errors
    assert metric(at, "Basic: total ε") == "10"


def test_new_draw_changes_only_the_simulation(page):
    before = plotly_figures(page)[1]["data"]
    at = rerun(page)
    assert trace_array(plotly_figures(at)[1]["data"][4]["y"]) == pytest.approx(
        trace_array(before[4]["y"])
    )
    at.sidebar.button[0].click()
    at = rerun(at)
    after = plotly_figures(at)[1]["data"]
    assert not np.array_equal(trace_array(after[4]["y"]), trace_array(before[4]["y"]))
    assert trace_array(after[2]["y"]) == pytest.approx(trace_array(before[2]["y"]))


@pytest.mark.parametrize(("typed", "odds"), [("50", "×5.18e+21"), ("100", "×2.69e+43")])
def test_huge_typed_epsilon_does_not_overflow(page, typed, odds):
    at = set_widget(page, page.text_input, EPS_TEXT, typed)
    assert not at.error
    assert metric(at, "Highest posterior") == "> 99.9999%"  # never shown as certain
    assert metric(at, "Lowest posterior") == "< 0.0001%"
    assert metric(at, "Odds on") == odds
    assert metric(at, "Basic: total ε") == f"{10 * float(typed):.4g}"


def test_epsilon_beyond_100_is_refused(page):
    at = set_widget(page, page.text_input, EPS_TEXT, "1000")
    assert any("type an ε between 0.0001 and 100" in e.value for e in at.error)
    assert metric(at, "Odds on") == "×2.72"  # still showing epsilon = 1
