"""The guarantee follows where each input came from: shipped (public), declared, chosen with DP,
or read from the user's file. For each source the page's box, the export's settings JSON and
the report say the same thing, in English and in German; whatever was read from the file
turns the statement into "not differentially private" everywhere, until it is fixed in
advance (a typed cap or bound, an emptied and retyped category list)."""

from __future__ import annotations

import html
import io
import json
import zipfile

import pytest
from apptest_helpers import (
    NOT_DP,
    READ_BOUNDS,
    READ_CAP,
    READ_CATEGORIES,
    deferred_downloads,
    open_page,
    rerun,
    successes,
    widget,
)

VISITS = b"person,shop,amount\n" + b"".join(
    f"p{i % 40},{'AB'[i % 2]},{(i * 7) % 60}\n".encode() for i in range(200)
)
CROWD = b"person,shop,amount\n" + b"".join(  # 200 persons a shop: both pass DP selection
    f"p{i % 400},{'AB'[i % 2]},{(i * 7) % 60}\n".encode() for i in range(2000)
)
WORDS = {
    "en": {
        "guarantee": "**Guarantee: ",
        "not_dp": NOT_DP,
        "cap": READ_CAP,
        "bounds": READ_BOUNDS,
        "categories": READ_CATEGORIES,
        "selected": "which categories are shown (ε = 0.5, δ = 10⁻⁶)",
    },
    "de": {
        "guarantee": "**Garantie: ",
        "not_dp": "**So eingestellt nicht differentiell privat.**",
        "cap": "Die Beitragsgrenze pro Person ist das Maximum Ihrer Daten selbst",
        "bounds": "Die Clipping-Grenzen sind der Bereich Ihrer Daten selbst",
        "categories": "Die Kategorien wurden mit den Werten Ihrer Daten gefüllt",
    },
}


def _own(lang: str, data: bytes = VISITS):
    """The Laplace page on uploaded visits, counting per shop (nothing declared yet)."""
    at = open_page("laplace", query={"lang": lang})
    widget(at.selectbox, "laplace_dataset").set_value("own_csv")
    rerun(at)
    at.file_uploader(key="laplace_upload").set_value(("visits.csv", data, "text/csv"))
    rerun(at)
    next(s for s in at.selectbox if s.key == "laplace_category").set_value("shop")
    return rerun(at)


def _text_area(at):
    return next(t for t in at.text_area if t.key == "laplace_cats")


def _cap_box(at):
    return next(n for n in at.number_input if n.key == "laplace_cap")


def _said(at, made: dict) -> tuple[str, str, str]:
    """(the page's guarantee box, the export JSON's guarantee, the report's text)."""
    boxes = [e.value for e in at.error] + [s for s in successes(at)]
    box = next(b for b in boxes if b.startswith(("**Guarantee", "**Garantie", "**Not", "**So")))
    zip_name = [name for name in made if name.endswith(".zip")][-1]  # the last data's
    report_name = [name for name in made if name.endswith("_report.html")][-1]
    with zipfile.ZipFile(io.BytesIO(made[zip_name]())) as archive:
        (settings,) = [n for n in archive.namelist() if n.endswith(".json")]
        exported = json.loads(archive.read(settings))["guarantee"]
    report = made[report_name]()
    report = report.decode() if isinstance(report, bytes) else report
    return box, exported, html.unescape(report)


def _plain(text: str) -> str:
    return text.replace("**", "").replace("`", "").split("\n\n")[0]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_shipped_data_is_public_and_says_guarantee(lang):
    words = WORDS[lang]
    with deferred_downloads() as made:
        at = open_page("laplace", query={"lang": lang})
    box, exported, report = _said(at, made)
    assert box.startswith(words["guarantee"]) and words["not_dp"] not in box
    assert _plain(box) in _plain(exported)
    assert words["guarantee"].strip("* ") in report and words["not_dp"].strip("*") not in report


@pytest.mark.parametrize("lang", ["en", "de"])
def test_declared_cap_and_categories_give_the_guarantee(lang):
    words = WORDS[lang]
    with deferred_downloads() as made:
        at = _own(lang)
        _text_area(at).set_value("A\nB")
        rerun(at)
        _cap_box(at).set_value(5)  # the file's own largest, typed: fixed in advance
        rerun(at)
    box, exported, report = _said(at, made)
    assert box.startswith(words["guarantee"]), box
    for read in ("cap", "bounds", "categories"):
        assert words[read] not in box and words[read] not in exported
    assert words["not_dp"].strip("*") not in report


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_cap_read_from_the_file_is_stated_until_one_is_typed(lang):
    words = WORDS[lang]
    with deferred_downloads() as made:
        at = _own(lang)
        _text_area(at).set_value("A\nB")
        rerun(at)
    assert _cap_box(at).value is None
    box, exported, report = _said(at, made)
    assert box.startswith(words["not_dp"]) and words["cap"] in box
    assert words["categories"] not in box and words["bounds"] not in box
    assert exported.startswith(words["not_dp"].strip("*")) or words["not_dp"] in exported
    assert words["cap"] in exported and words["cap"] in report
    assert not successes(at)  # no green box anywhere on the page


@pytest.mark.parametrize("lang", ["en", "de"])
def test_categories_filled_from_the_file_and_bounds_read_are_stated(lang):
    words = WORDS[lang]
    with deferred_downloads() as made:
        at = _own(lang)
        next(b for b in at.button if b.key.endswith("__fill")).click()
        rerun(at)
        _cap_box(at).set_value(5)
        widget(at.radio, "laplace_kind").set_value("sum")
        rerun(at)
        next(s for s in at.selectbox if s.key == "laplace_value").set_value("amount")
        rerun(at)
    assert set(_text_area(at).value.split("\n")) == {"A", "B"}
    assert at.query_params[_text_area(at).key + "_filled"] in ("1", ["1"])  # a link says so
    box, exported, report = _said(at, made)
    assert box.startswith(words["not_dp"])
    assert words["categories"] in box and words["bounds"] in box and words["cap"] not in box
    assert words["categories"] in exported and words["bounds"] in report
    # bounds typed in advance, the list emptied and declared again: the guarantee is back
    for end, value in (("_lower", 0.0), ("_upper", 59.0)):
        next(n for n in at.number_input if n.key.endswith(end)).set_value(value)
    _text_area(at).set_value("")
    rerun(at)
    _text_area(at).set_value("A\nB")
    rerun(at)
    assert _text_area(at).key + "_filled" not in at.query_params
    assert [s for s in successes(at) if s.startswith(words["guarantee"])]
    assert not [e.value for e in at.error if e.value.startswith(words["not_dp"])]


def test_categories_chosen_with_dp_are_a_part_of_the_guarantee():
    words = WORDS["en"]
    with deferred_downloads() as made:
        at = _own("en", CROWD)
        next(r for r in at.radio if r.key.endswith("_cats_mode")).set_value("selected")
        rerun(at)
        _cap_box(at).set_value(5)
        rerun(at)
    box, exported, _report = _said(at, made)
    assert box.startswith(words["guarantee"]) and words["selected"] in box
    assert words["selected"] in exported


def test_the_planner_report_and_script_say_what_was_read():
    """An own file's default plan leaves its mean's bounds empty, so they are the file's own
    range: the page's box, the ZIP's guarantee, the board report and the generated OpenDP
    script all say the plan is not DP; typed bounds make it a guarantee again."""
    words = WORDS["en"]
    with deferred_downloads() as made:
        at = open_page("planner", query={"planner_section": "board"})
        widget(at.selectbox, "planner_dataset").set_value("own_csv")
        rerun(at)
        at.file_uploader(key="planner_upload").set_value(("visits.csv", VISITS, "text/csv"))
        rerun(at)
        next(n for n in at.number_input if n.key == "planner_cap").set_value(5)
        for area in at.text_area:
            if area.key == "planner_cats":
                area.set_value("A\nB" if area.key.endswith("shop") else "p0\np1")
        rerun(at)
    box = " ".join(e.value for e in at.error)
    assert words["not_dp"] in box and words["bounds"] in box and words["cap"] not in box
    assert not successes(at)
    report = html.unescape(made[[n for n in made if n.endswith(".html")][-1]]())
    script = made[[n for n in made if n.endswith(".py")][-1]]()
    assert words["bounds"] in report
    assert "NOT DIFFERENTIALLY PRIVATE AS SET" in script and "READ_FROM_DATA = True" in script
    zip_name = [n for n in made if n.endswith(".zip")][-1]
    with zipfile.ZipFile(io.BytesIO(made[zip_name]())) as archive:
        (settings,) = [n for n in archive.namelist() if n.endswith(".json")]
        assert words["bounds"] in json.loads(archive.read(settings))["guarantee"]


def test_the_exponential_mechanism_at_zero_still_reveals_a_list_read_from_the_file():
    """At ε = 0 the choice ignores the counts, but a candidate list filled in from the file
    is itself read from the data: the page says so instead of "0-DP"; declared, it is 0-DP."""
    at = open_page("exponential")
    widget(at.selectbox, "exponential_dataset").set_value("own_csv")
    rerun(at)
    at.file_uploader(key="exponential_upload").set_value(("visits.csv", VISITS, "text/csv"))
    rerun(at)
    next(s for s in at.selectbox if s.key == "exponential_column").set_value("shop")
    rerun(at)
    next(b for b in at.button if b.key.endswith("_cats__fill")).click()
    rerun(at)
    widget(at.text_input, "exponential_epsilon__text").set_value("0")
    rerun(at)
    box = " ".join(e.value for e in at.error)
    assert box.startswith(WORDS["en"]["not_dp"]) and WORDS["en"]["categories"] in box
    assert "At ε = 0 the selected candidate ignores the counts" in box
    assert not any(s.startswith("**Guarantee: 0-DP") for s in successes(at))
    next(t for t in at.text_area if t.key.endswith("_cats")).set_value("")
    rerun(at)
    next(t for t in at.text_area if t.key.endswith("_cats")).set_value("A\nB")
    rerun(at)
    assert any(s.startswith("**Guarantee: 0-DP") for s in successes(at))
    assert not at.error
