"""Every page's one-page board report prints on one A4 page (chromium's own print to PDF).

The report is the HTML a page's "report" download gives (ui.common.export, the planner's
ui.planner.board), opened in headless chromium and printed to PDF as A4, as a reader's
"Print > Save as PDF" does. It must come out as exactly one page, in English and in German
(the longest words), with every chart on it and none shrunk past legibility. The PDFs are
written to tests/screenshots/ (git-ignored) to look at.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import page_downloads

from ui.common import charts, report

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "tests" / "screenshots"
# Every report a page offers: (name, page, the address that opens the section with it).
REPORTS = [
    ("laplace", "laplace", {}),
    ("gaussian", "gaussian", {}),
    ("exponential", "exponential", {}),
    ("exponential-hours", "exponential", {"exponential_section": "hours"}),
    ("randomized-response", "randomized_response", {"rr_section": "survey"}),
    ("local-frequencies", "local_frequencies", {"lf_section": "counts"}),
    ("bounding", "bounding", {}),
    ("attacker-guess", "attacker", {}),
    ("attacker-releases", "attacker", {"attacker_section": "releases"}),
    ("planner", "planner", {"planner_section": "board"}),
]
LEGIBLE = 0.5  # a chart may be scaled down to fit, to no less than half its drawn size


def pdf_pages(pdf: bytes) -> int:
    """The number of pages of a PDF (pypdf when installed, else its /Type /Page objects)."""
    try:
        import pypdf
    except ImportError:
        return len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", pdf))
    import io

    return len(pypdf.PdfReader(io.BytesIO(pdf)).pages)


def opened(browser, html: str):
    """A page showing the HTML offline (every request refused), its charts drawn."""
    page = browser.new_page()
    page.route("**/*", lambda route: route.abort())
    page.set_content(html)
    if "<script" in html:  # without vl-convert: Vega draws the charts in the page
        page.wait_for_selector("html[data-charts=drawn]", state="attached")
    return page


def printed(browser, html: str, name: str) -> tuple[int, list[tuple[float, float]]]:
    """(pages of the HTML printed on A4, each chart's (shown height, drawn height) in print)."""
    page = opened(browser, html)
    try:
        pdf = page.pdf(format="A4")
        SHOTS.mkdir(exist_ok=True)
        (SHOTS / f"report-{name}.pdf").write_bytes(pdf)
        page.emulate_media(media="print")
        page.set_viewport_size({"width": 718, "height": 1062})  # 190 x 281 mm: A4's print area
        sizes = page.locator("figure svg").evaluate_all(
            "svgs => svgs.map(s => [s.getBoundingClientRect().height, +s.getAttribute('height')])"
        )
    finally:
        page.close()
    return pdf_pages(pdf), [tuple(size) for size in sizes]


def _report(url_path: str, query: dict[str, str]) -> str:
    _at, files = page_downloads(url_path, query)
    report_file = re.compile(r"(.*_report|release_plan_.*)\.html")  # the planner's is its own
    (name,) = [name for name in files if report_file.fullmatch(name)]
    html = files[name]
    return html.decode() if isinstance(html, bytes) else html


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize(("name", "url_path", "query"), REPORTS, ids=[r[0] for r in REPORTS])
def test_every_pages_report_prints_on_one_a4_page(browser, name, url_path, query, lang) -> None:
    html = _report(url_path, {**query, "lang": lang})
    drawn = html.count("<svg")
    assert drawn >= 1, "the report lost its charts"
    pages, sizes = printed(browser, html, f"{name}-{lang}")
    assert pages == 1, f"{name} ({lang}) prints on {pages} A4 pages"
    assert len(sizes) == drawn
    for shown, natural in sizes:
        assert shown >= LEGIBLE * natural, (shown, natural)


def test_long_tables_shrink_the_charts_to_fit_not_the_page(browser) -> None:
    """A report whose tables leave little room: its charts give way, all on one page."""
    rows = pd.DataFrame({"group": [f"group {i}" for i in range(45)], "value": np.arange(45.0)})
    wide = pd.DataFrame({"a": ["x"] * 32, "b": np.arange(32), "c": np.arange(32) / 7})
    frame = pd.DataFrame({"x": np.arange(10.0), "y": np.arange(10.0) ** 2})
    spec = charts.chart(
        charts.lines("curve", x=charts.quantitative("x", "x"), y=charts.quantitative("y", "y")),
        datasets={"curve": frame},
    )
    html = report.html_report(
        "A long report",
        [
            report.Section("Settings", (report.Table(rows),)),  # folded into two halves
            report.Section("Results", (report.Table(wide),)),
            report.Section("Charts", (report.Chart(spec), report.Chart(spec))),
        ],
        footer="https://example.org/?a=1",
    )
    pages, sizes = printed(browser, html, "long-tables")
    assert pages == 1
    assert len(sizes) == 2 and all(shown < natural for shown, natural in sizes)  # shrunk


def test_without_vl_convert_chromium_draws_the_charts_offline_as_vl_convert_does(
    browser, monkeypatch
) -> None:
    """The default install: the planner's report (German) carries its charts' specs, Vega and
    Vega-Lite; chromium draws them with the network cut, the same SVG text vl-convert draws
    (German numbers, as on the page), and the report still prints on one page."""
    import vl_convert

    monkeypatch.setitem(sys.modules, "vl_convert", None)  # "import vl_convert" fails
    html = _report("planner", {"planner_section": "board", "lang": "de"})
    specs = re.findall(r'<figure><script type="application/json">(.*?)</script>', html)
    assert specs and "<svg" not in html
    pages, sizes = printed(browser, html, "planner-de-browser")
    assert pages == 1 and len(sizes) == len(specs)
    page = opened(browser, html)
    try:
        svgs = page.locator("figure svg").evaluate_all("svgs => svgs.map(s => s.outerHTML)")
        assert page.locator(".unseen").count() == 0  # every note gave way to its chart
    finally:
        page.close()
    texts = re.compile(r"<text[^>]*>([^<]+)</text>")  # vl-convert leaves out empty labels
    for spec, svg in zip(specs, svgs, strict=True):
        expected = vl_convert.vegalite_to_svg(json.loads(spec))
        assert texts.findall(svg) == texts.findall(expected)
    assert "0,1" in texts.findall(svgs[0])  # the log axis's ticks in German, as on the page
