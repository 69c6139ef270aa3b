"""Figures (plain plotly dicts, see ui.figures) and small helpers for the Gaussian page."""

from __future__ import annotations

import numpy as np
import streamlit as st

from data.registry import DATASETS, load_dataset
from ui.delta_input import format_delta
from ui.figures import (
    ACCENT_COLOR,
    NOISY_COLOR,
    SECOND_COLOR,
    TRUE_COLOR,
    Figure,
    add_density_with_histogram,
    axis,
    figure,
    line,
    styled,
)

LAPLACE_COLOR = SECOND_COLOR
ANALYTIC_COLOR = NOISY_COLOR
CLASSIC_COLOR = TRUE_COLOR


@st.cache_data(show_spinner=False)
def persons_in(dataset_key: str | None) -> int | None:
    """How many persons a shipped dataset holds: distinct person ids, summed counts, or rows.

    None for anything else (e.g. the user's own CSV file).
    """
    if dataset_key not in DATASETS:
        return None
    dataset = DATASETS[dataset_key]
    frame = load_dataset(dataset_key)
    if dataset.person_id is not None:
        return int(frame[dataset.person_id].nunique())
    if dataset.count_column is not None:
        return int(frame[dataset.count_column].sum())
    return len(frame)


def vertical_marker(
    fig: Figure,
    x: float,
    text: str,
    *,
    color: str = ACCENT_COLOR,
    dash: str = "dash",
    top: bool = True,
    log_x: bool = False,
) -> Figure:
    """A labelled vertical line, label inside the plot at its top (or bottom).

    On a log x axis plotly places shapes by value but annotations by log10(value).
    """
    layout = fig["layout"]
    layout.setdefault("shapes", []).append(
        {
            "type": "line",
            "x0": x,
            "x1": x,
            "y0": 0,
            "y1": 1,
            "yref": "paper",
            "line": {"color": color, "dash": dash, "width": 2},
        }
    )
    layout.setdefault("annotations", []).append(
        {
            "x": float(np.log10(x)) if log_x else x,
            "y": 1 if top else 0,
            "yref": "paper",
            "text": text,
            "showarrow": False,
            "xanchor": "left",
            "xshift": 4,
            "yanchor": "top" if top else "bottom",  # inside the plot, clear of legend and ticks
            "font": {"color": color},
        }
    )
    return fig


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
    vertical_marker(fig, delta_now, f"δ = {format_delta(delta_now)}", log_x=True)
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
        vertical_marker(fig, crossover, f"break-even k = {crossover:.2f}")
    vertical_marker(fig, k_now, f"k = {k_now}", color=TRUE_COLOR, dash="dot", top=False)
    return styled(fig, height=400)
