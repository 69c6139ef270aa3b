"""ui.common.export: the ZIP a spreadsheet opens as it is, and the board report."""

import io
import json
import re
import sys
import zipfile

import numpy as np
import pandas as pd

from ui.common import charts, report
from ui.common.export import Export, board_report, file_stem, localized, results_zip

TABLE = pd.DataFrame(
    {
        "group": ["Diabetes", "Flu"],
        "true count": [24, 28],
        "noisy count": [23.41, 29.07],
        "relative error (%)": [2.46, 3.82],
    }
)
SPEC = charts.noisy_vs_true(
    ["Diabetes", "Flu"], {"True": [24, 28], "Noisy": [23.41, 29.07]}, noisy="Noisy",
    half_width=3.0, value_title="count",
)  # fmt: skip
EXPORT = Export(
    title="Laplace mechanism: Diseases",
    question="How much noise does epsilon cost?",
    table=TABLE,
    settings={"dataset": "Diseases", "epsilon": "1", "query": "number of rows per disease"},
    guarantee="Guarantee: 1-DP for each person.",
    unit="each person (`person_id`, with all their rows)",
    charts=[("answers", SPEC)],
)
EVERYTHING = {"dataset": "Diseases", "seed": 2026, "address": "http://x/laplace?seed=2026"}


def test_the_zip_holds_a_plain_csv_the_settings_and_each_chart_as_svg_and_png() -> None:
    archive = zipfile.ZipFile(io.BytesIO(results_zip(EXPORT, EVERYTHING, "laplace_diseases")))
    names = set(archive.namelist())
    assert {"laplace_diseases.csv", "laplace_diseases.json"} <= names
    assert {"charts/answers.svg", "charts/answers.png"} <= names
    back = pd.read_csv(io.BytesIO(archive.read("laplace_diseases.csv")))  # no options needed
    pd.testing.assert_frame_equal(back, TABLE)
    assert json.loads(archive.read("laplace_diseases.json"))["address"].endswith("seed=2026")
    assert archive.read("charts/answers.png").startswith(b"\x89PNG")
    assert b"<svg" in archive.read("charts/answers.svg")


def test_the_report_is_one_printable_page_with_every_part() -> None:
    html = board_report(EXPORT, EVERYTHING)
    for part in ("How much noise", "each person", "Guarantee: 1-DP", "relative error (%)",
                 "http://x/laplace?seed=2026", "<svg", "@page"):  # fmt: skip
        assert part in html, part
    assert "<script" not in html


def _specs(html: str) -> list[dict]:
    """The Vega-Lite specs a page carries for the browser to draw."""
    found = re.findall(r'<figure><script type="application/json">(.*?)</script>', html)
    return [json.loads(spec) for spec in found]


def test_without_vl_convert_the_report_and_zip_carry_charts_the_browser_draws(monkeypatch):
    """The default install has no vl-convert: each chart's print spec goes in, with its data,
    and Vega and Vega-Lite with it (tests/test_report_pages.py draws it in chromium)."""
    monkeypatch.setitem(sys.modules, "vl_convert", None)  # "import vl_convert" fails
    html = board_report(EXPORT, EVERYTHING)
    (spec,) = _specs(html)
    assert spec == json.loads(json.dumps(report.print_spec(localized(SPEC))))
    assert {"Diabetes", "Flu"} <= set(json.dumps(spec["datasets"]["bars"]).split('"'))
    assert "vegaLite.compile" in html and 'var n="6.5.0"' in html and "pip install" not in html
    archive = zipfile.ZipFile(io.BytesIO(results_zip(EXPORT, EVERYTHING, "laplace_diseases")))
    two = Export(**{**EXPORT.__dict__, "charts": [("answers", SPEC), ("points", _points_spec())]})
    archive = zipfile.ZipFile(io.BytesIO(results_zip(two, EVERYTHING, "laplace_diseases")))
    assert {n for n in archive.namelist() if n.startswith("charts/")} == {"charts/charts.html"}
    page = archive.read("charts/charts.html").decode()
    assert len(_specs(page)) == 2 and page.count("vegaLite.compile") == 1


def test_the_reports_vega_is_the_one_streamlit_draws_the_page_with() -> None:
    """The browser draws a report's charts with the Vega and Vega-Lite the page used."""
    from pathlib import Path

    import streamlit

    bundle = Path(streamlit.__file__).parent / "static" / "static" / "js"
    drawn = "".join(path.read_text(errors="replace") for path in bundle.glob("embed.*.js"))
    for name, file in report.VEGA_FILES.items():
        version = file.removeprefix(f"{name}-").removesuffix(".min.js")
        assert f"`{version}`" in drawn, (name, version)  # the bundle's version literals
        assert f'"{version}"' in (report.VEGA / file).read_text()


def test_file_names_name_the_page_dataset_and_settings() -> None:
    from data.registry import DATASETS
    from ui.common.data_picker import DataChoice

    data = DataChoice(DATASETS["census"], pd.DataFrame(), "census")
    address = {"home_epsilon": "2", "laplace_epsilon": "0.5", "seed": "7"}
    assert file_stem("laplace", data, address) == "laplace_census_epsilon-0.5"
    assert np.isfinite(TABLE["noisy count"]).all()


GERMAN = {"number": {"decimal": ",", "thousands": ".", "grouping": [3], "currency": ["", ""]}}
POINTS = pd.DataFrame({"x": [0.25, 1.5], "y": [1200.0, 3400.0]})


def _points_spec() -> charts.Spec:
    x, y = charts.quantitative("x", "ε"), charts.quantitative("y", "n")
    return charts.chart(charts.layer("points", "point", x=x, y=y), datasets={"points": POINTS})


def _ticks(svg: str) -> list[str]:
    return re.findall(r">([0-9.,]+)</text>", svg)


def _german_chart() -> None:
    """A page that draws one chart in German (AppTest runs this function as the script)."""
    import pandas as pd
    import streamlit as st

    from ui.common import charts

    st.session_state["lang"] = "de"
    points = pd.DataFrame({"x": [0.25, 1.5], "y": [1200.0, 3400.0]})
    x, y = charts.quantitative("x", "ε"), charts.quantitative("y", "n")
    spec = charts.chart(charts.layer("points", "point", x=x, y=y), datasets={"points": points})
    charts.show(spec, key="german")


def test_chart_ticks_use_the_readers_decimal_and_group_symbols() -> None:
    from apptest_helpers import charts as page_charts
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_german_chart)
    at.run()
    assert not at.exception, at.exception
    ((spec, data),) = page_charts(at)
    assert spec["config"]["locale"] == GERMAN
    # Vega-Lite draws the ticks with these symbols (vl-convert runs the same Vega).
    ticks = _ticks(report.chart_svg({**spec, "datasets": data}))
    assert "0,5" in ticks and "1.500" in ticks and "0.5" not in ticks


def test_exported_charts_keep_the_readers_number_symbols(monkeypatch) -> None:
    from ui.common import export

    monkeypatch.setattr(export, "number_locale", lambda: GERMAN["number"])
    german = Export(**{**EXPORT.__dict__, "charts": [("points", _points_spec())]})
    archive = zipfile.ZipFile(io.BytesIO(results_zip(german, EVERYTHING, "points")))
    ticks = _ticks(archive.read("charts/points.svg").decode())
    assert "0,5" in ticks and "1.500" in ticks
    assert "0,5" in _ticks(board_report(german, EVERYTHING))


# --- Plain text in every file an export writes ----------------------------------------------------


def test_plain_text_strips_streamlit_markdown() -> None:
    from ui.common.export import plain_text

    assert plain_text("**Garantie: 0,4-DP** für jede Person (`person_id`).") == (
        "Garantie: 0,4-DP für jede Person (person_id)."
    )
    assert plain_text("see [the notes](https://x.org/a_b) and *Title*, __b__, _i_") == (
        "see the notes (https://x.org/a_b) and Title, b, i"
    )
    assert plain_text(":green[:material/verified_user: ok] ~~no~~ \\*x\\*") == "ok no *x*"
    for kept in ("visitor_id", "snake_case_name", "2 * 3 * 4", '=HYPERLINK("x")', "a*b"):
        assert plain_text(kept) == kept


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


MARKDOWN = re.compile(r"\*\*|`|\]\(|:material/|:[a-z]+\[")


def test_a_german_export_writes_plain_text_and_the_page_keeps_its_bold() -> None:
    from apptest_helpers import download, page_downloads, successes

    at, files = page_downloads("gaussian", {"lang": "de"})
    assert successes(at)[0].startswith("**Garantie: (1, 10⁻⁵)-DP**")  # bold on the page
    archive = zipfile.ZipFile(io.BytesIO(download(files, "gaussian_diseases", ".zip")))
    (name,) = [n for n in archive.namelist() if n.endswith(".json")]
    settings = json.loads(archive.read(name))
    assert settings["guarantee"].startswith("Garantie: (1, 10⁻⁵)-DP für jede Person")
    left = [text for text in _strings(settings) if MARKDOWN.search(text)]
    assert not left, left
    (csv,) = [n for n in archive.namelist() if n.endswith(".csv")]
    assert not MARKDOWN.search(archive.read(csv).decode())
    html = download(files, "gaussian_diseases", "_report.html")
    assert "Garantie: (1, 10⁻⁵)-DP für jede Person" in html
    assert "<strong>" not in html and "**" not in html and "`" not in html
