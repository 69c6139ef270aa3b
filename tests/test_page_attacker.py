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
from dp_accounting.pld.common import DifferentialPrivacyParameters
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


SLACK = math.log(10 / 9)  # (eps, delta)-DP: loss beyond eps + ln(10/9) has chance <= 10 delta


def _delta_line(at, label_start: str) -> str:
    """The small line under the metric whose label starts with label_start."""
    return next(m.delta for m in at.metric if m.label.startswith(label_start))


@pytest.fixture(scope="module")
def default_page():
    return open_page("attacker")


@pytest.fixture
def page():
    return open_page("attacker")


def test_defaults_posterior_advantage_and_composition(default_page):
    at = default_page
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
    assert "exact accounting of the Gaussian mechanism gives the best total" in shown
    # the optimal total is within 0.01% of k eps here, at a larger delta: basic wins the tie
    assert _number(metric(at, "Optimal")) == pytest.approx(10, rel=1e-4)
    assert "For other (1, 10⁻⁵)-DP mechanisms the best bound here is basic composition" in shown
    assert f"at most {_posterior(0.5, shown_gaussian + SLACK):.1%} sure" in shown
    assert "except on outputs whose total chance is at most 10δ = 1.01×10⁻³" in shown
    assert metric(at, "Noise on the average of 10") == f"{sigma / math.sqrt(10):.4g}"
    assert metric(at, "Accuracy from the average of 10") == (
        f"{stats.norm.cdf(math.sqrt(10) / (2 * sigma)):.1%}"
    )


def test_figures_carry_the_exact_curves(default_page):
    posterior, roc, composition = plotly_figures(default_page)
    priors = trace_array(posterior["data"][2]["x"])
    upper = trace_array(posterior["data"][2]["y"])  # holds on all outputs but 10 delta
    middle = np.argmin(np.abs(priors - 0.5))
    assert upper[middle] == pytest.approx(_posterior(0.5, 1 + SLACK))
    assert upper == pytest.approx(_posterior(priors, 1 + SLACK))
    epsilon_bound = trace_array(posterior["data"][3]["y"])  # dashed, for comparison
    assert epsilon_bound[middle] == pytest.approx(math.e / (1 + math.e))
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
    assert f"ε bound {high}:" in _delta_line(at, "Highest posterior")
    assert high == _as_shown(_posterior(0.5, eps), high)
    assert f"ε bound {low}:" in _delta_line(at, "Lowest posterior")
    shown = metric(at, "Highest posterior")
    assert shown == _as_shown(_posterior(0.5, eps + SLACK), shown)
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
    assert f"ε bound {high}:" in _delta_line(at, "Highest posterior")
    assert f"ε bound {low}:" in _delta_line(at, "Lowest posterior")
    assert high == _as_shown(_posterior(prior, 1), high)
    assert low == _as_shown(_posterior(prior, -1), low)
    shown_high, shown_low = metric(at, "Highest posterior"), metric(at, "Lowest posterior")
    assert shown_high == _as_shown(_posterior(prior, 1 + SLACK), shown_high)
    assert shown_low == _as_shown(_posterior(prior, -1 - SLACK), shown_low)
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
    assert "basic composition (k·ε) gives the best total: ε = 10 (δ = 0)" in texts(at)
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


def test_small_epsilon_many_releases_advanced_beats_basic_and_optimal_wins(page):
    at = set_widget(page, page.toggle, "attacker_pure", True)
    at = set_widget(at, at.select_slider, EPS_SLIDER, 0.1)
    at = set_widget(at, at.select_slider, "attacker_k", 1000)
    advanced = math.sqrt(2 * 1000 * math.log(1e6)) * 0.1 + 100 * math.expm1(0.1)
    assert metric(at, "Advanced: total ε") == f"{advanced:.4g}" == "27.14"
    shown = texts(at)
    assert "Advanced composition is below k·ε here" in shown
    # k* = 2 ln(1e6) / (2 - e^0.1)^2 (Dwork & Roth Thm 3.20 solved for k)
    assert f"= {2 * math.log(1e6) / (2 - math.exp(0.1)) ** 2:,.1f}" in shown
    one = pld.from_privacy_parameters(DifferentialPrivacyParameters(0.1, 0.0))
    optimal = one.self_compose(1000).get_epsilon_for_delta(1e-6)
    assert _number(metric(at, "Optimal")) == pytest.approx(optimal, rel=1e-3)
    shown_optimal = metric(at, "Optimal")
    best = "optimal composition (Kairouz, Oh & Viswanath) gives the best total: ε = "
    assert best + shown_optimal in shown
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
    assert metric(at, "Highest posterior") == "75.1%"  # still eps = 1, at eps + ln(10/9)
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
    assert f"ε bound ×{odds[1:]}:" in _delta_line(at, "Odds on")  # e^eps
    assert metric(at, "Odds on") == f"×{10 / 9 * math.exp(float(typed)):,.3g}"
    assert metric(at, "Basic: total ε") == f"{10 * float(typed):.4g}"


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
    names = [trace["name"] for trace in plotly_figures(at)[0]["data"]]
    assert not any("highest possible posterior" in name for name in names)
    assert any("10δ" in name for name in names)
    assert any("only when δ = 0" in name for name in names)


def test_pure_headline_keeps_the_epsilon_bound_for_every_output(page):
    at = set_widget(page, page.toggle, "attacker_pure", True)
    names = [trace["name"] for trace in plotly_figures(at)[0]["data"]]
    assert "highest possible posterior (ε = 1)" in names
    assert not any("10δ" in m.label for m in at.metric)
    assert metric(at, "Odds on") == "×2.72"


def test_too_large_delta_gets_no_promise(page):
    at = set_widget(page, page.text_input, DELTA_TEXT, "0.2")
    assert metric(at, "Highest posterior") == "—"  # Markov: fails on at most 10 delta >= 1
    assert "you can be at most" not in texts(at)
    assert "the bound at ε + ln(10/9) promises nothing" in texts(at)
    assert "10δ ≥ 1 (δ is too large)" in " ".join(w.value for w in at.warning)


def test_whatever_the_attacker_knows_has_the_correlation_caveat(default_page, page):
    for at in (default_page, set_widget(page, page.toggle, "attacker_pure", True)):
        shown = texts(at)
        assert "correlated with Alice's" in shown
        assert "not about every fact about her" in shown


def test_optimal_composition_on_the_page(page):
    at = set_widget(page, page.toggle, "attacker_pure", True)
    at = set_widget(at, at.select_slider, EPS_SLIDER, 0.1)
    at = set_widget(at, at.select_slider, "attacker_k", 100)
    one = pld.from_privacy_parameters(DifferentialPrivacyParameters(0.1, 0.0))
    exact = one.self_compose(100).get_epsilon_for_delta(1e-6)  # dp-accounting: 4.7746
    assert metric(at, "Optimal") == f"{exact:.4g}" == "4.775"
    assert metric(at, "Advanced: total ε") == "6.308"  # Dwork-Rothblum-Vadhan
    shown = texts(at)
    assert "optimal composition (Kairouz, Oh & Viswanath) gives the best total: ε = 4.775" in shown
    assert "advanced composition grows like √k" not in shown.lower() and "linearly in k" in shown
    composition = plotly_figures(at)[2]
    optimal = next(t for t in composition["data"] if t["name"].startswith("optimal"))
    ks = trace_array(optimal["x"])
    want = [one.self_compose(int(k)).get_epsilon_for_delta(1e-6) for k in ks[ks <= 100][::10]]
    assert trace_array(optimal["y"])[ks <= 100][::10] == pytest.approx(want, rel=1e-3)


def test_composition_text_does_not_say_advanced_grows_like_sqrt_k(default_page):
    # its k eps (e^eps - 1) term grows linearly in k (Dwork & Roth Thm 3.20)
    shown = texts(default_page).lower()
    assert "advanced composition grows like √k" not in shown
    assert "grows like √k for small ε" not in shown
    assert "kε(e^ε − 1)" in shown and "linearly in k" in shown
