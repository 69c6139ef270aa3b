"""Section 2 of the Gaussian page: how much noise the classic and the analytic calibration
need at this ε and δ, beside Laplace's, and σ against δ."""

from __future__ import annotations

import functools
import math

import numpy as np
import streamlit as st

from dp_core import gaussian, laplace
from ui.common import charts, formatting, live
from ui.common.exercises import section_exercises
from ui.common.i18n import _, language
from ui.gaussian import charts as gaussian_charts
from ui.gaussian.exercises import EXERCISES
from ui.gaussian.settings import DELTA, Settings, proven_classic_sigma
from ui.gaussian.words import sigma_sentence

# The δ slider's range, in 41 points.
DELTAS = np.logspace(math.log10(DELTA.stops[0]), math.log10(DELTA.stops[-1]), 41)


@functools.lru_cache(maxsize=256)
def _sigma_curves(l2: float, epsilon: float) -> tuple[np.ndarray, np.ndarray | None]:
    """Analytic (and, for ε < 1, classic) σ over DELTAS at this ε."""
    analytic = gaussian.analytic_gaussian_sigmas(l2, epsilon, DELTAS)
    classic = None
    if epsilon < 1:
        classic = np.array([gaussian.classic_gaussian_sigma(l2, epsilon, d) for d in DELTAS])
    return analytic, classic


def _epsilons_bought(s: Settings) -> dict[tuple[float, float], float]:
    """The exact ε the classic σ buys (its δ given) at each stop of ε (δ in use) and of δ (ε in
    use) where it is proven, by (ε, δ): dp_core's inversion of the exact profile, vectorised
    over the stops (one bisection each costs what all of them together do)."""
    stops = [(e, s.delta) for e in s.epsilon_stops.values]
    stops += [(s.epsilon, d) for d in s.delta_stops.values]
    classic = {
        stop: sigma
        for stop in dict.fromkeys(stops)
        if (sigma := proven_classic_sigma(s.l2, *stop)) is not None
    }
    if not classic:
        return {}
    sigmas, deltas = np.array(list(classic.values())), np.array([d for _, d in classic])
    return dict(zip(classic, gaussian.gaussian_epsilons_for(sigmas, deltas, s.l2), strict=True))


def classic_vs_analytic(s: Settings) -> None:
    """Section 2: how much noise each calibration needs, and σ against δ; the sentences and the
    chart follow the ε and δ thumbs."""
    live.follow_text(s, _intro, key="gaussian_sigma_intro")
    _metrics(s)
    bought = _epsilons_bought(s)
    live.follow_text(
        s, lambda at: _overshoot(at, bought), key="gaussian_sigma_overshoot", style="caption"
    )
    live.follow_text(s, _rho, key="gaussian_sigma_rho", style="caption")
    if s.secure and s.choice is not None and s.noise == "gaussian" and not s.withheld:
        st.caption(sigma_sentence(s))  # the secure release's σ: at the values in use only
    live.follow_text(s, _chart_title, key="gaussian_sigma_title", style="strong")
    live.follow_chart(s, _sigma_spec, key="gaussian_sigma_delta")
    live.follow_text(s, _growth, key="gaussian_sigma_growth", style="caption")
    section_exercises(EXERCISES, "sigma", s)


def _intro(s: Settings) -> str:
    """What each calibration gives at this ε and δ (the classic one below ε = 1 only)."""
    values = {
        "epsilon": formatting.number(s.epsilon),
        "delta": formatting.power_of_ten(s.delta),
        "l2": formatting.significant(s.l2, 4),
        "l1": formatting.number(s.l1),
    }
    if s.classic_sigma is not None:
        return _("gaussian.sigma.intro_both", **values)
    return _("gaussian.sigma.intro_analytic", **values)


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


def _overshoot(s: Settings, bought: dict[tuple[float, float], float]) -> str:
    """What the classic σ overshoots by: the exact ε it buys at δ (``bought``, by (ε, δ));
    nothing where it is unproven."""
    classic, analytic = s.classic_sigma, s.analytic_sigma
    if classic is None:
        return ""
    return _(
        "gaussian.sigma.overshoot",
        classic=formatting.significant(classic, 4),
        bought=formatting.epsilon(bought[s.epsilon, s.delta]),
        delta=formatting.power_of_ten(s.delta),
        epsilon=formatting.number(s.epsilon),
        more=formatting.fixed(100 * (classic / analytic - 1)),
    )


def _rho(s: Settings) -> str:
    """ρ = Δ²/(2σ²) of zCDP for the analytic σ (Bun & Steinke 2016, Prop 1.6)."""
    rho = gaussian.gaussian_zcdp_rho(s.analytic_sigma, s.l2)
    return _("gaussian.sigma.rho", rho=formatting.significant(rho, 4))


def _chart_title(s: Settings) -> str:
    return _("gaussian.sigma.chart_title", epsilon=formatting.number(s.epsilon))


def _sigma_spec(s: Settings) -> charts.Spec:
    """The σ-against-δ chart at the settings' ε, δ marked."""
    spec = _curves_spec(s.l2, s.laplace_b, s.epsilon, language())
    now = charts.marker(s.delta, f"δ = {formatting.power_of_ten(s.delta)}")
    return {**spec, "datasets": {**spec["datasets"], "now": now}}


@functools.lru_cache(maxsize=256)
def _curves_spec(l2: float, laplace_b: float, epsilon: float, lang: str) -> charts.Spec:
    """The σ-against-δ chart at ε without δ marked, in the language ``lang``: the same at every
    δ, so a step of δ, which redraws the chart at every stop of ε, finds it here."""
    analytic_curve, classic_curve = _sigma_curves(l2, epsilon)
    return gaussian_charts.sigma_vs_delta(
        DELTAS, analytic_curve, classic_curve, laplace.laplace_std(laplace_b), charts.marker(0, "")
    )


def _growth(s: Settings) -> str:
    """How much the analytic σ grows from δ = 10⁻² down to 10⁻¹² at this ε."""
    analytic_curve, _classic = _sigma_curves(s.l2, s.epsilon)
    factor = formatting.fixed(analytic_curve[0] / analytic_curve[-1], 2)
    return _("gaussian.sigma.growth", factor=factor)
