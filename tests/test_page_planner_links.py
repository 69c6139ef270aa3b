"""The planner's address, exports, languages and exercises: a link holds the whole plan (the
table in one parameter), the ZIP's CSV opens with pandas, German shows decimal commas, and each
exercise states the number the page shows."""

from __future__ import annotations

import io
import json
import math
import re
import zipfile
from unittest import mock

import pandas as pd
import pytest
from apptest_helpers import (
    chart_data,
    deferred_downloads,
    metric,
    open_page,
    rerun,
    successes,
    texts,
    widget,
)

from data.registry import DATASETS
from ui.planner.link import decode_rows, encode_rows
from ui.planner.table import default_rows, frame_of, parse_rows

PAGE = "planner"
EDITOR = "planner_rows_editor"
EPS_SLIDER = "planner_epsilon"
# Two rows: the persons (weight 2) and the hours worked (Gaussian, ±1%).
TWO_ROWS = "Persons~count~-~-~-~lap~2~50~abs~~Hours worked~sum~hours_per_week~0~100~gauss~1~1~pct"


def screen_rows(at) -> list[list[str]]:
    """The plan's markdown table on screen, cell by cell (escapes removed)."""
    table = next(m.value for m in at.markdown if m.value.startswith("| "))
    lines = table.splitlines()[2:]
    return [[c.strip().replace("\\", "") for c in line.strip("|").split(" | ")] for line in lines]


def edit(at, **state):
    at.session_state[EDITOR] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [], **state}
    return rerun(at)


def section(at, label: str):
    at.session_state["planner__section"] = label
    return rerun(at)


# --- the table in one parameter --------------------------------------------------------------


def test_the_default_plan_reads_back_from_its_encoding():
    table = default_rows(DATASETS["census"])
    text = encode_rows(table)
    assert text.startswith("Persons~count~-~-~-~lap~1~50~abs~~Mean age~mean~age~0~100~lap~1~0.5~")
    pd.testing.assert_frame_equal(decode_rows(text), table)


def test_any_name_survives_the_encoding():
    table = frame_of(
        [
            ("50% ~ a-b", "count", None, None, None, "laplace", 1.0, None, None),
            ("-", "sum", "age", -10.0, 1e-5, "gaussian", 0.25, 3.0, "percent"),
        ]
    )
    text = encode_rows(table)
    assert "~~" in text and text.count("~~") == 1
    pd.testing.assert_frame_equal(decode_rows(text), table)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("Persons~count", "row 1 has 2 cells where a row has 9"),
        ("Persons~tally~-~-~-~lap~1~50~abs", "“tally” is not one of count, sum, mean, hist"),
        ("Persons~count~-~-~-~lap~x~50~abs", "row 1: “x” is not a number"),
        ("Persons~count~-~-~-~lap~1~inf~abs", "row 1: “inf” is not a number"),
        ("", "the plan in the address is empty"),
    ],
)
def test_a_malformed_encoding_says_what_is_wrong(text, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        decode_rows(text)


def test_a_link_with_three_settings_and_a_two_row_plan_shows_what_the_controls_show():
    linked = open_page(
        PAGE,
        query={
            "planner_rows": TWO_ROWS,
            "planner_mode": "weight",
            "planner_calibration": "zcdp",
            "planner_epsilon": "2",
            "planner_delta": "1e-05",
        },
    )
    built = open_page(PAGE)
    widget(built.radio, "planner_mode").set_value("weight")
    widget(built.radio, "planner_calibration").set_value("zcdp")
    widget(built.select_slider, EPS_SLIDER).set_value(2.0)
    widget(built.select_slider, "planner_delta").set_value(1e-5)
    edit(built, deleted_rows=[1, 2], edited_rows={0: {"weight": 2.0}})
    assert [row[0] for row in screen_rows(linked)] == ["Persons", "Hours worked"]
    assert screen_rows(linked) == screen_rows(built)
    assert [row[2] for row in screen_rows(linked)] == ["1.333", "0.6667"]  # weights 2 : 1
    pd.testing.assert_frame_equal(chart_data(linked, "accuracy"), chart_data(built, "accuracy"))
    assert successes(linked)[0] == successes(built)[0]
    assert "(2, 10⁻⁵)-DP" in successes(linked)[0]
    for key in ("planner_rows", "planner_mode", "planner_calibration", "planner_epsilon"):
        assert built.query_params[key] == linked.query_params[key], key
    assert built.query_params["planner_rows"] == TWO_ROWS  # the controls write the same link


def test_the_default_plan_stays_out_of_the_address():
    at = open_page(PAGE)
    for key in ("planner_rows", "planner_mode", "planner_calibration"):
        assert key not in at.query_params, key


@pytest.mark.parametrize(
    ("rows", "says"),
    [
        ("Persons~count~-~-~-~lap", "row 1 has 6 cells where a row has 9"),
        ("Spend~sum~salary~0~10~lap~1~5~abs", "`salary` is not a numeric column"),
    ],
)
def test_a_malformed_plan_in_the_address_opens_the_default_plan_with_a_message(rows, says):
    at = open_page(PAGE, query={"planner_rows": rows})
    warning = "\n".join(w.value for w in at.warning)
    assert "The plan in this address cannot be used" in warning and says in warning
    assert [row[0] for row in screen_rows(at)] == [
        "Persons", "Mean age", "Occupations", "Hours worked",
    ]  # fmt: skip
    assert not at.exception and successes(at)  # the default plan, with its guarantee


def test_an_unknown_budget_rule_in_the_address_falls_back_to_an_equal_split():
    at = open_page(PAGE, query={"planner_mode": "generous"})
    assert widget(at.radio, "planner_mode").value == "equal"
    assert [row[2] for row in screen_rows(at)] == ["0.25"] * 4


# --- languages ---------------------------------------------------------------------------------


def test_german_shows_decimal_commas_and_german_names():
    at = open_page(PAGE, query={"lang": "de"})
    assert [row[2] for row in screen_rows(at)] == ["0,25"] * 4  # ε_i with a decimal comma
    assert [row[0] for row in screen_rows(at)][:2] == ["Personen", "Durchschnittsalter"]
    assert metric(at, "Gesamtes ε (grundlegende Komposition)") == "1"
    assert "Ein gesamtes ε gleich aufteilen: insgesamt ε = 1" in texts(at)


# --- the exports --------------------------------------------------------------------------------


ZIP = "planner_census_epsilon-1_delta-1e-06.zip"  # named after the page, data, ε and δ


def downloads(query: dict[str, str] | None = None, label: str | None = None):
    """The page and the files its download buttons give (through their own callbacks)."""
    with deferred_downloads() as made:
        at = open_page(PAGE, query=query)
        if label is not None:
            section(at, label)
    return at, {name: make() for name, make in made.items()}


def test_the_zip_holds_the_plan_table_as_on_screen_the_settings_and_the_charts():
    at, files = downloads()
    archive = zipfile.ZipFile(io.BytesIO(files[ZIP]))
    names = archive.namelist()
    (csv,) = [n for n in names if n.endswith(".csv")]
    back = pd.read_csv(io.BytesIO(archive.read(csv)))  # no options
    rows = screen_rows(at)
    assert list(back["statistic"]) == [row[0] for row in rows]
    assert [f"{v:g}" for v in back["ε_i"]] == [row[2] for row in rows]
    shown_width = [float(row[5].replace(",", "")) for row in rows]
    assert back["95% ±"].tolist() == pytest.approx(shown_width, rel=1e-9)  # 3 digits each
    shown = [float(row[6].rstrip("%")) for row in rows]  # a percentage, as on screen
    assert back["95% ± of the value (%)"].tolist() == pytest.approx(shown, rel=1e-2)
    assert back.loc[0, "true value (a histogram: its median category)"] == 32561
    settings = json.loads(archive.read(csv.replace(".csv", ".json")))
    assert settings["epsilon"] == "1" and settings["delta"] == "10⁻⁶"
    assert settings["how the budget is set"] == "Split a total ε equally"
    assert settings["plan (as in the address)"].startswith("Persons~count~")
    assert "Guarantee: (1, 10⁻⁶)-DP" in settings["guarantee"]
    assert {"charts/accuracy.svg", "charts/accountants.png"} <= set(names)


def test_the_board_offers_the_report_the_script_and_the_zip():
    _at, files = downloads(label="5. For the board")
    report = files["release_plan_census.html"]
    for part in ("The question", "The guarantee", "(1, 10⁻⁶)-DP", "Privacy loss distributions",
                 "95% ± of the value", "<svg", "@page"):  # fmt: skip
        assert part in report, part
    assert files["release_plan_census.py"].startswith('"""Carry out a release plan')
    archive = zipfile.ZipFile(io.BytesIO(files[ZIP]))
    (csv,) = [n for n in archive.namelist() if n.endswith(".csv")]
    assert pd.read_csv(io.BytesIO(archive.read(csv)))["ε_i"].tolist() == [0.25] * 4


def test_the_downloads_speak_the_readers_language():
    _at, files = downloads({"lang": "de", "planner_section": "board"})
    assert "Die Frage" in files["release_plan_census.html"]
    archive = zipfile.ZipFile(io.BytesIO(files[ZIP]))
    (csv,) = [n for n in archive.namelist() if n.endswith(".csv")]
    assert "Statistik" in pd.read_csv(io.BytesIO(archive.read(csv))).columns


@pytest.mark.parametrize("lang", ["de", "ja"])
@pytest.mark.parametrize("key", ["plan", "release", "cost", "wild", "board"])
def test_no_english_sentence_in_any_section(lang, key):
    """As tests/test_i18n_pages.py, each section opened by its address (no rerun: AppTest
    formats a translated selectbox's options outside the session, in English)."""
    from test_i18n_pages import _KEPT, _PLACEHOLDER, _WORDS, english_sentences, screen_texts

    at = open_page(PAGE, query={"lang": lang, "planner_section": key})
    shown = screen_texts(at)
    joined = "\n".join(shown)
    left = {s for s in english_sentences() if s in joined}
    if lang == "ja":
        left |= {
            m.group(0)
            for text in shown
            for m in _WORDS.finditer(_PLACEHOLDER.sub(" ", text))
            if len(m.group(0)) >= 20 and not _KEPT.search(m.group(0))
        }
    assert not left, sorted(left)[:15]


# --- the exercises ------------------------------------------------------------------------------


def reveal(at, key: str) -> str:
    at.session_state[f"exercise_{key}"] = True
    rerun(at)
    widget(at.toggle, f"exercise_{key}_show").set_value(True)
    return rerun(at).info[-1].value


def answer_verdict(at, key: str, value) -> str:
    elements = at.radio if isinstance(value, str) else at.number_input
    widget(elements, f"exercise_{key}_given").set_value(value)
    rerun(at)
    return "right" if any(s == "Right." for s in successes(at)) else "wrong"


def test_halving_a_laplace_target_doubles_its_epsilon_as_the_table_shows():
    at = open_page(PAGE)
    widget(at.radio, "planner_mode").set_value("targets")
    rerun(at)
    before = float(screen_rows(at)[0][2])
    edit(at, edited_rows={0: {"target": 25.0}})
    after = float(screen_rows(at)[0][2])
    assert after / before == pytest.approx(2.0, rel=1e-3)
    explained = reveal(at, "planner.halve")
    assert explained.startswith("×2:")
    assert f"ε_i = {screen_rows(at)[0][2]} for ±25" in explained  # the number the table shows
    assert answer_verdict(at, "planner.halve", 2.0) == "right"
    assert answer_verdict(at, "planner.halve", 1.5) == "wrong"


def test_the_minimax_split_has_the_smallest_worst_relative_error_the_metric_shows():
    at = open_page(PAGE)
    worst = {}
    for rule in ("equal", "weight", "minimax"):
        widget(at.radio, "planner_mode").set_value(rule)
        worst[rule] = metric(rerun(at), "Widest 95% ±")
    assert float(worst["minimax"].rstrip("%")) < float(worst["equal"].rstrip("%"))
    explained = reveal(at, "planner.minimax")
    assert f"{worst['equal']} split equally" in explained
    assert f"{worst['minimax']} with the minimax split" in explained
    assert answer_verdict(at, "planner.minimax", "minimax") == "right"
    assert answer_verdict(at, "planner.minimax", "equal") == "wrong"


def test_the_accounting_exercise_quotes_the_pld_total_of_the_chart():
    at = section(open_page(PAGE), "3. What it costs")
    totals = chart_data(at, "totals").set_index("accountant")["epsilon"]
    pld = totals["Privacy loss distributions"]
    explained = reveal(at, "planner.accountants")
    assert explained.startswith(f"ε = {pld:.4g}:")
    assert "basic composition charges ε = 1" in explained
    assert answer_verdict(at, "planner.accountants", round(pld, 3)) == "right"
    assert answer_verdict(at, "planner.accountants", 1.0) == "wrong"
    assert not math.isclose(pld, 1.0, rel_tol=0.01)


def test_every_default_plan_parses_in_every_language():
    from ui.common.i18n import LANGUAGES

    for key in ("census", "diseases", "restaurant", "tips", "industry_groups"):
        for lang in LANGUAGES:
            with mock.patch("ui.common.i18n.language", return_value=lang):
                parsed = parse_rows(default_rows(DATASETS[key]), DATASETS[key])
            assert parsed.specs and not parsed.problems, (key, lang)
