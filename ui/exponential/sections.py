"""The exponential-mechanism page's controls and sections: the probability table, several ε,
how often the answer is right, and the count ÷ largest-count pitfall (the average-hours score
is in ui.exponential.hours)."""

from __future__ import annotations

import functools
import math
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import selection as sel
from dp_core.exponential import (
    exponential_log_probabilities,
    exponential_log_weights,
    exponential_probabilities,
    exponential_probabilities_by_epsilon,
    exponential_score_shortfall_bound,
    exponential_unnormalised_log_weights,
)
from dp_core.guarantee import Part
from dp_core.noisy_max import (
    report_noisy_max_laplace_probabilities,
    report_noisy_max_laplace_probabilities_by_epsilon,
)
from dp_core.permute_and_flip import (
    permute_and_flip_probabilities,
    permute_and_flip_probabilities_by_epsilon,
)
from dp_core.selection_scores import (
    SHARE_OF_LARGEST_GLOBAL_SENSITIVITY,
    share_of_largest_local_sensitivity,
    share_of_largest_scores,
)
from dp_core.validation import check_epsilon
from ui.common import charts, formatting
from ui.common.address import keep, linked_choice, linked_index
from ui.common.catalog import entry
from ui.common.errors import translated
from ui.common.exercises import section_exercises
from ui.common.export import Export, export_buttons
from ui.common.i18n import N_, _
from ui.common.release import (
    READ_WORDS,
    guarantee,
    guarantee_box,
    guarantee_text,
    sentences,
    unit_words,
)
from ui.common.sections import Section, story
from ui.common.shell import formula_box, page_rng, presenter_mode, settings_area, what_to_notice
from ui.common.widgets import epsilon_input
from ui.exponential import charts as exp_charts
from ui.exponential.candidates import PAGE, Candidates, pick_candidates
from ui.exponential.exercises import EXERCISES

CURVE_EPSILONS = np.concatenate([[0.0], np.geomspace(1e-3, 20, 90)])
SHOWN = 30  # bars in a chart; the tables list every candidate
DRAWS = [10, 100, 200, 1_000, 10_000, 100_000]  # the notebooks sample 10, 200 and 1,000
DEFAULT_DRAWS = 1_000
LOG_10 = math.log(10)
FLOAT_FLOOR = 1e-300  # formatting.probability_from_log writes a float down to here
WEIGHT_FIXED = 1e4  # a weight below it with 3 decimals (3.320), from it as m×10ⁿ
MANTISSA_LIMIT = 1e12  # beyond 10^(±10¹²) a float log has no digit left for a mantissa
SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")  # formatting.power_of_ten's
T_95 = math.log(20)  # e^(-t) = 5%
NOTICES = (
    N_("exponential.notice.distance"),
    N_("exponential.notice.positive"),
    N_("exponential.notice.sampled"),
    N_("exponential.notice.candidates"),
    N_("exponential.notice.sensitivity"),
    N_("exponential.notice.score"),
)
ICON = ":material/verified_user:"


@dataclass(frozen=True)
class Settings:
    """What every section of the page depends on."""

    candidates: Candidates
    epsilon: float
    monotonic: bool

    @property
    def rate_name(self) -> str:
        return "ε/Δ" if self.monotonic else "ε/(2Δ)"

    def log_probabilities(self) -> np.ndarray:
        """log P(r) of the exponential mechanism at this ε (shifted, never NaN)."""
        c = self.candidates
        return exponential_log_probabilities(
            c.counts, self.epsilon, c.sensitivity, monotonic=self.monotonic
        )

    def probability_of_best(self, epsilon: float) -> float:
        """P(the mechanism names a true best answer) at ``epsilon`` (the table's metric)."""
        c = self.candidates
        p = exponential_probabilities(c.counts, epsilon, c.sensitivity, monotonic=self.monotonic)
        return float(sel.probability_of_best(p, c.counts))


def power_text(log10: float, digits: int) -> str:
    """10^log10 as formatting.power_of_ten writes a power, m×10ⁿ, from its log: 6.1×10⁻²²⁸⁸.

    For a number no float holds: written as a float (6.1e-2288) it would read as one, and a
    spreadsheet would take it for 0. ``digits`` significant digits; a mantissa rounded up to
    10 carries (9.97 is 1.0×10ⁿ⁺¹). Beyond 10^(±10¹²) the log's own rounding leaves no
    digit of a mantissa, so only the power is written: 10^(−2.2×10³⁰⁶).
    """
    if abs(log10) >= MANTISSA_LIMIT:
        sign = "−" if log10 < 0 else ""
        return f"10^({sign}{power_text(math.log10(abs(log10)), 2)})"
    exponent = math.floor(log10)
    mantissa = 10 ** (log10 - exponent)
    if round(mantissa, digits - 1) >= 10:
        mantissa, exponent = 1.0, exponent + 1
    return f"{formatting.fixed(mantissa, digits - 1)}×10{str(exponent).translate(SUPERSCRIPTS)}"


def probability_text(log_p: float) -> str:
    """A probability from its log: 0.881, 4.0e-05 (formatting.probability_from_log) while a
    float holds it; below 10⁻³⁰⁰ in the power-of-ten style, 6.1×10⁻²²⁸⁸ (power_text).

    -inf is a log probability below what a float holds (λ times a gap beyond -1.8e308).
    """
    if log_p == -math.inf:
        return "< e^(−10³⁰⁸)"
    if math.exp(log_p) >= FLOAT_FLOOR:  # the test formatting.probability_from_log makes
        return formatting.probability_from_log(log_p)
    return power_text(log_p / LOG_10, 2)


def weight_text(log_w: float) -> str:
    """An unnormalised weight exp(λ·u) from its log λ·u: 3.320 (the notebook's 3 decimals);
    from 10,000 on 1.20×10⁶ or 5.03×10¹²¹ (power_text), however far beyond a float.

    inf is a log weight beyond what a float holds (λ times a count beyond 1.8e308).
    """
    if log_w == math.inf:
        return "> e^(10³⁰⁸)"
    if log_w < math.log(WEIGHT_FIXED):
        return formatting.fixed(math.exp(log_w), 3)
    return power_text(log_w / LOG_10, 3)


def lost_text(lost: float) -> str:
    """The expected count lost, as the sentence and the metric both write it."""
    return formatting.fixed(lost, 2)


def count_text(count: float) -> str:
    """A count as the table shows it: 3,510; 1e+308 (never 309 digits)."""
    return formatting.fixed(count) if count < 1e15 else formatting.number(count)


def gap_text(gap: float) -> str:
    """A log weight λ·(count − best): -11.500, -2.5e+300, -inf."""
    return formatting.fixed(gap, 3) if abs(gap) < 1e6 else formatting.significant(gap)


def show_table(
    table: pd.DataFrame, *, key: str | None = None, order: np.ndarray | None = None
) -> None:
    """A table of candidates (text cells, one row each), cheap to repaint on a slider step.

    Up to SHOWN rows: a plain HTML table (a data grid costs the browser about 0.25 s more per
    ε step). More rows: with ``order``, the SHOWN largest by it in the list's order and every
    row in a lazy expander (``key``); without, a scrollable grid.
    """
    if len(table) <= SHOWN:
        st.table(table)
        return
    if order is None or key is None:
        st.dataframe(table, width="stretch")
        return
    st.table(table.iloc[np.sort(np.argsort(-order, kind="stable")[:SHOWN])])
    box = st.expander(
        _("exponential.table.all", n=formatting.count(len(table))), key=key, on_change="rerun"
    )
    if box.open:
        with box:
            st.dataframe(table, width="stretch")


def parse_epsilons(text: str) -> tuple[list[float], list[str]]:
    """Comma-separated epsilons (0 allowed): the good ones, and a message per bad one."""
    good, bad = [], []
    for item in (part.strip() for part in str(text).split(",")):
        if not item:
            continue
        try:
            good.append(check_epsilon(item, allow_zero=True))
        except ValueError as error:
            bad.append(_("exponential.compare.bad_item", item=item, error=translated(error)))
    return list(dict.fromkeys(good)), bad


def candidate_index(c: Candidates) -> pd.Index:
    """The candidates as a table's index, in the reader's language."""
    return pd.Index(c.names, name=_("exponential.table.candidate"))


# --- The controls that rerun the page ---------------------------------------------------------


def candidate_controls() -> Candidates | None:
    """Where the candidates come from, what one person moves, and warnings that hold at any ε."""
    with settings_area():
        candidates = pick_candidates()
        if candidates is None:
            return None
        st.caption(
            _(
                "exponential.candidates.caption",
                delta=formatting.number(candidates.sensitivity),
                note=candidates.note,
                origin=candidates.origin,
            )
        )
    counts = candidates.counts
    if len(counts) == 1:
        st.warning(_("exponential.candidates.one", name=candidates.names[0]))
    elif np.all(counts == counts[0]):
        st.info(_("exponential.candidates.equal"))
    return candidates


@st.fragment(key=f"{PAGE}_explore")
def explore(candidates: Candidates, sections: list[Section]) -> None:
    """ε, the monotonic switch, the guarantee and the open section: an ε step reruns only this."""
    epsilon = epsilon_input(
        f"{PAGE}_epsilon",
        default=1.0,
        minimum=0.01,
        maximum=20.0,
        allow_zero=True,
        help=_("exponential.epsilon.help"),
    )
    monotonic = st.toggle(
        _("exponential.monotonic.label"),
        value=False,
        key=f"{PAGE}_monotonic",
        help=_("exponential.monotonic.help"),
        bind="query-params",
    )
    settings = Settings(candidates, epsilon, monotonic)
    _guarantee(settings)
    if epsilon == 0:
        cost = _("exponential.zero.cost") if candidates.selected else ""
        st.info(
            _(
                "exponential.zero.info",
                n=formatting.count(len(candidates.labels)),
                origin=candidates.origin,
                cost=cost,
            )
        )
    story(PAGE, sections, settings)


def _parts(s: Settings) -> list[Part]:
    """What the release spends: the selection, and a DP choice of the candidates."""
    parts = [Part("selection", s.epsilon)] if s.epsilon > 0 else []
    if s.candidates.selected:
        parts.append(Part("categories", s.candidates.selected.epsilon, s.candidates.selected.delta))
    return parts


def _draws() -> str:
    return _("exponential.guarantee.draws")


def guarantee_sentence(s: Settings) -> str:
    """The guarantee in one sentence (the box's statement, and the export's)."""
    c, eps = s.candidates, formatting.number(s.epsilon)
    if c.data is None:
        return _("exponential.guarantee.typed", epsilon=eps)
    parts = _parts(s)
    if not parts and "categories" in c.reads:  # ε = 0 ignores the counts, not the list
        listed = READ_WORDS["categories"]  # the sentence on the categories read
        return sentences(_("exponential.guarantee.zero_read", unit=unit_words(c.data)), _(listed))
    if not parts:  # ε = 0 over a list fixed in advance: the output ignores the data
        return _("exponential.guarantee.zero", unit=unit_words(c.data))
    return guarantee_text(
        c.data, guarantee(c.data, parts, c.reads), outputs=_("exponential.outputs")
    )


def _guarantee(s: Settings) -> None:
    """The selection is ε-DP (the exponential mechanism) for the data's unit, plus a DP choice."""
    c = s.candidates
    parts = _parts(s) if c.data is not None else []
    if not parts and "categories" in c.reads:
        st.error(guarantee_sentence(s), icon=":material/gpp_bad:")
        return
    if not parts:
        _statement(guarantee_sentence(s), _draws())
        return
    zero = _("exponential.guarantee.zero_selection") if s.epsilon == 0 else ""
    guarantee_box(
        c.data,
        guarantee(c.data, parts, c.reads),
        outputs=_("exponential.outputs"),
        noise=_draws() + zero,
    )


def _statement(statement: str, draws: str) -> None:
    """A guarantee in guarantee_box's form, where there is no Guarantee to compose."""
    if presenter_mode():  # one line on a projector; the draws in the tooltip
        st.markdown(f":green[{ICON} {statement}]", help=draws)
        return
    st.success(f"{statement}\n\n{draws}", icon=ICON)


# --- 1. The probability table -----------------------------------------------------------------


@st.fragment
def probability_table(s: Settings) -> None:
    """Section 1: P(best), exact probabilities beside N sampled runs, the table, k runs.

    The chart comes first; its N slider sits under it, so the chart's place is kept and
    filled once N is read. On a projector the chart (with N and its captions) and the table
    sit side by side under the metrics, so both are on the first screen.
    """
    c = s.candidates
    names, scores = c.names, c.counts
    log_p = s.log_probabilities()
    probabilities = np.exp(log_p)
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
    spread = float(scores.max() - scores.min())  # the farthest any answer is below the best
    vacuous = not math.isinf(shortfall) and shortfall > spread
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
    chart_side, table_side = _chart_and_table()
    with chart_side:
        chart_place = st.container()
        n_draws = _draws_slider()
    sampled = sel.sample_counts(page_rng(PAGE, "table"), probabilities, n_draws)
    shown = np.arange(len(names))
    if len(names) > SHOWN:  # the most likely candidates, kept in the list's order
        shown = np.sort(np.argsort(-log_p, kind="stable")[:SHOWN])
    spec = exp_charts.probability_bars(
        [names[i] for i in shown], probabilities[shown], sampled[shown] / n_draws, n_draws
    )
    with chart_place:
        charts.show(spec, key=f"{PAGE}_bars")
    with chart_side:
        st.caption(_("exponential.table.chart_caption"))
        if vacuous:
            st.caption(
                _(
                    "exponential.table.vacuous",
                    bound=formatting.fixed(shortfall, 1),
                    best=count_text(scores.max()),
                    worst=count_text(scores.min()),
                    spread=count_text(spread),
                )
            )
        elif not math.isinf(shortfall):
            tail = sel.probability_of_shortfall(probabilities, scores, shortfall)
            exact = probability_text(math.log(tail)) if tail > 0 else "0"
            bound = formatting.fixed(shortfall, 1)
            st.caption(_("exponential.table.bound", bound=bound, exact=exact))
    with table_side:
        table = _probability_frame(s, log_p, sampled, n_draws)
        show_table(table, key=f"{PAGE}_all_candidates", order=log_p)
        if len(names) > SHOWN:
            n = formatting.count(len(names))
            st.caption(_("exponential.table.shown", shown=SHOWN, n=n))
    runs = _budget(s, n_draws)
    export_buttons(
        PAGE,
        c.data,
        lambda: _export(s, _export_table(s, log_p, sampled, n_draws), n_draws, runs, spec),
        secure=False,
    )
    section_exercises(EXERCISES, "table", s)


def _chart_and_table() -> tuple:
    """Where the chart (with N and its captions) and the table go: side by side on a
    projector, so the table is on the first screen too; one under the other elsewhere."""
    if presenter_mode():
        return tuple(st.columns(2, gap="medium"))
    return nullcontext(), nullcontext()


def _draws_slider() -> int:
    """N, the sampled runs, kept in the address (?exponential_draws=200).

    linked_choice gives the slider the N in use on every run: a slider that comes back (after
    another section) shows it, not the first default, and sends it back with the next ε step.
    """
    return linked_choice(
        st.select_slider,
        _("exponential.table.draws"),
        {n: formatting.count(n) for n in DRAWS},  # in the run's locale
        key=f"{PAGE}_draws",
        default=DEFAULT_DRAWS,
    )


def _weight_exponent(s: Settings) -> str:
    """The exponent of the unnormalised weight as the table's header writes it."""
    return "ε·u / Δ" if s.monotonic else "ε·u / 2Δ"


def _probability_frame(
    s: Settings, log_p: np.ndarray, sampled: np.ndarray, n_draws: int
) -> pd.DataFrame:
    """The probability table as on screen (text cells)."""
    c = s.candidates
    kwargs = {"monotonic": s.monotonic}
    gaps = exponential_log_weights(c.counts, s.epsilon, c.sensitivity, **kwargs)
    log_w = exponential_unnormalised_log_weights(c.counts, s.epsilon, c.sensitivity, **kwargs)
    return pd.DataFrame(
        {
            _("exponential.column.count"): [count_text(v) for v in c.counts],
            _("exponential.column.log_weight", rate=s.rate_name): [gap_text(v) for v in gaps],
            _("exponential.column.weight", exponent=_weight_exponent(s)): [
                weight_text(v) for v in log_w
            ],
            _("exponential.column.probability"): [probability_text(v) for v in log_p],
            _("exponential.column.runs"): [formatting.count(int(n)) for n in sampled],
            _("exponential.column.share", n=formatting.count(n_draws)): [
                formatting.fixed(v, 3) for v in sampled / n_draws
            ],
        },
        index=candidate_index(c),
    )


def _export_table(
    s: Settings, log_p: np.ndarray, sampled: np.ndarray, n_draws: int
) -> pd.DataFrame:
    """The probability table for a spreadsheet: numbers, rounded as on screen.

    A probability below what a float holds is 0 there, a weight beyond it inf; their log10
    columns keep them.
    """
    c = s.candidates
    log_w = exponential_unnormalised_log_weights(
        c.counts, s.epsilon, c.sensitivity, monotonic=s.monotonic
    )
    with np.errstate(under="ignore", over="ignore"):
        probabilities, weights = np.exp(log_p), np.exp(log_w)
    return pd.DataFrame(
        {
            _("exponential.table.candidate"): c.names,
            _("exponential.column.count"): c.counts,
            _("exponential.column.weight", exponent=_weight_exponent(s)): [
                float(f"{w:.4g}") for w in weights
            ],
            _("exponential.column.log10_weight"): np.round(log_w / LOG_10, 3),
            _("exponential.column.probability"): [float(f"{p:.4g}") for p in probabilities],
            _("exponential.column.log10"): np.round(log_p / LOG_10, 3),
            _("exponential.column.runs"): sampled,
            _("exponential.column.share", n=formatting.count(n_draws)): np.round(
                sampled / n_draws, 3
            ),
        }
    )


def _export(s: Settings, table: pd.DataFrame, n_draws: int, runs: int, spec: dict) -> Export:
    """The probability table's export: the table, every setting, the guarantee, the chart."""
    c = s.candidates
    title = c.data.dataset.title if c.data is not None else _("exponential.export.typed")
    return Export(
        title=_("exponential.export.title", data=title),
        question=entry(PAGE).question,
        table=table,
        settings={
            _("exponential.export.dataset"): title,
            _("exponential.export.candidates"): c.origin,
            "epsilon": formatting.number(s.epsilon),
            _("exponential.export.sensitivity"): formatting.number(c.sensitivity),
            _("exponential.export.rate"): s.rate_name,
            _("exponential.export.draws"): n_draws,
            _("exponential.export.runs"): runs,
            _("exponential.export.noise"): _("exponential.export.noise_value"),
        },
        guarantee=guarantee_sentence(s),
        unit=unit_words(c.data) if c.data is not None else _("exponential.export.typed_unit"),
        charts=[("probabilities", spec)],
    )


def _budget(s: Settings, n_draws: int) -> int:
    """k runs of the mechanism cost k × ε, plus a DP choice of the candidates, once."""
    runs = st.slider(
        _("exponential.budget.runs"), 1, 50, 1, key=f"{PAGE}_runs", bind="query-params"
    )
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


# --- 2. Several ε side by side ----------------------------------------------------------------


@st.fragment
def several_epsilons(s: Settings) -> None:
    """Section 2: a textbook table, one column of probabilities per ε."""
    c = s.candidates
    text = st.text_input(
        _("exponential.compare.label"),
        value="0, 0.1, 1.0",
        key=f"{PAGE}_compare",
        bind="query-params",
    )
    epsilons, bad = parse_epsilons(text)
    for message in bad:
        st.error(message)
    if not epsilons:
        st.warning(_("exponential.compare.none"))
        return
    table = pd.DataFrame(
        {_("exponential.column.count"): [count_text(v) for v in c.counts]},
        index=candidate_index(c),
    )
    for e in epsilons:
        log_p = exponential_log_probabilities(c.counts, e, c.sensitivity, monotonic=s.monotonic)
        table[f"ε = {formatting.number(e)}"] = [probability_text(v) for v in log_p]
    show_table(table)
    st.caption(_("exponential.compare.caption"))


# --- 3. How often is the answer right? --------------------------------------------------------


@st.cache_data(max_entries=16, show_spinner=False)
def best_answer_curves(
    scores: tuple[float, ...], sensitivity: float, monotonic: bool
) -> tuple[np.ndarray, ...]:
    """P(a true best answer) on CURVE_EPSILONS for the three mechanisms, in MECHANISMS' order."""
    kwargs = {"sensitivity": sensitivity, "monotonic": monotonic}
    with np.errstate(over="ignore"):  # a gap beyond -1.8e308 is -inf: weight 0
        return tuple(
            sel.probability_of_best(rows(scores, CURVE_EPSILONS, **kwargs), scores)
            for rows in (
                exponential_probabilities_by_epsilon,
                permute_and_flip_probabilities_by_epsilon,
                report_noisy_max_laplace_probabilities_by_epsilon,
            )
        )


@functools.lru_cache(maxsize=64)
def best_answer_now(
    scores: tuple[float, ...], epsilon: float, sensitivity: float, monotonic: bool
) -> tuple[float, float, float]:
    """P(a true best answer) at one ε for the three mechanisms, exactly."""
    kwargs = {"monotonic": monotonic}
    with np.errstate(over="ignore"):  # a gap beyond -1.8e308 is -inf: weight 0
        return tuple(
            float(
                sel.probability_of_best(
                    probabilities(scores, epsilon, sensitivity, **kwargs), scores
                )
            )
            for probabilities in (
                exponential_probabilities,
                permute_and_flip_probabilities,
                report_noisy_max_laplace_probabilities,
            )
        )


AXES = {"log": N_("exponential.curves.axis.log"), "linear": N_("exponential.curves.axis.linear")}


@st.fragment
def how_often_right(s: Settings) -> None:
    """Section 3: P(best) against ε for the exponential mechanism, permute-and-flip and RNM."""
    c = s.candidates
    options = list(AXES)
    axis = st.radio(
        _("exponential.curves.axis"),
        options,
        index=linked_index(f"{PAGE}_axis", options, 0),
        format_func={key: _(msgid) for key, msgid in AXES.items()}.get,  # translated in the run
        horizontal=True,
        key=f"{PAGE}_axis",
    )
    keep(f"{PAGE}_axis", axis, options[0])
    names = exp_charts.mechanism_names()
    with st.spinner(_("exponential.curves.computing")):
        curves = best_answer_curves(c.scores, c.sensitivity, s.monotonic)
    charts.show(
        exp_charts.best_probability_curves(
            CURVE_EPSILONS, dict(zip(names, curves, strict=True)), s.epsilon, log_x=axis == "log"
        ),
        key=f"{PAGE}_curves",
    )
    now = best_answer_now(c.scores, s.epsilon, c.sensitivity, s.monotonic)
    for col, name, value in zip(st.columns(3), names, now, strict=True):
        col.metric(
            _("exponential.curves.metric", name=name, epsilon=formatting.number(s.epsilon)),
            formatting.fixed(value, 4),
        )
    st.caption(_("exponential.curves.caption"))


# --- 4. The sensitivity pitfall ---------------------------------------------------------------


@st.fragment(key=f"{PAGE}_pitfall_section")
def sensitivity_pitfall(s: Settings) -> None:
    """Section 4: scoring by count ÷ largest count but keeping Δ = 1 makes it near-uniform."""
    if not st.toggle(
        _("exponential.pitfall.toggle"), value=False, key=f"{PAGE}_pitfall", bind="query-params"
    ):
        st.caption(_("exponential.pitfall.off"))
        return
    c = s.candidates
    names, scores, delta = c.names, c.counts, c.sensitivity
    try:
        shares = share_of_largest_scores(scores)
        local = share_of_largest_local_sensitivity(scores)
    except ValueError:
        st.warning(_("exponential.pitfall.no_records"))
        return
    # Not monotonic: adding a record to the top candidate lowers every other share, so the
    # rate is always ε / (2Δ) (Dwork & Roth 2014, remark after Thm 3.10).
    wrong = exponential_probabilities(
        shares, s.epsilon, SHARE_OF_LARGEST_GLOBAL_SENSITIVITY, monotonic=False
    )
    log_p = s.log_probabilities()
    right = np.exp(log_p)
    shown = np.arange(len(names))
    if len(names) > SHOWN:
        shown = np.sort(np.argsort(-log_p, kind="stable")[:SHOWN])
    charts.show(
        exp_charts.pitfall_bars([names[i] for i in shown], wrong[shown], right[shown], delta),
        key=f"{PAGE}_pitfall_bars",
    )
    with np.errstate(divide="ignore"):  # a probability of 0 is log 0 = -inf
        log_wrong = np.log(wrong)
    show_table(
        pd.DataFrame(
            {
                _("exponential.pitfall.share"): [formatting.fixed(v, 3) for v in shares],
                _("exponential.pitfall.p_wrong"): [probability_text(v) for v in log_wrong],
                _("exponential.pitfall.p_right", delta=formatting.number(delta)): [
                    probability_text(v) for v in log_p
                ],
            },
            index=candidate_index(c),
        ),
        key=f"{PAGE}_all_pitfall",
        order=log_p,
    )
    factor = math.exp(s.epsilon / 2) if s.epsilon < 20 else math.inf
    squeeze = _(
        "exponential.pitfall.squeeze",
        factor=formatting.fixed(factor, 3)
        if factor < 1e3
        else formatting.odds_factor(s.epsilon / 2),
        wrong=formatting.fixed(float(sel.probability_of_best(wrong, scores)), 3),
        right=formatting.fixed(float(sel.probability_of_best(right, scores)), 3),
    )
    if delta == 1:
        why = _(
            "exponential.pitfall.delta_one",
            largest=formatting.fixed(1 / local),
            local=formatting.significant(local),
        )
    else:
        why = _("exponential.pitfall.delta_cap", delta=formatting.number(delta))
    st.markdown(f"{squeeze} {why}")
    st.caption(_("exponential.pitfall.caption"))


# --- Closing ----------------------------------------------------------------------------------


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice([_(notice) for notice in NOTICES])
    formula_box(PAGE, _formulas)


def _formulas() -> None:
    """The formulas behind the page, with their sources."""
    st.latex(
        r"P(r) = \frac{\exp\big(\varepsilon\, u(x, r) / (2\Delta u)\big)}"
        r"{\sum_{r'} \exp\big(\varepsilon\, u(x, r') / (2\Delta u)\big)},\qquad"
        r"\Delta u = \max_{r}\max_{x \sim x'} |u(x, r) - u(x', r)|"
    )
    st.latex(
        r"P\Big[u(\text{output}) \le \mathrm{OPT} - \tfrac{2\Delta u}{\varepsilon}"
        r"\big(\ln\tfrac{|R|}{|R_{\mathrm{OPT}}|} + t\big)\Big] \le e^{-t}"
    )
    st.latex(
        r"P_{\mathrm{PF}}(r) = p_r \int_0^1 \prod_{j \ne r} (1 - p_j u)\, du,\qquad "
        r"p_j = e^{\varepsilon (u_j - \mathrm{OPT}) / (2\Delta u)}"
    )
    st.latex(
        r"u_{\mathrm{hours}}(x, r) = L + \frac{\sum_{i \in r} (\mathrm{clip}(h_i, L, U) - L)}"
        r"{\max(n_r, n_{\min})},\qquad \Delta u = \frac{U - L}{n_{\min}}"
    )
    st.markdown(_("exponential.formulas.sources"))
