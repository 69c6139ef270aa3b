"""Figures for the local-DP pages: the coin tree, errors against n, counts per category."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from ui.figures import ACCENT_COLOR, NOISY_COLOR, SECOND_COLOR, TRUE_COLOR, styled

_MUTED = "#c4ccd6"


def _mark_log_x(
    fig: go.Figure,
    x: float,
    text: str,
    *,
    dash: str = "dash",
    color: str = ACCENT_COLOR,
    top: bool = True,
) -> None:
    """A vertical line on a log x axis with its label (annotations take log10 coordinates)."""
    fig.add_vline(x=x, line_dash=dash, line_color=color)
    fig.add_annotation(
        x=math.log10(x),
        y=1.0 if top else 0.0,
        yref="paper",
        text=text,
        showarrow=False,
        xanchor="left",
        xshift=4,
        yanchor="top" if top else "bottom",
        bgcolor="rgba(255,255,255,0.8)",
    )


def coin_tree(truth_prob: float, random_yes_prob: float) -> go.Figure:
    """The two-coin game as a tree; each branch is as thick as its probability."""
    t, y = truth_prob, random_yes_prob
    # name: (x, y, label, label above (+1) or below (-1) the node, overall probability)
    inner = {
        "start": (0.0, 0.0, "a person<br>is asked", 1),
        "truth": (1.0, 1.0, "coin 1: tell the truth", 1),
        "coin": (1.0, -1.0, "coin 1: let<br>coin 2 answer", -1),
    }
    leaves = {
        "true_answer": (2.0, 1.0, "says the<br><b>true</b> answer", t),
        "yes": (2.0, -0.4, "says <b>yes</b>", (1 - t) * y),
        "no": (2.0, -1.6, "says <b>no</b>", (1 - t) * (1 - y)),
    }
    position = {k: v[:2] for k, v in (inner | leaves).items()}
    edges = [
        ("start", "truth", t, f"t = {t:.3f}"),
        ("start", "coin", 1 - t, f"1 − t = {1 - t:.3f}"),
        ("truth", "true_answer", t, ""),
        ("coin", "yes", (1 - t) * y, f"y = {y:.3f}"),
        ("coin", "no", (1 - t) * (1 - y), f"1 − y = {1 - y:.3f}"),
    ]
    fig = go.Figure()
    for start, end, prob, label in edges:
        (x0, y0), (x1, y1) = position[start], position[end]
        fig.add_scatter(
            x=[x0, x1],
            y=[y0, y1],
            mode="lines",
            showlegend=False,
            hoverinfo="skip",
            line={"color": NOISY_COLOR if prob > 0 else _MUTED, "width": 1 + 14 * prob},
        )
        if label:
            fig.add_annotation(
                x=0.45 * x0 + 0.55 * x1,
                y=0.45 * y0 + 0.55 * y1,
                text=label,
                showarrow=False,
                bgcolor="rgba(255,255,255,0.85)",
                font={"size": 15},
            )
    for x, y_pos, text, side in inner.values():
        fig.add_scatter(
            x=[x],
            y=[y_pos],
            mode="markers",
            showlegend=False,
            hoverinfo="skip",
            marker={"size": 18, "color": TRUE_COLOR},
        )
        fig.add_annotation(
            x=x,
            y=y_pos,
            text=text,
            showarrow=False,
            yshift=22 * side,
            xanchor="center" if side > 0 else "right",
            xshift=0 if side > 0 else -12,
            font={"size": 15},
        )
    for x, y_pos, text, prob in leaves.values():
        fig.add_scatter(
            x=[x],
            y=[y_pos],
            mode="markers",
            showlegend=False,
            hoverinfo="skip",
            marker={"size": 18, "color": ACCENT_COLOR},
        )
        fig.add_annotation(
            x=x,
            y=y_pos,
            text=f"{text}<br>overall {prob:.3f}",
            showarrow=False,
            xanchor="left",
            xshift=16,
            align="left",
            font={"size": 15},
        )
    fig.update_xaxes(visible=False, range=[-0.35, 3.1])
    fig.update_yaxes(visible=False, range=[-2.0, 1.6])
    return styled(fig, height=380)


def share_error_against_n(
    n_grid: np.ndarray,
    standard_errors: np.ndarray,
    simulated_n: np.ndarray,
    simulated_errors: np.ndarray,
    current_n: int,
) -> go.Figure:
    """Exact standard error of the estimated share against n, with simulated RMS errors."""
    fig = go.Figure()
    fig.add_scatter(
        x=n_grid,
        y=100 * standard_errors,
        mode="lines",
        name="exact standard error",
        line={"color": NOISY_COLOR, "width": 3},
    )
    fig.add_scatter(
        x=simulated_n,
        y=100 * simulated_errors,
        mode="markers",
        name="root-mean-square error of 400 simulated surveys",
        marker={"color": SECOND_COLOR, "size": 12, "symbol": "diamond"},
    )
    _mark_log_x(fig, current_n, f"n = {current_n:,}")
    fig.update_layout(
        xaxis_type="log",
        yaxis_type="log",
        xaxis_title="respondents n",
        yaxis_title="error of the share (percentage points)",
    )
    return styled(fig, height=380)


def local_vs_central(
    n_grid: np.ndarray, local_errors: np.ndarray, central_error: float, current_n: int
) -> go.Figure:
    """Expected absolute error of a count, local vs central, on log axes."""
    fig = go.Figure()
    fig.add_scatter(
        x=n_grid,
        y=local_errors,
        mode="lines",
        name="local: randomized response",
        line={"color": NOISY_COLOR, "width": 3},
    )
    fig.add_scatter(
        x=n_grid,
        y=np.full(n_grid.shape, central_error),
        mode="lines",
        name="central: Laplace on the true count",
        line={"color": SECOND_COLOR, "width": 3},
    )
    _mark_log_x(fig, current_n, f"n = {current_n:,}")
    fig.update_layout(
        xaxis_type="log",
        yaxis_type="log",
        xaxis_title="respondents n",
        yaxis_title="expected |error| of the count (persons)",
    )
    return styled(fig, height=400)


def estimate_distribution_figure(
    values: np.ndarray, probs: np.ndarray, truth: float, estimate: float, interval: tuple
) -> go.Figure:
    """Exact distribution of the debiased estimate, with the truth and this survey's answer."""
    shown = probs >= probs.max() * 1e-5  # the visible bulk; the tails are drawn as zero
    values, probs = values[shown], probs[shown]
    top = float(probs.max()) * 1.1
    fig = go.Figure()
    fig.add_scatter(
        x=values,
        y=probs,
        mode="lines",
        fill="tozeroy",
        name="where the estimate can land (exact)",
        line={"color": NOISY_COLOR, "width": 2},
    )
    fig.add_scatter(
        x=[interval[0], interval[1], interval[1], interval[0], interval[0]],
        y=[0, 0, top, top, 0],
        mode="lines",
        fill="toself",
        line={"width": 0},
        fillcolor="rgba(237,174,73,0.2)",
        name="this survey's 95% interval",
        hoverinfo="skip",
    )
    fig.add_scatter(
        x=[truth, truth],
        y=[0, top],
        mode="lines",
        name=f"truth: {truth:,.0f}",
        line={"color": TRUE_COLOR, "width": 4},
    )
    fig.add_scatter(
        x=[estimate, estimate],
        y=[0, top],
        mode="lines",
        name=f"this survey: {estimate:,.1f}",
        line={"color": ACCENT_COLOR, "width": 3, "dash": "dash"},
    )
    fig.update_layout(xaxis_title="estimated number of yes", yaxis_title="probability")
    return styled(fig, height=360)


def frequency_bars(
    labels: list[str],
    true_counts: np.ndarray,
    raw_counts: np.ndarray,
    estimates: np.ndarray,
    half_widths: np.ndarray,
    raw_name: str,
) -> go.Figure:
    """Per category: true count, raw perturbed count, debiased estimate with its 95% interval."""
    fig = go.Figure()
    fig.add_bar(name="true count", x=labels, y=true_counts, marker_color=TRUE_COLOR)
    fig.add_bar(name=raw_name, x=labels, y=raw_counts, marker_color=_MUTED)
    fig.add_bar(
        name="debiased estimate (± 95% interval)",
        x=labels,
        y=estimates,
        marker_color=NOISY_COLOR,
        error_y={"type": "data", "array": half_widths, "visible": True, "color": ACCENT_COLOR},
    )
    fig.update_layout(barmode="group", yaxis_title="persons")
    return styled(fig, height=440)


def variance_against_domain(
    k_grid: np.ndarray, standard_errors: dict[str, np.ndarray], crossover: float, current_k: int
) -> go.Figure:
    """Standard error of one category's count against the number of categories k."""
    fig = go.Figure()
    colors = [NOISY_COLOR, SECOND_COLOR, TRUE_COLOR]
    for (name, values), color in zip(standard_errors.items(), colors, strict=False):
        fig.add_scatter(
            x=k_grid, y=values, mode="lines", name=name, line={"color": color, "width": 3}
        )
    _mark_log_x(
        fig, crossover, f"k* = 3e^ε + 2 = {crossover:.1f}", dash="dot", color=TRUE_COLOR, top=False
    )
    _mark_log_x(fig, current_k, f"this column: k = {current_k}")
    fig.update_layout(
        xaxis_type="log",
        yaxis_type="log",
        xaxis_title="number of categories k",
        yaxis_title="standard error of a count (persons)",
    )
    return styled(fig, height=400)
