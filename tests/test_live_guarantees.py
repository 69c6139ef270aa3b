"""The guarantee boxes follow the sliders' thumbs (ui.common.release.said_box): mid-drag a box
says what the server says once the slider is there, in the box the server draws there (a
warning where the classic σ is withheld)."""

from __future__ import annotations

import pytest
from apptest_helpers import live_texts, open_page, rerun, successes, warnings, widget

MOVES = [
    ("gaussian", "gaussian_epsilon", 2.0),
    ("gaussian", "gaussian_delta", 1e-3),
    ("exponential", "exponential_epsilon", 2.0),
    ("local_frequencies", "lf_epsilon", 2.0),
    ("randomized_response", "rr_random_yes", 0.1),
]


def _box(at, slider: str) -> dict:
    """The live guarantee box that follows ``slider`` (keyed by its page's first slider)."""
    (found,) = [t for k, t in live_texts(at).items() if k.endswith("_guarantee")]
    assert slider in found["texts"]
    return found


def _at_stop(at, slider: str, value: float):
    thumb = widget(at.select_slider, slider)
    return _box(at, slider)["texts"][slider][thumb.options.index(thumb.format_func(value))]


@pytest.mark.parametrize(("page", "slider", "value"), MOVES)
def test_a_guarantee_box_follows_the_thumb_with_the_servers_words(page, slider, value) -> None:
    at = open_page(page)
    dragged = _at_stop(at, slider, value)
    assert dragged != _box(at, slider)["now"]
    at.session_state[slider] = value
    rerun(at)
    assert _box(at, slider)["now"] == dragged
    assert successes(at)[0].startswith(dragged)


def test_where_the_classic_sigma_is_withheld_the_box_warns_as_the_server_does() -> None:
    at = open_page("gaussian", query={"gaussian_mechanism": "classic", "gaussian_epsilon": "0.5"})
    style, sentence = _at_stop(at, "gaussian_epsilon", 2.0)
    assert style == "warning"
    at.session_state["gaussian_epsilon"] = 2.0
    rerun(at)
    assert sentence in warnings(at) and not successes(at)
