"""Randomized response, section 4 ("central"): the local error against a trusted curator's
Laplace noise at the same ε."""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from dp_core import laplace, local_estimation
from ui.common import charts, formatting
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.local import charts as local_charts
from ui.local import estimates
from ui.local.rr_settings import LOCAL_GRID, OWN_EXERCISES, Settings, no_survey


@st.cache_data(show_spinner=False, max_entries=64)
def local_error_curve(p: float, q: float, share: float) -> np.ndarray:
    """Exact expected |error| of the local count at each n of LOCAL_GRID, true count share * n."""
    return np.array(
        [local_estimation.expected_abs_error(round(share * n), int(n), p, q) for n in LOCAL_GRID]
    )


def local_vs_central(s: Settings) -> None:
    """Section 4: randomized response against a trusted curator's Laplace at the same ε."""
    if s.survey is None:
        no_survey()
        return
    c, n = s.coins, s.n
    if not c.can_estimate:
        st.info(_("local.rr.raise_t"))
        return
    if math.isinf(c.epsilon):
        st.info(_("local.rr.central.infinite"))
        return
    local_curve = local_error_curve(c.p, c.q, s.share)
    central = laplace.laplace_expected_abs_error(laplace.laplace_scale(1, c.epsilon))
    local_now = estimates.expected_abs_error(s.n_yes, n, c.p, c.q)
    charts.show(
        local_charts.local_vs_central(LOCAL_GRID, local_curve, central, n), key="rr_central"
    )
    cols = st.columns(3)
    cols[0].metric(
        _("local.rr.central.local", n=formatting.count(n)), formatting.fixed(local_now, 1)
    )
    cols[1].metric(_("local.rr.central.central"), formatting.fixed(central, 2))
    cols[2].metric(_("local.rr.central.ratio"), f"{formatting.fixed(local_now / central)}×")
    st.markdown(
        _(
            "local.rr.central.sentence",
            epsilon=formatting.epsilon(c.epsilon),
            central=formatting.fixed(central, 2),
            local=formatting.fixed(local_now, 1),
            n=formatting.count(n),
        )
    )
    st.caption(_("local.rr.central.caption"))
    section_exercises(OWN_EXERCISES, "central", s)
