"""The randomized-response page's charts and sentences follow the thumbs of its sliders
(ui.common.live): the coins' t and y in "set the coins" mode, ε in "set ε" mode. What Vega draws
with a thumb on a stop is what the server draws once the slider is there."""

from __future__ import annotations

import pytest
from apptest_helpers import errors, live_texts, open_page, rerun, successes, widget
from live_helpers import assert_thumb_shows_the_server_view, follows, raw_charts
from test_page_randomized_response import CENTRAL, COINS, ERROR, PAGE, SURVEY

# Two values per slider, the second far from the fair coins' (and from ε = ln 3).
MOVES = {
    "rr_truth": (0.55, 0.9),
    "rr_random_yes": (0.45, 0.1),
    "rr_epsilon": (1.5, 6.0),
}


def _opened(section: str, mode: str = "coins"):
    at = open_page(PAGE)
    if mode == "epsilon":
        widget(at.radio, "rr_mode").set_value("epsilon")
        rerun(at)
    at.session_state["rr__section"] = section
    return rerun(at)


@pytest.mark.parametrize("section", [COINS, ERROR])
@pytest.mark.parametrize("slider", ["rr_truth", "rr_random_yes"])
def test_the_coins_charts_follow_either_coin_with_the_servers_numbers(section, slider) -> None:
    at = _opened(section)
    for value in MOVES[slider]:
        assert assert_thumb_shows_the_server_view(at, slider, value) >= 1


@pytest.mark.parametrize("section", [COINS, SURVEY, ERROR, CENTRAL])
def test_every_chart_follows_epsilon_with_the_servers_numbers(section) -> None:
    at = _opened(section, "epsilon")
    for value in MOVES["rr_epsilon"]:
        assert assert_thumb_shows_the_server_view(at, "rr_epsilon", value) >= 1


@pytest.mark.parametrize(
    ("section", "sentence"), [(SURVEY, "rr_undo"), (CENTRAL, "rr_central_sentence")]
)
def test_the_costly_charts_stand_still_while_the_coins_set_the_game(section, sentence) -> None:
    # An exact distribution or curve at each of 101 stops, built again at each step of the
    # other coin: these two sections follow ε only.
    at = _opened(section)
    (spec, _data), *_ = raw_charts(at)
    assert "params" not in spec
    assert live_texts(at)[sentence]["texts"] == {}


def test_a_coin_sentence_at_a_stop_is_the_servers_once_the_coin_is_there() -> None:
    at = _opened(COINS)
    before = live_texts(at)
    stop = widget(at.select_slider, "rr_truth").options.index("0.9")
    gamma = before["rr_gamma"]["texts"]["rr_truth"][stop]
    ratios = before["rr_ratios"]["texts"]["rr_truth"][stop]
    assert "½ + γ = 0.95" in gamma and "19× as likely" in ratios  # p = 0.95, q = 0.05
    widget(at.select_slider, "rr_truth").set_value(0.9)
    rerun(at)
    assert live_texts(at)["rr_gamma"]["now"] == gamma
    assert live_texts(at)["rr_ratios"]["now"] == ratios


def test_an_epsilon_sentence_at_a_stop_is_the_servers_once_epsilon_is_there() -> None:
    at = _opened(CENTRAL, "epsilon")
    stop = widget(at.select_slider, "rr_epsilon").options.index("6")
    sentence = live_texts(at)["rr_central_sentence"]["texts"]["rr_epsilon"][stop]
    assert sentence.startswith("At ε = 6,")
    widget(at.select_slider, "rr_epsilon").set_value(6.0)
    rerun(at)
    assert live_texts(at)["rr_central_sentence"]["now"] == sentence


def test_a_coin_at_a_value_between_stops_is_a_stop_of_its_own() -> None:
    # A link's coin (or the t that ε sets) between the grid's stops stays as it is.
    at = open_page(PAGE, query={"rr_truth": "0.125"})
    thumb = widget(at.select_slider, "rr_truth")
    assert thumb.value == 0.125 and len(thumb.options) == 22
    (spec, _data), *_ = raw_charts(at)
    assert follows(spec, "rr_truth") is not None
    assert "½ + γ = 0.5625" in live_texts(at)["rr_gamma"]["now"]  # p = 0.125 + 0.875 / 2


@pytest.mark.parametrize(("slider", "value"), [("rr_truth", 0.9), ("rr_random_yes", 0.1)])
def test_the_guarantee_follows_either_coin_with_the_servers_words(slider, value) -> None:
    """The box says what the server says once the coin is there, mid-drag (not the ε in use)."""
    at = _opened(COINS)
    thumb = widget(at.select_slider, slider)
    found = live_texts(at)["rr_truth_guarantee"]
    dragged = found["texts"][slider][thumb.options.index(thumb.format_func(value))]
    assert dragged != found["now"]
    at.session_state[slider] = value
    rerun(at)
    assert live_texts(at)["rr_truth_guarantee"]["now"] == dragged
    assert dragged in successes(at)[0]


def test_where_the_coins_give_no_guarantee_the_box_says_so_in_red() -> None:
    """t = 1 (always the truth): an error box at that stop, as the server draws it there."""
    at = _opened(COINS)
    thumb = widget(at.select_slider, "rr_truth")
    texts = live_texts(at)["rr_truth_guarantee"]["texts"]["rr_truth"]
    style, sentence = texts[thumb.options.index(thumb.format_func(1.0))]
    assert style == "error" and "No guarantee: ε = ∞" in sentence
    at.session_state["rr_truth"] = 1.0
    rerun(at)
    assert sentence in errors(at) and not successes(at)
