"""Figures for the local-DP pages: the coin tree, errors against n, counts per category.

Plain plotly dicts, built with ui.figures' helpers (see there why: a fast rerun).
"""

from __future__ import annotations

import numpy as np

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

_MUTED = "#c4ccd6"


def coin_tree(truth_prob: float, random_yes_prob: float) -> Figure:
    """The two-coin game as a tree; each branch is as thick as its probability."""
    t, y = truth_prob, random_yes_prob
    # inner nodes: (x, y, label, label above (+1) or below-left (-1) the node)
    inner = [
        (0.0, 0.0, "a person<br>is asked", 1),
        (1.0, 1.0, "coin 1: tell the truth", 1),
        (1.0, -1.0, "coin 1: let<br>coin 2 answer", -1),
    ]
    # leaves: (x, y, label, overall probability)
    leaves = [
        (2.0, 1.0, "says the<br><b>true</b> answer", t),
        (2.0, -0.4, "says <b>yes</b>", (1 - t) * y),
        (2.0, -1.6, "says <b>no</b>", (1 - t) * (1 - y)),
    ]
    # edges: (from, to, probability of reaching the end, label)
    edges = [
        ((0, 0), (1, 1), t, f"t = {t:.3f}"),
        ((0, 0), (1, -1), 1 - t, f"1 − t = {1 - t:.3f}"),
        ((1, 1), (2, 1), t, ""),
        ((1, -1), (2, -0.4), (1 - t) * y, f"y = {y:.3f}"),
        ((1, -1), (2, -1.6), (1 - t) * (1 - y), f"1 − y = {1 - y:.3f}"),
    ]
    data = [
        line(
            [x0, x1],
            [y0, y1],
            label or "truth",
            hoverinfo="skip",
            line={"color": NOISY_COLOR if prob > 0 else _MUTED, "width": 1 + 14 * prob},
        )
        for (x0, y0), (x1, y1), prob, label in edges
    ]
    nodes = inner + leaves
    data.append(
        line(
            [n[0] for n in nodes],
            [n[1] for n in nodes],
            "nodes",
            mode="markers",
            hoverinfo="skip",
            marker={"size": 18, "color": [TRUE_COLOR] * 3 + [ACCENT_COLOR] * 3},
        )
    )
    annotations = [
        {
            "x": 0.45 * x0 + 0.55 * x1,
            "y": 0.45 * y0 + 0.55 * y1,
            "text": label,
            "showarrow": False,
            "bgcolor": "rgba(255,255,255,0.85)",
            "font": {"size": 15},
        }
        for (x0, y0), (x1, y1), _, label in edges
        if label
    ]
    annotations += [
        {
            "x": x,
            "y": y_pos,
            "text": text,
            "showarrow": False,
            "yshift": 22 * side,
            "xanchor": "center" if side > 0 else "right",
            "xshift": 0 if side > 0 else -12,
            "font": {"size": 15},
        }
        for x, y_pos, text, side in inner
    ]
    annotations += [
        {
            "x": x,
            "y": y_pos,
            "text": f"{text}<br>overall {prob:.3f}",
            "showarrow": False,
            "xanchor": "left",
            "xshift": 16,
            "align": "left",
            "font": {"size": 15},
        }
        for x, y_pos, text, prob in leaves
    ]
    return styled(
        figure(
            *data,
            showlegend=False,
            annotations=annotations,
            xaxis={"visible": False, "range": [-0.35, 3.1]},
            yaxis={"visible": False, "range": [-2.0, 1.6]},
        ),
        height=380,
    )


def share_error_against_n(
    n_grid: np.ndarray,
    standard_errors: np.ndarray,
    simulated_n: np.ndarray,
    simulated_errors: np.ndarray,
    current_n: int,
) -> Figure:
    """Exact standard error of the estimated share against n, with simulated RMS errors."""
    simulated = line(
        simulated_n,
        100 * simulated_errors,
        "root-mean-square error of 400 simulated surveys",
        mode="markers",
        marker={"color": SECOND_COLOR, "size": 12, "symbol": "diamond"},
    )
    fig = figure(
        line(n_grid, 100 * standard_errors, "exact standard error"),
        simulated,
        xaxis=axis("respondents n", type="log"),
        yaxis=axis("error of the share (percentage points)", type="log"),
    )
    return styled(mark_x(fig, current_n, f"n = {current_n:,}"), height=380)


def local_vs_central(
    n_grid: np.ndarray, local_errors: np.ndarray, central_error: float, current_n: int
) -> Figure:
    """Expected absolute error of a count, local vs central, on log axes."""
    fig = figure(
        line(n_grid, local_errors, "local: randomized response"),
        line(
            n_grid,
            np.full(n_grid.shape, central_error),
            "central: Laplace on the true count",
            color=SECOND_COLOR,
        ),
        xaxis=axis("respondents n", type="log"),
        yaxis=axis("expected |error| of the count (persons)", type="log"),
    )
    return styled(mark_x(fig, current_n, f"n = {current_n:,}"), height=400)


def estimate_distribution_figure(
    values: np.ndarray, probs: np.ndarray, truth: float, estimate: float, interval: tuple
) -> Figure:
    """Exact distribution of the debiased estimate, with the truth and this survey's answer."""
    shown = probs >= probs.max() * 1e-5  # the visible bulk; the tails are drawn as zero
    values, probs = values[shown], probs[shown]
    top = float(probs.max()) * 1.1
    low, high = interval
    return styled(
        figure(
            line(values, probs, "where the estimate can land (exact)", fill="tozeroy"),
            line(
                [low, high, high, low, low],
                [0, 0, top, top, 0],
                "this survey's 95% interval",
                fill="toself",
                line={"width": 0},
                fillcolor="rgba(237,174,73,0.2)",
                hoverinfo="skip",
            ),
            line([truth, truth], [0, top], f"truth: {truth:,.0f}", color=TRUE_COLOR),
            line(
                [estimate, estimate],
                [0, top],
                f"this survey: {estimate:,.1f}",
                line={"color": ACCENT_COLOR, "width": 3, "dash": "dash"},
            ),
            xaxis=axis("estimated number of yes"),
            yaxis=axis("probability"),
        ),
        height=360,
    )


def frequency_bars(
    labels: list[str],
    true_counts: np.ndarray,
    raw_counts: np.ndarray,
    estimates: np.ndarray,
    half_widths: np.ndarray,
    raw_name: str,
) -> Figure:
    """Per category: true count, raw perturbed count, debiased estimate with its 95% interval."""
    interval = {"type": "data", "array": half_widths, "visible": True, "color": ACCENT_COLOR}
    return styled(
        figure(
            bar(labels, true_counts, "true count", color=TRUE_COLOR),
            bar(labels, raw_counts, raw_name, color=_MUTED),
            bar(labels, estimates, "debiased estimate (± 95% interval)", error_y=interval),
            barmode="group",
            xaxis={"type": "category"},
            yaxis=axis("persons"),
        ),
        height=440,
    )


def variance_against_domain(
    k_grid: np.ndarray, standard_errors: dict[str, np.ndarray], crossover: float, current_k: int
) -> Figure:
    """Standard error of one category's count against the number of categories k."""
    colors = [NOISY_COLOR, SECOND_COLOR, TRUE_COLOR]
    fig = figure(
        *(
            line(k_grid, values, name, color=color)
            for (name, values), color in zip(standard_errors.items(), colors, strict=False)
        ),
        xaxis=axis("number of categories k", type="log"),
        yaxis=axis("standard error of a count (persons)", type="log"),
    )
    mark_x(
        fig, crossover, f"k* = 3e^ε + 2 = {crossover:.1f}", dash="dot", color=TRUE_COLOR, top=False
    )
    return styled(mark_x(fig, current_k, f"this column: k = {current_k}"), height=400)
