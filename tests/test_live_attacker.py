"""The attacker page's charts and sentences follow the ε, δ and k thumbs (ui.common.live): what
Vega draws with a thumb on a stop, before the server hears of it, is what the server draws
once the slider is there."""

from __future__ import annotations

import pytest
from apptest_helpers import live_texts, open_page, rerun, set_widget
from live_helpers import assert_thumb_shows_the_server_view

from ui.common.widgets import log_grid

SECTIONS = {
    "guess": "1. The attacker's guess",
    "test": "2. The best membership test",
    "releases": "3. Many releases",
}
DELTAS = [10.0**k for k in range(-12, -1)]  # the δ slider's stops


def _opened(section: str, query: dict[str, str] | None = None):
    at = open_page("attacker", query=query)
    at.session_state["attacker__section"] = SECTIONS[section]
    return rerun(at)


# The sliders each section's charts follow: the posterior chart only ε (δ moves it only where
# 10δ reaches 1, beyond the slider).
FOLLOWED = {
    "guess": ["attacker_epsilon"],
    "test": ["attacker_epsilon", "attacker_delta"],
    "releases": ["attacker_epsilon", "attacker_delta"],
}
VALUES = {"attacker_epsilon": (0.5, 8.0), "attacker_delta": (1e-6, 1e-12)}


@pytest.mark.parametrize("section", list(SECTIONS))
def test_the_charts_follow_the_epsilon_and_delta_thumbs(section: str) -> None:
    at = _opened(section)
    for slider in FOLLOWED[section]:
        for value in VALUES[slider]:
            assert assert_thumb_shows_the_server_view(at, slider, value) >= 1, (slider, value)


@pytest.mark.parametrize("section", ["guess", "test"])
def test_with_pure_dp_the_charts_follow_the_epsilon_thumb(section: str) -> None:
    at = _opened(section, {"attacker_pure": "true"})
    assert not any(s.key == "attacker_delta" for s in at.select_slider)
    for value in (0.05, 10.0):
        assert assert_thumb_shows_the_server_view(at, "attacker_epsilon", value) >= 1


def test_the_posterior_chart_follows_the_thumb_at_the_prior_chosen() -> None:
    at = _opened("guess")
    set_widget(at, at.slider, "attacker_prior", 0.2)
    assert assert_thumb_shows_the_server_view(at, "attacker_epsilon", 3.0) >= 1
    assert assert_thumb_shows_the_server_view(at, "attacker_epsilon", 0.01) >= 1


def test_the_composition_chart_follows_the_k_thumb() -> None:
    at = _opened("releases")
    for k in (20, 1000):
        assert assert_thumb_shows_the_server_view(at, "attacker_k", k) >= 1


@pytest.mark.parametrize(
    ("section", "key"), [("guess", "attacker_headline"), ("test", "attacker_test_caption")]
)
def test_the_sentences_follow_the_thumbs_with_the_servers_words(section: str, key: str) -> None:
    at = _opened(section)
    stops = live_texts(at)[key]["texts"]
    at_epsilon = stops["attacker_epsilon"][log_grid(0.01, 10).index(0.2)]
    assert at_epsilon != live_texts(at)[key]["now"]
    at.session_state["attacker_epsilon"] = 0.2
    rerun(at)
    assert live_texts(at)[key]["now"] == at_epsilon
    at_delta = live_texts(at)[key]["texts"]["attacker_delta"][DELTAS.index(1e-3)]
    at.session_state["attacker_delta"] = 1e-3
    rerun(at)
    assert live_texts(at)[key]["now"] == at_delta
