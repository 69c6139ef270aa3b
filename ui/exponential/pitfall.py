"""Section 4 of the exponential-mechanism page: the sensitivity pitfall. Scoring by count ÷
largest count but keeping Δ = 1 makes the mechanism near-uniform."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import selection as sel
from dp_core.exponential import exponential_probabilities
from dp_core.selection_scores import (
    SHARE_OF_LARGEST_GLOBAL_SENSITIVITY,
    share_of_largest_local_sensitivity,
    share_of_largest_scores,
)
from ui.common import charts, formatting, live
from ui.common.address import linked
from ui.common.i18n import _
from ui.common.shell import page_rng
from ui.common.turns import fragment
from ui.exponential import charts as exp_charts
from ui.exponential.candidates import PAGE, Candidates
from ui.exponential.declared import PITFALL
from ui.exponential.settings import Settings
from ui.exponential.table import sampled_runs
from ui.exponential.tables import SHOWN, candidate_index, probability_text, show_table

DRAWS = 200  # runs with either Δ: the English notebook draws 200 under the wrong scoring


@fragment(key=f"{PAGE}_pitfall_section")
def sensitivity_pitfall(s: Settings) -> None:
    """Section 4: scoring by count ÷ largest count but keeping Δ = 1 makes it near-uniform."""
    if not linked(PITFALL, st.toggle, _("exponential.pitfall.toggle")):
        st.caption(_("exponential.pitfall.off"))
        return
    c = s.candidates
    try:
        shares = share_of_largest_scores(c.counts)
        local = share_of_largest_local_sensitivity(c.counts)
    except ValueError:
        st.warning(_("exponential.pitfall.no_records"))
        return
    live.follow_chart(s, lambda at: _bars(at, shares), key=f"{PAGE}_pitfall_bars")
    log_p = s.log_probabilities()
    uniforms = np.sort(page_rng(PAGE, "pitfall").random(DRAWS))
    _table(c, shares, _wrong(s, shares), log_p, uniforms)
    live.follow_text(s, lambda at: _squeeze(at, shares), key=f"{PAGE}_squeeze")
    live.follow_text(s, lambda at: _runs(at, shares, uniforms), key=f"{PAGE}_pitfall_runs")
    st.markdown(_why(c.sensitivity, local))
    st.caption(_("exponential.pitfall.caption"))


def _wrong(s: Settings, shares: np.ndarray) -> np.ndarray:
    """The probabilities on the shares with Δ = 1 at the settings' ε. Not monotonic: adding a
    record to the top candidate lowers every other share, so the rate is always ε / (2Δ)
    (Dwork & Roth 2014, remark after Thm 3.10)."""
    return exponential_probabilities(
        shares, s.epsilon, SHARE_OF_LARGEST_GLOBAL_SENSITIVITY, monotonic=False
    )


def _bars(s: Settings, shares: np.ndarray) -> charts.Spec:
    """Both mechanisms' probabilities at the settings' ε as bars, for the SHOWN most likely
    candidates."""
    c, log_p = s.candidates, s.log_probabilities()
    wrong, right = _wrong(s, shares), np.exp(log_p)
    names = c.names
    shown = np.arange(len(names))
    if len(names) > SHOWN:
        shown = np.sort(np.argsort(-log_p, kind="stable")[:SHOWN])
    return exp_charts.pitfall_bars(
        [names[i] for i in shown], wrong[shown], right[shown], c.sensitivity
    )


def _table(
    c: Candidates, shares: np.ndarray, wrong: np.ndarray, log_p: np.ndarray, uniforms: np.ndarray
) -> None:
    """Each candidate's share of the largest count, its probability with either Δ, and how
    often it came out of the DRAWS runs with either (the same sorted uniforms)."""
    with np.errstate(divide="ignore"):  # a probability of 0 is log 0 = -inf
        log_wrong = np.log(wrong)
    delta = formatting.number(c.sensitivity)
    show_table(
        pd.DataFrame(
            {
                _("exponential.pitfall.share"): [formatting.fixed(v, 3) for v in shares],
                _("exponential.pitfall.p_wrong"): [probability_text(v) for v in log_wrong],
                _("exponential.pitfall.p_right", delta=delta): [probability_text(v) for v in log_p],
                _("exponential.pitfall.runs_wrong", n=DRAWS): _tally(uniforms, wrong),
                _("exponential.pitfall.runs_right", n=DRAWS, delta=delta): _tally(
                    uniforms, np.exp(log_p)
                ),
            },
            index=candidate_index(c),
        ),
        key=f"{PAGE}_all_pitfall",
        order=log_p,
    )


def _tally(uniforms: np.ndarray, probabilities: np.ndarray) -> list[str]:
    """How often each candidate came out of the runs, as the table writes a count."""
    return [formatting.count(int(n)) for n in sampled_runs(uniforms, probabilities)]


def _squeeze(s: Settings, shares: np.ndarray) -> str:
    """No two probabilities differ by more than e^(ε/2); P(best) on the shares against counts,
    at the settings' ε."""
    scores = s.candidates.counts
    wrong, right = _wrong(s, shares), np.exp(s.log_probabilities())
    factor = math.exp(s.epsilon / 2) if s.epsilon < 20 else math.inf
    return _(
        "exponential.pitfall.squeeze",
        factor=formatting.fixed(factor, 3)
        if factor < 1e3
        else formatting.odds_factor(s.epsilon / 2),
        wrong=formatting.fixed(float(sel.probability_of_best(wrong, scores)), 3),
        right=formatting.fixed(float(sel.probability_of_best(right, scores)), 3),
    )


def _runs(s: Settings, shares: np.ndarray, uniforms: np.ndarray) -> str:
    """How many of the DRAWS runs named a true best answer with either Δ, at the settings' ε."""
    best = sel.best_mask(s.candidates.counts)
    wrong = int(sampled_runs(uniforms, _wrong(s, shares))[best].sum())
    right = int(sampled_runs(uniforms, np.exp(s.log_probabilities()))[best].sum())
    return _(
        "exponential.pitfall.runs",
        n=DRAWS,
        wrong=formatting.count(wrong),
        right=formatting.count(right),
        delta=formatting.number(s.candidates.sensitivity),
    )


def _why(delta: float, local: float) -> str:
    """Why Δ = 1 on the shares is useless: true over all datasets (``local``: what one person
    moves a share here, with one row each), or with a cap Δ on one person's rows."""
    if delta == 1:
        return _(
            "exponential.pitfall.delta_one",
            largest=formatting.fixed(1 / local),
            local=formatting.significant(local),
        )
    return _("exponential.pitfall.delta_cap", delta=formatting.number(delta))
