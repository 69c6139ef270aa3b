"""The bounding page's charts and sentences follow the ε and δ thumbs (ui.common.live): what
Vega draws with a thumb on a stop is what the server draws once the slider is there."""

from __future__ import annotations

import pytest
from apptest_helpers import live_texts, open_page, rerun, widget
from live_helpers import assert_thumb_shows_the_server_view, follows, raw_charts

ANSWERS, TRADEOFF, BUDGET = (
    "1. Noisy answers, before and after bounding",
    "3. Bias against noise",
    "4. What the week costs",
)


def opened(section: str, **choices: str):
    """The page at ``section`` with the radios in ``choices`` (key without the page's prefix)."""
    at = open_page("bounding")
    at.session_state["bounding__section"] = section
    rerun(at)
    for key, value in choices.items():
        widget(at.radio, f"bounding_{key}").set_value(value)
    return rerun(at)


@pytest.mark.parametrize(
    ("section", "choices"),
    [
        (ANSWERS, {}),
        (ANSWERS, {"view": "relative"}),
        (TRADEOFF, {}),
        (TRADEOFF, {"plan": "whole week at once", "tradeoff_bound": "lower"}),
        (BUDGET, {}),
    ],
)
def test_bounding_charts_follow_the_epsilon_thumb(section: str, choices: dict) -> None:
    at = opened(section, **choices)
    assert assert_thumb_shows_the_server_view(at, "bounding_epsilon", 0.2) >= 1
    assert assert_thumb_shows_the_server_view(at, "bounding_epsilon", 8.0) >= 1


@pytest.mark.parametrize("section", [ANSWERS, TRADEOFF, BUDGET])
def test_bounding_charts_follow_both_thumbs_with_gaussian_noise(section: str) -> None:
    at = opened(section, mechanism="gaussian", plan="whole week at once")
    assert assert_thumb_shows_the_server_view(at, "bounding_delta", 1e-5) >= 1
    assert assert_thumb_shows_the_server_view(at, "bounding_delta", 1e-11) >= 1
    assert assert_thumb_shows_the_server_view(at, "bounding_epsilon", 3.0) >= 1


def test_every_chart_of_the_trade_off_follows_both_thumbs() -> None:
    at = opened(TRADEOFF, mechanism="gaussian")
    shown = raw_charts(at)
    assert len(shown) == 2  # the caps and the bounds
    assert all(follows(spec, "bounding_epsilon") is not None for spec, _ in shown)
    assert all(follows(spec, "bounding_delta") is not None for spec, _ in shown)


def test_a_secure_release_is_never_drawn_at_other_stops() -> None:
    at = open_page("bounding")
    widget(at.toggle, "bounding_secure").set_value(True)
    rerun(at)
    shown = raw_charts(at)
    assert len(shown) == 2 and all(follows(spec, "bounding_epsilon") is None for spec, _ in shown)
    assert "bounding_summary" not in live_texts(at)


@pytest.mark.parametrize(
    ("section", "key", "start"),
    [
        (ANSWERS, "bounding_summary", "**Bounding dropped 25 of 2,850 visits"),
        (TRADEOFF, "bounding_best_cap", "**Best cap on days:"),
        (BUDGET, "bounding_budget_summary", "**7 days at ε = 0.2 each cost 1.4"),
    ],
)
def test_bounding_sentences_follow_the_thumb_with_the_servers_words(
    section: str, key: str, start: str
) -> None:
    at = opened(section)
    thumb = widget(at.select_slider, "bounding_epsilon")
    stop = thumb.options.index(thumb.format_func(0.2))
    before = live_texts(at)[key]
    at_stop = before["texts"]["bounding_epsilon"][stop]
    assert at_stop.startswith(start) and at_stop != before["now"]
    at.session_state["bounding_epsilon"] = 0.2
    rerun(at)
    assert live_texts(at)[key]["now"] == at_stop
