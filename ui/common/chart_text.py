"""A chart's text alternative (WCAG 1.1.1) and its data as a table, drawn only when asked.

``describe`` gives the sentence a screen reader reads for a chart: the spec's own
``description`` where its builder wrote one (e.g. ``charts.noisy_vs_true``: every
category's values), else what its axes show and the labels it prints (the current ε, a true
answer), which are its main numbers. ``ui.common.charts.show`` sends it as the chart's
``alt``; a live chart's, at every stop, is sent beside it (ui.common.live), and the script
paints it into the chart's ``aria-label`` during a drag.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from ui.common import formatting
from ui.common.formatting import significant
from ui.common.i18n import _, listed, sentences
from ui.common.shell import chart_tables

Spec = dict[str, Any]


def _layers(value: Any) -> Iterator[dict]:
    """Every view of a spec (layers, concatenations), outermost first."""
    if isinstance(value, dict):
        if "mark" in value or "encoding" in value:
            yield value
        for name in ("layer", "vconcat", "hconcat", "concat"):
            for item in value.get(name, []):
                yield from _layers(item)


def _title(channel: Any) -> str | None:
    title = channel.get("title") if isinstance(channel, dict) else None
    return " ".join(title) if isinstance(title, list) else title or None


def _axis(spec: Spec, name: str) -> str | None:
    """The first title of a channel ``name`` (x or y) in the spec."""
    for view in _layers(spec):
        title = _title(view.get("encoding", {}).get(name))
        if title:
            return title
    return None


def _labels(spec: Spec) -> list[str]:
    """The words the chart prints on its plot (text marks' values), in order, once each."""
    found: list[str] = []
    datasets = spec.get("datasets", {})
    for view in _layers(spec):
        mark = view.get("mark", {})
        field = view.get("encoding", {}).get("text", {}).get("field")
        frame = datasets.get(view.get("data", {}).get("name"))
        words = isinstance(frame, pd.DataFrame) and field in frame
        if mark.get("type") == "text" and words and not pd.api.types.is_numeric_dtype(frame[field]):
            for word in (" ".join(str(v).split()) for v in frame[field]):
                if word and word not in found:
                    found.append(word)
    return found


ROWS = 24  # a chart with more bars than this is described by its LARGEST values only
LARGEST = 10


def _mark(view: dict) -> str | None:
    mark = view.get("mark")
    return mark.get("type") if isinstance(mark, dict) else mark


def _frame(spec: Spec, view: dict) -> pd.DataFrame | None:
    frame = spec.get("datasets", {}).get(view.get("data", {}).get("name"))
    return frame if isinstance(frame, pd.DataFrame) else None


def _number(channel: dict) -> Callable[[float], str]:
    """How a channel's axis writes its numbers: as percentages where its format says so."""
    percent = "%" in str((channel.get("axis") or {}).get("format", ""))
    return (lambda v: formatting.percent(v)) if percent else significant


def _said(frame: pd.DataFrame, channel: dict, series: str | None) -> str:
    """A category's values: "12" or "true count 12, noisy count 13.4"."""
    value, write = channel["field"], _number(channel)
    if series is None:
        return listed(write(float(v)) for v in frame[value])
    return listed(_("common.chart.alt.value", series=name, value=write(float(v)))
                     for name, v in zip(frame[series], frame[value], strict=True))  # fmt: skip


def _series(enc: dict, frame: pd.DataFrame, category: str) -> str | None:
    """The field naming a view's series: its colour's, unless that holds colours themselves."""
    color = enc.get("color", {})
    field = color.get("field")
    named = field in frame and field != category and color.get("scale", {}) is not None
    return field if named else None


def _bars(spec: Spec) -> str | None:
    """The values of the first view that draws a number per category (at most ROWS)."""
    for view in _layers(spec):
        enc, frame = view.get("encoding", {}), _frame(spec, view)
        for cat, num in (("x", "y"), ("y", "x")):
            c, n = enc.get(cat, {}), enc.get(num, {})
            kinds = ("nominal", "ordinal") + (
                ("quantitative",) if _mark(view) in ("bar", "text") else ()
            )
            if (frame is None or c.get("type") not in kinds
                    or n.get("type") != "quantitative" or "field" not in n or "y2" in enc
                    or "x2" in enc):  # fmt: skip
                continue
            series = _series(enc, frame, c["field"])
            shown = frame.nlargest(LARGEST, n["field"]) if len(frame) > ROWS else frame
            groups = "; ".join(
                _("common.chart.alt.group", category=name, values=_said(rows, n, series))
                for name, rows in shown.groupby(c["field"], sort=False)
            )
            if len(shown) < len(frame):  # a long chart: its largest values
                return _("common.chart.alt.largest", shown=len(shown), count=len(frame),
                         groups=groups)  # fmt: skip
            return _("common.chart.alt.values", groups=groups)
    return None


def _lines(spec: Spec) -> Iterator[tuple[str, np.ndarray, np.ndarray, dict]]:
    """Each line drawn: (its series' name, its x and y values as floats in the frame's order,
    its encoding); a layer without a series is one line named by its y axis. Grouped with
    numpy: a chart's text is written at every stop of a live slider, and a pandas group by
    series cost more than the rest of the sentence."""
    for view in _layers(spec):
        enc, frame = view.get("encoding", {}), _frame(spec, view)
        x, y = enc.get("x", {}).get("field"), enc.get("y", {}).get("field")
        if _mark(view) != "line" or frame is None or x not in frame or y not in frame:
            continue
        xs, ys = frame[x].to_numpy(dtype=float), frame[y].to_numpy(dtype=float)
        series = _series(enc, frame, x)
        if not series:
            yield _title(enc["y"]) or y, xs, ys, enc
            continue
        codes, names = pd.factorize(frame[series], sort=False)
        for code, name in enumerate(names):
            mine = codes == code
            yield name, xs[mine], ys[mine], enc


def _at_mark(spec: Spec) -> tuple[str, str] | None:
    """(the vertical marker's label, the sentence of each line's value there): a curve read
    at the current ε. The lines are read as drawn, straight between their points."""
    marks = [v for v in _layers(spec) if _mark(v) == "rule"
             and "x" in v.get("encoding", {}) and "y" not in v.get("encoding", {})]  # fmt: skip
    mark = _frame(spec, marks[0]) if marks else None
    field = marks[0]["encoding"]["x"].get("field") if marks else None
    if mark is None or "label" not in mark or field not in mark or len(mark) != 1:
        return None
    at, label = float(mark[field].iloc[0]), str(mark["label"].iloc[0])
    said = []
    for name, xs, ys, enc in _lines(spec):
        drawn = ~np.isnan(xs)
        xs, ys = xs[drawn], ys[drawn]
        if len(xs) and xs.min() <= at <= xs.max():
            order = np.argsort(xs)
            value = float(np.interp(at, xs[order], ys[order]))
            said.append(_("common.chart.alt.value", series=name, value=_number(enc["y"])(value)))
    return (label, _("common.chart.alt.at", mark=label, values=listed(said))) if said else None


def _peaks(spec: Spec) -> str | None:
    """Each line's highest point, for curves with no marker to read them at: a training
    curve's best accuracy, a density's mode and its height."""
    said = []
    for name, xs, ys, enc in _lines(spec):
        if np.isfinite(ys).any():
            top = int(np.nanargmax(ys))
            value, at = _number(enc["y"])(ys[top]), _number(enc["x"])(float(xs[top]))
            said.append(_("common.chart.alt.peak", series=name, value=value, at=at))
    axis = _axis(spec, "x")
    return _("common.chart.alt.peaks", axis=axis, values=listed(said)) if said and axis else None


def describe(spec: Spec) -> str:
    """The chart's text alternative: its own ``description``, else what its axes show, its
    values (a number per category, each line's at the marked ε, or else each line's highest
    point) and the labels printed."""
    if spec.get("description"):
        return str(spec["description"])
    x, y = _axis(spec, "x"), _axis(spec, "y")
    if x and y:
        said = [_("common.chart.alt.axes", y=y, x=x)]
    elif x or y:
        said = [_("common.chart.alt.axis", values=x or y)]
    else:
        said = [_("common.chart.alt.plain")]
    at, labels = _at_mark(spec), _labels(spec)
    values = _bars(spec)
    if values:
        said.append(values)
    if at:
        said.append(at[1])
        labels = [label for label in labels if label != at[0]]
    elif not values and (peaks := _peaks(spec)):
        said.append(peaks)
    if labels:
        said.append(_("common.chart.alt.labels", labels="; ".join(labels)))
    return sentences(*said)


def _titles(spec: Spec, name: str) -> dict[str, str]:
    """Each field of dataset ``name`` with its title in the reader's language, as the
    channels of the views drawing it name it."""
    titles = {"group": _("common.chart.category"), "series": _("common.chart.series")}
    found: dict[str, str] = {}
    for view in _layers(spec):
        if view.get("data", {}).get("name") != name:
            continue
        for channel in view.get("encoding", {}).values():
            for item in channel if isinstance(channel, list) else [channel]:
                field = item.get("field") if isinstance(item, dict) else None
                if field and (_title(item) or field in titles):
                    found.setdefault(field, _title(item) or titles[field])
    return found


def tables(spec: Spec) -> list[pd.DataFrame]:
    """The chart's datasets as tables: each one with a titled numeric column, its titled
    columns named in the reader's language (untitled ones are the chart's machinery)."""
    out = []
    for name, frame in spec.get("datasets", {}).items():
        titles = _titles(spec, name)
        if not isinstance(frame, pd.DataFrame):
            continue
        kept = [c for c in frame.columns if c in titles]
        if any(pd.api.types.is_numeric_dtype(frame[c]) for c in kept):
            out.append(frame[kept].rename(columns=titles).reset_index(drop=True))
    return out


def _written(column: pd.Series) -> pd.Series:
    """A column as the page writes it: numbers in the reader's format (1,414 or 2.83)."""
    if not pd.api.types.is_numeric_dtype(column):
        return column
    return column.map(lambda value: formatting.readable(float(value)))


def table_view(spec: Spec) -> None:
    """The chart's data as tables below it, when the reader asked for them (the sidebar's
    switch, ui.common.shell.chart_tables): real tables, which a screen reader walks cell by
    cell, their numbers written as the page writes them. Otherwise nothing is drawn."""
    if chart_tables():
        for frame in tables(spec):
            st.table(frame.apply(_written), hide_index=True)


def grouped(groups: Mapping[str, Sequence[tuple[str, str]]]) -> str:
    """Values by category in the reader's words: "a: true 3, noisy 3.5; b: …" (each category
    with its (series, written value) pairs)."""
    return "; ".join(
        _("common.chart.alt.group", category=category, values=listed(
            _("common.chart.alt.value", series=series, value=value) for series, value in pairs))
        for category, pairs in groups.items()
    )  # fmt: skip


def bars_description(
    labels: Sequence[str], series_values: Mapping[str, Sequence[float]], value_title: str
) -> str:
    """Bars per category (``charts.noisy_vs_true``): what they show and every value."""
    groups = {
        label: [(name, significant(float(values[i]))) for name, values in series_values.items()]
        for i, label in enumerate(labels)
    }
    return _("common.chart.alt.bars", values=value_title, groups=grouped(groups))
