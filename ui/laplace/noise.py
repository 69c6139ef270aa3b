"""Section 2 of the Laplace page: the noise itself, its density over 100,000 fresh draws."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dp_core import laplace
from ui.common import charts, formatting
from ui.common.i18n import _
from ui.common.shell import page_rng
from ui.laplace import charts as laplace_charts
from ui.laplace.settings import Settings


def noise_itself(s: Settings) -> None:
    """Section 2: the Laplace density over 100,000 fresh draws."""
    draws = laplace.sample_laplace(page_rng("laplace", "noise"), s.scale, 100_000)
    x = np.linspace(-6 * s.scale, 6 * s.scale, 401)
    half = laplace.laplace_half_width(s.scale)
    charts.show(
        laplace_charts.density_with_draws(x, laplace.laplace_pdf(s.scale, x), draws, half),
        key="laplace_noise",
    )
    values = {
        "scale": formatting.significant(s.scale),
        "share": formatting.fixed(100 * np.mean(np.abs(draws) <= half), 1),
        "draws": formatting.count(len(draws)),
        "half": formatting.significant(half),
    }
    if s.choice.query.kind == "mean":
        st.caption(_("laplace.noise.caption_mean", **values))
    else:
        st.caption(_("laplace.noise.caption", **values))
