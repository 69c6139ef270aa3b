"""The home page through AppTest: the live example follows epsilon; a card per page."""

import math
import re
from urllib.parse import parse_qsl

import pytest
from apptest_helpers import metric, open_page, rerun, texts, widget

from ui.common.catalog import available_pages


def test_live_example_follows_epsilon() -> None:
    at = open_page("home")
    assert metric(at, "True answer") == "5"
    assert metric(at, "95% of answers land within") == f"± {math.log(20):.1f}"
    for epsilon in (10, 0.01):
        widget(at.select_slider, "home_epsilon").set_value(epsilon)
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


# --- Exercises ----------------------------------------------------------------------------------


def _reveal(at, key: str) -> str:
    at.session_state[f"exercise_{key}"] = True
    rerun(at)
    widget(at.toggle, f"exercise_{key}_show").set_value(True)
    return rerun(at).info[-1].value


def _band(at) -> float:
    return float(metric(at, "95% of answers land within").removeprefix("± ").replace(",", ""))


def test_halving_epsilon_doubles_the_band_the_page_shows() -> None:
    at = open_page("home")
    widget(at.select_slider, "home_epsilon").set_value(0.5)
    band_at_half = _band(rerun(at))
    widget(at.select_slider, "home_epsilon").set_value(1.0)
    band = _band(rerun(at))
    answer = _reveal(at, "home.halve")
    assert answer.startswith("By a factor of 2.")
    assert f"± {band:.1f}" in answer and f"± {band_at_half:.1f}" in answer
    assert band_at_half / band == pytest.approx(2, rel=0.05)
    widget(at.number_input, "exercise_home.halve_given").set_value(2.0)
    assert any(s.value == "Right." for s in rerun(at).success)
    widget(at.number_input, "exercise_home.halve_given").set_value(0.5)
    assert any("Not quite" in w.value for w in rerun(at).warning)


def test_two_releases_give_the_count_away_with_the_numbers_of_the_caption() -> None:
    at = open_page("home")
    first, second = re.findall(r"the answers (\S+) and (\S+) would", texts(at))[0]
    answer = _reveal(at, "home.two_releases")
    assert answer.startswith("True.") and first in answer and second in answer
    assert "is 5.0000, the true count" in answer
    widget(at.radio, "exercise_home.two_releases_given").set_value("false")
    assert any("Not quite" in w.value for w in rerun(at).warning)
    widget(at.radio, "exercise_home.two_releases_given").set_value("true")
    assert any(s.value == "Right." for s in rerun(at).success)


def test_the_example_in_german_writes_the_band_with_a_decimal_comma() -> None:
    at = open_page("home", query={"lang": "de"})
    assert re.fullmatch(r"± \d+,\d", metric(at, "95 % der Antworten"))


# --- The workshop page ----------------------------------------------------------------------------


def _listing(at) -> list[tuple[str, dict]]:
    return [
        (link.proto.page, dict(parse_qsl(link.proto.query_string)))
        for link in at.get("page_link")
        if link.proto.label in ("Open the section", "Zum Abschnitt")
    ]


def test_the_workshop_lists_every_exercise_with_a_link_to_its_section() -> None:
    from ui.workshop.listing import all_exercises, section_link

    with_exercises = {p.url_path for p in available_pages() if p.exercises}
    assert with_exercises == {p.url_path for p in available_pages()} - {"workshop"}
    at = open_page("workshop")
    exercises = all_exercises()
    assert {e.page for e in exercises} == with_exercises  # two or more on every page
    assert exercises[0].page == "home"  # teaching order: the catalogue's page order
    links = _listing(at)
    assert len(links) == len(exercises)
    for (page, query), exercise in zip(links, exercises, strict=True):
        assert page == exercise.page or (exercise.page == "home" and page in ("", "start"))
        if exercise.section:  # the key the page's own story() reads (rr_section, lf_section)
            assert query == section_link(exercise)
            assert next(iter(query)) in {"rr_section", "lf_section"} or query == {
                f"{exercise.page}_section": exercise.section
            }
    questions = [m.value for m in at.markdown if m.value.startswith("**1.**")]
    assert questions == ["**1.** " + "Halve ε: by what factor does the range in which 95% of the "
                         "published answers land grow?"]  # fmt: skip


def test_the_workshop_in_german() -> None:
    at = open_page("workshop", query={"lang": "de"})
    assert at.title[0].value == "Workshop"
    links = _listing(at)
    assert len(links) == len(_listing(open_page("workshop")))
    first = next(m.value for m in at.markdown if m.value.startswith("**1.**"))
    assert "Halbieren Sie ε" in first
