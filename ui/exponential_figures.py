"""Figures and number formats for the exponential-mechanism page."""

from __future__ import annotations

import math

import numpy as np

from ui.common.formatting import number as format_number
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
    styled,
)

MECHANISM_COLORS = {
    "Exponential mechanism": NOISY_COLOR,
    "Permute-and-flip": ACCENT_COLOR,
    "Report-noisy-max, Laplace noise": SECOND_COLOR,
}


def format_probability(log_p: float) -> str:
    """A probability from its natural log: 0.881, 0.25, 4.0e-05, 1.2e-2171 (never a bare 0)."""
    p = math.exp(log_p)
    if p >= 0.001:
        return f"{p:.3f}"
    if p >= 1e-300:
        return f"{p:.1e}"
    exponent = math.floor(log_p / math.log(10))
    mantissa = 10 ** (log_p / math.log(10) - exponent)
    return f"{mantissa:.1f}e{exponent}"


def probability_bars(
    labels: list[str], exact: np.ndarray, sampled: np.ndarray, n_draws: int
) -> Figure:
    """Exact probabilities as bars, the sampled shares of n_draws runs as markers over them."""
    return styled(
        figure(
            bar(labels, exact, "exact probability"),
            {
                "type": "scatter",
                "mode": "markers",
                "name": f"share of {n_draws:,} sampled runs",
                "x": labels,
                "y": sampled,
                "marker": {"color": ACCENT_COLOR, "size": 12, "symbol": "diamond"},
            },
            xaxis={"type": "category"},
            yaxis=axis("probability of being returned", range=[0, 1.05]),
        )
    )


def best_probability_curves(
    epsilons: np.ndarray, curves: dict[str, np.ndarray], epsilon: float, *, log_x: bool
) -> Figure:
    """P(returning a true best answer) against epsilon, one line per mechanism, and a
    dashed vertical line at the current epsilon (a trace, so it sits right on either axis)."""
    shown = epsilons > 0 if log_x else np.full(epsilons.size, True)
    traces = [
        line(epsilons[shown], values[shown], name, color=MECHANISM_COLORS.get(name, TRUE_COLOR))
        for name, values in curves.items()
    ]
    if epsilon > 0 or not log_x:
        traces.append(
            {
                "type": "scatter",
                "mode": "lines",
                "x": [epsilon, epsilon],
                "y": [0, 1],
                "name": f"ε = {format_number(epsilon)} (now)",
                "hoverinfo": "skip",
                "line": {"color": TRUE_COLOR, "width": 2, "dash": "dash"},
            }
        )
    return styled(
        figure(
            *traces,
            xaxis=axis("epsilon", type="log" if log_x else "linear"),
            yaxis=axis("P(true best answer)", range=[0, 1.02]),
        ),
        height=400,
    )


def pitfall_bars(labels: list[str], wrong: np.ndarray, right: np.ndarray) -> Figure:
    """Grouped bars: count / largest count with sensitivity 1, next to the count with 1."""
    return styled(
        figure(
            bar(labels, wrong, "count ÷ largest count, sensitivity 1", color=TRUE_COLOR),
            bar(labels, right, "count, sensitivity 1"),
            barmode="group",
            xaxis={"type": "category"},
            yaxis=axis("probability of being returned", range=[0, 1.05]),
        ),
        height=380,
    )
