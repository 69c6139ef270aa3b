"""The home page through AppTest: the live example follows epsilon; a card per page."""

import math
import re

from apptest_helpers import metric, open_page, rerun, texts, widget

from ui.common.catalog import available_pages


def test_live_example_follows_epsilon() -> None:
    at = open_page("home")
    assert metric(at, "True answer") == "5"
    assert metric(at, "95% of answers land within") == f"± {math.log(20):.1f}"
    for epsilon in (10, 0.01):
        widget(at.select_slider, "home_epsilon__slider").set_value(epsilon)
        rerun(at)
        assert metric(at, "95% of answers land within") == f"± {math.log(20) / epsilon:,.1f}"
    noisy = float(metric(at, "Published (noisy) answer").replace(",", ""))
    assert abs(noisy - 5) < 30 / 0.01 and noisy != 5


def test_the_example_says_that_two_releases_from_one_draw_give_the_count_away() -> None:
    at = open_page("home")
    text = texts(at)
    assert "a real curator draws once and publishes once" in text.lower()
    # The two answers it quotes really recover the true count: 2 y(2ε) - y(ε) = 5.
    first, second = (float(v) for v in re.findall(r"the answers (\S+) and (\S+) would", text)[0])
    assert 2 * second - first == 5 or abs(2 * second - first - 5) < 1e-3
    assert "spends another ε" not in text  # the old sentence said only a new draw spends ε


def test_home_has_a_card_for_every_other_page() -> None:
    at = open_page("home")
    links = {link.proto.page: link.proto.label for link in at.get("page_link") if link.proto.page}
    expected = {p.url_path: p.title for p in available_pages() if p.url_path != "home"}
    assert {k: v for k, v in links.items() if k in expected} == expected
