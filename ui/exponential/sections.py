"""The exponential-mechanism page's controls and sections: the probability table, several ε,
how often the answer is right, and the count ÷ largest-count pitfall."""

from __future__ import annotations

import functools
import math
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
from ui.common.release import guarantee, guarantee_box, unit_words
from ui.common.sections import Section, story
from ui.common.shell import formula_box, page_rng, presenter_mode, settings_area, what_to_notice
from ui.common.widgets import epsilon_input
from ui.exponential import charts as exp_charts
from ui.exponential.candidates import PAGE, Candidates, pick_candidates

CURVE_EPSILONS = np.concatenate([[0.0], np.geomspace(1e-3, 20, 90)])
SHOWN = 30  # bars in a chart; the tables list every candidate
DRAWS = [10, 100, 1_000, 10_000, 100_000]
LOG_10 = math.log(10)
T_95 = math.log(20)  # e^(-t) = 5%
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


def probability_text(log_p: float) -> str:
    """A probability from its log, also for the astronomically small: 10^(-2.2e+306).

    -inf is a log probability below what a float holds (λ times a gap beyond -1.8e308);
    beyond 10^(-10^15) a mantissa means nothing, so only the power of ten is shown.
    """
    if log_p == -math.inf:
        return "< e^(−10³⁰⁸)"
    if log_p < -1e15 * LOG_10:
        return f"10^({log_p / LOG_10:.2g})"
    return formatting.probability_from_log(log_p)


def count_text(count: float) -> str:
    """A count as the table shows it: 3,510; 1e+308 (never 309 digits)."""
    return formatting.fixed(count) if count < 1e15 else formatting.number(count)


def gap_text(gap: float) -> str:
    """A log weight λ·(count − best): -11.500, -2.5e+300, -inf."""
    return f"{gap:.3f}" if abs(gap) < 1e6 else f"{gap:.3g}"


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
    box = st.expander(f"All {len(table)} candidates", key=key, on_change="rerun")
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
            bad.append(f"“{item}”: {error}")
    return list(dict.fromkeys(good)), bad


# --- The controls that rerun the page ---------------------------------------------------------


def candidate_controls() -> Candidates | None:
    """Where the candidates come from, what one person moves, and warnings that hold at any ε."""
    with settings_area():
        candidates = pick_candidates()
        if candidates is None:
            return None
        st.caption(
            f"Score = count, sensitivity Δ = {formatting.number(candidates.sensitivity)}. "
            f"{candidates.note} The candidates are {candidates.origin}."
        )
    labels, counts = candidates.labels, candidates.counts
    if len(labels) == 1:
        st.warning(
            f"Only one candidate ({labels[0]}): the mechanism always returns it, whatever ε. "
            "There is nothing to choose between."
        )
    elif np.all(counts == counts[0]):
        st.info(
            "All candidates have the same count, so every one is a best answer and every ε "
            "gives the uniform distribution."
        )
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
        help="ε = 0 is allowed here: every candidate is then equally likely. Log scale.",
    )
    monotonic = st.toggle(
        "Monotonic scores: use ε/Δ instead of ε/(2Δ)",
        value=False,
        key=f"{PAGE}_monotonic",
        help="Counts never go down when a person is added, which allows the factor 2 to go "
        "(Dwork & Roth 2014, Sec 3.4). The published tables use ε/(2Δ). The count ÷ "
        "largest-count score of the pitfall is not monotonic and always uses ε/(2Δ).",
    )
    settings = Settings(candidates, epsilon, monotonic)
    _guarantee(settings)
    if epsilon == 0:
        cost = (
            " Choosing them with DP still spent its own budget (in the guarantee above)."
            if candidates.selected
            else ""
        )
        st.info(
            f"ε = 0: every candidate is equally likely (1/{len(candidates.labels)} each). Given "
            "a candidate list fixed in advance, the answer says nothing about the data: "
            f"perfect privacy and no usefulness. Here the candidates are {candidates.origin}."
            f"{cost}"
        )
    story(PAGE, sections, settings)


def _guarantee(s: Settings) -> None:
    """The selection is ε-DP (the exponential mechanism) for the data's unit, plus a DP choice."""
    c, eps = s.candidates, formatting.number(s.epsilon)
    draws = (
        "Draws: the sampled runs on this page are numpy draws from the seed in the sidebar, for "
        "teaching: they show the probabilities. A real release runs the mechanism once, and "
        "every further run spends ε again (the budget is under the probability table)."
    )
    if c.data is None:
        _statement(
            f"**Guarantee: {eps}-DP** for each person, if adding or removing one person moves "
            f"one of the typed counts by at most 1. It covers the selected candidate "
            f"(ε = {eps}).",
            draws,
        )
        return
    parts = [Part("selection", s.epsilon)] if s.epsilon > 0 else []
    if c.selected:
        parts.append(Part("categories", c.selected.epsilon, c.selected.delta))
    if not parts:  # ε = 0 over a list fixed in advance: the output ignores the data
        _statement(
            f"**Guarantee: 0-DP** for {unit_words(c.data)}: at ε = 0 the selected candidate "
            "does not depend on the data.",
            draws,
        )
        return
    zero = " At ε = 0 the selection itself spends nothing." if s.epsilon == 0 else ""
    guarantee_box(
        c.data,
        guarantee(c.data, parts),
        outputs="selected candidate",
        noise=f"{draws}{zero}",
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

    The chart comes first (it fits on a projector's first screen); its N slider sits under
    it, so the chart's place is kept and filled once N is read.
    """
    c = s.candidates
    labels, scores = list(c.labels), c.counts
    log_p = s.log_probabilities()
    probabilities = np.exp(log_p)
    best = sel.best_mask(scores)
    p_best = float(sel.probability_of_best(probabilities, scores))
    lost = float(sel.expected_score_lost(probabilities, scores))
    best_names = ", ".join(np.array(labels)[best][:3]) + ("…" if best.sum() > 3 else "")
    st.markdown(
        f"**At ε = {formatting.number(s.epsilon)} the mechanism names the true most common "
        f"answer ({best_names}) with probability {formatting.fixed(p_best, 3)}; on average its "
        f"answer's count is {formatting.fixed(lost, 1)} below the best.**"
    )
    shortfall = exponential_score_shortfall_bound(
        len(labels),
        s.epsilon,
        c.sensitivity,
        t=T_95,
        n_best=int(best.sum()),
        monotonic=s.monotonic,
    )
    cols = st.columns(3)
    cols[0].metric("P(true best answer)", formatting.fixed(p_best, 3))
    cols[1].metric("Expected count lost", formatting.fixed(lost, 2))
    cols[2].metric(
        "Textbook: within this of the best, 95%",
        "no guarantee" if math.isinf(shortfall) else formatting.fixed(shortfall, 1),
        help="Dwork & Roth 2014, Thm 3.11: P(count ≤ best − (ln(|R|/|R_best|) + t)/λ) ≤ "
        "e^(−t), t = ln 20. A worst-case bound, usually loose.",
    )
    chart_place = st.container()
    n_draws = st.select_slider(
        "Sampled runs N",
        options=DRAWS,
        value=1_000,
        format_func=lambda n: f"{n:,}",
        key=f"{PAGE}_draws",
    )
    sampled = sel.sample_counts(page_rng(PAGE, "table"), probabilities, n_draws)
    shown = np.arange(len(labels))
    if len(labels) > SHOWN:  # the most likely candidates, kept in the list's order
        shown = np.sort(np.argsort(-log_p, kind="stable")[:SHOWN])
    with chart_place:
        charts.show(
            exp_charts.probability_bars(
                [labels[i] for i in shown], probabilities[shown], sampled[shown] / n_draws, n_draws
            ),
            key=f"{PAGE}_bars",
        )
    st.caption(
        "Bars: exact probabilities. Diamonds: how often each candidate came out of N simulated "
        "runs (change the seed or press “Draw new noise” for another N). With more runs the "
        "diamonds settle on the bars."
    )
    if not math.isinf(shortfall):
        tail = sel.probability_of_shortfall(probabilities, scores, shortfall)
        exact = formatting.probability_from_log(math.log(tail)) if tail > 0 else "0"
        st.caption(
            f"The bound says an answer {formatting.fixed(shortfall, 1)} or more below the best "
            f"comes out at most 5% of the time; here the exact chance is {exact}."
        )
    gap_column = f"log weight λ·(count − best), λ = {s.rate_name}"
    table = pd.DataFrame(
        {
            "true count": [count_text(v) for v in scores],
            gap_column: [
                gap_text(v)
                for v in exponential_log_weights(
                    scores, s.epsilon, c.sensitivity, monotonic=s.monotonic
                )
            ],
            "probability": [probability_text(v) for v in log_p],
            "sampled runs": [f"{n:,}" for n in sampled],
            f"sampled share of {n_draws:,}": [f"{v:.3f}" for v in sampled / n_draws],
        },
        index=pd.Index(labels, name="candidate"),
    )
    show_table(table, key=f"{PAGE}_all_candidates", order=log_p)
    if len(labels) > SHOWN:
        st.caption(
            f"The chart and the table show the {SHOWN} most likely of {len(labels)} "
            f"candidates; “All {len(labels)} candidates” lists every one."
        )
    _budget(s, n_draws)


def _budget(s: Settings, n_draws: int) -> None:
    """k runs of the mechanism cost k × ε, plus a DP choice of the candidates, once."""
    runs = st.slider("Run the mechanism k times on the same data", 1, 50, 1, key=f"{PAGE}_runs")
    eps, total = formatting.number(s.epsilon), round(runs * s.epsilon, 10)
    text = (
        f"**Budget:** k runs cost k × ε = {runs} × {eps} = **ε = {formatting.number(total)}** "
        "in total (sequential composition, Dwork & Roth 2014, Thm 3.16)."
    )
    chosen = s.candidates.selected
    if chosen is not None:
        text += (
            f" Choosing the candidates with DP adds ε = {formatting.number(chosen.epsilon)}, "
            f"δ = {formatting.power_of_ten(chosen.delta)} once: the whole release is "
            f"**({formatting.number(round(total + chosen.epsilon, 10))}, "
            f"{formatting.power_of_ten(chosen.delta)})-DP**."
        )
    st.markdown(
        f"{text} The {n_draws:,} runs above are a simulation to show the probabilities; "
        f"releasing them all would cost {n_draws:,} × ε."
    )


# --- 2. Several ε side by side ----------------------------------------------------------------


@st.fragment
def several_epsilons(s: Settings) -> None:
    """Section 2: a textbook table, one column of probabilities per ε."""
    c = s.candidates
    text = st.text_input(
        "Epsilons to compare, separated by commas (0 allowed)",
        value="0, 0.1, 1.0",
        key=f"{PAGE}_compare",
    )
    epsilons, bad = parse_epsilons(text)
    for message in bad:
        st.error(f"Left out {message}")
    if not epsilons:
        st.warning("Type at least one epsilon (a number of at least 0) to fill the table.")
        return
    table = pd.DataFrame(
        {"true count": [count_text(v) for v in c.counts]},
        index=pd.Index(c.labels, name="candidate"),
    )
    for e in epsilons:
        log_p = exponential_log_probabilities(c.counts, e, c.sensitivity, monotonic=s.monotonic)
        table[f"ε = {formatting.number(e)}"] = [probability_text(v) for v in log_p]
    show_table(table)
    st.caption("Like a textbook table: each column is one ε; each column sums to 1.")


# --- 3. How often is the answer right? --------------------------------------------------------


@st.cache_data(max_entries=16, show_spinner="Computing the curves…")
def best_answer_curves(
    scores: tuple[float, ...], sensitivity: float, monotonic: bool
) -> dict[str, np.ndarray]:
    """P(a true best answer) on CURVE_EPSILONS for the three mechanisms."""
    kwargs = {"sensitivity": sensitivity, "monotonic": monotonic}
    with np.errstate(over="ignore"):  # a gap beyond -1.8e308 is -inf: weight 0
        return {
            name: sel.probability_of_best(rows(scores, CURVE_EPSILONS, **kwargs), scores)
            for name, rows in zip(
                exp_charts.MECHANISMS,
                (
                    exponential_probabilities_by_epsilon,
                    permute_and_flip_probabilities_by_epsilon,
                    report_noisy_max_laplace_probabilities_by_epsilon,
                ),
                strict=True,
            )
        }


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


@st.fragment
def how_often_right(s: Settings) -> None:
    """Section 3: P(best) against ε for the exponential mechanism, permute-and-flip and RNM."""
    c = s.candidates
    log_x = (
        st.radio(
            "Epsilon axis",
            ["log scale", "linear, 0 to 20"],
            horizontal=True,
            key=f"{PAGE}_axis",
        )
        == "log scale"
    )
    curves = best_answer_curves(c.scores, c.sensitivity, s.monotonic)
    charts.show(
        exp_charts.best_probability_curves(CURVE_EPSILONS, curves, s.epsilon, log_x=log_x),
        key=f"{PAGE}_curves",
    )
    now = best_answer_now(c.scores, s.epsilon, c.sensitivity, s.monotonic)
    for col, name, value in zip(st.columns(3), exp_charts.MECHANISMS, now, strict=True):
        col.metric(f"{name}, ε = {formatting.number(s.epsilon)}", formatting.fixed(value, 4))
    st.caption(
        "All three are ε-differentially private at the same ε and none is simulated here: the "
        "first two are exact formulas, and report-noisy-max with Laplace noise is computed "
        "numerically (to about 1e-12). Report-noisy-max adds independent noise of scale 2Δ/ε "
        "(Δ/ε when monotonic) to every count and names the largest: with Gumbel noise it *is* "
        "the exponential mechanism, with exponential noise it *is* permute-and-flip, and with "
        "Laplace noise it is a third mechanism. Permute-and-flip never loses more expected "
        "count than the exponential mechanism (McKenna & Sheldon 2020)."
    )


# --- 4. The sensitivity pitfall ---------------------------------------------------------------


@st.fragment(key=f"{PAGE}_pitfall_section")
def sensitivity_pitfall(s: Settings) -> None:
    """Section 4: scoring by count ÷ largest count but keeping Δ = 1 makes it near-uniform."""
    if not st.toggle("Score by count ÷ largest count instead", value=False, key=f"{PAGE}_pitfall"):
        st.caption("Switch on to see what a wrong choice of score and sensitivity does.")
        return
    c = s.candidates
    labels, scores, delta = list(c.labels), c.counts, c.sensitivity
    try:
        shares = share_of_largest_scores(scores)
        local = share_of_largest_local_sensitivity(scores)
    except ValueError as error:
        st.warning(f"Cannot show the pitfall here: {error}")
        return
    # Not monotonic: adding a record to the top candidate lowers every other share, so the
    # rate is always ε / (2Δ) (Dwork & Roth 2014, remark after Thm 3.10).
    wrong = exponential_probabilities(
        shares, s.epsilon, SHARE_OF_LARGEST_GLOBAL_SENSITIVITY, monotonic=False
    )
    log_p = s.log_probabilities()
    right = np.exp(log_p)
    shown = np.arange(len(labels))
    if len(labels) > SHOWN:
        shown = np.sort(np.argsort(-log_p, kind="stable")[:SHOWN])
    charts.show(
        exp_charts.pitfall_bars([labels[i] for i in shown], wrong[shown], right[shown], delta),
        key=f"{PAGE}_pitfall_bars",
    )
    with np.errstate(divide="ignore"):  # a probability of 0 is log 0 = -inf
        log_wrong = np.log(wrong)
    show_table(
        pd.DataFrame(
            {
                "count ÷ largest": [f"{v:.3f}" for v in shares],
                "probability, count ÷ largest with Δ = 1": [probability_text(v) for v in log_wrong],
                f"probability, count with Δ = {formatting.number(delta)}": [
                    probability_text(v) for v in log_p
                ],
            },
            index=pd.Index(labels, name="candidate"),
        ),
        key=f"{PAGE}_all_pitfall",
        order=log_p,
    )
    p_wrong = formatting.fixed(float(sel.probability_of_best(wrong, scores)), 3)
    p_right = formatting.fixed(float(sel.probability_of_best(right, scores)), 3)
    factor = math.exp(s.epsilon / 2) if s.epsilon < 20 else math.inf
    factor_text = (
        formatting.fixed(factor, 3) if factor < 1e3 else formatting.odds_factor(s.epsilon / 2)
    )
    squeeze = (
        "Dividing by the largest count squeezes every score into [0, 1], but keeping Δ = 1 (a "
        "count's Δ when each person has one row) makes it near-uniform: no two probabilities "
        f"differ by more than a factor e^(ε/2) = {factor_text}. The "
        f"best answer now comes out with probability {p_wrong} instead of {p_right}. "
    )
    if delta == 1:
        st.markdown(
            f"{squeeze}Here one person moves a share by at most 1/{formatting.fixed(1 / local)} "
            f"= {local:.3g} (1 ÷ largest count). Δ = 1 is still a true bound over all datasets "
            "(a table whose largest count is 1 can jump from 0 to 1), which is exactly why it "
            "is useless. Plugging in 1 ÷ largest count from the data is not a valid recipe in "
            "general, but here it cancels out and gives back the count with Δ = 1: that is "
            "the right one."
        )
    else:
        st.markdown(
            f"{squeeze}Δ = 1 is still a true bound for the share, whatever the cap, since every "
            "share lies in [0, 1]: that is exactly why it is useless. The right choice is the "
            f"count itself with Δ = {formatting.number(delta)}, the cap on one person's rows."
        )
    st.caption(
        "The count ÷ largest score always uses ε/(2Δ), whatever the monotonic switch says: it "
        "is not monotonic (adding a record to the top candidate lowers every other share), "
        "and with ε/Δ the mechanism would only be guaranteed 2ε-differentially private "
        "(Dwork & Roth 2014, remark after Thm 3.10)."
    )


# --- Closing ----------------------------------------------------------------------------------


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice(
        [
            "The chance of each answer depends on how far its count is from the best, in units "
            "of 2Δ/ε (Δ/ε when monotonic): a lead of 106 (industry groups) is decisive at "
            "ε = 0.1, a lead of 4 (Flu over Diabetes) is not even at ε = 1.",
            "Even unlikely answers keep a positive probability: that is what hides any one person.",
            "Sampled frequencies wander around the exact probabilities; with 100,000 runs they "
            "agree to about two decimals.",
            "The list of candidates is part of the release: a shipped dataset's public "
            "categories (absent ones as count 0), a list you declare, or one chosen with DP "
            "partition selection, whose budget is added. Never the values read off your file.",
            "The sensitivity belongs to the score: change the score and the sensitivity must "
            "be worked out again, or the guarantee or the usefulness is lost.",
        ]
    )
    formula_box("exponential", _formulas)


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
    st.markdown(
        "McSherry & Talwar (2007); Dwork & Roth, *The Algorithmic Foundations of "
        "Differential Privacy* (2014), Def. 3.4, Thm. 3.10 and 3.11 (monotonic scores: ε/Δ "
        "instead of ε/(2Δ)). Permute-and-flip: McKenna & Sheldon (2020); it equals "
        "report-noisy-max with exponential noise (Ding et al. 2021), which gives the "
        "integral above. Probabilities are computed in log space (log-sum-exp) from each "
        "count's gap to the best, λ·(count − best), so large counts and large ε neither "
        "overflow nor lose the small probabilities. Neighbouring datasets: one person added "
        "or removed with all their rows (one row, where the data's unit is a row); Δ is the "
        "most that moves any one count. Candidates chosen from your file: Laplace-threshold "
        "partition selection (Wilson et al. 2020; OpenDP's make_laplace_threshold), its "
        "(ε, δ) added by basic composition (Thm. 3.16)."
    )
