"""Section 1 of the attacker page: how sure the attacker can become after one output, for the
prior chosen, with the posterior chart, a table and the downloads."""

from __future__ import annotations

import numpy as np
import streamlit as st
from scipy.special import expit

from dp_core import attacks, gaussian
from ui.attacker import charts as attacker_charts
from ui.attacker.exercises import EXERCISES
from ui.attacker.posteriors import Posterior, posterior, posterior_export, posterior_table
from ui.attacker.settings import Settings
from ui.attacker.words import posterior_caveat, whole_percent
from ui.common import charts, live
from ui.common.exercises import section_exercises
from ui.common.export import export_buttons
from ui.common.formatting import odds_factor, percent, significant
from ui.common.formatting import power_of_ten as format_delta
from ui.common.i18n import N_, _
from ui.common.shell import on_a_phone

# The curves' priors, evenly spaced in log-odds (the posterior's log-odds is the prior's ± ε,
# so each curve's points are as evenly spread): within a pixel of the curves at every ε, with
# 63 points (a 1% grid missed the steep ends by up to 140 pixels at ε = 10).
PRIORS = np.concatenate([[0.0], expit(np.linspace(-10, 10, 61)), [1.0]])


def attackers_guess(s: Settings) -> None:
    """Section 1: the posterior bound after one output, for the prior chosen; the intro and the
    chart follow the ε thumb, the headline the ε and δ thumbs. On a phone the metrics and the
    chart come first, the headline and the intro right below the chart."""
    phone = on_a_phone()
    if not phone:
        _words(s)
    now = posterior(s, s.prior)
    _posterior_metrics(s, now)
    # δ moves the chart only where 10δ reaches 1 (typed, beyond the slider): it follows ε
    chart = live.chart(
        s.stops[:1],
        lambda e: _posterior_chart_at(s.at(e)),
        key="attacker_posterior",
        depends=(s.pure, s.bounded, s.prior),
    )
    if phone:
        _words(s)
    if s.pure:
        st.caption(_("attacker.guess.tight"))
    elif not s.certain:
        tail = gaussian.gaussian_privacy_loss_tail(s.sigma, s.epsilon) if s.bounded else None
        st.warning(posterior_caveat(s.prior, s.epsilon, s.delta, scope="release", loss_tail=tail))
    st.caption(_("attacker.guess.correlated"))
    table = st.expander(_("attacker.table.title"), key="attacker_table", on_change="rerun")
    if table.open:
        with table:
            st.dataframe(posterior_table(s), hide_index=True, width="stretch")
    export_buttons("attacker", None, lambda: posterior_export(s, chart), secure=False)
    section_exercises(EXERCISES, "guess", s)


def _words(s: Settings) -> None:
    """What the attacker knows and what ε-DP promises, then the sentence the section answers
    with."""
    live.text(s.stops[:1], lambda e: _intro(s.at(e)), key="attacker_guess_intro", depends=s.pure)
    _headline(s)


def _intro(s: Settings) -> str:
    """What the attacker knows and what ε-DP promises: odds moved by at most e^ε."""
    intro = N_("attacker.guess.intro_pure") if s.pure else N_("attacker.guess.intro_delta")
    return _(intro, odds=odds_factor(s.epsilon))


def _posterior_chart_at(s: Settings) -> charts.Spec:
    """The posterior chart at the settings' ε, δ and prior."""
    return _posterior_chart(s, posterior(s, s.prior))


def _posterior_chart(s: Settings, now: Posterior) -> charts.Spec:
    """The posterior chart: the curves that hold, and the ε bound dashed when δ > 0."""
    if s.bounded:
        lower_curve, upper_curve = attacks.posterior_bounds(PRIORS, s.holding_epsilon)
    else:  # every posterior is possible except from a certain prior
        lower_curve = np.where(PRIORS < 1, 0.0, 1.0)
        upper_curve = np.where(PRIORS > 0, 1.0, 0.0)
    eps_upper_curve = attacks.posterior_bounds(PRIORS, s.epsilon)[1]
    eps_name = _("attacker.chart.eps_bound", epsilon=s.eps_text)
    if s.pure:
        labels = {"curve_label": _("attacker.chart.possible", epsilon=s.eps_text)}
    elif s.bounded:
        labels = {
            # ui.attacker.charts writes "lowest {curve}": the curve's label starts with the
            # posterior; the markers' names say the rarest outputs are left out
            "curve_label": _(
                "attacker.chart.on_rare", slack_epsilon=significant(s.holding_epsilon, 4)
            ),
            "rare": True,
            "epsilon_upper": eps_upper_curve,
            "epsilon_name": eps_name,
        }
    else:
        labels = {
            "curve_label": _("attacker.chart.no_promise"),
            "epsilon_upper": eps_upper_curve,
            "epsilon_name": eps_name,
        }
    return attacker_charts.posterior(
        PRIORS, lower_curve, upper_curve, s.prior, now.low, now.high, **labels
    )


def _headline(s: Settings) -> None:
    """The sentence the section answers with, following the thumbs."""
    live.text(
        s.stops,
        lambda *values: _headline_text(s.at(*values)),
        key="attacker_headline",
        depends=(s.pure, s.prior),
    )


def _headline_text(s: Settings) -> live.Said:
    """How sure the attacker can become (or, in a warning, that a certain prior has nothing
    to learn)."""
    prior = whole_percent(s.prior)
    if s.certain:
        certain = (
            N_("attacker.guess.certain_in") if s.prior == 1 else N_("attacker.guess.certain_out")
        )
        return "warning", _(certain, prior=prior)
    now = posterior(s, s.prior)
    if s.pure:
        return _(
            "attacker.guess.headline_pure",
            prior=prior,
            high=percent(now.high),
            low=percent(now.low),
            epsilon=s.eps_text,
        )
    if s.bounded:
        return _(
            "attacker.guess.headline_delta",
            prior=prior,
            high=percent(now.high),
            low=percent(now.low),
            chance=format_delta(s.rare_chance),
            slack_epsilon=significant(s.holding_epsilon, 4),
            eps_high=percent(now.eps_high),
        )
    return _("attacker.guess.headline_void", delta=s.delta_text)


def _posterior_metrics(s: Settings, now: Posterior) -> None:
    """Highest and lowest posterior and the odds factor, labelled with where they hold."""
    cols = st.columns(3)
    if s.pure:
        cols[0].metric(_("attacker.metric.highest_pure"), percent(now.high))
        cols[1].metric(_("attacker.metric.lowest_pure"), percent(now.low))
        cols[2].metric(_("attacker.metric.odds_pure"), f"×{odds_factor(s.epsilon)}")
    elif s.bounded:
        slack = {"slack_epsilon": significant(s.holding_epsilon, 4)}
        for col, label, value, eps_value, where in (
            (
                cols[0],
                _("attacker.metric.highest"),
                percent(now.high),
                percent(now.eps_high),
                _("attacker.metric.where", **slack),
            ),
            (
                cols[1],
                _("attacker.metric.lowest"),
                percent(now.low),
                percent(now.eps_low),
                _("attacker.metric.where", **slack),
            ),
            (
                cols[2],
                _("attacker.metric.odds"),
                f"×{odds_factor(s.holding_epsilon)}",
                f"×{odds_factor(s.epsilon)}",
                _("attacker.metric.where_odds", **slack),
            ),
        ):
            col.metric(
                label,
                value,
                delta=_("attacker.metric.eps_bound", value=eps_value),
                delta_color="off",
                delta_arrow="off",
                help=where,
            )
    else:
        for col, label in zip(
            cols,
            (
                _("attacker.metric.highest"),
                _("attacker.metric.lowest"),
                _("attacker.metric.odds_void"),
            ),
            strict=True,
        ):
            col.metric(
                label,
                "—",
                delta=_("attacker.metric.no_promise"),
                delta_color="off",
                delta_arrow="off",
            )
