"""Local frequency estimation: unary encoding and k-ary randomized response over a column."""

import numpy as np
import streamlit as st

from dp_core import (
    check_category_counts,
    debiased_count,
    estimate_interval,
    estimate_variance,
    expected_abs_error,
    grr_oue_crossover_domain_size,
    grr_perturb,
    grr_probabilities,
    grr_report_counts,
    laplace_expected_abs_error,
    laplace_scale,
    minimum_respondents,
    optimized_unary_encoding,
    symmetric_unary_encoding,
    unary_encoding_epsilon,
    unary_perturb,
    unary_report_counts,
)
from ui.common.formatting import probability as format_probability
from ui.common.shell import page_header, page_rng, what_to_notice
from ui.common.widgets import epsilon_input
from ui.local_figures import frequency_bars, variance_against_domain
from ui.local_inputs import pick_category_column

OUE, SUE, MANUAL, GRR = (
    "Optimised unary encoding (OUE)",
    "Symmetric unary encoding (SUE, basic RAPPOR)",
    "Unary encoding: choose p and q",
    "k-ary randomized response (GRR)",
)
K_GRID = np.arange(2, 257)

page_header(
    "Local frequency estimation",
    "How do many people each add noise and still give usable counts?",
    "With the occupations at ε = 1, compare the raw perturbed counts with the debiased ones. "
    "Then switch to k-ary randomized response: with 14 categories it is worse than unary "
    "encoding at ε = 1 and better at ε = 4. The last chart shows where the two cross.",
)

# --- Data -----------------------------------------------------------------------------------------
_, column, counts, frame = pick_category_column(
    "lf", "Column (the question: which one is yours?)", st.columns(2)
)
labels = [str(c) for c in counts.index]
true_counts = counts.to_numpy()
missing = len(frame) - int(true_counts.sum())
if missing:
    st.caption(f"{missing:,} persons with no {column} are left out.")
try:
    check_category_counts(true_counts)
except ValueError as error:
    st.error(f"The column “{column}” cannot be used: {error}")
    st.stop()
n, k = int(true_counts.sum()), len(labels)

# --- Protocol -------------------------------------------------------------------------------------
st.header("1. Each person's report")
protocol = st.radio("Protocol", [OUE, SUE, MANUAL, GRR], key="lf_protocol", horizontal=True)
if protocol == MANUAL:
    pq_cols = st.columns(2)
    p = pq_cols[0].slider(
        "p: chance a person's own bit is sent as 1", 0.01, 0.99, 0.75, 0.01, key="lf_p"
    )
    q = pq_cols[1].slider(
        "q: chance any other bit is sent as 1", 0.01, 0.99, 0.25, 0.01, key="lf_q"
    )
    try:
        epsilon = unary_encoding_epsilon(p, q)
    except ValueError as error:
        st.error(f"These settings cannot be used: {error} Move p above q.")
        st.stop()
else:
    epsilon = epsilon_input("lf_epsilon", default=1.0)
    if protocol == GRR:
        p, q = (float(v) for v in grr_probabilities(epsilon, k))
    else:
        p, q = (optimized_unary_encoding if protocol == OUE else symmetric_unary_encoding)(epsilon)

metric_cols = st.columns(3)
metric_cols[0].metric("ε per person", f"{epsilon:.4g}")
metric_cols[1].metric(
    "p" + (" (say your own category)" if protocol == GRR else " (own bit → 1)"),
    format_probability(p),
)
metric_cols[2].metric(
    "q" + (" (say a given other one)" if protocol == GRR else " (other bit → 1)"),
    format_probability(q),
)
if protocol == GRR:
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
    "comparison below uses the same one."
)

rng = page_rng("local-frequencies")
first = counts.index.get_indexer(frame[column].dropna().head(12))
if protocol == GRR:
    shown = [labels[c] for c in grr_perturb(rng, first, k, epsilon)]
else:
    bits = unary_perturb(rng, first, k, p, q)
    shown = [", ".join(labels[j] for j in np.flatnonzero(row)) or "(no bit set)" for row in bits]
st.dataframe(
    {
        "person": np.arange(1, first.size + 1),
        f"true {column}": [labels[c] for c in first],
        "reports" if protocol == GRR else "bits sent as 1": shown,
    },
    hide_index=True,
    width="stretch",
)
st.caption(
    "The first respondents, perturbed one by one. The counts below are drawn from their "
    "exact distribution, the same as perturbing all of them."
)

# --- Estimates ------------------------------------------------------------------------------------
st.header("2. Counts: true, as reported, debiased")
minimum = minimum_respondents(p, q, share_half_width=0.25)
if n < minimum:
    st.warning(
        f"Only {n:,} persons: at these settings a category's 95% interval can be wider "
        f"than ±25% of the population. They need at least {minimum:,} persons."
    )
if protocol == GRR:
    raw = grr_report_counts(rng, true_counts, epsilon)
    raw_name = "raw reports"
else:
    raw = unary_report_counts(rng, true_counts, p, q)
    raw_name = "raw sum of bits"
estimates = debiased_count(raw, n, p, q)
low, high = estimate_interval(estimates, n, p, q)
st.plotly_chart(
    frequency_bars(labels, true_counts, raw, estimates, (high - low) / 2, raw_name), width="stretch"
)
errors = estimates - true_counts
expected = np.array([expected_abs_error(int(c), n, p, q) for c in true_counts])
central = laplace_expected_abs_error(laplace_scale(2, epsilon))
st.markdown(
    f"**{n:,} persons, {k} categories, ε = {epsilon:.3g}: the debiased counts are off by "
    f"{np.mean(np.abs(errors)):,.0f} persons on average in this draw (expected "
    f"{np.mean(expected):,.0f}). A trusted curator adding Laplace noise to the true counts at the "
    f"same ε would be off by {central:.2f}.**"
)
if protocol != GRR:
    st.caption(
        f"The raw sums add up to {int(raw.sum()):,}, not {n:,}: everyone sends {k} bits and "
        "the q-flips add about n·q false ones to every category. Subtracting them is the "
        "debiasing."
    )
st.dataframe(
    {
        column: labels,
        "true count": true_counts,
        raw_name: raw,
        "debiased estimate": estimates,
        "95% interval from": low,
        "to": high,
        "error": errors,
        "expected |error|": expected,
    },
    hide_index=True,
    width="stretch",
    column_config={
        c: st.column_config.NumberColumn(format="%.1f")
        for c in ("debiased estimate", "95% interval from", "to", "error", "expected |error|")
    },
)
st.caption(
    "Estimates are unbiased, so some can be negative. The 95% intervals are Wald intervals: "
    "estimate ± 1.96 standard errors, a normal approximation, with the exact variance formula "
    "evaluated at the estimate (plug-in, clipped to [0, n]). Central Laplace: scale 2/ε, since "
    "replacing one person's answer moves two counts by 1 (adding or removing a person moves "
    "one count: scale 1/ε, but that is a different relation from the local one)."
)

# --- Domain size ----------------------------------------------------------------------------------
st.header("3. More categories: unary encoding against k-ary randomized response")
crossover = grr_oue_crossover_domain_size(epsilon)
grid_p, grid_q = grr_probabilities(epsilon, K_GRID)
curves = {
    "k-ary randomized response (GRR)": np.sqrt(estimate_variance(0, n, grid_p, grid_q)),
    "optimised unary encoding (OUE)": np.full(
        K_GRID.shape, np.sqrt(estimate_variance(0, n, *optimized_unary_encoding(epsilon)))
    ),
    "symmetric unary encoding (SUE)": np.full(
        K_GRID.shape, np.sqrt(estimate_variance(0, n, *symmetric_unary_encoding(epsilon)))
    ),
}
st.plotly_chart(variance_against_domain(K_GRID, curves, crossover, k), width="stretch")
better = "k-ary randomized response" if k < crossover else "optimised unary encoding"
st.markdown(
    f"**At ε = {epsilon:.3g}, k-ary randomized response is more accurate below "
    f"k\\* = 3e^ε + 2 = {crossover:.1f} categories and unary encoding above. With {k} categories "
    f"here, {better} wins.**"
)
st.caption(
    f"Exact standard error of the estimated count of a category nobody holds, for n = {n:,} "
    "(Wang et al. 2017's comparison; a category held by n_v persons adds n_v(1 − p − q)/(p − q) "
    "to the variance). GRR's error grows with k because the chance of naming the true "
    "category falls as k grows; unary encoding's does not depend on k, at the price of k bits "
    "per person."
)

what_to_notice(
    [
        "The raw perturbed counts are far from the truth (flattened towards n·q); only after "
        "debiasing do the large categories stand out again.",
        "The error is about the same number of persons for every category, so small categories "
        "(Armed-Forces: 9 persons) drown while large ones are usable.",
        "With few categories or a large ε, k-ary randomized response is best; with many "
        "categories, optimised unary encoding, whose error does not grow with k.",
        "A trusted curator adding Laplace noise to the true counts has an error that does not "
        "grow with the number of persons; the local error grows like √n.",
    ]
)

with st.expander("The formula"):
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
        "Wang, Blocki, Li & Jha (2017), *Locally differentially private protocols for frequency "
        "estimation*, USENIX Security (GRR is their 'direct encoding'); Erlingsson, "
        "Pihur & Korolova (2014), RAPPOR. C_v is the number of reports of v (GRR) or of 1 bits "
        "in column v (unary), exactly Binomial(n_v, p) + Binomial(n − n_v, q)."
    )
