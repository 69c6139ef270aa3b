"""Randomized response: the coin game, a yes/no survey on real data, local vs central noise."""

import math

import numpy as np
import streamlit as st

from dp_core import (
    coin_flip_answers,
    coin_flip_epsilon,
    coin_flip_for_epsilon,
    coin_flip_report_probabilities,
    debiased_count,
    epsilon_form_report_probabilities,
    estimate_distribution,
    estimate_interval,
    estimate_variance,
    expected_abs_error,
    laplace_expected_abs_error,
    laplace_scale,
    minimum_respondents,
    report_probabilities_epsilon,
    sample_yes_count,
    yes_tally,
)
from ui.common.formatting import probability as format_probability
from ui.common.shell import page_header, page_rng, what_to_notice
from ui.common.widgets import epsilon_input
from ui.local_figures import (
    coin_tree,
    estimate_distribution_figure,
    local_vs_central,
    share_error_against_n,
)
from ui.local_inputs import pick_category_column

EPSILON_MODE, COINS_MODE = "Set ε: the coins follow", "Set the coins: ε follows"
N_GRID = np.unique(np.geomspace(10, 1_000_000, 41).round().astype(int))
SIMULATED_N = np.array([100, 1_000, 10_000, 100_000, 1_000_000])


def epsilon_text(epsilon: float) -> str:
    if math.isinf(epsilon):
        return "∞"
    return f"{epsilon:.4g}"


@st.cache_data(show_spinner=False)
def local_error_curve(p: float, q: float, share: float) -> np.ndarray:
    """Exact expected |error| of the local count at each n of N_GRID, true count share * n."""
    return np.array([expected_abs_error(round(share * n), int(n), p, q) for n in N_GRID])


page_header(
    "Randomized response",
    "Can a coin flip protect each survey answer, and what does it cost?",
    "Leave the coins fair (ε = ln 3 ≈ 1.10) and read the survey's error. Then make coin 1 say "
    "'tell the truth' more often and watch ε grow and the error shrink. Finally shrink the "
    "survey to 100 people and compare the local error with the central one.",
)

# --- 1. The coin game ---------------------------------------------------------------------------
st.header("1. The coin game")
st.markdown(
    "Each person flips **coin 1** in private. With probability *t* they tell the truth; "
    "otherwise they flip **coin 2** and say *yes* with probability *y*, whatever the truth. "
    "Nobody, not even the survey, knows which coin spoke, so every single answer is deniable."
)
st.caption(
    "Neighbouring datasets on this page: one person's answer replaced by the other answer "
    "(the number of respondents stays the same). ε bounds how much one answer can tell "
    "anyone who sees it, the survey's collector included."
)
state = st.session_state
state.setdefault("rr_truth", 0.5)
state.setdefault("rr_random_yes", 0.5)
mode = st.radio(
    "How do you want to set the game?", [COINS_MODE, EPSILON_MODE], key="rr_mode", horizontal=True
)
if mode == EPSILON_MODE:
    target = epsilon_input("rr_epsilon", default=coin_flip_epsilon(0.5, 0.5))
    state["rr_truth"], state["rr_random_yes"] = coin_flip_for_epsilon(target)
coin_cols = st.columns(2)
truth_prob = coin_cols[0].slider(
    "t: chance coin 1 says 'tell the truth'",
    0.0,
    1.0,
    step=0.001,
    format="%.3f",
    key="rr_truth",
    disabled=mode == EPSILON_MODE,
    help="In 'Set ε' mode the coins follow ε: t = tanh(ε/2) with a fair coin 2. Above about "
    "ε = 8.3 t shows as 1.000 but stays below 1: the table and ε come from ε itself.",
)
random_yes_prob = coin_cols[1].slider(
    "y: chance coin 2 says 'yes'",
    0.0,
    1.0,
    step=0.001,
    format="%.3f",
    key="rr_random_yes",
    disabled=mode == EPSILON_MODE,
)
if mode == EPSILON_MODE:
    # From epsilon itself: t = tanh(eps/2) loses 1 - t past eps = 30 and rounds to 1 past 38,
    # while P(yes | no) = P(no | yes) = expit(-eps) stays positive.
    p, q = epsilon_form_report_probabilities(target)
    no_given_yes, no_given_no = q, p
    epsilon = report_probabilities_epsilon(p, q, no_given_yes=q, no_given_no=p)
else:
    p, q = coin_flip_report_probabilities(truth_prob, random_yes_prob)
    no_given_yes, no_given_no = 1 - p, 1 - q
    epsilon = coin_flip_epsilon(truth_prob, random_yes_prob)

tree_col, table_col = st.columns([3, 2])
tree_col.plotly_chart(coin_tree(truth_prob, random_yes_prob), width="stretch")
with table_col:
    st.metric("ε of one answer", epsilon_text(epsilon))
    st.dataframe(
        {
            "true answer": ["yes", "no"],
            "says yes": [format_probability(p), format_probability(q)],
            "says no": [format_probability(no_given_yes), format_probability(no_given_no)],
        },
        hide_index=True,
    )
    if math.isinf(epsilon):
        st.warning(
            "ε = ∞: some answer can come from one truth and never from the other, so that "
            "answer gives the person away. Keep t below 1 and y strictly between 0 and 1."
        )
    elif epsilon == 0:
        st.warning("ε = 0: coin 1 never asks for the truth, so the answers say nothing at all.")
    else:
        st.markdown(
            f"A *yes* is {p / q:.3g}× as likely from a true yes as from a true no; a *no* is "
            f"{no_given_no / no_given_yes:.3g}× as likely from a true no. ε is the log of the "
            "larger: "
            f"**ε = {epsilon:.4g}**, so an answer shifts anyone's odds about the truth by at "
            f"most e^ε = {math.exp(epsilon):.3g}×."
        )

# --- 2. A survey on real data -------------------------------------------------------------------
st.header("2. A survey on real data")
pick = st.columns(3)
dataset_key, column, counts, frame = pick_category_column("rr", "Column", pick)
categories = [str(c) for c in counts.index]
category = pick[2].selectbox(
    "Question: is the person's value…",
    categories,
    key=f"rr_category_{dataset_key}_{column}",
    index=categories.index("Sales") if "Sales" in categories else 0,
)
population = len(frame)
if len(categories) == 1:
    st.info(
        f"Everyone's {column} is “{category}”: every true answer is yes. The survey still works "
        "(its estimate should come near n), but for a real question pick a column with two or "
        "more values."
    )
population_yes = int(counts.iloc[categories.index(category)])
sizes = [
    s for s in (10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000) if s < population
] + [population]
n = st.select_slider(
    "Respondents: a random sample of n persons (all by default)",
    sizes,
    value=population,
    key=f"rr_n_{dataset_key}",
    format_func=lambda s: f"{s:,}",
)
st.markdown(
    f"**The question:** *Is your {column} “{category}”?*  In the whole data "
    f"{population_yes:,} of {population:,} persons would truly say yes."
)

rng = page_rng("randomized-response")
can_estimate = p > q
if not can_estimate:
    st.error(
        "Nothing can be estimated: with t = 0 everyone answers by coin 2, so the answers are "
        "the same whatever the truth (p = P(yes | yes) equals q = P(yes | no)). Raise t above 0."
    )
else:
    minimum = minimum_respondents(p, q, share_half_width=0.25)
    if n < minimum:
        st.warning(
            f"Only {n:,} respondents: at these coins the 95% interval on the share of yes can be "
            f"wider than ±25 percentage points, so the estimate says little. These coins need "
            f"at least {minimum:,} respondents for that."
        )
    n_yes = (
        population_yes if n == population else sample_yes_count(rng, population_yes, population, n)
    )
    tally = yes_tally(rng, n_yes, n - n_yes, p, q)
    estimate = float(debiased_count(tally, n, p, q))
    low, high = (float(v) for v in estimate_interval(estimate, n, p, q))
    relative = f" ({abs(estimate - n_yes) / n_yes:.1%} of the truth)" if n_yes else ""
    survey_metrics = [
        ("Said yes", f"{tally:,}", f"{tally / n:.1%} of answers"),
        ("Debiased estimate", f"{estimate:,.1f}", f"95%: {low:,.0f} to {high:,.0f}"),
        ("Truth", f"{n_yes:,}", f"{n_yes / n:.1%} of respondents"),
        ("Error", f"{estimate - n_yes:+,.1f}", relative.strip(" ()") or None),
    ]
    for area, (label, value, note) in zip(st.columns(4), survey_metrics, strict=True):
        area.metric(label, value, delta=note, delta_color="off", delta_arrow="off")
    st.markdown(
        f"**{tally / n:.1%} said yes, but the coins alone make {q:.1%} of the true-no people say "
        f"yes and {1 - p:.1%} of the true-yes people say no. Undoing that on average, "
        f"(#yes − n·q) / (p − q), estimates {estimate:,.0f} yes answers (truth {n_yes:,}), "
        f"off by {abs(estimate - n_yes):,.0f}{relative}.**"
    )
    values, probs = estimate_distribution(n_yes, n, p, q)
    st.plotly_chart(
        estimate_distribution_figure(values, probs, n_yes, estimate, (low, high)), width="stretch"
    )
    st.caption(
        f"Exact distribution of the estimate: (Binomial({n_yes:,}, p) + Binomial({n - n_yes:,}, "
        "q) − n·q) / (p − q). 'Draw new noise' in the sidebar asks everyone again. The 95% "
        "interval is a Wald interval: estimate ± 1.96 standard errors, a normal approximation, "
        "with the exact variance formula evaluated at the estimate (plug-in, clipped to [0, n])."
    )
    if dataset_key == "census" and column == "occupation" and category == "Sales":
        st.caption(
            "Published run with the fair coins (Near & Abuah, *Programming Differential "
            "Privacy*, local model chapter): estimate 3,861.5 for a truth of 3,650, 5.8% off."
        )

st.subheader("The first 20 respondents, one by one")
first = frame[column].astype(str).head(20).to_numpy() == category
answers = coin_flip_answers(rng, first, truth_prob, random_yes_prob)
st.dataframe(
    {
        "person": np.arange(1, first.size + 1),
        "true answer": np.where(first, "yes", "no"),
        "coin 1": np.where(answers.truthful, "tell the truth", "coin 2 answers"),
        "coin 2": np.where(answers.truthful, "–", np.where(answers.random_yes, "yes", "no")),
        "says": np.where(answers.reported, "yes", "no"),
    },
    hide_index=True,
)
st.caption(
    "Only these 20 are simulated person by person; the survey's tally above is drawn "
    "from its exact distribution, which is the same as flipping everyone's coins."
)

if can_estimate:
    # --- 3. How the error shrinks with n --------------------------------------------------------
    st.header("3. More people, smaller error")
    share = population_yes / population
    true_counts = np.round(share * N_GRID)
    standard_errors = np.sqrt(estimate_variance(true_counts, N_GRID, p, q)) / N_GRID
    sim_true = np.round(share * SIMULATED_N).astype(int)
    rms = np.array(
        [
            np.sqrt(
                np.mean((debiased_count(yes_tally(rng, k, m - k, p, q, 400), m, p, q) - k) ** 2)
            )
            / m
            for k, m in zip(sim_true, SIMULATED_N, strict=True)
        ]
    )
    st.plotly_chart(
        share_error_against_n(N_GRID, standard_errors, SIMULATED_N, rms, n), width="stretch"
    )
    st.caption(
        f"For a true share of {share:.1%}: the error of the estimated share falls like 1/√n. "
        "Ten times more people, about three times less error."
    )

    # --- 4. Local vs central ----------------------------------------------------------------------
    st.header("4. Local vs central at the same ε")
    if math.isinf(epsilon):
        st.info("With ε = ∞ there is no privacy to compare: pick coins that give a finite ε.")
    else:
        local_curve = local_error_curve(p, q, share)
        central = laplace_expected_abs_error(laplace_scale(1, epsilon))
        local_now = expected_abs_error(n_yes, n, p, q)
        st.plotly_chart(local_vs_central(N_GRID, local_curve, central, n), width="stretch")
        cols = st.columns(3)
        cols[0].metric(f"Local expected |error| at n = {n:,}", f"{local_now:,.1f}")
        cols[1].metric("Central Laplace expected |error|", f"{central:,.2f}")
        cols[2].metric("Local / central", f"{local_now / central:,.0f}×")
        st.markdown(
            f"**At ε = {epsilon:.3g}, a trusted curator adding Laplace noise of scale 1/ε to the "
            f"true count is off by {central:.2f} people on average, whatever n. Randomized "
            f"response is off by {local_now:,.1f} at n = {n:,}, and its error grows like √n.**"
        )
        st.caption(
            "Same ε and the same neighbouring relation on both sides (one person's answer "
            "replaced: the count moves by at most 1), but not the same trust: randomized "
            "response also protects each answer against the collector, while the central "
            "model needs a trusted curator who sees every true answer. Local error: exact "
            "E|estimate − truth|. Central error: E|Lap(1/ε)| = 1/ε. Published figures on the "
            "census Sales count: about 5.8% error locally (fair coins, ε = ln 3 ≈ 1.10) against "
            "about 0.02% for central Laplace at ε = 1 (Near & Abuah, *Programming Differential "
            "Privacy*), so the two ε differ there."
        )

what_to_notice(
    [
        "Every single answer is deniable, yet the crowd's share can be recovered: the coins' bias "
        "is known, so it can be subtracted.",
        "Fair coins give ε = ln 3 ≈ 1.10. Trusting coin 1 more (larger t) raises ε and lowers the "
        "error. A lopsided coin 2 (y near 0 or 1) also raises ε, fast: at y = 0 a 'yes' can only "
        "be true, and ε is infinite.",
        "The local error grows like √n in persons (shrinks like 1/√n as a share); the central "
        "error stays at 1/ε. That gap is why local DP is used only for very large populations.",
    ]
)

with st.expander("The formula"):
    st.latex(
        r"p = P(\text{yes}\mid\text{yes}) = t + (1-t)\,y,\qquad "
        r"q = P(\text{yes}\mid\text{no}) = (1-t)\,y"
    )
    st.latex(
        r"\varepsilon = \max\left(\ln\frac{p}{q},\ \ln\frac{1-q}{1-p}\right),\qquad "
        r"t = \tanh(\varepsilon/2),\ y = \tfrac12 \iff p = \frac{e^\varepsilon}"
        r"{1+e^\varepsilon}"
    )
    st.latex(
        r"\hat n_{\text{yes}} = \frac{\#\text{yes} - n\,q}{p - q}\quad"
        r"(=2(\#\text{yes} - n/4)\text{ for fair coins}),\qquad "
        r"\operatorname{Var} = \frac{n_{\text{yes}}\,p(1-p) + n_{\text{no}}\,q(1-q)}{(p-q)^2}"
    )
    st.markdown(
        "Warner (1965), *Randomized response: a survey technique for eliminating evasive answer "
        "bias*; Dwork & Roth (2014), Sec. 3.2; Wang, Blocki, Li & Jha (2017), *Locally "
        "differentially private protocols for frequency estimation*. The number of yes "
        "answers is exactly Binomial(n_yes, p) + Binomial(n_no, q)."
    )
