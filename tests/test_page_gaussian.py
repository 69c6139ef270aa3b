"""The Gaussian mechanism page through AppTest: sliders at both ends, mechanisms, bad input."""

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
    widget,
)
from dp_accounting.gaussian_mechanism import get_sigma_gaussian

from dp_core import analytic_gaussian_sigma

EPS_SLIDER, EPS_TEXT = "gaussian_epsilon__slider", "gaussian_epsilon__text"
DELTA_SLIDER, DELTA_TEXT = "gaussian_delta__slider", "gaussian_delta__text"


def _classic(eps: float, delta: float) -> float:
    """Dwork & Roth Thm A.1, written out independently of dp_core."""
    return math.sqrt(2 * math.log(1.25 / delta)) / eps


def _shown(value: float) -> str:
    return f"{value:,.4g}"


@pytest.fixture
def page():
    return open_page("gaussian")


def test_defaults_show_sigmas_and_crossover(page):
    sigma = get_sigma_gaussian(1.0, 1e-5)
    assert metric(page, "Analytic σ") == _shown(sigma) == "3.731"
    assert metric(page, "Classic σ") == "—"  # epsilon = 1: the classic proof does not apply
    assert metric(page, "Ratio classic") == "—"
    assert "needs ε < 1" in texts(page)
    # shared/README: with eps 1, delta 1e-5 Gaussian wins from about 7 statistics on
    assert metric(page, "Break-even k") == f"{sigma**2 / 2:.2f}" == "6.96"
    assert metric(page, "Gaussian noise is smaller from k") == "7"
    assert metric(page, "Noise standard deviation") == "3.731"
    assert metric(page, "95% half-width") == _shown(1.959963984540054 * sigma)
    figures = plotly_figures(page)
    assert len(figures) == 4
    bars = figures[0]["data"][1]
    assert trace_array(bars["error_y"]["array"])[0] == pytest.approx(
        1.959963984540054 * sigma, rel=1e-9
    )
    k_figure = figures[3]
    texts_on_k = [shape.get("text", "") for shape in k_figure["layout"].get("annotations", [])]
    assert any("break-even k = 6.96" in text for text in texts_on_k)


@pytest.mark.parametrize(
    ("eps", "delta"), [(0.01, 1e-12), (0.01, 1e-2), (10.0, 1e-12), (10.0, 1e-2)]
)
def test_both_sliders_at_both_ends(page, eps, delta):
    at = set_widget(page, page.select_slider, EPS_SLIDER, eps)
    at = set_widget(at, at.select_slider, DELTA_SLIDER, delta)
    analytic = get_sigma_gaussian(eps, delta)
    assert metric(at, "Analytic σ") == _shown(analytic)
    if eps < 1:
        classic = _classic(eps, delta)
        assert metric(at, "Classic σ") == _shown(classic)
        assert metric(at, "Ratio classic") == f"{classic / analytic:.3f}"
    else:
        assert metric(at, "Classic σ") == "—"
    crossover = (eps * analytic) ** 2 / 2
    assert metric(at, "Break-even k") == f"{crossover:.2f}"
    assert metric(at, "Gaussian noise is smaller from k") == str(max(1, math.floor(crossover) + 1))
    sigma_curve = plotly_figures(at)[1]["data"][0]
    assert trace_array(sigma_curve["y"])[0] == pytest.approx(
        get_sigma_gaussian(eps, 1e-12), rel=1e-9
    )
    assert trace_array(sigma_curve["y"])[-1] == pytest.approx(
        get_sigma_gaussian(eps, 1e-2), rel=1e-9
    )


def test_classic_published_figure_at_eps_01_delta_1e4(page):
    # shared/README: eps 0.1, delta 1e-4 -> classic sigma 43.4, mean absolute error about 35
    at = set_widget(page, page.select_slider, EPS_SLIDER, 0.1)
    at = set_widget(at, at.text_input, DELTA_TEXT, "1e-4")
    at = set_widget(at, at.radio, "gaussian_mechanism", "classic")
    assert metric(at, "Classic σ") == "43.44"
    assert metric(at, "Noise standard deviation") == "43.44"
    assert metric(at, "Expected |error|") == "34.66"
    assert metric(at, "Guarantee") == "(0.1, 10⁻⁴)-DP"


def test_mechanism_switch(page):
    at = set_widget(page, page.radio, "gaussian_mechanism", "laplace")
    assert metric(at, "Guarantee") == "(1, 0)-DP"
    assert metric(at, "Noise standard deviation") == _shown(math.sqrt(2))
    assert metric(at, "95% half-width") == _shown(math.log(20))
    bars = plotly_figures(at)[0]["data"][1]
    assert trace_array(bars["error_y"]["array"])[0] == pytest.approx(math.log(20))
    at = set_widget(at, at.radio, "gaussian_mechanism", "classic")  # epsilon 1: not applicable
    assert any("only for epsilon below 1" in w.value for w in at.warning)
    assert len(plotly_figures(at)) == 3  # the noisy answers are withheld, the rest stays
    at = set_widget(at, at.select_slider, EPS_SLIDER, 0.5)
    assert metric(at, "Noise standard deviation") == _shown(_classic(0.5, 1e-5))
    at = set_widget(at, at.radio, "gaussian_mechanism", "analytic")
    assert metric(at, "Noise standard deviation") == _shown(get_sigma_gaussian(0.5, 1e-5))


def test_k_slider_says_which_to_pick(page):
    at = set_widget(page, page.slider, "gaussian_k", 3)
    assert "pick the Laplace mechanism" in texts(at) + "".join(s.value for s in at.success)
    at = set_widget(at, at.slider, "gaussian_k", 20)
    advice = "".join(s.value for s in at.success)
    assert "For k = 20, pick the Gaussian mechanism" in advice
    sigma = get_sigma_gaussian(1.0, 1e-5)
    assert f"{math.sqrt(20) * sigma:,.3g}" in advice and f"{math.sqrt(2) * 20:,.3g}" in advice


def test_typed_delta_between_powers_is_used(page):
    at = set_widget(page, page.text_input, DELTA_TEXT, "3e-7")
    assert metric(at, "Analytic σ") == _shown(get_sigma_gaussian(1.0, 3e-7))
    assert not at.error


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
    assert metric(at, "Analytic σ") == "3.731"
    assert len(plotly_figures(at)) == 4


@pytest.mark.parametrize("typed", ["0", "-1", "ten"])
def test_bad_epsilon_is_explained(page, typed):
    at = set_widget(page, page.text_input, EPS_TEXT, typed)
    assert any("Could not use" in e.value for e in at.error)
    assert metric(at, "Analytic σ") == "3.731"


def test_delta_at_least_one_over_n_warns(page):
    assert not any("1/n" in w.value for w in page.warning)
    at = set_widget(page, page.text_input, DELTA_TEXT, "0.05")  # diseases: n = 65, 1/n = 0.0154
    warnings = " ".join(w.value for w in at.warning)
    assert "at least 1/n" in warnings and "(0, 1/n)-DP" in warnings
    assert "n = 65 people" in texts(at)


def test_delta_meaning_states_the_loss_tail(page):
    shown = texts(page)
    # P(privacy loss > 1) for sigma 3.7306 is Phi(1/(2 sigma) - sigma) = 1.612e-4 > delta
    assert "P(loss > ε) = 1.612×10⁻⁴" in shown
    assert "×16.1" in shown


def test_person_in_several_statistics_uses_l1_for_laplace_and_l2_for_gaussian(page):
    # restaurant week: the public rule is at most one visit a day, so 7 days: a count per
    # day has L1 sensitivity 7 and L2 sensitivity sqrt(7)
    at = set_widget(page, page.selectbox, "gaussian_dataset", "restaurant")
    assert metric(at, "Laplace scale b") == "7"
    assert metric(at, "Analytic σ") == _shown(math.sqrt(7) * get_sigma_gaussian(1.0, 1e-5))
    assert "L2 sensitivity 2.646" in texts(at)
    at = set_widget(at, at.radio, "gaussian_mechanism", "laplace")
    assert metric(at, "Noise standard deviation") == _shown(7 * math.sqrt(2))


def _open_with_link(**params: str):
    from apptest_helpers import ROOT, TIMEOUT
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.query_params.update(params)
    at.run()
    at.switch_page("pages/gaussian.py")
    return rerun(at)


def test_delta_is_kept_in_the_link():
    at = _open_with_link(gaussian_delta="1e-07")
    assert metric(at, "Analytic σ") == _shown(get_sigma_gaussian(1.0, 1e-7))
    assert at.query_params["gaussian_delta"] == "1e-07"
    at = set_widget(at, at.select_slider, DELTA_SLIDER, 1e-3)
    assert at.query_params["gaussian_delta"] == "0.001"


def test_bad_delta_in_the_link_falls_back_to_the_default():
    at = _open_with_link(gaussian_delta="0")
    assert metric(at, "Analytic σ") == "3.731"


def test_query_that_cannot_run_leaves_the_rest_of_the_page_working(page):
    at = set_widget(page, page.selectbox, "gaussian_dataset", "own_csv")  # nothing uploaded yet
    assert "until the query above can run" in texts(at)
    assert "Rule of thumb" not in texts(at)
    assert metric(at, "Analytic σ") == "3.731"  # sensitivity 1
    assert metric(at, "Break-even k") == "6.96"
    assert len(plotly_figures(at)) == 3


def test_clipped_mean_with_each_mechanism() -> None:
    at = open_page("gaussian")
    widget(at.selectbox, "gaussian_dataset").set_value("restaurant")
    rerun(at)
    widget(at.radio, "gaussian_kind").set_value("mean")
    rerun(at)
    widths = {}
    for mechanism in ("laplace", "analytic"):
        widget(at.radio, "gaussian_mechanism").set_value(mechanism)
        rerun(at)
        assert "each mean is within" in texts(at)
        bars = plotly_figures(at)[0]["data"]
        noisy = trace_array(bars[1]["y"])
        assert np.all((noisy >= 0) & (noisy <= 50))  # clamped to [L, U]
        widths[mechanism] = float(metric(at, "95% half-width (median group)").replace(",", ""))
        guarantee = "(1, 0)-DP" if mechanism == "laplace" else "(1, 10⁻⁵)-DP"
        assert metric(at, "Guarantee") == guarantee
    # A visitor is in up to 7 daily means (L1 7, L2 sqrt 7). With half the budget on the sum,
    # whichever sum noise is smaller gives the narrower bands.
    laplace_sum_std = math.sqrt(2) * 7 * 50 / 0.5
    gaussian_sum_std = analytic_gaussian_sigma(math.sqrt(7) * 50, 0.5, 5e-6)
    assert (widths["laplace"] < widths["analytic"]) == (laplace_sum_std < gaussian_sum_std)


def test_results_can_be_downloaded_for_each_mechanism(page):
    for mechanism in ("laplace", "analytic"):
        at = set_widget(page, page.radio, "gaussian_mechanism", mechanism)
        assert [b.proto.label for b in at.get("download_button")] == [
            "Download these results (CSV)"
        ]
