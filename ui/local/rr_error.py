"""Randomized response, section 3 ("error"): the error of the estimated share against the
number of respondents, exact and simulated."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dp_core import local_estimation
from dp_core import randomized_response as rr
from ui.common import charts, formatting
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.common.shell import page_rng
from ui.local import charts as local_charts
from ui.local import estimates
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
    c = s.coins
    if not c.can_estimate:
        st.info(_("local.rr.raise_t"))
        return
    standard_errors = estimates.share_errors(c.p, c.q, s.share, N_GRID)
    rms = _simulated_errors(c, s.share)
    if not np.any(standard_errors > 0) and not np.any(rms > 0):
        st.info(_("local.rr.no_noise"))
        return
    charts.show(
        local_charts.share_error_against_n(N_GRID, standard_errors, SIMULATED_N, rms, s.n),
        key="rr_error",
    )
    st.caption(_("local.rr.error.caption", share=formatting.percent(s.share)))
    section_exercises(OWN_EXERCISES, "error", s)


def _simulated_errors(c: Coins, share: float) -> np.ndarray:
    """The RMS error of the estimated share over 400 surveys at each n of SIMULATED_N, drawn
    from the page's seed."""
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
