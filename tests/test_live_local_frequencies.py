"""The local-frequencies page's charts and sentences follow ε's thumb (ui.common.live): what
Vega draws with the thumb on a stop is what the server draws once ε is there."""

from __future__ import annotations

import pytest
from apptest_helpers import live_texts, open_page, rerun, widget
from live_helpers import assert_thumb_shows_the_server_view, raw_charts

PAGE = "local_frequencies"
COUNTS, DOMAIN = (
    "2. Counts: true, as reported, debiased",
    "3. More categories: GRR or unary encoding?",
)


def _opened(section: str, protocol: str = "oue"):
    at = open_page(PAGE)
    widget(at.radio, "lf_protocol").set_value(protocol)
    at.session_state["lf__section"] = section
    return rerun(at)


@pytest.mark.parametrize("protocol", ["oue", "sue", "grr"])
@pytest.mark.parametrize("section", [COUNTS, DOMAIN])
def test_the_charts_follow_epsilon_with_the_servers_numbers(section, protocol) -> None:
    at = _opened(section, protocol)
    for value in (1.5, 8.0):  # the second far from the default ε = 1
        assert assert_thumb_shows_the_server_view(at, "lf_epsilon", value) >= 1


def test_the_counts_sentences_at_a_stop_are_the_servers_once_epsilon_is_there() -> None:
    at = _opened(COUNTS)
    stop = widget(at.select_slider, "lf_epsilon").options.index("4")
    before = live_texts(at)
    counts = before["lf_counts_sentence"]["texts"]["lf_epsilon"][stop]
    sums = before["lf_counts_raw_sums"]["texts"]["lf_epsilon"][stop]
    assert "ε = 4:" in counts and counts != before["lf_counts_sentence"]["now"]
    widget(at.select_slider, "lf_epsilon").set_value(4.0)
    rerun(at)
    assert live_texts(at)["lf_counts_sentence"]["now"] == counts
    assert live_texts(at)["lf_counts_raw_sums"]["now"] == sums


def test_the_domain_sentence_at_a_stop_is_the_servers_once_epsilon_is_there() -> None:
    at = _opened(DOMAIN)
    stop = widget(at.select_slider, "lf_epsilon").options.index("4")
    sentence = live_texts(at)["lf_domain_sentence"]["texts"]["lf_epsilon"][stop]
    assert "k-ary randomized response wins" in sentence  # k* = 3e^4 + 2 = 165.8 > 14
    widget(at.select_slider, "lf_epsilon").set_value(4.0)
    rerun(at)
    assert live_texts(at)["lf_domain_sentence"]["now"] == sentence


def test_with_p_and_q_chosen_the_charts_stand_still() -> None:
    # p and q are plain sliders of their own: there is no ε thumb to follow.
    at = _opened(COUNTS, "manual")
    assert [spec for spec, _data in raw_charts(at) if "params" in spec] == []
    assert live_texts(at)["lf_counts_sentence"]["texts"] == {}
