"""Vega-Lite chart builders shared by the pages: one look for every chart, readable on a projector.

A chart is a Vega-Lite spec whose data sit in named ``datasets`` (pandas frames). Streamlit
sends those as Arrow, and as long as the spec itself does not change between reruns, the
browser only swaps the data in: a slider step repaints a chart in about a third of the time
a plotly chart takes (benchmarks/bench_browser.py). So every number that moves with a slider
(the current ε, a label such as "ε = 0.5") lives in a dataset, never in the spec's text.

    spec = chart(
        bars("counts", x=nominal("group"), y=quantitative("count", "noisy count")),
        rule_x("now", "x", "label"),
        datasets={"counts": frame, "now": marker_frame(0.5, "ε = 0.5")},
    )
    show(spec, key="laplace_bars")
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from ui.common.arrow_tables import arrow_table
from ui.common.chart_text import bars_description, describe, table_view
from ui.common.formatting import number_locale
from ui.common.i18n import _
from ui.common.palette import ACCENT_COLOR as ACCENT_COLOR
from ui.common.palette import DASHES, bar_cues, same_series, text_color
from ui.common.palette import GOOD_COLOR as GOOD_COLOR
from ui.common.palette import NOISY_COLOR as NOISY_COLOR
from ui.common.palette import SECOND_COLOR as SECOND_COLOR
from ui.common.palette import TRUE_COLOR as TRUE_COLOR
from ui.common.shell import presenter_mode

Spec = dict[str, Any]

FONT_SIZE = 15
PRESENTER_FONT_SIZE = 22  # at least 20 px on a 1920 x 1080 projector
PRESENTER_HEIGHT = 320  # pixels: the tallest chart in presenter mode
# In presenter mode a y axis' title is written level, left of the axis' labels (on two lines
# when long), not up its side: a chart on a 1080-pixel screen is low (320 pixels, less when a
# section shows two) and has no room for "posterior: after seeing the output" upright in 23 px
# type (the browser clips it and squeezes the plot), but its 1,800-pixel width has plenty.
PRESENTER_Y_TITLE = {
    "titleAngle": 0,
    "titleAlign": "right",
    "titleAnchor": "middle",
    "titleBaseline": "middle",
}
PRESENTER_TITLE_LINE = 22  # characters: a longer y axis title is written on two lines


def quantitative(field: str, title: str | None = None, *, log: bool = False, **extra: Any) -> dict:
    """A numeric axis channel; ``log`` uses a log scale labelled at powers of ten only."""
    channel: dict[str, Any] = {"field": field, "type": "quantitative", "title": title}
    if log:
        channel["scale"] = {"type": "log"}
        # Vega labels 2 and 5 between the powers of ten as bare digits: keep the decades only.
        channel["axis"] = {"labelExpr": LOG_LABEL, **extra.pop("axis", {})}
    channel.update(extra)
    return channel


# Label a log axis at 1, 10, 100 … and 0.1, 0.01 …; other ticks keep their line, not a label.
LOG_LABEL = (
    "abs(log(datum.value) / log(10) - round(log(datum.value) / log(10))) < 1e-6 "
    "? format(datum.value, '~g') : ''"
)


def nominal(field: str, title: str | None = None, *, sort: Any = None, **extra: Any) -> dict:
    """A category axis channel, in the data's order unless ``sort`` says otherwise."""
    return {"field": field, "type": "nominal", "title": title, "sort": sort, **extra}


def series(field: str, names: Sequence[str], colors: Sequence[str], **legend: Any) -> dict:
    """Colour by a series column with fixed names and colours, legend on top."""
    return {
        "field": field,
        "type": "nominal",
        "scale": {"domain": list(names), "range": list(colors)},
        "legend": {"orient": "top", "title": None, **legend},
    }


def ordered_series(colors: Sequence[str], field: str = "series") -> dict:
    """Colour by series names held in the data (the reader's language) in the order of their
    ``order`` column, the colours in that order; legend on top. The names can change with the
    language or a slider while the spec stays the same."""
    return {
        "field": field,
        "type": "nominal",
        "sort": {"field": "order", "op": "min"},
        "scale": {"range": list(colors)},
        "legend": {"orient": "top", "title": None},
    }


def layer(data: str, mark: str | dict, **encoding: Any) -> dict:
    """One layer: a named dataset, a mark (e.g. "bar" or {"type": "line"}) and its encodings."""
    mark_spec = {"type": mark} if isinstance(mark, str) else dict(mark)
    return {"data": {"name": data}, "mark": mark_spec, "encoding": encoding}


def bars(data: str, *, x: dict, y: dict, color: str | dict = NOISY_COLOR, **encoding: Any) -> dict:
    """Bars; ``color`` is a colour or a ``series(...)`` channel."""
    fill = {"value": color} if isinstance(color, str) else color
    return layer(data, "bar", x=x, y=y, color=fill, **encoding)


def lines(
    data: str,
    *,
    x: dict,
    y: dict,
    color: str | dict = NOISY_COLOR,
    dash: bool = False,
    points: bool = False,
    **enc: Any,
) -> dict:
    """A line per series (or one line); ``dash`` draws it dashed, ``points`` marks each point.
    Series coloured by a field are dashed by it too (``DASHES`` in order, unless ``enc`` has
    a strokeDash), so that they differ by more than colour (WCAG 1.4.1)."""
    mark = {"type": "line", "strokeWidth": 3, "point": points}
    if dash:
        mark["strokeDash"] = [6, 4]
    stroke = {"value": color} if isinstance(color, str) else color
    if "field" in stroke and "strokeDash" not in enc:
        enc["strokeDash"] = same_series(stroke, DASHES)
    return layer(data, mark, x=x, y=y, color=stroke, **enc)


def band(data: str, *, x: dict, low: str, high: str, color: str = SECOND_COLOR) -> dict:
    """A shaded band between two columns (e.g. ± 2 standard deviations)."""
    return layer(
        data,
        {"type": "area", "opacity": 0.25, "color": color},
        x=x,
        y={"field": low, "type": "quantitative"},
        y2={"field": high},
    )


def rule_x(data: str, field: str = "x", text: str = "label", *, color: str = ACCENT_COLOR) -> list:
    """A labelled vertical dashed line (e.g. the current ε); label at the top, in its text shade."""
    x, ink = {"field": field, "type": "quantitative"}, text_color(color)
    return [
        layer(data, {"type": "rule", "strokeDash": [6, 4], "strokeWidth": 2, "color": color}, x=x),
        layer(
            data,
            {"type": "text", "align": "left", "baseline": "top", "dx": 4, "y": 2, "color": ink},
            x=x,
            text={"field": text},
        ),
    ]


def rule_y(data: str, field: str = "y", text: str = "label", *, color: str = TRUE_COLOR) -> list:
    """A labelled horizontal dotted line (e.g. the true answer); label at the right end."""
    y = {"field": field, "type": "quantitative"}
    return [
        layer(data, {"type": "rule", "strokeDash": [2, 3], "strokeWidth": 2, "color": color}, y=y),
        layer(
            data,
            {"type": "text", "align": "right", "baseline": "bottom", "x": "width", "dy": -2},
            y=y,
            text={"field": text},
        ),
    ]


def foot_label(data: str, x: dict, *, color: str | None = None) -> dict:
    """A dataset's "label" written at the foot of the plot, right of ``x`` (beside a line or a
    band that reaches the bottom, while the top holds other labels)."""
    mark = {"type": "text", "align": "left", "baseline": "bottom", "dx": 4, "y": "height"}
    return layer(
        data,
        {**mark, "dy": -4, **({"color": text_color(color)} if color else {})},
        x=x,
        text={"field": "label"},
    )


def marker(x: float, label: str, **more: Any) -> pd.DataFrame:
    """A one-row dataset for rule_x / rule_y: its position and label (kept out of the spec)."""
    return pd.DataFrame({"x": [x], "y": [x], "label": [label], **{k: [v] for k, v in more.items()}})


def chart(
    *layers: dict | list,
    datasets: Mapping[str, pd.DataFrame],
    height: int = 360,
    presenter: Mapping[str, Any] | None = None,
    **top: Any,
) -> Spec:
    """A layered Vega-Lite spec over named datasets; ``top`` adds keys such as "resolve".

    ``presenter``: how the chart differs in presenter mode, for a section that shows several
    charts, or one below a table, on one 1080-pixel screen: "height" (lower than
    PRESENTER_HEIGHT) and "x_axis" (properties of every x axis, e.g. ``{"labelAngle": 0}``
    where the projector's width leaves room for level labels). Kept in the spec's
    ``usermeta`` for ``show``; exports and the board report draw the chart as it is.
    """
    flat: list[dict] = []
    for item in layers:
        flat.extend(item if isinstance(item, list) else [item])
    spec: Spec = {
        "height": height,
        "datasets": dict(datasets),
        "layer": flat,
        **top,
    }
    if presenter:
        spec["usermeta"] = {**spec.get("usermeta", {}), "presenter": dict(presenter)}
    return spec


def _presenter(spec: Spec) -> dict:
    return dict(dict(spec.get("usermeta", {})).get("presenter", {}))


def projector_height(spec: Spec) -> int:
    """The height ``show`` draws the chart at in presenter mode."""
    own = _presenter(spec).get("height")
    return int(own) if own is not None else min(int(spec["height"]), PRESENTER_HEIGHT)


def _x_axes(value: Any, axis: Mapping[str, Any]) -> Any:
    """The spec with ``axis`` merged into every x channel's axis."""
    if isinstance(value, dict):
        out = {k: _x_axes(v, axis) for k, v in value.items() if k != "datasets"}
        x = out.get("x")
        if isinstance(x, dict) and "field" in x and x.get("axis", {}) is not None:
            out["x"] = {**x, "axis": {**x.get("axis", {}), **axis}}
        return out | ({"datasets": value["datasets"]} if "datasets" in value else {})
    if isinstance(value, list):
        return [_x_axes(item, axis) for item in value]
    return value


def _config(presenter: bool) -> dict:
    size = PRESENTER_FONT_SIZE if presenter else FONT_SIZE
    text = {"labelFontSize": size, "titleFontSize": size + 1}
    pads = {"labelPadding": 6, "titlePadding": 12} if presenter else {}  # height is scarce
    return {
        "axis": {**text, "labelLimit": 260, "titleFontWeight": "normal", **pads},
        **({"axisLeft": PRESENTER_Y_TITLE} if presenter else {}),
        "legend": {**text, "symbolSize": 160 if presenter else 100, "labelLimit": 420},
        "text": {"fontSize": size - 1},
        "locale": {"number": number_locale()},
    }


def _legends_right(value: Any) -> Any:
    """The spec with every legend placed at the right of the plot instead of on top."""
    if isinstance(value, dict):
        moved = {k: _legends_right(v) for k, v in value.items() if k != "datasets"}
        if isinstance(moved.get("legend"), dict) and moved["legend"].get("orient") == "top":
            moved["legend"] = {**moved["legend"], "orient": "right"}
        return moved | ({"datasets": value["datasets"]} if "datasets" in value else {})
    if isinstance(value, list):
        return [_legends_right(item) for item in value]
    return value


def _two_lines(title: str) -> list[str]:
    """A title split at the space nearest its middle."""
    spaces = [i for i, char in enumerate(title) if char == " "]
    if not spaces:
        return [title]
    cut = min(spaces, key=lambda i: max(i, len(title) - i - 1))
    return [title[:cut], title[cut + 1 :]]


def _y_titles_wrapped(value: Any) -> Any:
    """The spec with every long y axis title on two lines."""
    if isinstance(value, dict):
        out = {k: _y_titles_wrapped(v) for k, v in value.items() if k != "datasets"}
        y = out.get("y")
        title = y.get("title") if isinstance(y, dict) else None
        if isinstance(title, str) and len(title) > PRESENTER_TITLE_LINE:
            out["y"] = {**y, "title": _two_lines(title)}
        return out | ({"datasets": value["datasets"]} if "datasets" in value else {})
    if isinstance(value, list):
        return [_y_titles_wrapped(item) for item in value]
    return value


def show(spec: Spec, *, key: str, steady: bool = False, live: Spec | None = None) -> None:
    """Draw a chart at the page's width, its text alternative (``describe``) and a switch for
    its data as tables; presenter mode labels it in 22 px type. ``live``: the live spec drawn
    instead (its alternative drawn by ui.common.live); ``steady``: numbers on a y axis get room
    for seven characters, so a live chart's plot keeps its place as its labels change."""
    alt, base, spec = (None, spec, live) if live else (describe(spec), spec, spec)
    presenter = presenter_mode()
    if presenter and "height" in spec:  # a section and its chart on one 1080-pixel screen,
        # its legends beside the plot rather than above it (the screen is wide, not tall)
        spec = _y_titles_wrapped(_legends_right({**spec, "height": projector_height(spec)}))
        if _presenter(spec).get("x_axis"):
            spec = _x_axes(spec, _presenter(spec)["x_axis"])
    # The presenter's notes stay here; Vega-Embed's options (a live chart's renderer) go on.
    usermeta = {k: v for k, v in spec.get("usermeta", {}).items() if k == "embedOptions"}
    spec = {name: value for name, value in spec.items() if name not in ("usermeta", "description")}
    if usermeta:
        spec["usermeta"] = usermeta
    config = {**_config(presenter), **spec.get("config", {})}
    if steady:
        size = PRESENTER_FONT_SIZE if presenter else FONT_SIZE
        config["axisYQuantitative"] = {"minExtent": 4 * size}  # "−0.0005", "100,000"
    datasets = {name: arrow_table(frame) for name, frame in spec.get("datasets", {}).items()}
    with st.container(key=f"{key}__chart"):  # where the relay's script finds a live chart
        st.vega_lite_chart(
            spec={**spec, "config": config, **({"datasets": datasets} if datasets else {})},
            width="stretch",
            key=key,
            alt=alt,
        )
        table_view(base)


def noisy_vs_true(
    labels: Sequence[str],
    series_values: Mapping[str, Sequence[float]],
    *,
    noisy: str,
    half_width: Sequence[float] | float,
    value_title: str,
    colors: Sequence[str] = (TRUE_COLOR, NOISY_COLOR),
    presenter: Mapping[str, Any] | None = None,
) -> Spec:
    """Grouped bars per label (e.g. true, noisy), the ``noisy`` series with ± half-width bars.

    The datasets are built from numpy arrays (three times faster than from lists).
    ``presenter``: as for ``chart``.
    """
    names = list(series_values)
    groups = np.asarray(labels, dtype=object)
    bars_frame = pd.DataFrame(
        {
            "group": np.tile(groups, len(names)),
            "series": np.repeat(np.asarray(names, dtype=object), groups.size),
            "value": np.concatenate([np.asarray(v, dtype=float) for v in series_values.values()]),
        }
    )
    noisy_values = np.asarray(series_values[noisy], dtype=float)
    half = np.broadcast_to(np.asarray(half_width, dtype=float), noisy_values.shape)
    errors = pd.DataFrame(
        {"group": groups, "series": noisy, "low": noisy_values - half, "high": noisy_values + half}
    )
    x = nominal("group", None, sort=None, axis={"labelAngle": 0 if len(groups) <= 8 else -35})
    offset = {"field": "series", "type": "nominal", "scale": {"domain": names}}
    color = series("series", names, colors)
    return chart(
        bars(
            "bars",
            x=x,
            y=quantitative("value", value_title),
            color=color,
            **bar_cues(color, names, noisy),
            xOffset=offset,
            tooltip=[
                {"field": "group", "title": _("common.chart.category")},
                {"field": "series", "title": _("common.chart.series")},
                {"field": "value", "title": value_title, "format": ",.2f"},
            ],
        ),
        layer(
            "errors",
            {"type": "rule", "strokeWidth": 2, "color": ACCENT_COLOR},
            x=x,
            xOffset=offset,
            y={"field": "low", "type": "quantitative"},
            y2={"field": "high"},
        ),
        datasets={"bars": bars_frame, "errors": errors},
        height=380,
        presenter=presenter,
        description=bars_description(labels, series_values, value_title),
    )
