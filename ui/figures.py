"""Plotly figure builders shared by the pages: one look for every chart, readable on a projector.

Figures are plain plotly dicts ({"data": [...], "layout": {...}}) that st.plotly_chart
validates once: building them through plotly.graph_objects costs about five times as much
server time per rerun (measured in benchmarks/bench_pages.py).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ui.common.shell import presenter_mode

Figure = dict[str, Any]

TRUE_COLOR = "#8a97a8"
NOISY_COLOR = "#1f5aa6"
ACCENT_COLOR = "#d1495b"
SECOND_COLOR = "#edae49"
FONT_SIZE = 16
TICK_SIZE = 14


def figure(*traces: dict, **layout: Any) -> Figure:
    """A figure from trace dicts and layout keywords (e.g. xaxis={"type": "log"})."""
    return {"data": list(traces), "layout": dict(layout)}


def line(x: Any, y: Any, name: str, *, color: str = NOISY_COLOR, **extra: Any) -> dict:
    """A line trace; ``extra`` keys (mode, fill, line, ...) override the defaults."""
    trace = {
        "type": "scatter",
        "mode": "lines",
        "x": x,
        "y": y,
        "name": name,
        "line": {"color": color, "width": 3},
    }
    trace.update(extra)
    return trace


def bar(x: Any, y: Any, name: str, *, color: str = NOISY_COLOR, **extra: Any) -> dict:
    """A bar trace; ``extra`` keys (error_y, width, text, ...) are added as they are."""
    return {"type": "bar", "name": name, "x": x, "y": y, "marker": {"color": color}, **extra}


def axis(title: str, **extra: Any) -> dict:
    """An axis with a title, e.g. axis("epsilon", type="log")."""
    return {"title": {"text": title}, **extra}


def styled(fig: Figure, *, title: str | None = None, height: int = 420) -> Figure:
    """Apply the app's layout: large fonts, legend on top (colours from Streamlit's theme).

    Streamlit's chart theme sets small tick labels, so tick and axis-title sizes are set on
    every axis here; presenter mode makes all of them larger.
    """
    scale = 1.4 if presenter_mode() else 1.0
    layout = fig["layout"]
    layout.update(
        height=int(height * (1.25 if scale > 1 else 1)),
        font={"size": int(FONT_SIZE * scale)},
        margin={"l": 10, "r": 10, "t": 60 if title else 30, "b": 10},
        legend={
            "orientation": "h",
            "yanchor": "bottom",
            "y": 1.02,
            "x": 0,
            "font": {"size": int(FONT_SIZE * scale)},
        },
    )
    for name in [k for k in layout if k.startswith(("xaxis", "yaxis"))] or ["xaxis", "yaxis"]:
        axis_layout = layout.setdefault(name, {})
        axis_layout["tickfont"] = {"size": int(TICK_SIZE * scale)}
        if isinstance(axis_layout.get("title"), dict):
            axis_layout["title"]["font"] = {"size": int(FONT_SIZE * scale)}
    if title:
        layout["title"] = {"text": title}
    return fig


def noisy_vs_true_bars(
    labels: list[str],
    true_values: np.ndarray,
    noisy_values: np.ndarray,
    half_widths: np.ndarray | float,
    *,
    value_name: str = "count",
    band_label: str = "95% of noise",
) -> Figure:
    """Grouped bars, true and noisy; the noise's 95% interval as error bars on the noisy bars."""
    half = np.broadcast_to(np.asarray(half_widths, dtype=float), np.shape(noisy_values))
    return styled(
        figure(
            bar(labels, true_values, f"True {value_name}", color=TRUE_COLOR),
            bar(
                labels,
                noisy_values,
                f"Noisy {value_name} (± {band_label})",
                error_y={"type": "data", "array": half, "visible": True, "color": ACCENT_COLOR},
            ),
            barmode="group",
            yaxis=axis(value_name),
            xaxis={"type": "category"},
        )
    )


def add_density_with_histogram(
    fig: Figure,
    x: np.ndarray,
    density: np.ndarray,
    draws: np.ndarray,
    *,
    name: str,
    color: str = NOISY_COLOR,
    bins: int = 80,
) -> Figure:
    """Add an exact density curve over a normalised histogram of fresh draws.

    The histogram is binned here (numpy) so the browser receives 80 bars, not the draws.
    """
    heights, edges = np.histogram(draws, bins=bins, range=(float(x[0]), float(x[-1])))
    width = edges[1] - edges[0]
    fig["data"] += [
        bar(
            (edges[:-1] + edges[1:]) / 2,
            heights / (len(draws) * width),
            f"{name}: {len(draws):,} fresh draws",
            color=color,
            width=width,
            opacity=0.35,
        ),
        line(x, density, f"{name}: exact density", color=color),
    ]
    fig["layout"].update(yaxis=axis("density"), barmode="overlay", bargap=0)
    return fig


def _decorate(fig: Figure, shape: dict, annotation: dict) -> Figure:
    layout = fig["layout"]
    layout.setdefault("shapes", []).append(shape)
    layout.setdefault("annotations", []).append({"showarrow": False, **annotation})
    return fig


def mark_x(
    fig: Figure,
    x: float,
    text: str,
    *,
    color: str = ACCENT_COLOR,
    dash: str = "dash",
    top: bool = True,
) -> Figure:
    """A labelled vertical line, e.g. the current epsilon; label inside the plot, top or bottom.

    On a log x axis plotly places shapes by value but annotations by log10(value), so set the
    figure's x axis before marking it.
    """
    log_x = fig["layout"].get("xaxis", {}).get("type") == "log"
    return _decorate(
        fig,
        {
            "type": "line",
            "x0": x,
            "x1": x,
            "xref": "x",
            "y0": 0,
            "y1": 1,
            "yref": "paper",
            "line": {"dash": dash, "color": color, "width": 2},
        },
        {
            "x": math.log10(x) if log_x else x,
            "xref": "x",
            "y": 1 if top else 0,
            "yref": "paper",
            "text": text,
            "xanchor": "left",
            "xshift": 4,
            "yanchor": "top" if top else "bottom",
            "font": {"color": color},
            "bgcolor": "rgba(255,255,255,0.8)",
        },
    )


def mark_band(fig: Figure, x0: float, x1: float, text: str) -> Figure:
    """A shaded vertical band with a label, e.g. where 95% of the noise falls."""
    return _decorate(
        fig,
        {
            "type": "rect",
            "x0": x0,
            "x1": x1,
            "xref": "x",
            "y0": 0,
            "y1": 1,
            "yref": "paper",
            "fillcolor": SECOND_COLOR,
            "opacity": 0.15,
            "line": {"width": 0},
            "layer": "below",
        },
        {
            "x": x0,
            "xref": "x",
            "y": 1,
            "yref": "paper",
            "text": text,
            "xanchor": "left",
            "yanchor": "top",
        },
    )


def mark_y(fig: Figure, y: float, text: str) -> Figure:
    """A dotted horizontal line with a label, e.g. the true answer."""
    return _decorate(
        fig,
        {
            "type": "line",
            "x0": 0,
            "x1": 1,
            "xref": "paper",
            "y0": y,
            "y1": y,
            "yref": "y",
            "line": {"dash": "dot", "color": TRUE_COLOR, "width": 2},
        },
        {
            "x": 1,
            "xref": "paper",
            "y": y,
            "yref": "y",
            "text": text,
            "xanchor": "right",
            "yanchor": "bottom",
        },
    )
