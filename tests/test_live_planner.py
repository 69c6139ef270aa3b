"""The planner's charts and sentences follow the total ε and δ thumbs (ui.common.live): what
Vega draws with a thumb on a stop is what the server draws once the slider is there."""

from __future__ import annotations

import pytest
from apptest_helpers import live_texts, open_page, rerun, widget
from live_helpers import assert_thumb_shows_the_server_view, follows, raw_charts

PLAN, RELEASE, COST, WILD = (
    "1. The plan",
    "2. A simulated release",
    "3. What it costs",
    "4. ε in the wild",
)


def opened(section: str, **radios: str):
    """The page at ``section`` with the radios in ``radios`` (key without the page's prefix)."""
    at = open_page("planner")
    for key, value in radios.items():
        widget(at.radio, f"planner_{key}").set_value(value)
    at.session_state["planner__section"] = section
    return rerun(at)


@pytest.mark.parametrize(
    ("section", "radios"),
    [
        (PLAN, {}),
        (PLAN, {"mode": "weight"}),
        (RELEASE, {}),
        (WILD, {}),
    ],
)
def test_planner_charts_follow_both_thumbs(section: str, radios: dict) -> None:
    at = opened(section, **radios)
    assert assert_thumb_shows_the_server_view(at, "planner_epsilon", 0.3) >= 1
    assert assert_thumb_shows_the_server_view(at, "planner_epsilon", 8.0) >= 1
    assert assert_thumb_shows_the_server_view(at, "planner_delta", 1e-5) >= 1
    assert assert_thumb_shows_the_server_view(at, "planner_delta", 1e-11) >= 1


def test_the_release_of_another_statistic_follows_too() -> None:
    at = opened(RELEASE)
    widget(at.selectbox, "planner_shown").set_value("Mean age")
    rerun(at)
    assert assert_thumb_shows_the_server_view(at, "planner_epsilon", 0.05) >= 1


def test_a_plan_for_targets_follows_the_delta_thumb() -> None:
    at = opened(PLAN, mode="targets")
    assert not [s for s in at.select_slider if s.key == "planner_epsilon"]
    assert assert_thumb_shows_the_server_view(at, "planner_delta", 1e-9) >= 1
    assert assert_thumb_shows_the_server_view(at, "planner_delta", 1e-3) >= 1


def test_the_accountants_stay_still() -> None:
    """Their privacy loss distributions take tens of milliseconds each: not one per stop."""
    at = opened(COST)
    assert raw_charts(at) and all(
        follows(spec, "planner_epsilon") is None for spec, _ in raw_charts(at)
    )


def test_a_minimax_split_of_analytic_gaussian_rows_stays_still() -> None:
    """Each of its plans solves a split within a solve (about 20 ms): not one per stop."""
    at = opened(PLAN, mode="minimax")
    assert raw_charts(at) and all(
        follows(spec, "planner_epsilon") is None for spec, _ in raw_charts(at)
    )
    assert all(not found["texts"] for found in live_texts(at).values())  # no stops to follow
    widget(at.radio, "planner_calibration").set_value("zcdp")
    rerun(at)
    assert assert_thumb_shows_the_server_view(at, "planner_epsilon", 0.3) >= 1


def test_the_plans_heading_follows_the_thumb_with_the_servers_words() -> None:
    at = opened(PLAN)
    thumb = widget(at.select_slider, "planner_epsilon")
    stop = thumb.options.index(thumb.format_func(0.3))
    before = live_texts(at)["planner_heading"]
    at_stop = before["texts"]["planner_epsilon"][stop]
    assert at_stop == "Split a total ε equally: ε = 0.3, δ = 10⁻⁶ in total."
    assert before["now"] == "Split a total ε equally: ε = 1, δ = 10⁻⁶ in total."
    at.session_state["planner_epsilon"] = 0.3
    rerun(at)
    assert live_texts(at)["planner_heading"]["now"] == at_stop
