"""Figures (plain plotly dicts, see ui.figures) and small helpers for the Gaussian page."""

from __future__ import annotations

import numpy as np

from ui.common.formatting import power_of_ten as format_delta
from ui.figures import (
    NOISY_COLOR,
    SECOND_COLOR,
    TRUE_COLOR,
    Figure,
    add_density_with_histogram,
    axis,
    figure,
    line,
    mark_x,
    styled,
)

LAPLACE_COLOR = SECOND_COLOR
ANALYTIC_COLOR = NOISY_COLOR
CLASSIC_COLOR = TRUE_COLOR


def sigma_vs_delta_figure(
    deltas: np.ndarray,
    analytic: np.ndarray,
    classic: np.ndarray | None,
    laplace_std: float,
    delta_now: float,
) -> Figure:
    """sigma against delta (log x) for both calibrations, Laplace's std as a flat line."""
    traces = [line(deltas, analytic, "analytic Gaussian σ", color=ANALYTIC_COLOR)]
    if classic is not None:
        traces.append(
            line(
                deltas,
                classic,
                "classic Gaussian σ",
                line={"color": CLASSIC_COLOR, "width": 3, "dash": "dash"},
            )
        )
    traces.append(
        line(
            [deltas[0], deltas[-1]],
            [laplace_std, laplace_std],
            "Laplace std (δ = 0)",
            line={"color": LAPLACE_COLOR, "width": 3, "dash": "dot"},
        )
    )
    fig = figure(
        *traces,
        xaxis=axis("δ (log scale)", type="log", exponentformat="power"),
        yaxis=axis("noise standard deviation"),
    )
    mark_x(fig, delta_now, f"δ = {format_delta(delta_now)}")
    return styled(fig, height=380)


def noise_densities_figure(
    x: np.ndarray,
    laplace_density: np.ndarray,
    laplace_draws: np.ndarray,
    gaussian_density: np.ndarray,
    gaussian_draws: np.ndarray,
    gaussian_name: str,
) -> Figure:
    """Laplace and Gaussian noise: exact densities over histograms of fresh draws."""
    fig = figure(xaxis=axis("noise added to one answer"))
    add_density_with_histogram(
        fig, x, laplace_density, laplace_draws, name="Laplace", color=LAPLACE_COLOR
    )
    add_density_with_histogram(
        fig, x, gaussian_density, gaussian_draws, name=gaussian_name, color=ANALYTIC_COLOR
    )
    return styled(fig, height=400)


def noise_per_statistic_figure(
    ks: np.ndarray,
    laplace: np.ndarray,
    analytic: np.ndarray,
    classic: np.ndarray | None,
    crossover: float,
    k_now: int,
) -> Figure:
    """Noise std on each statistic against k, with the break-even k and the chosen k marked."""
    traces = [
        line(ks, laplace, "Laplace (L1 sensitivity k)", color=LAPLACE_COLOR),
        line(ks, analytic, "analytic Gaussian (L2 sensitivity √k)", color=ANALYTIC_COLOR),
    ]
    if classic is not None:
        traces.append(
            line(
                ks,
                classic,
                "classic Gaussian",
                line={"color": CLASSIC_COLOR, "width": 3, "dash": "dash"},
            )
        )
    fig = figure(
        *traces,
        xaxis=axis("k: statistics one person can change (by at most 1 each)"),
        yaxis=axis("noise std per statistic"),
    )
    if ks[0] <= crossover <= ks[-1]:
        mark_x(fig, crossover, f"break-even k = {crossover:.2f}")
    mark_x(fig, k_now, f"k = {k_now}", color=TRUE_COLOR, dash="dot", top=False)
    return styled(fig, height=400)
