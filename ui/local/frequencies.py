"""The local-frequencies page's controls and sections: each person's report, the estimated
counts, GRR against unary encoding as the number of categories grows."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import laplace, local_estimation, unary_encoding
from dp_core import randomized_response as rr
from ui.common import charts, formatting
from ui.common.sections import Section, story
from ui.common.shell import formula_box, page_rng, settings_area, what_to_notice
from ui.common.widgets import epsilon_input
from ui.local import charts as local_charts
from ui.local.guarantee import local_guarantee_box
from ui.local.inputs import Respondents, pick_respondents

PAGE = "lf"
OUE, SUE, MANUAL, GRR = (
    "Optimised unary encoding (OUE)",
    "Symmetric unary encoding (SUE, basic RAPPOR)",
    "Unary encoding: choose p and q",
    "k-ary randomized response (GRR)",
)
K_GRID = np.arange(2, 257)
SHOWN_REPORTS = 12


@dataclass(frozen=True, eq=False)
class Settings:
    """What every section of the page depends on."""

    respondents: Respondents
    protocol: str
    epsilon: float
    p: float
    q: float

    @property
    def grr(self) -> bool:
        return self.protocol == GRR

    @property
    def labels(self) -> list[str]:
        return list(self.respondents.labels)

    @property
    def true_counts(self) -> np.ndarray:
        return self.respondents.counts

    @property
    def n(self) -> int:
        """Persons answering: those holding one of the categories."""
        return int(self.true_counts.sum())

    @property
    def k(self) -> int:
        return len(self.respondents.labels)


def data_controls() -> Respondents | None:
    """The data and the question's column: settings that rerun the whole page (folded on a
    projector)."""
    with settings_area():
        return _respondents()


def _respondents() -> Respondents | None:
    respondents = pick_respondents(
        PAGE, "Column (the question: which one is yours?)", st.columns(2)
    )
    if respondents is None:
        return None
    column = respondents.column
    if respondents.missing:
        verb = "is" if respondents.missing == 1 else "are"
        st.caption(
            f"{formatting.counted(respondents.missing, 'person')} with no {column} {verb} left out."
        )
    try:
        local_estimation.check_category_counts(respondents.counts)
    except ValueError as error:
        st.error(f"The column “{column}” cannot be used: {error}")
        return None
    return respondents


def _probabilities(protocol: str, k: int) -> tuple[float, float, float] | None:
    """ε and the report probabilities (p, q) of the protocol; None after a message."""
    if protocol == MANUAL:
        left, right = st.columns(2)
        p = left.slider(
            "p: chance a person's own bit is sent as 1", 0.01, 0.99, 0.75, 0.01, key="lf_p"
        )
        q = right.slider("q: chance any other bit is sent as 1", 0.01, 0.99, 0.25, 0.01, key="lf_q")
        try:
            return unary_encoding.unary_encoding_epsilon(p, q), p, q
        except ValueError as error:
            st.error(f"These settings cannot be used: {error} Move p above q.")
            return None
    epsilon = epsilon_input("lf_epsilon", default=1.0)
    if protocol == GRR:
        p, q = (float(v) for v in rr.grr_probabilities(epsilon, k))
    elif protocol == OUE:
        p, q = unary_encoding.optimized_unary_encoding(epsilon)
    else:
        p, q = unary_encoding.symmetric_unary_encoding(epsilon)
    return epsilon, p, q


@st.fragment
def explore(respondents: Respondents, sections: list[Section]) -> None:
    """The protocol, ε (or p and q), the guarantee and the open section: a fragment, so an ε
    step reruns only this."""
    protocol = st.radio("Protocol", [OUE, SUE, MANUAL, GRR], key="lf_protocol", horizontal=True)
    chosen = _probabilities(protocol, len(respondents.labels))
    if chosen is None:
        return
    s = Settings(respondents, protocol, *chosen)
    cols = st.columns(3)
    cols[0].metric("ε per person", formatting.epsilon(s.epsilon))
    cols[1].metric(
        "p" + (" (say your own category)" if s.grr else " (own bit → 1)"),
        formatting.probability(s.p),
    )
    cols[2].metric(
        "q" + (" (say a given other one)" if s.grr else " (other bit → 1)"),
        formatting.probability(s.q),
    )
    local_guarantee_box(
        respondents, s.epsilon, count=s.n, answers="reports" if s.grr else "reports of k bits"
    )
    story(PAGE, sections, s)


def reports(s: Settings) -> None:
    """Section 1: what one person sends, and the first respondents' reports."""
    k = s.k
    if s.grr:
        st.markdown(
            f"Each person names **one** of the {k} categories: their own with probability "
            f"p = e^ε/(e^ε + k − 1), otherwise one of the other {k - 1} at random."
        )
    else:
        st.markdown(
            f"Each person sends **{k} bits**, a 1 for their own category and 0 elsewhere, "
            "each bit flipped independently: their own stays 1 with probability p, every "
            "other turns into 1 with probability q. ε = ln(p(1 − q) / ((1 − p) q))."
        )
    st.caption(
        "Neighbouring datasets on this page: one person's answer replaced by another category "
        "(the number of persons stays the same), the relation local DP uses; the central "
        "comparison uses the same one."
    )
    codes = s.respondents.codes
    first = codes[codes >= 0][:SHOWN_REPORTS]
    rng, labels = page_rng(PAGE, "reports"), s.labels
    if s.grr:
        shown = [labels[c] for c in rr.grr_perturb(rng, first, k, s.epsilon)]
    else:
        bits = unary_encoding.unary_perturb(rng, first, k, s.p, s.q)
        shown = [
            ", ".join(labels[j] for j in np.flatnonzero(row)) or "(no bit set)" for row in bits
        ]
    st.table(
        pd.DataFrame(
            {
                "person": np.arange(1, first.size + 1),
                f"true {s.respondents.column}": [labels[c] for c in first],
                "reports" if s.grr else "bits sent as 1": shown,
            }
        ).set_index("person")
    )
    st.caption(
        "The first respondents, perturbed one by one. The counts of the next section are drawn "
        "from their exact distribution, the same as perturbing all of them."
    )


@functools.lru_cache(maxsize=4096)
def _expected_abs_error(count: int, n: int, p: float, q: float) -> float:
    """Exact E|estimate − truth| of one category's count (dp_core), kept for repeated settings."""
    return local_estimation.expected_abs_error(count, n, p, q)


def counts(s: Settings) -> None:
    """Section 2: true, raw and debiased counts per category, with 95% intervals."""
    n, k, p, q = s.n, s.k, s.p, s.q
    minimum = local_estimation.minimum_respondents(p, q, share_half_width=0.25)
    if n < minimum:
        st.warning(
            f"Only {n:,} persons: at these settings a category's 95% interval can be wider "
            f"than ±25% of the population. They need at least {minimum:,} persons."
        )
    rng, true_counts = page_rng(PAGE, "counts"), s.true_counts
    if s.grr:
        raw, raw_name = rr.grr_report_counts(rng, true_counts, s.epsilon), "raw reports"
    else:
        raw, raw_name = (
            unary_encoding.unary_report_counts(rng, true_counts, p, q),
            "raw sum of bits",
        )
    estimates = local_estimation.debiased_count(raw, n, p, q)
    low, high = local_estimation.estimate_interval(estimates, n, p, q)
    charts.show(
        local_charts.frequency_bars(
            s.labels, true_counts, raw, estimates, (high - low) / 2, raw_name
        ),
        key="lf_counts",
    )
    errors = estimates - true_counts
    expected = np.array([_expected_abs_error(int(c), n, p, q) for c in true_counts])
    central = laplace.laplace_expected_abs_error(laplace.laplace_scale(2, s.epsilon))
    st.markdown(
        f"**{n:,} persons, {k} categories, ε = {formatting.epsilon(s.epsilon)}: the debiased "
        f"counts are off by {formatting.fixed(np.mean(np.abs(errors)))} persons on average in "
        f"this draw (expected {formatting.fixed(np.mean(expected))}). A trusted curator adding "
        f"Laplace noise to the true counts at the same ε would be off by "
        f"{formatting.fixed(central, 2)}.**"
    )
    if not s.grr:
        st.caption(
            f"The raw sums add up to {int(raw.sum()):,}, not {n:,}: everyone sends {k} bits and "
            "the q-flips add about n·q false ones to every category. Subtracting them is the "
            "debiasing."
        )
    table = pd.DataFrame(
        {
            s.respondents.column: s.labels,
            "true count": true_counts,
            raw_name: raw,
            "debiased estimate": estimates,
            "95% interval from": low,
            "to": high,
            "error": errors,
            "expected |error|": expected,
        }
    )
    _counts_table(table)
    st.caption(
        "Estimates are unbiased, so some can be negative. The 95% intervals are Wald intervals: "
        "estimate ± 1.96 standard errors, a normal approximation, with the exact variance "
        "formula evaluated at the estimate (plug-in, clipped to [0, n]). Central Laplace: scale "
        "2/ε, since replacing one person's answer moves two counts by 1 (adding or removing a "
        "person moves one count: scale 1/ε, but that is a different relation from the local "
        "one)."
    )


@st.fragment
def _counts_table(table: pd.DataFrame) -> None:
    """The counts as a table, in a lazy expander (its own fragment: opening it reruns only it)."""
    box = st.expander("The table", key="lf_table", on_change="rerun")
    if not box.open:
        return
    decimals = ("debiased estimate", "95% interval from", "to", "error", "expected |error|")
    with box:
        st.dataframe(
            table,
            hide_index=True,
            width="stretch",
            column_config={c: st.column_config.NumberColumn(format="%.1f") for c in decimals},
        )


def domain_size(s: Settings) -> None:
    """Section 3: GRR against unary encoding as the number of categories grows."""
    n, epsilon = s.n, s.epsilon
    crossover = unary_encoding.grr_oue_crossover_domain_size(epsilon)
    grid_p, grid_q = rr.grr_probabilities(epsilon, K_GRID)
    oue = unary_encoding.optimized_unary_encoding(epsilon)
    sue = unary_encoding.symmetric_unary_encoding(epsilon)
    curves = {
        "k-ary randomized response (GRR)": np.sqrt(
            local_estimation.estimate_variance(0, n, grid_p, grid_q)
        ),
        "optimised unary encoding (OUE)": np.full(
            K_GRID.shape, np.sqrt(local_estimation.estimate_variance(0, n, *oue))
        ),
        "symmetric unary encoding (SUE)": np.full(
            K_GRID.shape, np.sqrt(local_estimation.estimate_variance(0, n, *sue))
        ),
    }
    charts.show(
        local_charts.variance_against_domain(K_GRID, curves, crossover, s.k), key="lf_domain"
    )
    better = "k-ary randomized response" if s.k < crossover else "optimised unary encoding"
    st.markdown(
        f"**At ε = {formatting.epsilon(epsilon)}, k-ary randomized response is more accurate "
        f"below k\\* = 3e^ε + 2 = {formatting.fixed(crossover, 1)} categories and unary encoding "
        f"above. With {s.k} categories here, {better} wins.**"
    )
    st.caption(
        f"Exact standard error of the estimated count of a category nobody holds, for n = {n:,} "
        "(Wang et al. 2017's comparison; a category held by n_v persons adds "
        "n_v(1 − p − q)/(p − q) to the variance). GRR's error grows with k because the chance of "
        "naming the true category falls as k grows; unary encoding's does not depend on k, at "
        "the price of k bits per person."
    )


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice(
        [
            "The raw perturbed counts are far from the truth (flattened towards n·q); only after "
            "debiasing do the large categories stand out again.",
            "The error is about the same number of persons for every category, so small "
            "categories (Armed-Forces: 9 persons) drown while large ones are usable.",
            "With few categories or a large ε, k-ary randomized response is best; with many "
            "categories, optimised unary encoding, whose error does not grow with k.",
            "A trusted curator adding Laplace noise to the true counts has an error that does not "
            "grow with the number of persons; the local error grows like √n.",
            "The categories are public or declared before anyone answers: a person cannot "
            "report a category nobody told them about.",
        ]
    )
    formula_box("local_frequencies", _formulas)


def _formulas() -> None:
    """The formulas behind the page, with their sources."""
    st.latex(
        r"\text{unary: } \varepsilon = \ln\frac{p(1-q)}{(1-p)q};\quad "
        r"\text{SUE: } p = \frac{e^{\varepsilon/2}}{e^{\varepsilon/2}+1},\ q = 1-p;\quad "
        r"\text{OUE: } p = \tfrac12,\ q = \frac{1}{e^\varepsilon+1}"
    )
    st.latex(
        r"\text{GRR: } p = \frac{e^\varepsilon}{e^\varepsilon + k - 1},\ "
        r"q = \frac{1}{e^\varepsilon + k - 1}"
    )
    st.latex(
        r"\hat n_v = \frac{C_v - n q}{p - q},\qquad \operatorname{Var}(\hat n_v) = "
        r"\frac{n_v\,p(1-p) + (n-n_v)\,q(1-q)}{(p-q)^2},\qquad "
        r"k^* = 3e^\varepsilon + 2"
    )
    st.markdown(
        "Wang, Blocki, Li & Jha (2017), *Locally differentially private protocols for "
        "frequency estimation*, USENIX Security (GRR is their 'direct encoding'); Erlingsson, "
        "Pihur & Korolova (2014), RAPPOR. C_v is the number of reports of v (GRR) or of 1 bits "
        "in column v (unary), exactly Binomial(n_v, p) + Binomial(n − n_v, q)."
    )
