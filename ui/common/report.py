"""A page's results as a one-page HTML report that prints cleanly to PDF (A4, portrait).

Generic: a title, then sections of text, tables and charts (Vega-Lite specs as built by
ui.common.charts). Charts are embedded as SVG through vl-convert; when it is missing or
fails, the chart is left out with a note, never the report.

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
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

__all__ = ["Chart", "Section", "Table", "chart_svg", "html_report"]

PRINT_FONT_SIZE = 10  # px in the embedded charts: legible on paper, small enough for one page

_CSS = """
@page { size: A4 portrait; margin: 10mm 12mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; font-size: 9pt;
       line-height: 1.3; color: #1d2733; margin: 0 auto; max-width: 190mm; }
h1 { font-size: 15pt; margin: 0 0 1pt; }
.subtitle { color: #56606c; margin: 0 0 5pt; font-size: 8.5pt; }
h2 { font-size: 10.5pt; margin: 7pt 0 2pt; border-bottom: 1px solid #c9d1db;
     padding-bottom: 1pt; break-after: avoid; page-break-after: avoid; }
p { margin: 1pt 0 3pt; }
table { border-collapse: collapse; width: 100%; font-size: 8pt; margin: 2pt 0 3pt;
        break-inside: avoid; page-break-inside: avoid; }
th, td { border: 1px solid #c9d1db; padding: 1pt 3pt; text-align: left; vertical-align: top; }
th { background: #eef2f6; font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
figure { margin: 2pt 0; break-inside: avoid; page-break-inside: avoid; }
figure svg { max-width: 100%; height: auto; }
figcaption, .caption { color: #56606c; font-size: 7.5pt; }
code { font-family: "DejaVu Sans Mono", Menlo, monospace; font-size: 8.5pt; }
.footer { margin-top: 6pt; color: #56606c; font-size: 7.5pt; overflow-wrap: anywhere; }
@media screen { body { padding: 16px; } }
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


def chart_svg(
    spec: Mapping[str, Any], *, width: int = 600, height: int | None = None
) -> str | None:
    """The chart as an SVG string (vl-convert), sized for print; None if it cannot be drawn.

    The spec's own ``config`` gives way to print sizes, except its number ``locale`` (the
    reader's decimal and group symbols), which is kept.
    """
    try:
        import vl_convert  # runtime dependency; optional for the rest of the report
    except ImportError:
        return None
    datasets = {
        name: _records(frame) if isinstance(frame, pd.DataFrame) else frame
        for name, frame in dict(spec.get("datasets", {})).items()
    }
    font = {"labelFontSize": PRINT_FONT_SIZE, "titleFontSize": PRINT_FONT_SIZE + 1}
    full = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        **{key: value for key, value in spec.items() if key not in ("datasets", "config")},
        "datasets": datasets,
        "width": width,
        "height": height or min(int(spec.get("height", 300)), 260),
        "config": {
            "axis": {**font, "labelLimit": 200, "titleFontWeight": "normal"},
            "legend": {**font, "labelLimit": 300},
            "text": {"fontSize": PRINT_FONT_SIZE - 1},
            "font": "DejaVu Sans",
            **{k: v for k, v in dict(spec.get("config", {})).items() if k == "locale"},
        },
    }
    try:
        return vl_convert.vegalite_to_svg(full)
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


def _table(table: Table) -> str:
    frame = table.frame
    head = "".join(f"<th>{html.escape(str(column))}</th>" for column in frame.columns)
    body = []
    for row in frame.itertuples(index=False):
        cells = []
        for value in row:
            value = value.item() if hasattr(value, "item") else value
            text, number = _cell(value)
            css = ' class="num"' if number else ""
            cells.append(f"<td{css}>{_inline(text)}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    caption = f'<p class="caption">{_inline(table.caption)}</p>' if table.caption else ""
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{caption}"


def _chart(chart: Chart, missing: str) -> str:
    svg = chart_svg(chart.spec, width=chart.width, height=chart.height)
    if svg is None:
        return f'<p class="caption">{_inline(chart.caption)} {_inline(missing)}</p>'
    caption = f"<figcaption>{_inline(chart.caption)}</figcaption>" if chart.caption else ""
    return f"<figure>{svg}{caption}</figure>"


def _block(block: Block, missing: str) -> str:
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Chart):
        return _chart(block, missing)
    return f"<p>{_inline(block)}</p>"


def html_report(
    title: str,
    sections: Sequence[Section],
    *,
    subtitle: str = "",
    footer: str = "",
    language: str = "en",
    missing_chart: str = "(Chart left out: it could not be drawn here.)",
) -> str:
    """A standalone HTML document (inline CSS and SVG, no scripts) that prints on A4.

    ``language`` is the document's language; ``missing_chart`` the note written, in it, where
    a chart could not be drawn.
    """
    parts = [f"<h1>{_inline(title)}</h1>"]
    if subtitle:
        parts.append(f'<p class="subtitle">{_inline(subtitle)}</p>')
    for section in sections:
        parts.append(f"<section><h2>{_inline(section.heading)}</h2>")
        parts.extend(_block(block, missing_chart) for block in section.blocks)
        parts.append("</section>")
    if footer:
        parts.append(f'<p class="footer">{_inline(footer)}</p>')
    return (
        f'<!DOCTYPE html>\n<html lang="{language}"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head>"
        f"<body>{''.join(parts)}</body></html>\n"
    )
