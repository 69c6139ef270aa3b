"""Figures (plain plotly dicts, see ui.figures) and number formats for the attacker page."""

from __future__ import annotations

import math

import numpy as np

from ui.figures import (
    ACCENT_COLOR,
    NOISY_COLOR,
    SECOND_COLOR,
    TRUE_COLOR,
    Figure,
    axis,
    figure,
    line,
    mark_x,
    styled,
)

CEILING_COLOR = ACCENT_COLOR
LAPLACE_COLOR = SECOND_COLOR
GAUSSIAN_COLOR = NOISY_COLOR


def percent(p: float) -> str:
    """A probability as a percentage with enough digits to tell it from 0% or 100%.

    73.1%, 99.9955%, 0.0045%; exactly 0 or 1 as 0% or 100%; within 10^-6 of them as
    "< 0.0001%" or "> 99.9999%".
    """
    if p <= 0 or p >= 1:
        return f"{p:.0%}"
    if p < 1e-6:
        return "< 0.0001%"
    if p > 1 - 1e-6:
        return "> 99.9999%"
    decimals = max(1, math.ceil(-math.log10(min(p, 1 - p))) - 1)
    return f"{p * 100:.{decimals}f}%"


def odds_factor(epsilon: float) -> str:
    """e^epsilon as a short label, e.g. 2.72 or 2.2e+04 (no overflow for a huge typed epsilon)."""
    return f"{math.exp(epsilon):,.3g}" if epsilon < 700 else f"e^{epsilon:g}"


def total_label(epsilon: float) -> str:
    """A total epsilon, a dash where the total delta reached 1 (NaN), ∞ where e^eps overflowed."""
    if math.isnan(epsilon):
        return "—"
    return "∞" if math.isinf(epsilon) else f"{epsilon:.4g}"


def _in_trace_order(fig: Figure) -> Figure:
    """List legend entries in trace order (plotly reverses them when a trace fills tonexty)."""
    fig["layout"]["legend"]["traceorder"] = "normal"
    return fig


def _diagonal(name: str) -> dict:
    return line([0, 1], [0, 1], name, line={"color": TRUE_COLOR, "width": 2, "dash": "dot"})


def _markers(
    x: object, y: object, name: str, color: str, *, size: int = 12, **marker: object
) -> dict:
    """A scatter trace of markers only (points, no line)."""
    return {
        "type": "scatter",
        "mode": "markers",
        "x": x,
        "y": y,
        "name": name,
        "marker": {"color": color, "size": size, **marker},
    }


def posterior_figure(
    priors: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
    prior_now: float,
    lower_now: float,
    upper_now: float,
    curve_label: str,
    *,
    marker_note: str = "",
    epsilon_upper: np.ndarray | None = None,
    epsilon_name: str = "",
) -> Figure:
    """Lowest and highest posterior against the prior, the diagonal, the current prior marked.

    ``curve_label`` says what the two curves are (e.g. "possible posterior (ε = 1)", or with
    δ > 0 the outputs they hold on); ``marker_note`` is appended to the two markers' names.
    ``epsilon_upper``, dashed, is the ε bound when it is shown only for comparison.
    """
    traces = [
        _diagonal("no output at all (posterior = prior)"),
        line(priors, lower, f"lowest {curve_label}", color=NOISY_COLOR),
        line(
            priors,
            upper,
            f"highest {curve_label}",
            color=CEILING_COLOR,
            fill="tonexty",
            fillcolor="rgba(209,73,91,0.12)",
        ),
    ]
    if epsilon_upper is not None:
        traces.append(
            line(
                priors,
                epsilon_upper,
                epsilon_name,
                color=CEILING_COLOR,
                line={"color": CEILING_COLOR, "width": 2, "dash": "dash"},
            )
        )
    traces += [
        _markers(
            [prior_now],
            [upper_now],
            f"your prior → at most {percent(upper_now)}{marker_note}",
            CEILING_COLOR,
        ),
        _markers(
            [prior_now],
            [lower_now],
            f"your prior → at least {percent(lower_now)}{marker_note}",
            NOISY_COLOR,
        ),
    ]
    fig = figure(
        *traces,
        xaxis=axis("prior: chance Alice is in, before the output", range=[0, 1], tickformat=".0%"),
        yaxis=axis("posterior: after seeing the output", range=[0, 1], tickformat=".0%"),
    )
    mark_x(fig, prior_now, f"prior {prior_now:.0%}", color=TRUE_COLOR, dash="dot")
    return _in_trace_order(styled(fig, height=440))


def roc_figure(
    alphas: np.ndarray,
    ceiling: np.ndarray,
    laplace: np.ndarray,
    gaussian: np.ndarray | None,
    simulated: list[tuple[str, np.ndarray, np.ndarray]],
    ceiling_name: str,
) -> Figure:
    """The ROC ceiling of (eps, delta)-DP over the coin flip, exact Laplace/Gaussian ROCs, and
    simulated threshold tests as points (name, false positive rates, true positive rates)."""
    traces = [
        _diagonal("coin flip (no information)"),
        line(
            alphas,
            ceiling,
            ceiling_name,
            color=CEILING_COLOR,
            fill="tonexty",
            fillcolor="rgba(209,73,91,0.10)",
        ),
        line(alphas, laplace, "Laplace count: best test (exact)", color=LAPLACE_COLOR),
    ]
    if gaussian is not None:
        traces.append(
            line(alphas, gaussian, "Gaussian count: best test (exact)", color=GAUSSIAN_COLOR)
        )
    for name, fpr, tpr in simulated:
        color = GAUSSIAN_COLOR if name.startswith("Gaussian") else LAPLACE_COLOR
        traces.append(_markers(fpr, tpr, name, color, size=9, symbol="x"))
    fig = figure(
        *traces,
        xaxis=axis("false positive rate: says “in” when Alice is out", range=[0, 1]),
        yaxis=axis("true positive rate: says “in” when Alice is in", range=[0, 1.01]),
    )
    return _in_trace_order(styled(fig, height=520))


def composition_figure(
    ks: np.ndarray,
    basic: np.ndarray,
    advanced: np.ndarray,
    optimal: np.ndarray,
    gaussian: np.ndarray | None,
    k_now: int,
) -> Figure:
    """Total epsilon against the number of releases k (log-log), the chosen k marked."""
    traces = [
        line(ks, basic, "basic: k·ε", color=TRUE_COLOR),
        line(ks, advanced, "advanced composition (Thm 3.20)", color=CEILING_COLOR),
        line(ks, optimal, "optimal composition (exact for any mechanism)", color=SECOND_COLOR),
    ]
    if gaussian is not None:
        traces.append(line(ks, gaussian, "Gaussian mechanism, exact", color=GAUSSIAN_COLOR))
    fig = figure(
        *traces,
        xaxis=axis("k: number of releases", type="log"),
        yaxis=axis("total ε after k releases", type="log"),
    )
    mark_x(fig, k_now, f"k = {k_now:,}", color=TRUE_COLOR, dash="dot")
    return styled(fig, height=420)
