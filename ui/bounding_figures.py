"""Figures for the contribution-bounding page: before/after/noisy bars, trade-offs, budgets.

Plain plotly dicts, like ui/figures.py (cheaper per rerun than plotly.graph_objects).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ui.figures import (
    ACCENT_COLOR,
    NOISY_COLOR,
    SECOND_COLOR,
    TRUE_COLOR,
    Figure,
    axis,
    bar,
    figure,
    line,
    mark_x,
    styled,
)

BOUNDED_COLOR = "#4f9d69"


def before_after_noisy_bars(
    labels: list[str],
    true_values: np.ndarray,
    bounded_values: np.ndarray,
    noisy_values: np.ndarray,
    half_width: float,
    *,
    value_name: str,
) -> Figure:
    """Three bars per group: the truth before bounding, after bounding, and the noisy answer."""
    noise_band = {"type": "data", "array": np.full(len(labels), half_width), "visible": True}
    return styled(
        figure(
            bar(labels, true_values, "True, all records", color=TRUE_COLOR),
            bar(labels, bounded_values, "True after bounding", color=BOUNDED_COLOR),
            bar(
                labels,
                noisy_values,
                "Noisy (± 95% of noise)",
                error_y={**noise_band, "color": ACCENT_COLOR},
            ),
            barmode="group",
            yaxis=axis(value_name),
            xaxis={"type": "category"},
        ),
        height=380,
    )


def contribution_histogram_figure(
    histogram: pd.Series, cap: int, *, person: str, unit: str
) -> Figure:
    """Persons by number of contributions; those above the cap in the accent colour."""
    k = histogram.index.to_numpy()
    counts = histogram.to_numpy()
    bars = bar(k, counts, f"{person}s", text=counts, textposition="outside")
    bars["marker"]["color"] = np.where(k > cap, ACCENT_COLOR, NOISY_COLOR).tolist()
    fig = figure(
        bars,
        showlegend=False,
        xaxis=axis(f"{unit}s per {person}", dtick=1),
        yaxis=axis(f"{person}s"),
    )
    return styled(mark_x(fig, cap + 0.5, f"cap = {cap}"), height=340)


def tradeoff_figure(
    tradeoff: pd.DataFrame,
    x: str,
    *,
    best: float,
    current: float,
    x_title: str,
    y_title: str,
    pair: tuple[float, float, str] | None = None,
) -> Figure:
    """Bias, selection sd, noise sd and RMSE against a setting; best starred, current dashed.

    The selection line is left out when it is 0 everywhere (first records kept). ``pair``:
    x, RMSE and name of a better point found by moving another setting too (a diamond).
    """
    mode = "lines+markers" if len(tradeoff) <= 20 else "lines"
    xs = tradeoff[x].to_numpy()
    parts = (
        ("bias", "bias from dropped and clipped data", SECOND_COLOR, "dot"),
        ("selection_std", "random choice of kept records (sd)", BOUNDED_COLOR, "dashdot"),
        ("noise_std", "noise (standard deviation)", NOISY_COLOR, "dash"),
        ("rmse", "expected error (RMSE)", ACCENT_COLOR, "solid"),
    )
    traces = [
        line(
            xs,
            tradeoff[column].to_numpy(),
            name,
            mode=mode,
            line={"color": color, "dash": dash, "width": 3},
        )
        for column, name, color, dash in parts
        if column != "selection_std" or tradeoff[column].any()
    ]
    best_rmse = float(tradeoff.loc[tradeoff[x] == best, "rmse"].iloc[0])
    star = {
        "type": "scatter",
        "mode": "markers",
        "x": [best],
        "y": [best_rmse],
        "name": f"best: {best:.4g}",
        "marker": {"symbol": "star", "size": 18, "color": ACCENT_COLOR},
    }
    extra = []
    if pair is not None:
        extra.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": [pair[0]],
                "y": [pair[1]],
                "name": pair[2],
                "marker": {"symbol": "diamond", "size": 14, "color": SECOND_COLOR},
            }
        )
    fig = figure(
        *traces,
        star,
        *extra,
        xaxis=axis(x_title),
        yaxis=axis(y_title, type="log"),
    )
    return styled(mark_x(fig, current, f"yours: {current:.4g}"), height=380)


def budget_figure(rows: list[tuple[str, list[float], str]]) -> Figure:
    """Horizontal stacked bars: each row a plan, one segment per release, its total noted.

    Trace k holds the k-th segment of every row, so there are as many traces as the longest
    row has segments (plotly validates each trace: fewer traces, faster reruns).
    """
    labels = [label for label, _, _ in rows]
    colors = [NOISY_COLOR, BOUNDED_COLOR, SECOND_COLOR][: len(rows)]
    longest_row = max(len(segments) for _, segments, _ in rows)
    traces = [
        {
            "type": "bar",
            "orientation": "h",
            "y": labels,
            "x": [segments[k] if k < len(segments) else 0 for _, segments, _ in rows],
            "marker": {"color": colors, "line": {"color": "white", "width": 2}},
            "showlegend": False,
            "hovertemplate": "ε = %{x:g}<extra></extra>",
        }
        for k in range(longest_row)
    ]
    notes = [
        {"y": label, "x": sum(segments), "text": f"  {note}", "showarrow": False, "xanchor": "left"}
        for label, segments, note in rows
    ]
    longest = max(sum(segments) for _, segments, _ in rows)
    fig = figure(
        *traces,
        barmode="stack",
        annotations=notes,
        xaxis=axis("total ε, one statistic", range=[0, longest * 1.7]),
        yaxis={"autorange": "reversed"},
    )
    return styled(fig, height=300)
