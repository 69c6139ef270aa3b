"""Charts and sentences follow a slider's thumb while it is dragged (ui.common.live), in
Debian's chromium: they change while the mouse is still down, before the server hears of
the slider, and what they show then is what the server shows after the release."""

from __future__ import annotations

import base64
import io
import math
import time
from urllib.parse import parse_qs, urlsplit

import pytest
from PIL import Image, ImageChops
from playwright.sync_api import Page
from test_browser import MAIN, SHOTS, _shown_number, chart_pixels, settled

# The page, its section (as the address names it, with what else it needs) and the slider
# dragged: one per page and kind of slider. Every section's charts are checked against the
# server's at other stops through Vega itself in tests/test_live*.py; here the browser shows
# that the thumb moves them before the release, on each page.
DRAGGED = [
    ("laplace", "noise", "laplace_epsilon"),
    ("gaussian", "answers", "gaussian_epsilon"),
    ("gaussian", "sigma", "gaussian_delta"),
    ("exponential", "table", "exponential_epsilon"),
    ("randomized_response", "coins&rr_section=coins", "rr_random_yes"),
    ("local_frequencies", "counts&lf_section=counts", "lf_epsilon"),
    ("bounding", "answers&present=1", "bounding_epsilon"),
    ("attacker", "releases", "attacker_k"),
    ("planner", "plan&present=1", "planner_epsilon"),
]
# Charts that follow two sliders, whose release used to paint them again (ε's stop announced
# anew): their legends name ε, so a fresh page lays their columns out a few pixels apart from
# the dragged chart, which this test compares for the drag and the release only.
RELEASED = [
    ("attacker", "guess", "attacker_epsilon"),
    ("gaussian", "sigma", "gaussian_epsilon"),
]


def _address(page: Page, key: str) -> float:
    """The value the address holds for ``key`` (NaN while it has none)."""
    held = parse_qs(urlsplit(page.url).query).get(key, ["nan"])
    return float(held[-1])


def live_sentences(page: Page) -> list[str]:
    return page.locator(f"{MAIN} .dp-live-text").all_inner_texts()


def chart_alts(page: Page) -> list[tuple[str | None, dict]]:
    """Each live chart's aria-label, with the text alternatives sent for it (its own at the
    values in use, "now", and at every stop by slider, "texts")."""
    return page.evaluate("""() => [...document.querySelectorAll(".dp-live-alt")].map((root) => [
        document.querySelector(`.st-key-${CSS.escape(root.dataset.key)}__chart
          [role='graphics-document']`)?.getAttribute("aria-label"),
        { now: JSON.parse(root.dataset.now), texts: JSON.parse(root.dataset.texts) }])""")


def _wait(page: Page, changed, seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if changed():
            return True
        page.wait_for_timeout(50)
    return False


@pytest.mark.parametrize(
    ("url_path", "section", "slider", "fresh"),
    [(*case, True) for case in DRAGGED] + [(*case, False) for case in RELEASED],
)
def test_a_dragged_thumb_moves_the_charts_before_the_release(
    app, browser, url_path, section, slider, fresh
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    sent: list[float] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda _frame: sent.append(1)))
    page.goto(f"{app}/{url_path}?{url_path}_section={section}")
    settled(page)
    before_charts, before_words = chart_pixels(page), live_sentences(page)
    assert before_charts
    root = page.locator(f"{MAIN} .st-key-{slider}")
    thumb = root.locator("[data-testid='stSliderThumbValue']").first.bounding_box()
    track = root.locator("[data-testid='stSliderTickBar']").first.bounding_box()
    stops = int(root.locator("input[type='range']").first.get_attribute("max")) + 1
    x, y = thumb["x"] + thumb["width"] / 2, thumb["y"] + thumb["height"] + 10
    page.mouse.move(x, y)
    page.mouse.down()
    sent.clear()
    for step in range(1, 7):  # three stops to the left, in small moves
        page.mouse.move(x - step * track["width"] / (stops - 1) / 2, y)
    assert _wait(page, lambda: chart_pixels(page) != before_charts), "no chart followed"
    if before_words:  # the section's numbers in words follow too
        assert _wait(page, lambda: live_sentences(page) != before_words), "no sentence followed"
    page.wait_for_timeout(300)  # the thumb is still: let the last stop paint
    during_charts, during_words = chart_pixels(page), live_sentences(page)
    value = root.locator("input[type='range']").first.get_attribute("aria-valuetext")
    # each chart that follows the thumb says what it shows at the thumb's stop (WCAG 1.1.1)
    stop = root.locator("input[type='range']").first.evaluate("input => Number(input.value)")
    followed = [(label, alt) for label, alt in chart_alts(page) if slider in alt["texts"]]
    assert followed and all(label == alt["texts"][slider][stop] for label, alt in followed)
    assert not sent, "the browser told the server before the release"
    page.mouse.up()
    pictures: list[list[str]] = []  # every picture from the release to the server's answer

    def answered() -> bool:
        pictures.append(chart_pixels(page))
        return math.isclose(_address(page, slider), _shown_number(value))

    assert _wait(page, answered), (page.url, value)
    settled(page)
    assert live_sentences(page) == during_words
    stale = [(label, alt["now"]) for label, alt in chart_alts(page) if label != alt["now"]]
    assert not stale, "a stale alternative"
    after = [label for label, alt in chart_alts(page) if slider in alt["texts"]]
    assert after == [label for label, _ in followed]  # the server's words are the dragged ones
    # a box's icon is a picture to a screen reader: hidden from it, the sentence read alone
    assert page.locator(".dp-live-icon:not([aria-hidden='true'])").count() == 0
    pictures.append(chart_pixels(page))
    # the server's drawing is the dragged one, and no chart painted anything else meanwhile
    assert all(picture == during_charts for picture in pictures)
    if not fresh:
        page.close()
        return
    page.reload()  # a fresh page at that address: its charts at the slider's stop, at rest
    settled(page)
    if not _wait(page, lambda: all(map(_alike, chart_pixels(page), during_charts))):
        shots = _kept(f"{url_path}_{slider}", chart_pixels(page), during_charts)
        raise AssertionError(f"a fresh page does not draw the slider's stop: see {shots}")
    page.close()


def _kept(name: str, fresh: list[str], dragged: list[str]) -> list[str]:
    """The two pages' charts written as PNGs beside the other screenshots, to look at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    paths = []
    for kind, urls in (("fresh", fresh), ("dragged", dragged)):
        for number, url in enumerate(urls):
            path = SHOTS / f"live_{name}_{number}_{kind}.png"
            path.write_bytes(base64.b64decode(url.split(",", 1)[1]))
            paths.append(str(path))
    return paths


def _alike(one: str, other: str) -> bool:
    """Whether two charts' canvases (data URLs) draw the same: a chart laid out anew differs
    from one that moved there only by faint antialiasing at a few edges, while a stop apart
    changes hundreds of pixels (0.07% of the bounding chart, the least moved)."""
    images = [
        Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB")
        for url in (one, other)
    ]
    if images[0].size != images[1].size:
        return False
    strong = ImageChops.difference(*images).convert("L").point(lambda v: 255 if v > 32 else 0)
    return strong.histogram()[255] < 1e-4 * images[0].size[0] * images[0].size[1]
