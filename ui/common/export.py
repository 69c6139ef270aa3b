"""Exports of every page: a ZIP (CSV, settings, charts) and a one-page report for a board.

    export_buttons("laplace", data, lambda: Export(...), secure=False)

``Export`` holds what the page shows: the results table with the units on screen, every
setting, the charts (Vega-Lite specs), the question and the guarantee. It is built only when a
button is pressed (Streamlit's deferred downloads), so an export costs nothing per rerun.

- The ZIP: ``<stem>.csv`` (and any further tables of ``files``) opens in a spreadsheet and
  with ``pandas.read_csv`` as it is (no comment lines; a text cell a spreadsheet would run
  as a formula, such as an uploaded category ``=HYPERLINK(...)``, starts with ``'``:
  ui.common.csv_safe); ``<stem>.json`` names
  the page, the dataset, every setting, the noise, the seed and draw, the guarantee and the
  address that opens the same view; ``charts/`` holds each chart as SVG and PNG (vl-convert,
  an optional extra), or without it one web page of them all that the reader's browser draws
  offline (ui.common.report).
- The report: one page of HTML that prints cleanly to PDF (ui.common.report): the question,
  the data and unit of privacy, the settings, the guarantee, the accuracy table, the charts
  and the address.

Every text an export writes is plain text (``plain_text``): a page's sentences carry
Streamlit markdown (**bold**, `code`, links, :green[colour]), which the page keeps and the
files do not.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from ui.common import report
from ui.common.address import parameters
from ui.common.catalog import PAGES
from ui.common.charts import Spec
from ui.common.csv_safe import safe_csv
from ui.common.data_picker import DataChoice
from ui.common.formatting import number_locale
from ui.common.i18n import _, in_language, language


@dataclass(frozen=True)
class Export:
    """What a page's exports hold (built on demand)."""

    title: str  # e.g. "Laplace mechanism: diseases"
    question: str
    table: pd.DataFrame  # as on screen: the same columns, units and rounding
    settings: Mapping[str, object]  # every setting that changes what the page shows
    guarantee: str  # the guarantee sentence, plain text
    unit: str  # who the guarantee protects
    charts: Sequence[tuple[str, Spec]] = field(default_factory=tuple)  # (file name, spec)
    notes: Sequence[str] = field(default_factory=tuple)
    # more tables in the ZIP, by file name without ".csv" (a synthetic table and its marginals)
    files: Mapping[str, pd.DataFrame] = field(default_factory=dict)


# Streamlit markdown as the pages write it (st.markdown): the marks ``plain_text`` removes
_CODE = re.compile(r"(`+)(.+?)\1", re.DOTALL)  # `code`: kept as written, without the backticks
_LINK = re.compile(r"!?\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_COLOUR = re.compile(
    r":(?:red|orange|yellow|green|blue|violet|gray|grey|rainbow|primary)"
    r"(?:-background|-badge)?\[([^\[\]]*)\]"
)
_ICON = re.compile(r":material/[a-z0-9_]+:\s?")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.DOTALL)
_STRONG_UNDERLINE = re.compile(r"(?<![\w\\])__(?=\S)(.+?)(?<=\S)__(?!\w)", re.DOTALL)
_EMPHASIS = re.compile(r"(?<![\w*\\])\*(?=[^\s*])(.+?)(?<=[^\s*\\])\*(?![\w*])", re.DOTALL)
_UNDERLINE = re.compile(r"(?<![\w\\])_(?=[^\s_])(.+?)(?<=[^\s_\\])_(?!\w)", re.DOTALL)
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~", re.DOTALL)
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+", re.MULTILINE)
_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!~|:$])")


def plain_text(text: str) -> str:
    """``text`` without its Streamlit markdown: what a reader sees, as plain text.

    **bold**, *italic*, _italic_, ~~struck~~ and headings lose their marks; `code` its
    backticks (its content is kept as written); a link [words](address) becomes "words
    (address)"; :green[words] becomes "words" and :material/icon: goes; \\* becomes *.
    Only marks that Streamlit draws go: a name like visitor_id or a product 2 * 3 is kept.
    """
    codes: list[str] = []

    def kept(literal: str) -> str:  # code and addresses: no mark inside them is removed
        codes.append(literal)
        return f"\x00{len(codes) - 1}\x00"

    def link(match: re.Match[str]) -> str:
        words, target = match.group(1), match.group(2)
        return words if not target or target == words else f"{words} ({kept(target)})"

    out = _CODE.sub(lambda m: kept(m.group(2)), text)
    out = _LINK.sub(link, out)
    out = _ICON.sub("", out)
    previous = None
    while previous != out:  # nested marks: :green[**bold**], **_both_**
        previous = out
        for pattern in (_COLOUR, _STRONG, _STRONG_UNDERLINE, _STRIKE, _EMPHASIS, _UNDERLINE):
            out = pattern.sub(r"\1", out)
    out = _HEADING.sub("", out)
    out = _ESCAPED.sub(r"\1", out)
    return re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], out)


def _plain(value: object) -> object:
    """A written value: its text (also inside lists and mappings) as plain text."""
    if isinstance(value, str):
        return plain_text(value)
    if isinstance(value, Mapping):
        return {plain_text(str(k)): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def written(export: Export, everything: Mapping[str, object]) -> tuple[Export, dict[str, object]]:
    """The export and the settings file's fields as the files hold them: plain text (the
    address is kept as it is). The table is kept as on screen (a data frame shows no
    markdown, and its cells are the data's own values)."""
    plain = replace(
        export,
        title=plain_text(export.title),
        question=plain_text(export.question),
        settings=_plain(dict(export.settings)),
        guarantee=plain_text(export.guarantee),
        unit=plain_text(export.unit),
        notes=tuple(plain_text(note) for note in export.notes),
    )
    fields = {
        plain_text(str(key)): value if key == "address" else _plain(value)
        for key, value in everything.items()
    }
    return plain, fields


def file_stem(page: str, data: DataChoice | None, params: Mapping[str, str]) -> str:
    """e.g. laplace_census_epsilon-1: the page, the dataset and ε and δ from the address.

    ``params`` are the address's parameters (the last value of each): their numbers are written
    the same in every language (1.2, never 1,2), so a file's name does not depend on it.
    """
    parts = [page] + ([data.dataset.key.removeprefix("user_")] if data is not None else [])
    others = {entry.url_path for entry in PAGES} - {page}  # a page visited before this one
    for name in ("epsilon", "delta"):
        keys = [k for k in params if k.endswith(f"_{name}") and k.split("_")[0] not in others]
        value = params.get(f"{page}_{name}", params[keys[0]] if keys else None)
        if value is not None:
            parts.append(f"{name}-{value}")
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", "_".join(parts)).strip("-")


def address() -> str:
    """The address of the current view: the page's URL with every setting in it."""
    url = st.context.url or ""
    base = url.split("?", 1)[0]
    query = urlencode(parameters(), doseq=True)
    return f"{base}?{query}" if query else base


def localized(spec: Spec) -> Spec:
    """The spec with the reader's decimal and group symbols, as the page draws it."""
    return {**spec, "config": {**spec.get("config", {}), "locale": {"number": number_locale()}}}


def _png(spec: Spec) -> bytes | None:
    svg = report.chart_svg(spec)
    if svg is None:
        return None
    import vl_convert  # the SVG came from it, so it is there

    return vl_convert.svg_to_png(svg, scale=2)


def _chart_files(export: Export) -> dict[str, str | bytes]:
    """charts/: each chart as SVG and PNG (vl-convert); without it, one page of every chart
    that the reader's browser draws (one copy of Vega, as in the report)."""
    specs = [(name, localized(spec)) for name, spec in export.charts]
    if specs and not report.can_draw_charts():
        section = report.Section(
            _("common.export.charts"), tuple(report.Chart(spec) for _name, spec in specs)
        )
        page = report.html_report(
            export.title, [section], language=language(), missing_chart=missing_chart_note()
        )
        return {"charts/charts.html": page}
    files: dict[str, str | bytes] = {}
    for name, spec in specs:
        svg = report.chart_svg(spec)
        if svg is not None:
            files[f"charts/{name}.svg"] = svg
            files[f"charts/{name}.png"] = _png(spec) or b""
    return files


def results_zip(export: Export, everything: Mapping[str, object], stem: str) -> bytes:
    """A ZIP of the table (CSV), the settings (JSON) and the charts (SVG and PNG; without
    vl-convert, a web page)."""
    export, everything = written(export, everything)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{stem}.csv", safe_csv(export.table))
        archive.writestr(f"{stem}.json", json.dumps(everything, indent=2, ensure_ascii=False))
        for name, table in export.files.items():
            archive.writestr(f"{name}.csv", safe_csv(table))
        for path, content in _chart_files(export).items():
            archive.writestr(path, content)
    return buffer.getvalue()


def board_report(export: Export, everything: Mapping[str, object]) -> str:
    """The one-page HTML report of this view."""
    export, everything = written(export, everything)
    settings = pd.DataFrame(
        {_("common.export.setting"): list(export.settings), _("common.export.value"): [
            str(value) for value in export.settings.values()
        ]}
    )  # fmt: skip
    sections = [
        report.Section(_("common.export.question"), (export.question,)),
        report.Section(
            _("common.export.data"),
            (
                _("common.export.data_text", dataset=everything["dataset"], unit=export.unit)
                if everything["dataset"]
                else _("common.export.unit_text", unit=export.unit),
            ),
        ),
        report.Section(_("common.export.settings"), (report.Table(settings),)),
        report.Section(_("common.export.guarantee"), (export.guarantee, *export.notes)),
        report.Section(_("common.export.accuracy"), (report.Table(export.table),)),
    ]
    if export.charts:
        sections.append(
            report.Section(
                _("common.export.charts"),
                tuple(report.Chart(localized(spec)) for _name, spec in export.charts),
            )
        )
    return report.html_report(
        export.title,
        sections,
        subtitle=_("common.export.subtitle", day=date.today().isoformat()),
        footer=_("common.export.footer", address=everything["address"]),
        language=language(),
        missing_chart=missing_chart_note(),
    )


def missing_chart_note() -> str:
    """What a report writes where a chart is left out; without vl-convert, what stands in its
    place until the browser draws it (with scripts off)."""
    if report.can_draw_charts():
        return _("common.export.chart_missing")
    return _("common.export.chart_scripted")


def charts_note() -> None:
    """Under download buttons, without vl-convert: that the browser draws the charts, and the
    pip command for SVG and PNG files."""
    if not report.can_draw_charts():
        st.caption(_("common.export.charts_scripted"))


def _run_facts(
    page: str, data: DataChoice | None, secure: bool
) -> Callable[[Export], dict[str, object]]:
    """What a download says besides the export's own settings (the page, the data, the noise,
    the seed and draw, the address), read now: a download is built later, outside the
    session."""
    seed, draw = st.session_state.get("seed"), st.session_state.get("draw")
    link = address()
    noise = _("common.export.noise_secure") if secure else _("common.export.noise_teaching")

    def everything(export: Export) -> dict[str, object]:
        return {
            "page": page,
            "dataset": data.title if data is not None else "",
            **{str(k): v for k, v in export.settings.items()},
            "guarantee": export.guarantee,
            "noise": noise,
            "seed": seed,
            "draw": draw,
            "address": link,
        }

    return everything


def export_buttons(
    page: str,
    data: DataChoice | None,
    build: Callable[[], Export],
    *,
    secure: bool,
    report_button: bool = True,
) -> None:
    """Two downloads, built when pressed: the results ZIP and the one-page board report.

    ``report_button=False`` leaves the report to the page (the planner has its own).
    """
    everything = _run_facts(page, data, secure)
    stem = file_stem(page, data, {key: values[-1] for key, values in parameters().items()})

    def zipped() -> bytes:
        export = build()
        return results_zip(export, everything(export), stem)

    def html() -> str:
        export = build()
        return board_report(export, everything(export))

    # one row (one element, where columns are three); on a phone it wraps, a button a line
    # (ui.common.live's stylesheet)
    row = st.container(horizontal=True, key=f"{page}__exports")
    row.download_button(
        _("common.export.zip_secure") if secure else _("common.export.zip"),
        data=in_language(zipped),
        file_name=f"{stem}.zip",
        mime="application/zip",
        icon=":material/download:",
        key=f"{page}_download",
        on_click="ignore",  # no rerun on a click: no run to pay for, none to drop the file
        # two paragraphs, not one sentence glued to another (Japanese and Chinese use no space)
        help=_("common.export.zip_help") + ("" if secure else "\n\n" + _("common.export.teaching")),
        width="stretch",
    )
    if report_button:
        row.download_button(
            _("common.export.report"),
            data=in_language(html),
            file_name=f"{stem}_report.html",
            mime="text/html",
            icon=":material/description:",
            key=f"{page}_report",
            on_click="ignore",
            help=_("common.export.report_help"),
            width="stretch",
        )
    charts_note()
