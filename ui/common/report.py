"""A page's results as a one-page HTML report that prints cleanly to PDF (A4, portrait).

Generic: a title, then sections of text, tables and charts (Vega-Lite specs as built by
ui.common.charts). Charts are embedded as SVG through vl-convert (an optional extra) when it is
installed (a chart it fails to draw is left out with a note, never the report). Without it,
each chart's spec (data inline) goes into the report with Vega 6.4.0 and Vega-Lite 6.5.0
(ui/common/vega/: the same versions that Streamlit 1.67 draws the app's charts with, 780 KB),
and the reader's browser draws the same SVG when it opens the report, offline; the note
stands in the chart's place while scripts are off.

    html = html_report(
        "Release plan: census",
        [
            Section("The question", ("What budget do we need?",)),
            Section("Accuracy", (Table(frame, "95% half-widths"), Chart(spec, "Accuracy"))),
        ],
        subtitle="DP Explorer, 2026-07-15",
        footer="Address: https://…",
    )

Text blocks are plain text (escaped), with **bold** and `code` marked as in markdown. No
Streamlit here: a page builds the report inside a download callback (ui.common.export).
"""

from __future__ import annotations

import html
import importlib.util
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = [
    "Chart", "Section", "Table", "can_draw_charts", "chart_svg", "html_report", "print_spec"
]  # fmt: skip

PRINT_FONT_SIZE = 10  # px in the embedded charts: legible on paper, small enough for one page
ROW_WIDTH = 600  # px: a chart alone on its row (the page's width, about 190 mm, holds 700)
ROW_CHARTS = 2  # charts side by side on one row (each drawn narrower, in the same type)
SIDE_HEIGHT = 200  # px: the plot of a chart that shares its row
SHORT = 24  # characters: a text cell up to this long stays on one line (a row, not three)
FOLD_ROWS = 8  # a two-column table (setting, value) longer than this prints in two halves

# One A4 page: the page's box is exactly the printable area, a column whose charts give way.
# When the text and tables leave less room than the charts' natural height, each chart row
# shrinks (and its SVG scales down with it, aspect kept) to what is left, down to MIN_CHART;
# so a report prints on one page whatever its tables, and on screen it is a plain document.
PAGE_MARGIN = (8, 10)  # mm: top and bottom, left and right
PAGE_HEIGHT = 297 - 2 * PAGE_MARGIN[0] - 1  # mm: the printable height, 1 mm spare for rounding
MIN_CHART = 38  # mm: the smallest a chart row shrinks to (still legible)

_CSS = f"""
@page {{ size: A4 portrait; margin: {PAGE_MARGIN[0]}mm {PAGE_MARGIN[1]}mm; }}
* {{ box-sizing: border-box; }}
body {{ font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; font-size: 8.5pt;
       line-height: 1.25; color: #1d2733; margin: 0 auto; max-width: 190mm; }}
h1 {{ font-size: 14pt; margin: 0 0 1pt; line-height: 1.15; }}
.subtitle {{ color: #56606c; margin: 0 0 3pt; font-size: 8pt; }}
h2 {{ font-size: 10pt; margin: 5pt 0 2pt; border-bottom: 1px solid #c9d1db;
     padding-bottom: 0.5pt; break-after: avoid; page-break-after: avoid; }}
p {{ margin: 1pt 0 2pt; }}
table {{ border-collapse: collapse; width: 100%; font-size: 7pt; line-height: 1.15;
        margin: 1pt 0 2pt; break-inside: avoid; page-break-inside: avoid; }}
th, td {{ border: 1px solid #c9d1db; padding: 0.5pt 2.5pt; text-align: left;
         vertical-align: top; }}
th {{ background: #eef2f6; font-weight: 600; }}
td {{ white-space: nowrap; }}
td.wrap {{ white-space: normal; }}
td.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
.fold {{ display: flex; gap: 3mm; align-items: flex-start; break-inside: avoid; }}
.fold > table {{ flex: 1 1 0; }}
.charts {{ display: flex; gap: 4mm; align-items: flex-start; }}
figure {{ margin: 2pt 0; flex: 1 1 0; min-width: 0; break-inside: avoid;
          page-break-inside: avoid; }}
figure svg {{ display: block; width: 100%; height: auto; }}
figcaption, .caption {{ color: #56606c; font-size: 7pt; }}
code {{ font-family: "DejaVu Sans Mono", Menlo, monospace; font-size: 8pt; }}
.footer {{ margin-top: 4pt; color: #56606c; font-size: 7pt; overflow-wrap: anywhere; }}
@media screen {{ body {{ padding: 16px; }} }}
@media print {{
  body {{ height: {PAGE_HEIGHT}mm; display: flex; flex-direction: column; }}
  body > *, section > * {{ flex: none; }}
  section.fits {{ flex: 0 1 auto; min-height: 0; display: flex; flex-direction: column; }}
  section.fits > .charts {{ flex: 0 1 auto; min-height: {MIN_CHART}mm;
                            align-items: stretch; overflow: hidden; }}
  .charts figure {{ display: flex; flex-direction: column; min-height: 0; }}
  .charts figure svg {{ flex: 0 1 auto; min-height: 0; }}
  .charts figcaption {{ flex: none; }}
}}
"""


@dataclass(frozen=True)
class Table:
    """A table block: a DataFrame shown as it is (numbers right-aligned), with a caption."""

    frame: pd.DataFrame
    caption: str = ""


@dataclass(frozen=True)
class Chart:
    """A chart block: a Vega-Lite spec whose ``datasets`` hold DataFrames (ui.common.charts)."""

    spec: Mapping[str, Any]
    caption: str = ""
    width: int = 600
    height: int | None = None


Block = str | Table | Chart


@dataclass(frozen=True)
class Section:
    """A heading and its blocks, in order."""

    heading: str
    blocks: Sequence[Block]


def _inline(text: str) -> str:
    """Escape text; **bold** and `code` as in markdown."""
    escaped = html.escape(str(text))
    escaped = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", escaped)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", escaped)


def _records(frame: pd.DataFrame) -> list[dict]:
    """JSON-able rows: numpy scalars to Python, NaN and infinities to None."""
    rows = []
    for record in frame.to_dict(orient="records"):
        clean = {}
        for key, value in record.items():
            if hasattr(value, "item"):
                value = value.item()
            if isinstance(value, float) and not math.isfinite(value):
                value = None
            clean[str(key)] = value
        rows.append(clean)
    return rows


def can_draw_charts() -> bool:
    """Whether vl-convert (an optional extra: requirements-test.txt) is installed."""
    return importlib.util.find_spec("vl_convert") is not None


def print_spec(
    spec: Mapping[str, Any],
    *,
    width: int = 600,
    height: int | None = None,
    legend_columns: int | None = None,
) -> dict[str, Any]:
    """The spec sized for print, its data as rows (what vl-convert and the browser draw).

    The spec's own ``config`` gives way to print sizes, except its number ``locale`` (the
    reader's decimal and group symbols), which is kept. ``legend_columns`` wraps a legend
    that does not say otherwise into that many columns (a narrow chart's legend).
    """
    datasets = {
        name: _records(frame) if isinstance(frame, pd.DataFrame) else frame
        for name, frame in dict(spec.get("datasets", {})).items()
    }
    font = {"labelFontSize": PRINT_FONT_SIZE, "titleFontSize": PRINT_FONT_SIZE + 1}
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        **{key: value for key, value in spec.items() if key not in ("datasets", "config")},
        "datasets": datasets,
        "width": width,
        "height": height or min(int(spec.get("height", 300)), 260),
        "config": {
            "axis": {**font, "labelLimit": 200, "titleFontWeight": "normal"},
            "legend": {
                **font,
                "labelLimit": 300,
                **({"columns": legend_columns} if legend_columns else {}),
            },
            "text": {"fontSize": PRINT_FONT_SIZE - 1},
            "font": "DejaVu Sans",
            **{k: v for k, v in dict(spec.get("config", {})).items() if k == "locale"},
        },
    }


def chart_svg(spec: Mapping[str, Any], **size: Any) -> str | None:
    """The chart as an SVG string (vl-convert), sized for print (``print_spec``'s ``size``);
    None if it cannot be drawn."""
    try:
        import vl_convert  # optional: without it the reader's browser draws the chart
    except ImportError:
        return None
    try:
        return vl_convert.vegalite_to_svg(print_spec(spec, **size))
    except Exception:  # a chart that cannot be drawn is left out, never the report
        return None


def _cell(value: Any) -> tuple[str, bool]:
    """(text, is_number) for a table cell."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—", False
    if isinstance(value, bool):
        return ("✓" if value else "✗"), False
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:,.6g}" if isinstance(value, float) else f"{value:,}", True
    return str(value), False


def _rows(frame: pd.DataFrame) -> str:
    """A table's body: numbers right-aligned; text kept on one line unless it is long."""
    body = []
    for row in frame.itertuples(index=False):
        cells = []
        for value in row:
            value = value.item() if hasattr(value, "item") else value
            text, number = _cell(value)
            css = ' class="num"' if number else (' class="wrap"' if len(text) > SHORT else "")
            cells.append(f"<td{css}>{_inline(text)}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    return "".join(body)


def _table(table: Table) -> str:
    """The table; one of two columns and many rows (settings) in two halves side by side."""
    frame = table.frame
    head = "".join(f"<th>{html.escape(str(column))}</th>" for column in frame.columns)
    caption = f'<p class="caption">{_inline(table.caption)}</p>' if table.caption else ""
    if len(frame.columns) == 2 and len(frame) > FOLD_ROWS:
        half = -(-len(frame) // 2)
        halves = (frame.iloc[:half], frame.iloc[half:])
        tables = "".join(
            f"<table><thead><tr>{head}</tr></thead><tbody>{_rows(part)}</tbody></table>"
            for part in halves
        )
        return f'<div class="fold">{tables}</div>{caption}'
    return f"<table><thead><tr>{head}</tr></thead><tbody>{_rows(frame)}</tbody></table>{caption}"


def _chart(chart: Chart, missing: str, *, beside: int = 1) -> str:
    """A figure; ``beside`` charts share its row (each drawn narrower and lower)."""
    width, height, columns = chart.width, chart.height, None
    if beside > 1:
        width = min(width, (ROW_WIDTH - 20) // beside)
        height = height or min(int(chart.spec.get("height", 300)), SIDE_HEIGHT)
        columns = 2
    size = {"width": width, "height": height, "legend_columns": columns}
    caption = f"<figcaption>{_inline(chart.caption)}</figcaption>" if chart.caption else ""
    if not can_draw_charts():  # the spec, for the reader's browser to draw (_DRAW)
        spec = json.dumps(print_spec(chart.spec, **size), ensure_ascii=False, allow_nan=False)
        spec = spec.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        unseen = f'<p class="caption unseen">{_inline(missing)}</p>'
        return f'<figure><script type="application/json">{spec}</script>{unseen}{caption}</figure>'
    svg = chart_svg(chart.spec, **size)
    if svg is None:
        return f'<p class="caption">{_inline(chart.caption)} {_inline(missing)}</p>'
    drawn = re.search(r'<svg[^>]*\swidth="([0-9.]+)"', svg)  # never drawn larger than made
    style = f' style="max-width: {float(drawn.group(1)):g}px"' if drawn else ""
    return f"<figure{style}>{svg}{caption}</figure>"


# Draws each figure's spec as vl-convert would (Vega's own SVG, in the figure's first place,
# the figure never wider than the chart), then marks the page: <html data-charts="drawn">.
_DRAW = """(async () => {
  for (const data of document.querySelectorAll('figure > script[type="application/json"]')) {
    const figure = data.parentElement;
    try {
      const spec = vegaLite.compile(JSON.parse(data.textContent)).spec;
      const view = new vega.View(vega.parse(spec), {renderer: "none"});
      const svg = await view.toSVG();
      view.finalize();
      figure.querySelector(".unseen").remove();
      figure.insertAdjacentHTML("afterbegin", svg);
      figure.style.maxWidth = figure.querySelector("svg").getAttribute("width") + "px";
    } catch (error) {
      console.error(error);  // the note stays in the chart's place
    }
  }
  document.documentElement.dataset.charts = "drawn";
})();"""
VEGA = Path(__file__).with_name("vega")  # Vega and Vega-Lite as their npm packages build them
VEGA_FILES = {"vega": "vega-6.4.0.min.js", "vega-lite": "vega-lite-6.5.0.min.js"}


@cache
def _scripts() -> str:
    """Vega, Vega-Lite and the drawing, as inline scripts (the report stays one file)."""
    code = [(VEGA / name).read_text(encoding="utf-8") for name in VEGA_FILES.values()] + [_DRAW]
    safe = [text.replace("</script", "<\\/script") for text in code]  # ends no element early
    return "".join(f"<script>{text}</script>" for text in safe)


def _blocks(blocks: Sequence[Block], missing: str) -> list[str]:
    """Text and tables in order; charts in rows of up to ROW_CHARTS, side by side."""
    parts: list[str] = []
    index = 0
    while index < len(blocks):
        block = blocks[index]
        if isinstance(block, Table):
            parts.append(_table(block))
        elif isinstance(block, Chart):
            run = [block]
            while (
                len(run) < ROW_CHARTS
                and index + 1 < len(blocks)
                and isinstance(blocks[index + 1], Chart)
            ):
                index += 1
                run.append(blocks[index])
            figures = "".join(_chart(chart, missing, beside=len(run)) for chart in run)
            parts.append(f'<div class="charts">{figures}</div>')
        else:
            parts.append(f"<p>{_inline(block)}</p>")
        index += 1
    return parts


def html_report(
    title: str,
    sections: Sequence[Section],
    *,
    subtitle: str = "",
    footer: str = "",
    language: str = "en",
    missing_chart: str = "(Chart left out: it could not be drawn here.)",
) -> str:
    """A standalone HTML document (inline CSS and SVG) that prints on A4; without vl-convert
    it carries the scripts that draw its charts (``_scripts``).

    ``language`` is the document's language; ``missing_chart`` the note written, in it, where
    a chart could not be drawn (without vl-convert: until the browser draws it).
    """
    parts = [f"<h1>{_inline(title)}</h1>"]
    if subtitle:
        parts.append(f'<p class="subtitle">{_inline(subtitle)}</p>')
    for section in sections:
        charted = any(isinstance(block, Chart) for block in section.blocks)
        opening = '<section class="fits">' if charted else "<section>"  # charts give way
        parts.append(f"{opening}<h2>{_inline(section.heading)}</h2>")
        parts.extend(_blocks(section.blocks, missing_chart))
        parts.append("</section>")
    if footer:
        parts.append(f'<p class="footer">{_inline(footer)}</p>')
    if '<script type="application/json">' in "".join(parts):
        parts.append(_scripts())
    return (
        f'<!DOCTYPE html>\n<html lang="{language}"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head>"
        f"<body>{''.join(parts)}</body></html>\n"
    )
