"""Randomized response, section 4 ("central"): the local error against a trusted curator's
Laplace noise at the same ε. In "set ε" mode the chart and its sentence follow ε's thumb while
it is dragged; the coins' two sliders they do not follow: an exact local curve costs about
15 ms, and each step of one coin would build it again at each of the other's 101 stops."""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from dp_core import laplace, local_estimation
from ui.common import charts, formatting, live
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.local import estimates, rr_charts
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
    central = _central_error(c.epsilon)
    local_now = estimates.expected_abs_error(s.n_yes, n, c.p, c.q)
    sliders = s.epsilon_sliders
    live.chart(sliders, lambda *e: _chart(s.at(*e)), key="rr_central", depends=s.identity)
    cols = st.columns(3)
    cols[0].metric(
        _("local.rr.central.local", n=formatting.count(n)), formatting.fixed(local_now, 1)
    )
    cols[1].metric(_("local.rr.central.central"), formatting.fixed(central, 2))
    cols[2].metric(_("local.rr.central.ratio"), f"{formatting.fixed(local_now / central)}×")
    live.text(
        sliders,
        lambda *e: _sentence(s.at(*e)),
        key="rr_central_sentence",
        depends=s.identity,
        style="strong",
    )
    st.caption(_("local.rr.central.caption"))
    section_exercises(OWN_EXERCISES, "central", s)


def _central_error(epsilon: float) -> float:
    """E|Lap(1/ε)| = 1/ε: the central count's expected error (sensitivity 1)."""
    return laplace.laplace_expected_abs_error(laplace.laplace_scale(1, epsilon))


def _chart(s: Settings) -> charts.Spec:
    """The local curve (exact, over LOCAL_GRID) against the central error, at this n."""
    c = s.coins
    curve = local_error_curve(c.p, c.q, s.share)
    return rr_charts.local_vs_central(LOCAL_GRID, curve, _central_error(c.epsilon), s.n)


def _sentence(s: Settings) -> str:
    """The section's headline: the central error against the local one at this n."""
    c = s.coins
    return _(
        "local.rr.central.sentence",
        epsilon=formatting.epsilon(c.epsilon),
        central=formatting.fixed(_central_error(c.epsilon), 2),
        local=formatting.fixed(estimates.expected_abs_error(s.n_yes, s.n, c.p, c.q), 1),
        n=formatting.count(s.n),
    )
