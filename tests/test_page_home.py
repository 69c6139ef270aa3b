"""The home page through AppTest: the live example follows epsilon; a card per page."""

import math

from apptest_helpers import metric, open_page, rerun, widget

from ui.common.catalog import available_pages


def test_live_example_follows_epsilon() -> None:
    at = open_page("home")
    assert metric(at, "True answer") == "5"
    assert metric(at, "95% of answers land within") == f"± {math.log(20):.1f}"
    for epsilon in (0.01, 10):
        widget(at.select_slider, "home_epsilon__slider").set_value(epsilon)
        rerun(at)
        assert metric(at, "95% of answers land within") == f"± {math.log(20) / epsilon:.1f}"
    noisy = float(metric(at, "Published (noisy) answer"))
    assert abs(noisy - 5) < 30 / 10 and noisy != 5


def test_home_has_a_card_for_every_other_page() -> None:
    at = open_page("home")
    links = {link.proto.page: link.proto.label for link in at.get("page_link")}
    expected = {p.url_path: p.title for p in available_pages() if p.url_path != "home"}
    assert links == expected
    assert len(expected) >= 1
