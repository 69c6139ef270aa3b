"""Section 1 of the exponential-mechanism page: the probability table. P(a true best answer),
the count lost and the shortfall bound; the exact probabilities beside N sampled runs; the table
with the unnormalised weights; what k runs cost; the downloads."""

from __future__ import annotations

import math
from contextlib import nullcontext

import numpy as np
import streamlit as st

from dp_core import selection as sel
from dp_core.exponential import exponential_score_shortfall_bound
from ui.common import charts, formatting
from ui.common.address import linked
from ui.common.exercises import section_exercises
from ui.common.export import export_buttons
from ui.common.i18n import _
from ui.common.shell import page_rng, presenter_mode
from ui.exponential import charts as exp_charts
from ui.exponential.candidates import PAGE
from ui.exponential.declared import DRAWS, RUNS, SAMPLED
from ui.exponential.exercises import EXERCISES
from ui.exponential.settings import Settings
from ui.exponential.table_frames import export_table, probability_frame, table_export
from ui.exponential.tables import SHOWN, count_text, lost_text, probability_text, show_table

T_95 = math.log(20)  # e^(-t) = 5%


@st.fragment
def probability_table(s: Settings) -> None:
    """Section 1: P(best), exact probabilities beside N sampled runs, the table, k runs.

    The chart comes first; its N slider sits under it, so the chart's place is kept and
    filled once N is read. On a projector the chart (with N and its captions) and the table
    sit side by side under the metrics, so both are on the first screen.
    """
    c = s.candidates
    log_p = s.log_probabilities()
    probabilities = np.exp(log_p)
    shortfall = _summary(s, probabilities)
    chart_side, table_side = _chart_and_table()
    with chart_side:
        chart_place = st.container()
        n_draws = _draws_slider()
    sampled = sel.sample_counts(page_rng(PAGE, "table"), probabilities, n_draws)
    spec = _bars(c.names, log_p, probabilities, sampled, n_draws)
    with chart_place:
        charts.show(spec, key=f"{PAGE}_bars")
    with chart_side:
        _chart_captions(c.counts, probabilities, shortfall)
    with table_side:
        _table(s, log_p, sampled, n_draws)
    runs = _budget(s, n_draws)
    export_buttons(
        PAGE,
        c.data,
        lambda: table_export(s, export_table(s, log_p, sampled, n_draws), n_draws, runs, spec),
        secure=False,
    )
    section_exercises(EXERCISES, "table", s)


def _summary(s: Settings, probabilities: np.ndarray) -> float:
    """The sentence and the metrics (P(best), the count lost, the bound); returns the bound."""
    c = s.candidates
    names, scores = c.names, c.counts
    best = sel.best_mask(scores)
    p_best = float(sel.probability_of_best(probabilities, scores))
    lost = float(sel.expected_score_lost(probabilities, scores))
    best_names = ", ".join(np.array(names)[best][:3]) + ("…" if best.sum() > 3 else "")
    st.markdown(
        _(
            "exponential.table.sentence",
            epsilon=formatting.number(s.epsilon),
            best=best_names,
            p=formatting.fixed(p_best, 3),
            lost=lost_text(lost),
        )
    )
    shortfall = exponential_score_shortfall_bound(
        len(names), s.epsilon, c.sensitivity, t=T_95, n_best=int(best.sum()), monotonic=s.monotonic
    )
    _metrics(p_best, lost, shortfall, _vacuous(shortfall, scores))
    return shortfall


def _spread(scores: np.ndarray) -> float:
    """The farthest any answer is below the best."""
    return float(scores.max() - scores.min())


def _vacuous(shortfall: float, scores: np.ndarray) -> bool:
    """A bound that says nothing: beyond the farthest any answer is below the best."""
    return not math.isinf(shortfall) and shortfall > _spread(scores)


def _metrics(p_best: float, lost: float, shortfall: float, vacuous: bool) -> None:
    """P(a true best answer), the expected count lost, and the 95% shortfall bound."""
    cols = st.columns(3)
    cols[0].metric(_("exponential.metric.p_best"), formatting.fixed(p_best, 3))
    cols[1].metric(_("exponential.metric.lost"), lost_text(lost))
    cols[2].metric(
        _("exponential.metric.bound"),
        _("exponential.metric.no_guarantee")
        if math.isinf(shortfall)
        else formatting.fixed(shortfall, 1),
        delta=_("exponential.metric.vacuous") if vacuous else None,
        delta_color="off",
        delta_arrow="off",
        help=_("exponential.metric.bound_help"),
    )


def _chart_and_table() -> tuple:
    """Where the chart (with N and its captions) and the table go: side by side on a
    projector, so the table is on the first screen too; one under the other elsewhere."""
    if presenter_mode():
        return tuple(st.columns(2, gap="medium"))
    return nullcontext(), nullcontext()


def _draws_slider() -> int:
    """N, the sampled runs, kept in the address (?exponential_draws=200).

    The slider keeps its state for the session (ui.common.address.linked): a slider that comes
    back (after another section) shows the N in use, not the first default, and sends it back
    with the next ε step.
    """
    return linked(
        SAMPLED,
        st.select_slider,
        _("exponential.table.draws"),
        labels={n: formatting.count(n) for n in DRAWS},  # in the run's locale
    )


def _bars(
    names: tuple[str, ...],
    log_p: np.ndarray,
    probabilities: np.ndarray,
    sampled: np.ndarray,
    n_draws: int,
) -> dict:
    """The chart's spec: exact probabilities beside the share of N sampled runs, for the SHOWN
    most likely candidates kept in the list's order."""
    shown = np.arange(len(names))
    if len(names) > SHOWN:
        shown = np.sort(np.argsort(-log_p, kind="stable")[:SHOWN])
    return exp_charts.probability_bars(
        [names[i] for i in shown], probabilities[shown], sampled[shown] / n_draws, n_draws
    )


def _chart_captions(scores: np.ndarray, probabilities: np.ndarray, shortfall: float) -> None:
    """What the chart shows, and the bound: vacuous here, or beside the exact tail."""
    st.caption(_("exponential.table.chart_caption"))
    if _vacuous(shortfall, scores):
        st.caption(
            _(
                "exponential.table.vacuous",
                bound=formatting.fixed(shortfall, 1),
                best=count_text(scores.max()),
                worst=count_text(scores.min()),
                spread=count_text(_spread(scores)),
            )
        )
    elif not math.isinf(shortfall):
        tail = sel.probability_of_shortfall(probabilities, scores, shortfall)
        exact = probability_text(math.log(tail)) if tail > 0 else "0"
        bound = formatting.fixed(shortfall, 1)
        st.caption(_("exponential.table.bound", bound=bound, exact=exact))


def _table(s: Settings, log_p: np.ndarray, sampled: np.ndarray, n_draws: int) -> None:
    """The table of every candidate (the SHOWN most likely on screen, the rest folded)."""
    n_candidates = len(s.candidates.names)
    table = probability_frame(s, log_p, sampled, n_draws)
    show_table(table, key=f"{PAGE}_all_candidates", order=log_p)
    if n_candidates > SHOWN:
        st.caption(_("exponential.table.shown", shown=SHOWN, n=formatting.count(n_candidates)))


def _budget(s: Settings, n_draws: int) -> int:
    """k runs of the mechanism cost k × ε, plus a DP choice of the candidates, once."""
    runs = linked(RUNS, st.slider, _("exponential.budget.runs"), min_value=1, max_value=50, step=1)
    total = round(runs * s.epsilon, 10)
    text = _(
        "exponential.budget.text",
        k=runs,
        epsilon=formatting.number(s.epsilon),
        total=formatting.number(total),
    )
    chosen = s.candidates.selected
    if chosen is not None:
        text += " " + _(
            "exponential.budget.selected",
            epsilon=formatting.number(chosen.epsilon),
            delta=formatting.power_of_ten(chosen.delta),
            total=formatting.number(round(total + chosen.epsilon, 10)),
        )
    st.markdown(text + " " + _("exponential.budget.simulated", n=formatting.count(n_draws)))
    return runs
