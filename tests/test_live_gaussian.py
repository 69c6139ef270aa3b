"""The Gaussian page's charts and sentences follow the ε and δ thumbs (ui.common.live): what
Vega draws with a thumb on a stop (vl-convert) is what the server draws once the slider is
there, in every section, with each mechanism and across ε = 1, where the classic σ comes and
goes."""

from __future__ import annotations

import pytest
from apptest_helpers import live_texts, open_page, rerun, widget
from live_helpers import assert_thumb_shows_the_server_view, follows, raw_charts

EPSILON, DELTA = "gaussian_epsilon", "gaussian_delta"
# Two stops per slider, one far from the default (ε = 1, δ = 10⁻⁵).
MOVES = [(EPSILON, 0.2), (EPSILON, 5.0), (DELTA, 1e-8), (DELTA, 1e-3)]


def _checked(query: dict[str, str], moves: list[tuple[str, float]]) -> None:
    at = open_page("gaussian", query=query)
    charts = [spec for spec, _ in raw_charts(at)]
    assert charts and all(follows(spec, EPSILON) == 0 for spec in charts)
    assert all(follows(spec, DELTA) == 1 for spec in charts)
    for slider, value in moves:
        assert assert_thumb_shows_the_server_view(at, slider, value) >= 1, (slider, value)


@pytest.mark.parametrize("section", ["answers", "sigma", "noise", "k"])
def test_each_sections_chart_follows_both_thumbs_with_the_servers_numbers(section: str) -> None:
    _checked({"gaussian_section": section}, MOVES)


@pytest.mark.parametrize("section", ["sigma", "noise", "k"])
def test_the_classic_sigma_comes_and_goes_across_epsilon_1_on_a_live_chart(section: str) -> None:
    """Classic at ε = 0.5: at ε = 2 the classic curve leaves the σ and k charts and the noise
    chart draws the analytic Gaussian (its legend comes from the data), at ε = 0.2 they are
    back."""
    query = {"gaussian_section": section, "gaussian_mechanism": "classic", EPSILON: "0.5"}
    _checked(query, [(EPSILON, 2.0), (EPSILON, 0.2), (DELTA, 1e-8)])


@pytest.mark.parametrize(
    "query",
    [
        {"gaussian_mechanism": "laplace"},  # δ moves nothing in the answers, ε does
        {"gaussian_mechanism": "classic", EPSILON: "0.5"},
        {"gaussian_dataset": "restaurant", "gaussian_kind": "mean"},  # simulated bands
    ],
)
def test_the_answers_follow_with_each_mechanism_and_a_mean(query: dict[str, str]) -> None:
    _checked(query, [(EPSILON, 0.2), (EPSILON, 0.8), (DELTA, 1e-8)])


def test_the_k_chart_follows_at_another_k() -> None:
    at = open_page("gaussian", query={"gaussian_section": "k", "gaussian_k": "60"})
    assert assert_thumb_shows_the_server_view(at, EPSILON, 0.1) == 1
    assert assert_thumb_shows_the_server_view(at, DELTA, 1e-12) == 1


def test_a_secure_release_is_drawn_at_the_values_in_use_only() -> None:
    at = open_page("gaussian", query={"gaussian_secure": "true"})
    ((spec, _),) = raw_charts(at)
    assert "params" not in spec and "gaussian_within" not in live_texts(at)


def _after_the_move(at, key: str, slider: str, value: float) -> tuple[str, str]:
    """(the sentence ``key`` shown with the thumb on ``value``'s stop, the server's after the
    slider moved there)."""
    thumb = widget(at.select_slider, slider)
    stop = thumb.options.index(thumb.format_func(value))
    dragged = live_texts(at)[key]["texts"][slider][stop]
    at.session_state[slider] = value
    rerun(at)
    return dragged, live_texts(at)[key]["now"]


@pytest.mark.parametrize(
    ("section", "key", "slider", "value", "expected"),
    [
        ("answers", "gaussian_within", EPSILON, 0.2, "at ε = 0.2 and δ = 10⁻⁵, each count"),
        ("answers", "gaussian_within", DELTA, 1e-8, "at ε = 1 and δ = 10⁻⁸, each count"),
        ("sigma", "gaussian_sigma_intro", EPSILON, 0.5, "Both calibrations give (0.5, 10⁻⁵)-DP"),
        ("sigma", "gaussian_sigma_title", EPSILON, 5.0, "σ against δ at ε = 5"),
        ("noise", "gaussian_noise_shares", DELTA, 1e-3, "Gaussian σ = "),
        ("k", "gaussian_k_caption", EPSILON, 0.5, "= (ε σ₁)²/2 = "),
        ("delta", "gaussian_delta_precise", EPSILON, 2.0, "exceeds ε = 2 is P(loss > ε)"),
        ("delta", "gaussian_delta_rule", DELTA, 1e-3, "δ = 10⁻³ is 15 times smaller"),
    ],
)
def test_sentences_follow_the_thumb_with_the_servers_words(
    section: str, key: str, slider: str, value: float, expected: str
) -> None:
    at = open_page("gaussian", query={"gaussian_section": section})
    before = live_texts(at)[key]["now"]
    dragged, server = _after_the_move(at, key, slider, value)
    assert dragged == server != before
    assert expected in server


def test_the_answers_headline_says_why_there_are_none_where_the_classic_sigma_is_withheld():
    at = open_page("gaussian", query={"gaussian_mechanism": "classic", EPSILON: "0.5"})
    thumb = widget(at.select_slider, EPSILON)
    stop = thumb.options.index("2")
    dragged = live_texts(at)["gaussian_within"]["texts"][EPSILON][stop]
    ((_, data),) = raw_charts(at)
    at_stop = data["bars"][data["bars"]["_stop"] == stop]  # ε's stops come first
    assert at_stop.empty  # the chart's axes without answers while the thumb is there
    at.session_state[EPSILON] = 2.0
    rerun(at)
    style, sentence = dragged
    assert style == "notice"  # in the box the server draws once ε = 2 is in use (st.info)
    assert sentence in [i.value for i in at.info]
    assert sentence.startswith("No noisy answers: the classic calibration does not apply")
    assert not raw_charts(at)  # and the server draws no chart there
