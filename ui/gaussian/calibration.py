"""Section 2 of the Gaussian page: how much noise the classic and the analytic calibration
need at this ε and δ, beside Laplace's, and σ against δ."""

from __future__ import annotations

import functools

import numpy as np
import streamlit as st

from dp_core import gaussian, laplace
from ui.common import charts, formatting
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.gaussian import charts as gaussian_charts
from ui.gaussian.exercises import EXERCISES
from ui.gaussian.settings import Settings
from ui.gaussian.words import sigma_sentence

DELTAS = np.logspace(-12, -2, 41)


@functools.lru_cache(maxsize=64)
def _sigma_curves(l2: float, epsilon: float) -> tuple[np.ndarray, np.ndarray | None]:
    """Analytic (and, for ε < 1, classic) σ over DELTAS at this ε."""
    analytic = gaussian.analytic_gaussian_sigmas(l2, epsilon, DELTAS)
    classic = None
    if epsilon < 1:
        classic = np.array([gaussian.classic_gaussian_sigma(l2, epsilon, d) for d in DELTAS])
    return analytic, classic


@functools.lru_cache(maxsize=128)
def _epsilon_bought(sigma: float, delta: float, l2: float) -> float:
    return gaussian.gaussian_epsilon_for(sigma, delta, l2)


def classic_vs_analytic(s: Settings) -> None:
    """Section 2: how much noise each calibration needs, and σ against δ."""
    values = {
        "epsilon": formatting.number(s.epsilon),
        "delta": formatting.power_of_ten(s.delta),
        "l2": formatting.significant(s.l2, 4),
        "l1": formatting.number(s.l1),
    }
    if s.classic_sigma is not None:
        st.markdown(_("gaussian.sigma.intro_both", **values))
    else:
        st.markdown(_("gaussian.sigma.intro_analytic", **values))
    _metrics(s)
    _captions(s)
    _sigma_chart(s)
    section_exercises(EXERCISES, "sigma", s)


def _metrics(s: Settings) -> None:
    """Laplace's b, the classic σ (a dash where unproven), the analytic σ and their ratio."""
    classic, analytic = s.classic_sigma, s.analytic_sigma
    laplace_std = laplace.laplace_std(s.laplace_b)
    cols = st.columns(4)
    cols[0].metric(
        _("gaussian.sigma.laplace_b"),
        formatting.significant(s.laplace_b, 4),
        help=_("gaussian.sigma.laplace_b_help", std=formatting.significant(laplace_std, 4)),
    )
    if classic is None:
        eps = formatting.number(s.epsilon)
        cols[1].metric(_("gaussian.sigma.classic"), "—")
        cols[1].markdown(":grey[" + _("gaussian.sigma.classic_unproven", epsilon=eps) + "]")
        cols[3].metric(_("gaussian.sigma.ratio"), "—")
    else:
        cols[1].metric(_("gaussian.sigma.classic"), formatting.significant(classic, 4))
        cols[3].metric(_("gaussian.sigma.ratio"), formatting.fixed(classic / analytic, 3))
    cols[2].metric(_("gaussian.sigma.analytic"), formatting.significant(analytic, 4))


def _captions(s: Settings) -> None:
    """What the classic σ overshoots by, ρ of zCDP, and the σ of a secure release."""
    classic, analytic, l2 = s.classic_sigma, s.analytic_sigma, s.l2
    if classic is not None:
        st.caption(
            _(
                "gaussian.sigma.overshoot",
                classic=formatting.significant(classic, 4),
                bought=formatting.epsilon(_epsilon_bought(classic, s.delta, l2)),
                delta=formatting.power_of_ten(s.delta),
                epsilon=formatting.number(s.epsilon),
                more=formatting.fixed(100 * (classic / analytic - 1)),
            )
        )
    st.caption(
        _(
            "gaussian.sigma.rho",
            rho=formatting.significant(gaussian.gaussian_zcdp_rho(analytic, l2), 4),
        )
    )
    if s.secure and s.choice is not None and s.noise == "gaussian" and not s.withheld:
        st.caption(sigma_sentence(s))


def _sigma_chart(s: Settings) -> None:
    """σ against δ at this ε (the classic curve for ε < 1), Laplace's std beside it."""
    analytic_curve, classic_curve = _sigma_curves(s.l2, s.epsilon)
    st.subheader(_("gaussian.sigma.chart_title", epsilon=formatting.number(s.epsilon)))
    charts.show(
        gaussian_charts.sigma_vs_delta(
            DELTAS,
            analytic_curve,
            classic_curve,
            laplace.laplace_std(s.laplace_b),
            charts.marker(s.delta, f"δ = {formatting.power_of_ten(s.delta)}"),
        ),
        key="gaussian_sigma_delta",
    )
    st.caption(
        _(
            "gaussian.sigma.growth",
            factor=formatting.fixed(analytic_curve[0] / analytic_curve[-1], 2),
        )
    )
