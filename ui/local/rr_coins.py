"""Randomized response, section 1 ("coins"): the two coins as a tree, the report
probabilities, the γ form of the teaching notebooks and ε. The tree and the sentences beside
it follow the thumbs of the coins' sliders (or ε's) while they are dragged."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from dp_core import randomized_response as rr
from ui.common import formatting, live
from ui.common.charts import Spec
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.local import rr_tree_chart
from ui.local.guarantee import rounded_up
from ui.local.rr_settings import OWN_EXERCISES, Coins, Settings


def _probability_table(c: Coins) -> pd.DataFrame:
    """P(answer | truth) as on screen."""
    yes, no = _("local.rr.yes"), _("local.rr.no")
    return pd.DataFrame(
        {
            _("local.rr.table.truth"): [yes, no],
            _("local.rr.table.says_yes"): [
                formatting.probability(c.p),
                formatting.probability(c.q),
            ],
            _("local.rr.table.says_no"): [
                formatting.probability(c.no_given_yes),
                formatting.probability(c.no_given_no),
            ],
        }
    ).set_index(_("local.rr.table.truth"))


def _gamma_form(c: Coins) -> str:
    """The coins in the γ form of the teaching notebooks: the truth with probability ½ + γ.

    One γ describes the game when a true yes and a true no are told with the same probability
    (coin 2 fair, or "set ε"); then ε = ln((½ + γ)/(½ − γ)). Otherwise each answer has its own.
    """
    gamma_yes, gamma_no = rr.truth_gammas(c.p, c.q)
    if math.isclose(c.p, c.no_given_no, rel_tol=0, abs_tol=1e-12):
        return _(
            "local.rr.gamma.symmetric",
            gamma=formatting.significant(gamma_yes, 4),
            truth=formatting.significant(c.p, 4),
            lie=formatting.significant(c.q, 4),
            epsilon=formatting.epsilon(c.epsilon),
        )
    return _(
        "local.rr.gamma.asymmetric",
        gamma_yes=formatting.significant(gamma_yes, 4),
        truth_yes=formatting.significant(c.p, 4),
        gamma_no=formatting.significant(gamma_no, 4),
        truth_no=formatting.significant(c.no_given_no, 4),
    )


def _ratios(c: Coins) -> str:
    """How much more likely each answer is from one truth than from the other, and ε; what
    ε = ∞ or ε = 0 means where the ratios are not finite."""
    if math.isinf(c.epsilon):
        return _("local.rr.infinite")
    if c.epsilon == 0:
        return _("local.rr.zero")
    return _(
        "local.rr.ratios",
        yes_ratio=formatting.significant(c.p / c.q),
        no_ratio=formatting.significant(c.no_given_no / c.no_given_yes),
        epsilon=formatting.epsilon(c.epsilon),
        odds=formatting.odds_factor(c.epsilon),
    )


def coin_game(s: Settings) -> None:
    """Section 1: the two coins as a tree, the report probabilities and ε."""
    c = s.coins
    tree_col, table_col = st.columns([3, 2])
    with tree_col:
        live.chart(
            s.sliders,
            lambda *values: _tree(c.at(*values)),
            key="rr_tree",
            depends=c.mode,
        )
    with table_col:
        live.text(
            s.sliders,
            lambda *values: formatting.epsilon(c.at(*values).epsilon),
            key="rr_epsilon_metric",
            depends=c.mode,
            style="metric",
            label=_("local.rr.metric.epsilon"),
        )
        if s.survey is not None:  # the guarantee above reads its ε rounded up
            live.text(
                s.sliders,
                lambda *values: rounded_up(c.at(*values).epsilon),
                key="rr_rounded_up",
                depends=c.mode,
                style="caption",
            )
        st.table(_probability_table(c))
        live.text(
            s.sliders, lambda *values: _gamma_form(c.at(*values)), key="rr_gamma", depends=c.mode
        )
        live.text(
            s.sliders, lambda *values: _said_ratios(c.at(*values)), key="rr_ratios", depends=c.mode
        )
    st.markdown(_("local.rr.game"))
    live.text(
        s.sliders, lambda *values: _deniable(c.at(*values)), key="rr_deniable", depends=c.mode
    )
    st.caption(_("local.rr.neighbours"))
    section_exercises(OWN_EXERCISES, "coins", s)


def _deniable(c: Coins) -> str:
    """Which answers are deniable: each one where both coins can speak, none where coin 1
    always asks for the truth (t = 1), one kind where coin 2 never gives the other (y = 0 or 1);
    every one, saying nothing, where coin 2 always speaks (t = 0)."""
    if not c.can_estimate:
        return _("local.rr.deniable.random")
    if c.q == 0 and c.no_given_yes == 0:
        return _("local.rr.deniable.none")
    if c.q == 0:
        return _("local.rr.deniable.yes_exposes")
    if c.no_given_yes == 0:
        return _("local.rr.deniable.no_exposes")
    return _("local.rr.deniable.every")


def _said_ratios(c: Coins) -> live.Said:
    """The ratios' sentence; in a warning box where ε is ∞ (an answer gives its person away)
    or 0 (the answers say nothing)."""
    return ("warning", _ratios(c)) if math.isinf(c.epsilon) or c.epsilon == 0 else _ratios(c)


def _tree(c: Coins) -> Spec:
    """The coin tree of these coins."""
    return rr_tree_chart.coin_tree(c.truth, c.random_yes)
