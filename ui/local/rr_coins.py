"""Randomized response, section 1 ("coins"): the two coins as a tree, the report
probabilities, the γ form of the teaching notebooks and ε."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from dp_core import randomized_response as rr
from ui.common import charts, formatting
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.local import charts as local_charts
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


def coin_game(s: Settings) -> None:
    """Section 1: the two coins as a tree, the report probabilities and ε."""
    c = s.coins
    tree_col, table_col = st.columns([3, 2])
    with tree_col:
        charts.show(local_charts.coin_tree(c.truth, c.random_yes), key="rr_tree")
    with table_col:
        st.metric(_("local.rr.metric.epsilon"), formatting.epsilon(c.epsilon))
        st.table(_probability_table(c))
        st.markdown(_gamma_form(c))
        if math.isinf(c.epsilon):
            st.warning(_("local.rr.infinite"))
        elif c.epsilon == 0:
            st.warning(_("local.rr.zero"))
        else:
            st.markdown(
                _(
                    "local.rr.ratios",
                    yes_ratio=formatting.significant(c.p / c.q),
                    no_ratio=formatting.significant(c.no_given_no / c.no_given_yes),
                    epsilon=formatting.epsilon(c.epsilon),
                    odds=formatting.odds_factor(c.epsilon),
                )
            )
    st.markdown(_("local.rr.game"))
    st.caption(_("local.rr.neighbours"))
    section_exercises(OWN_EXERCISES, "coins", s)
