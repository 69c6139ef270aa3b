"""Figures for the contribution-bounding page: before/after/noisy bars, trade-offs, budgets."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ui.figures import ACCENT_COLOR, NOISY_COLOR, SECOND_COLOR, TRUE_COLOR, styled

BOUNDED_COLOR = "#4f9d69"


def before_after_noisy_bars(
    labels: list[str],
    true_values: np.ndarray,
    bounded_values: np.ndarray,
    noisy_values: np.ndarray,
    half_width: float,
    *,
    value_name: str,
) -> go.Figure:
    """Three bars per group: the truth before bounding, after bounding, and the noisy answer."""
    fig = go.Figure()
    fig.add_bar(name="True, all records", x=labels, y=true_values, marker_color=TRUE_COLOR)
    fig.add_bar(name="True after bounding", x=labels, y=bounded_values, marker_color=BOUNDED_COLOR)
    fig.add_bar(
        name="Noisy (± 95% of noise)",
        x=labels,
        y=noisy_values,
        marker_color=NOISY_COLOR,
        error_y={"type": "data", "array": np.full(len(labels), half_width), "color": ACCENT_COLOR},
    )
    fig.update_layout(barmode="group", yaxis_title=value_name, xaxis_type="category")
    return styled(fig, height=380)


def contribution_histogram_figure(histogram: pd.Series, cap: int, *, person: str, unit: str):
    """Persons by number of contributions; those above the cap in the accent colour."""
    k = histogram.index.to_numpy()
    colors = np.where(k > cap, ACCENT_COLOR, NOISY_COLOR)
    fig = go.Figure()
    fig.add_bar(
        x=k,
        y=histogram.to_numpy(),
        marker_color=colors.tolist(),
        text=histogram.to_numpy(),
        textposition="outside",
        name=f"{person}s",
        showlegend=False,
    )
    fig.add_vline(
        x=cap + 0.5,
        line_dash="dash",
        line_color=ACCENT_COLOR,
        annotation_text=f"cap = {cap}",
        annotation_position="top right",
    )
    fig.update_layout(xaxis_title=f"{unit}s per {person}", yaxis_title=f"{person}s", xaxis_dtick=1)
    return styled(fig, height=340)


def tradeoff_figure(
    tradeoff: pd.DataFrame,
    x: str,
    *,
    best: float,
    current: float,
    x_title: str,
    y_title: str,
) -> go.Figure:
    """Bias, noise sd and RMSE against a setting; the best setting starred, the current dashed."""
    fig = go.Figure()
    styles = (
        ("bias", "bias from dropped and clipped data", SECOND_COLOR, "dot"),
        ("noise_std", "noise (standard deviation)", NOISY_COLOR, "dash"),
        ("rmse", "expected error (RMSE)", ACCENT_COLOR, "solid"),
    )
    for column, name, color, dash in styles:
        fig.add_scatter(
            x=tradeoff[x],
            y=tradeoff[column],
            mode="lines+markers" if len(tradeoff) <= 20 else "lines",
            name=name,
            line={"color": color, "dash": dash, "width": 3},
        )
    best_rmse = float(tradeoff.loc[tradeoff[x] == best, "rmse"].iloc[0])
    fig.add_scatter(
        x=[best],
        y=[best_rmse],
        mode="markers",
        marker={"symbol": "star", "size": 18, "color": ACCENT_COLOR},
        name=f"best: {best:g}",
    )
    fig.add_vline(x=current, line_dash="dash", line_color=TRUE_COLOR)
    fig.update_layout(xaxis_title=x_title, yaxis_title=y_title, yaxis_rangemode="tozero")
    return styled(fig, height=380)


def budget_figure(rows: list[tuple[str, list[float], str]], *, unit: str) -> go.Figure:
    """Horizontal stacked bars: each row a plan, one segment per release, its total at the end."""
    fig = go.Figure()
    colors = (NOISY_COLOR, BOUNDED_COLOR, SECOND_COLOR)
    for (label, segments, note), color in zip(rows, colors, strict=False):
        for index, value in enumerate(segments):
            fig.add_bar(
                y=[label],
                x=[value],
                orientation="h",
                marker={"color": color, "line": {"color": "white", "width": 2}},
                showlegend=False,
                hovertemplate=f"{unit} {index + 1}: ε = {value:g}<extra></extra>",
            )
        fig.add_annotation(
            y=label, x=sum(segments), text=f"  {note}", showarrow=False, xanchor="left"
        )
    longest = max(sum(segments) for _, segments, _ in rows)
    fig.update_layout(
        barmode="stack",
        xaxis_title="total ε for the week (one statistic)",
        xaxis_range=[0, longest * 1.6],
        yaxis_autorange="reversed",
    )
    return styled(fig, height=300)
