"""The exponential-mechanism page follows the ε thumb (ui.common.live): each section's charts,
drawn by Vega with the thumb on a stop, are what the server draws once ε is there; its
sentences and metrics at a stop are the server's words there; the N sampled runs at every
stop come from the same uniforms."""

from __future__ import annotations

import numpy as np
import pytest
from apptest_helpers import live_texts, open_page, rerun, widget
from live_helpers import assert_thumb_shows_the_server_view, follows, raw_charts

from ui.exponential.table import sampled_runs

EPSILON = "exponential_epsilon"
SECTIONS = {  # the section's tab, and what else it needs to draw its charts
    "table": ("1. The probability table", {}),
    "right": ("3. How often is the answer right?", {}),
    "pitfall": ("4. The sensitivity pitfall", {"exponential_pitfall": True}),
    "hours": ("5. Average hours per week", {}),
}


def opened(section: str, dataset: str = "diseases"):
    """The page at ``section`` on ``dataset``, at the default ε (1)."""
    at = open_page("exponential")
    if dataset != "diseases":
        widget(at.selectbox, "exponential_dataset").set_value(dataset)
        rerun(at)
    label, state = SECTIONS[section]
    at.session_state["exponential__section"] = label
    for key, value in state.items():
        at.session_state[key] = value
    return rerun(at)


@pytest.mark.parametrize("section", list(SECTIONS))
@pytest.mark.parametrize("epsilon", [0.2, 15.0, 0.0])
def test_charts_follow_the_thumb_with_the_servers_numbers(section: str, epsilon: float) -> None:
    at = opened(section)
    assert all(follows(spec, EPSILON) is not None for spec, _ in raw_charts(at))  # all of them
    assert assert_thumb_shows_the_server_view(at, EPSILON, epsilon) >= 1


def test_the_curves_follow_the_thumb_over_many_candidates() -> None:
    """119 industry groups: the table shows 30 bars, the curves need a numerical integral."""
    for section in ("table", "right"):
        at = opened(section, "industry_groups")
        assert assert_thumb_shows_the_server_view(at, EPSILON, 0.1) >= 1


@pytest.mark.parametrize("section", list(SECTIONS))
def test_sentences_and_metrics_follow_the_thumb_with_the_servers_words(section: str) -> None:
    """Every live sentence and metric of the section, with the thumb on ε = 0.2 before the
    server hears of it, is what the server writes once ε is 0.2."""
    at = opened(section)
    before = live_texts(at)
    assert before
    stop = widget(at.select_slider, EPSILON).options.index("0.2")
    at.session_state[EPSILON] = 0.2
    after = live_texts(rerun(at))
    assert after.keys() == before.keys()
    for key, found in before.items():
        assert found["texts"][EPSILON][stop] == after[key]["now"], key
        assert after[key]["now"] != found["now"], key  # it did move with ε


def test_the_sampled_runs_come_from_the_same_uniforms_at_every_stop() -> None:
    """Run u names the first candidate whose cumulative probability passes u: with the same
    uniforms at every ε, Flu (listed first, the most common) is named at least as often at a
    larger ε, and every stop has the N runs. Fresh draws at each stop would wobble."""
    at = opened("table")
    (data,) = [d for s, d in raw_charts(at) if follows(s, EPSILON) is not None]
    sampled = data["sampled"]
    stops = widget(at.select_slider, EPSILON).options
    ours = sampled[sampled["_stop"] < len(stops)]  # ε's stops come first (ui.common.live)
    flu = ours[ours["candidate"] == "Flu"].sort_values("_stop")["p"].to_numpy()
    assert len(flu) == len(stops)
    assert np.all(np.diff(flu) >= 0) and flu[-1] > flu[0]
    runs = ours.groupby("_stop")["p"].sum().to_numpy() * 1_000
    np.testing.assert_allclose(runs, 1_000)


def test_sampled_runs_name_the_candidate_each_uniform_falls_on() -> None:
    """Each uniform u names the first candidate whose cumulative probability passes u; a
    candidate with probability 0 is never named, and the runs add up to N."""
    probabilities = np.array([0.5, 0.0, 0.3, 0.2])
    uniforms = np.sort(np.random.default_rng(7).random(10_000))
    runs = sampled_runs(uniforms, probabilities)
    one_by_one = np.array([np.argmax(u < np.cumsum(probabilities)) for u in uniforms])
    np.testing.assert_array_equal(runs, np.bincount(one_by_one, minlength=4))
    assert runs[1] == 0 and runs.sum() == 10_000
    np.testing.assert_array_equal(sampled_runs(np.array([0.0, 0.5, 0.999]), np.ones(3)), [1, 1, 1])
