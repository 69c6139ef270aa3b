"""Section 3 of the Gaussian page: the exact densities of the Laplace and the Gaussian noise
over 100,000 draws of each, and how many draws fall within each 95% half-width."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dp_core import gaussian, laplace
from ui.common import charts, formatting, live
from ui.common.exercises import section_exercises
from ui.common.i18n import N_, _
from ui.common.shell import DEFAULT_SEED, page_rng
from ui.gaussian import charts as gaussian_charts
from ui.gaussian.exercises import EXERCISES
from ui.gaussian.settings import MECHANISMS, NAMES, Settings

DRAWS = 100_000
POINTS = 201  # of each exact density: the chart is sent at every stop of ε and δ


@st.cache_data(show_spinner=False, max_entries=8)
def _unit_draws(seed: int, draw: int, _rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """DRAWS standard Laplace and standard normal draws, sorted, for the sidebar's seed and draw.

    Each σ or b rescales them (one standard draw, as everywhere on the page), so an ε or δ step
    neither redraws nor re-sorts 200,000 numbers.
    """
    return np.sort(laplace.sample_laplace(_rng, 1.0, DRAWS)), np.sort(
        gaussian.sample_gaussian(_rng, 1.0, DRAWS)
    )


def _share_within(sorted_draws: np.ndarray, half_width: float) -> float:
    """The share of (sorted) draws with |draw| <= half_width."""
    inside = np.searchsorted(sorted_draws, half_width, side="right") - np.searchsorted(
        sorted_draws, -half_width, side="left"
    )
    return float(inside / len(sorted_draws))


def _scaled_histogram(
    unit_draws: np.ndarray, scale: float, reach: float
) -> gaussian_charts.Columns:
    """The histogram of ``scale`` times the unit draws over [-reach, reach]."""
    bars = gaussian_charts.histogram(unit_draws, -reach / scale, reach / scale)
    return {"x": bars["x"] * scale, "x2": bars["x2"] * scale, "y": bars["y"] / scale}


def noise_densities(s: Settings) -> None:
    """Section 3: the two noises' exact densities over 100,000 fresh draws each, following the
    ε and δ thumbs: the draws at scale b (or σ) are b (σ) × the same standard draws."""
    live.follow_text(s, _title, key="gaussian_noise_title", style="strong")
    st.markdown(_("gaussian.noise.normal"))
    state = st.session_state
    unit_laplace, unit_normal = _unit_draws(
        int(state.get("seed", DEFAULT_SEED)),
        int(state.get("draw", 0)),
        page_rng("gaussian", "noise"),
    )
    live.follow_chart(
        s, lambda at: _densities(at, unit_laplace, unit_normal), key="gaussian_densities"
    )
    live.follow_text(
        s,
        lambda at: _shares(at, unit_laplace, unit_normal),
        key="gaussian_noise_shares",
        style="caption",
    )
    section_exercises(EXERCISES, "noise", s)


def _title(s: Settings) -> str:
    return _(
        "gaussian.noise.title",
        name=_(NAMES[s.gaussian_kind]),
        epsilon=formatting.number(s.epsilon),
        delta=formatting.power_of_ten(s.delta),
    )


def _densities(s: Settings, unit_laplace: np.ndarray, unit_normal: np.ndarray) -> charts.Spec:
    """Both densities over ±the 99.5% half-width of the wider noise, each over its draws."""
    b, sigma = s.laplace_b, s.sigma
    reach = max(laplace.laplace_half_width(b, 0.995), gaussian.gaussian_half_width(sigma, 0.995))
    x = np.linspace(-reach, reach, POINTS)
    laplace_name, gaussian_name = _("gaussian.noise.laplace"), _(MECHANISMS[s.gaussian_kind])
    return gaussian_charts.noise_densities(
        x,
        {
            laplace_name: laplace.laplace_pdf(b, x),
            gaussian_name: gaussian.gaussian_pdf(sigma, x),
        },
        {
            laplace_name: _scaled_histogram(unit_laplace, b, reach),
            gaussian_name: _scaled_histogram(unit_normal, sigma, reach),
        },
        DRAWS,
    )


def _shares(s: Settings, unit_laplace: np.ndarray, unit_normal: np.ndarray) -> str:
    """Each noise's 95% half-width and the share of draws within it; which noise is wider."""
    b, sigma = s.laplace_b, s.sigma
    laplace_half, gaussian_half = laplace.laplace_half_width(b), gaussian.gaussian_half_width(sigma)
    laplace_std = laplace.laplace_std(b)
    shape = (
        N_("gaussian.noise.caption_wider")
        if sigma > laplace_std
        else N_("gaussian.noise.caption_narrower")
    )
    return _(
        shape,
        laplace_half=formatting.significant(laplace_half),
        laplace_share=formatting.percent(_share_within(unit_laplace, laplace_half / b)),
        draws=formatting.count(DRAWS),
        gaussian_half=formatting.significant(gaussian_half),
        gaussian_share=formatting.percent(_share_within(unit_normal, gaussian_half / sigma)),
        sigma=formatting.significant(sigma),
        laplace_std=formatting.significant(laplace_std),
    )
