"""Section 1 of the exponential-mechanism page: the probability table. P(a true best answer),
the count lost and the shortfall bound; the exact probabilities beside N sampled runs; the table
with the unnormalised weights; what k runs cost; the downloads."""

from __future__ import annotations

import math
from contextlib import nullcontext

import numpy as np
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dp_core import selection as sel
from dp_core.exponential import exponential_score_shortfall_bound
from ui.common import formatting, live
from ui.common.address import linked
from ui.common.exercises import section_exercises
from ui.common.export import export_buttons
from ui.common.i18n import _
from ui.common.shell import page_rng, presenter_mode
from ui.common.turns import fragment
from ui.exponential import charts as exp_charts
from ui.exponential.candidates import PAGE
from ui.exponential.declared import DRAWS, RUNS, SAMPLED
from ui.exponential.exercises import EXERCISES
from ui.exponential.settings import Settings
from ui.exponential.table_frames import export_table, probability_frame, table_export
from ui.exponential.tables import SHOWN, count_text, lost_text, probability_text, show_table

T_95 = math.log(20)  # e^(-t) = 5%
LISTED = 10  # runs listed in the order drawn: the notebook draws 10 answers


@fragment
def probability_table(s: Settings) -> None:
    """Section 1: P(best), exact probabilities beside N sampled runs, the table, k runs.

    The chart comes first; its N slider sits under it, so the chart's place is kept and
    filled once N is read. On a projector the chart (with N and its captions) and the table
    sit side by side under the metrics, so both are on the first screen. The sentence, P(best),
    the count lost, the chart and the bound's caption follow the ε thumb (the N runs come from
    the same N uniforms at every ε: ``sampled_runs``); the bound's metric, the table and the
    budget line follow once it is let go.
    """
    c = s.candidates
    log_p = s.log_probabilities()
    _summary(s)
    chart_side, table_side = _chart_and_table()
    with chart_side:
        chart_place = st.container()
        n_draws = _draws_slider()
    drawn = _uniforms(n_draws)
    uniforms = np.sort(drawn)
    sampled = sampled_runs(uniforms, np.exp(log_p))
    with chart_place:
        spec = live.follow_chart(s, lambda at: _bars(at, uniforms), key=f"{PAGE}_bars",
                                 depends=n_draws)  # fmt: skip
    with chart_side:
        st.caption(_("exponential.table.chart_caption"))
        live.follow_text(s, lambda at: _runs_text(at, drawn), key=f"{PAGE}_runs", depends=n_draws)
        live.follow_text(s, _bound_caption, key=f"{PAGE}_bound", style="caption")
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


def _summary(s: Settings) -> None:
    """The sentence and the metrics: P(best) and the count lost follow the ε thumb, the
    bound (with its "vacuous" mark and help) follows once it is let go."""
    live.follow_text(s, _sentence, key=f"{PAGE}_sentence")
    cols = st.columns(3)
    with cols[0]:
        live.follow_text(
            s,
            lambda at: formatting.fixed(_outcome(at)[0], 3),
            key=f"{PAGE}_p_best",
            style="metric",
            label=_("exponential.metric.p_best"),
        )
    with cols[1]:
        live.follow_text(
            s,
            lambda at: lost_text(_outcome(at)[1]),
            key=f"{PAGE}_lost",
            style="metric",
            label=_("exponential.metric.lost"),
        )
    shortfall = _shortfall(s)
    _bound_metric(cols[2], shortfall, _vacuous(shortfall, s.candidates.counts))


def _outcome(s: Settings) -> tuple[float, float]:
    """P(a true best answer) and the expected count lost below the best, at the settings' ε."""
    scores, probabilities = s.candidates.counts, np.exp(s.log_probabilities())
    return (
        float(sel.probability_of_best(probabilities, scores)),
        float(sel.expected_score_lost(probabilities, scores)),
    )


def _sentence(s: Settings) -> str:
    """The section's headline: P(a true best answer) and the count lost, at the settings' ε."""
    c = s.candidates
    best = sel.best_mask(c.counts)
    best_names = ", ".join(np.array(c.names)[best][:3]) + ("…" if best.sum() > 3 else "")
    p_best, lost = _outcome(s)
    return _(
        "exponential.table.sentence",
        epsilon=formatting.number(s.epsilon),
        best=best_names,
        p=formatting.fixed(p_best, 3),
        lost=lost_text(lost),
    )


def _shortfall(s: Settings) -> float:
    """The textbook bound: an answer this far below the best comes out at most 5% of the time
    (exponential_score_shortfall_bound at t = ln 20)."""
    c = s.candidates
    n_best = int(sel.best_mask(c.counts).sum())
    return exponential_score_shortfall_bound(
        len(c.names), s.epsilon, c.sensitivity, t=T_95, n_best=n_best, monotonic=s.monotonic
    )


def _spread(scores: np.ndarray) -> float:
    """The farthest any answer is below the best."""
    return float(scores.max() - scores.min())


def _vacuous(shortfall: float, scores: np.ndarray) -> bool:
    """A bound that says nothing: beyond the farthest any answer is below the best."""
    return not math.isinf(shortfall) and shortfall > _spread(scores)


def _bound_metric(column: DeltaGenerator, shortfall: float, vacuous: bool) -> None:
    """The 95% shortfall bound, marked when it says nothing about these counts."""
    column.metric(
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


def _uniforms(n_draws: int) -> np.ndarray:
    """N standard uniforms from the page's seed and draw, in the order drawn (sorted, they
    give ``sampled_runs``; in order, ``runs_in_order``)."""
    return page_rng(PAGE, "table").random(n_draws)


def sampled_runs(uniforms: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
    """How often each candidate comes out of N runs, one run per standard uniform u (sorted):
    run u names the first candidate r with u < P(1) + … + P(r) (inverse transform sampling),
    so the counts are a multinomial draw, and the same uniforms give the runs at every ε."""
    cumulative = np.cumsum(probabilities / probabilities.sum())[:-1]
    below = np.searchsorted(uniforms, cumulative, side="left")  # runs naming one of 1 … r
    return np.diff(np.concatenate([[0], below, [uniforms.size]]))


def runs_in_order(uniforms: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
    """The candidate each run names, one run per uniform u in the order drawn: the first r with
    u < P(1) + … + P(r), as in ``sampled_runs`` (so its tally is the same counts)."""
    cumulative = np.cumsum(probabilities / probabilities.sum())[:-1]
    return np.searchsorted(cumulative, uniforms, side="right")


def _runs_text(s: Settings, drawn: np.ndarray) -> str:
    """The first LISTED runs as the candidates they name, in the order drawn (all of the
    notebook's 10), at the settings' ε."""
    names = s.candidates.names
    runs = runs_in_order(drawn[:LISTED], np.exp(s.log_probabilities()))
    listed = ", ".join(names[i] for i in runs)
    if drawn.size <= LISTED:
        return _("exponential.table.runs_all", n=formatting.count(drawn.size), runs=listed)
    return _(
        "exponential.table.runs_first",
        shown=formatting.count(LISTED),
        n=formatting.count(drawn.size),
        runs=listed,
    )


def _bars(s: Settings, uniforms: np.ndarray) -> dict:
    """The chart's spec at the settings' ε: exact probabilities beside the share of N sampled
    runs (``sampled_runs``), for the SHOWN most likely candidates kept in the list's order."""
    names, log_p = s.candidates.names, s.log_probabilities()
    probabilities = np.exp(log_p)
    sampled, n_draws = sampled_runs(uniforms, probabilities), uniforms.size
    shown = np.arange(len(names))
    if len(names) > SHOWN:
        shown = np.sort(np.argsort(-log_p, kind="stable")[:SHOWN])
    return exp_charts.probability_bars(
        [names[i] for i in shown], probabilities[shown], sampled[shown] / n_draws, n_draws
    )


def _bound_caption(s: Settings) -> str:
    """The bound at the settings' ε: vacuous here, or beside the exact tail ("" without one)."""
    scores, shortfall = s.candidates.counts, _shortfall(s)
    if _vacuous(shortfall, scores):
        return _(
            "exponential.table.vacuous",
            bound=formatting.fixed(shortfall, 1),
            best=count_text(scores.max()),
            worst=count_text(scores.min()),
            spread=count_text(_spread(scores)),
        )
    if math.isinf(shortfall):
        return ""
    log_tail = sel.log_probability_of_shortfall(s.log_probabilities(), scores, shortfall)
    exact = "0" if log_tail is None else probability_text(log_tail)  # as the table writes it
    return _("exponential.table.bound", bound=formatting.fixed(shortfall, 1), exact=exact)


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
