"""ui.common.live: a chart at every stop of a slider, the stop shown picked in the browser.

What Vega draws with the thumb on a stop (vl-convert) is the chart ``build`` makes for that
stop's value, and what the server draws once the slider is there; a slider step builds
nothing new; a chart whose spec moves with the slider does not pretend to follow it."""

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import live_texts, open_page, rerun
from live_helpers import assert_thumb_shows_the_server_view, dragged, follows, still, svg

from ui.common import charts, live
from ui.common.widgets import log_grid

EPSILON = live.Stops("toy_epsilon", (0.1, 0.5, 1.0, 2.0), 2)
DELTA = live.Stops("toy_delta", (1e-6, 1e-5, 1e-4), 1)


def _toy(epsilon: float, delta: float = 1e-5) -> charts.Spec:
    """Bars of 1/ε and -log10 δ, a marker at ε and a constant curve."""
    bars = pd.DataFrame({"group": ["a", "b"], "value": [1 / epsilon, -np.log10(delta)]})
    curve = pd.DataFrame({"x": [0.1, 1.0, 10.0], "y": [1.0, 2.0, 3.0]})
    return charts.chart(
        charts.bars("bars", x=charts.nominal("group"), y=charts.quantitative("value")),
        charts.lines("curve", x=charts.quantitative("x"), y=charts.quantitative("y")),
        charts.rule_x("now", "x", "label"),
        datasets={"bars": bars, "curve": curve, "now": charts.marker(epsilon, f"ε = {epsilon}")},
    )


def test_vega_draws_at_each_stop_what_build_makes_for_its_value() -> None:
    spec = live.live_spec([EPSILON, DELTA], _toy, key="toy")
    assert "_stop" not in spec["datasets"]["curve"]  # the same at every stop: sent once
    for stop, epsilon in enumerate(EPSILON.values):
        assert dragged(spec, spec["datasets"], "toy_epsilon", stop) == svg(
            *_split(_toy(epsilon, DELTA.value))
        )
    for stop, delta in enumerate(DELTA.values):
        assert dragged(spec, spec["datasets"], "toy_delta", stop) == svg(
            *_split(_toy(EPSILON.value, delta))
        )
    at_rest = still(spec, spec["datasets"], [EPSILON.index, DELTA.index])
    assert at_rest == svg(*_split(_toy(EPSILON.value, DELTA.value)))  # no thumb moving
    assert live.shown(spec["datasets"], EPSILON.index)["bars"].equals(_toy(1.0)["datasets"]["bars"])
    assert live.follows(spec) == ["toy_epsilon", "toy_delta"]


def _split(spec: charts.Spec) -> tuple[dict, dict]:
    return {k: v for k, v in spec.items() if k != "datasets"}, spec["datasets"]


def test_a_step_of_the_slider_sends_the_same_chart() -> None:
    """Nothing in a chart names the stop in use, so Streamlit sends it once (its message
    cache) and Vega keeps it: only the script's announcement moves the chart."""
    one = live.live_spec([EPSILON], _toy, key="toy_same")
    other = live.live_spec([live.Stops(EPSILON.key, EPSILON.values, 0)], _toy, key="toy_same")
    assert {k: v for k, v in one.items() if k != "datasets"} == {
        k: v for k, v in other.items() if k != "datasets"
    }
    assert all(frame.equals(other["datasets"][name]) for name, frame in one["datasets"].items())


def test_a_thumb_far_from_the_server_value_is_not_the_server_value() -> None:
    spec = live.live_spec([EPSILON], _toy, key="toy_far")
    assert dragged(spec, spec["datasets"], "toy_epsilon", 0) != dragged(
        spec, spec["datasets"], "toy_epsilon", 2
    )
    assert follows(spec, "toy_epsilon") == 0 and follows(spec, "other") is None


def test_a_slider_step_builds_nothing_new_and_other_inputs_build_again() -> None:
    calls = []

    def build(epsilon: float) -> charts.Spec:
        calls.append(epsilon)
        return _toy(epsilon)

    live.live_spec([EPSILON], build, key="toy_memo", depends="first")
    assert len(calls) == 1 + len(EPSILON.values)
    calls.clear()
    live.live_spec([EPSILON.at(0.5)], build, key="toy_memo", depends="first")
    assert calls == [0.5]  # the value in use only, to check the memo against
    calls.clear()
    live.live_spec([EPSILON.at(0.5)], build, key="toy_memo", depends="second")
    assert len(calls) == 1 + len(EPSILON.values)


def test_a_caller_that_forgets_what_its_chart_reads_still_gets_the_right_chart() -> None:
    def build(scale: float):
        return lambda epsilon: _toy(epsilon * scale)

    live.live_spec([EPSILON], build(1.0), key="toy_forgot")
    spec = live.live_spec([EPSILON], build(2.0), key="toy_forgot")  # same (empty) depends
    assert dragged(spec, spec["datasets"], "toy_epsilon", 0) == svg(*_split(_toy(0.2)))


def test_a_chart_whose_text_moves_with_the_slider_is_drawn_still() -> None:
    def build(epsilon: float) -> charts.Spec:
        return {**_toy(epsilon), "title": f"ε = {epsilon}"}

    spec = live.live_spec([EPSILON], build, key="toy_text")
    assert "params" not in spec
    assert svg(*_split(spec)) == svg(*_split(build(EPSILON.value)))


def test_a_typed_value_between_stops_is_a_stop_of_its_own() -> None:
    typed = EPSILON.at(0.7)
    assert typed.values == (0.1, 0.5, 0.7, 1.0, 2.0) and typed.value == 0.7


@pytest.mark.parametrize(
    "section",
    ["1. Noisy vs true answers", "2. The noise itself", "3. Error vs ε", "4. The averaging attack"],
)
def test_laplace_charts_follow_the_thumb_with_the_servers_numbers(section: str) -> None:
    at = open_page("laplace")
    at.session_state["laplace__section"] = section
    rerun(at)
    assert assert_thumb_shows_the_server_view(at, "laplace_epsilon", 0.2) >= 1
    assert assert_thumb_shows_the_server_view(at, "laplace_epsilon", 5.0) >= 1


def test_laplace_sentences_follow_the_thumb_with_the_servers_words() -> None:
    at = open_page("laplace")
    before = live_texts(at)["laplace_within"]
    stop = before["texts"]["laplace_epsilon"][
        [t.startswith("With ε = 0.2,") for t in before["texts"]["laplace_epsilon"]].index(True)
    ]
    at.session_state["laplace_epsilon"] = 0.2
    rerun(at)
    assert live_texts(at)["laplace_within"]["now"] == stop


def test_the_home_example_follows_the_thumb_in_words() -> None:
    at = open_page("home")
    before = live_texts(at)["home_caption"]["texts"]["home_epsilon"]
    assert len(set(before)) == len(before)  # every stop says something of its own
    at.session_state["home_epsilon"] = 0.2
    rerun(at)
    assert live_texts(at)["home_caption"]["now"] == before[log_grid(0.01, 10).index(0.2)]
