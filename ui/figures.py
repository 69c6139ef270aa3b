"""Plotly figure builders shared by the pages: one look for every chart, readable on a projector."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

TRUE_COLOR = "#8a97a8"
NOISY_COLOR = "#1f5aa6"
ACCENT_COLOR = "#d1495b"
SECOND_COLOR = "#edae49"
FONT_SIZE = 16


def styled(fig: go.Figure, *, title: str | None = None, height: int = 420) -> go.Figure:
    """Apply the app's layout: large fonts, white background, legend on top."""
    fig.update_layout(
        title=title,
        height=height,
        template="plotly_white",
        font={"size": FONT_SIZE},
        margin={"l": 10, "r": 10, "t": 60 if title else 30, "b": 10},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
    )
    return fig


def noisy_vs_true_bars(
    labels: list[str],
    true_values: np.ndarray,
    noisy_values: np.ndarray,
    half_widths: np.ndarray | float,
    *,
    value_name: str = "count",
    band_label: str = "95% of noise",
) -> go.Figure:
    """Grouped bars, true and noisy; the noise's 95% interval as error bars on the noisy bars."""
    half = np.broadcast_to(np.asarray(half_widths, dtype=float), np.shape(noisy_values))
    fig = go.Figure()
    fig.add_bar(name=f"True {value_name}", x=labels, y=true_values, marker_color=TRUE_COLOR)
    fig.add_bar(
        name=f"Noisy {value_name} (± {band_label})",
        x=labels,
        y=noisy_values,
        marker_color=NOISY_COLOR,
        error_y={"type": "data", "array": half, "visible": True, "color": ACCENT_COLOR},
    )
    fig.update_layout(barmode="group", yaxis_title=value_name, xaxis_title=None)
    return styled(fig)


def add_density_with_histogram(
    fig: go.Figure,
    x: np.ndarray,
    density: np.ndarray,
    draws: np.ndarray,
    *,
    name: str,
    color: str = NOISY_COLOR,
    bins: int = 80,
) -> go.Figure:
    """Add an exact density curve over a normalised histogram of fresh draws.

    The histogram is binned here (numpy) so the browser receives 80 bars, not the draws.
    """
    heights, edges = np.histogram(draws, bins=bins, range=(float(x[0]), float(x[-1])))
    width = edges[1] - edges[0]
    fig.add_bar(
        x=(edges[:-1] + edges[1:]) / 2,
        y=heights / (len(draws) * width),
        width=width,
        name=f"{name}: {len(draws):,} fresh draws",
        marker_color=color,
        opacity=0.35,
    )
    fig.add_scatter(
        x=x,
        y=density,
        mode="lines",
        name=f"{name}: exact density",
        line={"color": color, "width": 3},
    )
    fig.update_layout(yaxis_title="density", barmode="overlay", bargap=0)
    return fig


def mark_x(fig: go.Figure, x: float, text: str) -> go.Figure:
    """A dashed vertical line with a label, e.g. the current epsilon."""
    fig.add_vline(
        x=x,
        line_dash="dash",
        line_color=ACCENT_COLOR,
        annotation_text=text,
        annotation_position="top",
    )
    return fig
