"""Randomized response, section 3 ("error"): the error of the estimated share against the
number of respondents, exact and simulated; the chart follows the thumbs of the coins' sliders
(or ε's) while they are dragged."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dp_core import local_estimation
from dp_core import randomized_response as rr
from ui.common import charts, formatting, live
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.common.shell import page_rng
from ui.local import estimates, rr_charts
from ui.local.rr_settings import (
    N_GRID,
    OWN_EXERCISES,
    PAGE,
    SIMULATED_N,
    Coins,
    Settings,
    no_survey,
)


def error_against_n(s: Settings) -> None:
    """Section 3: the error of the estimated share against the number of respondents."""
    if s.survey is None:
        no_survey()
        return
    if not s.coins.can_estimate:
        st.info(_("local.rr.raise_t"))
        return
    spec = _error_chart(s)
    if all(spec["datasets"][name].empty for name in ("share_exact", "share_simulated")):
        st.info(_("local.rr.no_noise"))
        return
    live.chart(
        s.sliders, lambda *values: _error_chart(s.at(*values)), key="rr_error", depends=s.identity
    )
    st.caption(_("local.rr.error.caption", share=formatting.percent(s.share)))
    section_exercises(OWN_EXERCISES, "error", s)


def _error_chart(s: Settings) -> charts.Spec:
    """The exact standard error of the share against n, the simulated surveys' RMS error and
    this survey's n (no error to draw where the coins say nothing, t = 0, or hide nothing)."""
    c = s.coins
    standard_errors, rms = np.zeros(N_GRID.shape), np.zeros(SIMULATED_N.shape)
    if c.can_estimate:
        standard_errors = estimates.share_errors(c.p, c.q, s.share, N_GRID)
        rms = _simulated_errors(c, s.share)
    return rr_charts.share_error_against_n(N_GRID, standard_errors, SIMULATED_N, rms, s.n)


def _simulated_errors(c: Coins, share: float) -> np.ndarray:
    """The RMS error of the estimated share over 400 surveys at each n of SIMULATED_N, drawn
    from the page's seed: the same stream at every stop of the sliders, so the points move
    with the coins rather than jump (numpy's binomial draws move smoothly with p)."""
    rng = page_rng(PAGE, "error")
    sim_true = np.round(share * SIMULATED_N).astype(int)
    return np.array(
        [
            np.sqrt(
                np.mean(
                    (
                        local_estimation.debiased_count(
                            rr.yes_tally(rng, k, m - k, c.p, c.q, 400), m, c.p, c.q
                        )
                        - k
                    )
                    ** 2
                )
            )
            / m
            for k, m in zip(sim_true, SIMULATED_N, strict=True)
        ]
    )
