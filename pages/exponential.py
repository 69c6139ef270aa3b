"""The exponential mechanism: a live probability table, the chance of the right answer,
sampled runs beside exact probabilities, and the count / largest-count pitfall."""

import math

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import (
    SHARE_OF_LARGEST_GLOBAL_SENSITIVITY,
    best_mask,
    expected_score_lost,
    exponential_log_probabilities,
    exponential_log_weights,
    exponential_probabilities,
    exponential_probabilities_by_epsilon,
    exponential_score_shortfall_bound,
    permute_and_flip_probabilities,
    permute_and_flip_probabilities_by_epsilon,
    probability_of_best,
    probability_of_shortfall,
    report_noisy_max_laplace_probabilities,
    report_noisy_max_laplace_probabilities_by_epsilon,
    sample_counts,
    share_of_largest_local_sensitivity,
    share_of_largest_scores,
)
from ui.common.formatting import number as format_number
from ui.common.shell import page_header, page_rng, what_to_notice
from ui.common.widgets import epsilon_input
from ui.exponential_figures import (
    best_probability_curves,
    format_probability,
    pitfall_bars,
    probability_bars,
)
from ui.exponential_inputs import (
    CANDIDATE_SOURCES,
    TYPED_DEFAULT,
    dataset_candidates,
    own_csv_candidates,
    parse_epsilons,
    typed_candidates,
)

CURVE_EPSILONS = np.concatenate([[0.0], np.geomspace(1e-3, 20, 90)])
SHOWN = 30  # bars in a chart; the tables list every candidate
LOG_10 = math.log(10)


def probability_text(log_p: float) -> str:
    """format_probability, also for the astronomically small: 10^(-2.2e+306), < e^(-10^308).

    -inf is a log probability below what a float holds (lambda times a gap beyond -1.8e308);
    beyond 10^(-10^15) a mantissa means nothing, so only the power of ten is shown.
    """
    if log_p == -math.inf:
        return "< e^(−10³⁰⁸)"
    if log_p < -1e15 * LOG_10:
        return f"10^({log_p / LOG_10:.2g})"
    return format_probability(log_p)


page_header(
    "Exponential mechanism",
    "How likely is a private “which is most common?” to give the right answer?",
    "Keep the diseases and set ε to 0.1, then to 1: the table reproduces the textbook "
    "(Flu 0.399, then 0.881; HIV 8.9e-06). Then pick the industry groups: at ε = 0.1 the "
    "right group comes out 95% of the time. Last, switch on the sensitivity pitfall.",
)


@st.cache_data(max_entries=16, show_spinner="Computing the curves…")
def best_answer_curves(
    scores: tuple[float, ...], sensitivity: float, monotonic: bool
) -> dict[str, np.ndarray]:
    """P(a true best answer) on CURVE_EPSILONS for the three mechanisms."""
    kwargs = {"sensitivity": sensitivity, "monotonic": monotonic}
    return {
        name: probability_of_best(rows(scores, CURVE_EPSILONS, **kwargs), scores)
        for name, rows in (
            ("Exponential mechanism", exponential_probabilities_by_epsilon),
            ("Permute-and-flip", permute_and_flip_probabilities_by_epsilon),
            ("Report-noisy-max, Laplace noise", report_noisy_max_laplace_probabilities_by_epsilon),
        )
    }


# --- Controls -------------------------------------------------------------------------------
source = st.selectbox("Candidates: a category column", list(CANDIDATE_SOURCES), key="exp_source")
dataset_key, column = CANDIDATE_SOURCES[source]
try:
    if dataset_key == "typed":
        candidates = typed_candidates(
            st.text_input(
                "Counts, as name=count separated by commas",
                value=TYPED_DEFAULT,
                key="exp_typed",
            )
        )
    elif dataset_key == "own_csv":
        with st.container(border=True):
            candidates = own_csv_candidates("exp")
    else:
        candidates = dataset_candidates(dataset_key, column)
except ValueError as error:
    st.error(f"Cannot run the mechanism: {error}")
    st.stop()
if candidates is None:  # the upload widget said what is missing
    st.stop()

epsilon = epsilon_input(
    "exponential_epsilon",
    default=1.0,
    minimum=0.01,
    maximum=20.0,
    allow_zero=True,
    help="ε = 0 is allowed here: every candidate is then equally likely. Log scale.",
)
left, right = st.columns(2)
n_draws = left.select_slider(
    "Sampled runs N",
    options=[10, 100, 1_000, 10_000, 100_000],
    value=1_000,
    format_func=lambda n: f"{n:,}",
    key="exp_draws",
)
monotonic = right.toggle(
    "Monotonic scores: use ε/Δ instead of ε/(2Δ)",
    value=False,
    key="exp_monotonic",
    help="Counts never go down when a person is added, which allows the factor 2 to go "
    "(Dwork & Roth 2014, Sec 3.4). The published tables use ε/(2Δ). The count ÷ largest-count "
    "score of the pitfall below is not monotonic and always uses ε/(2Δ).",
)

labels, scores, sensitivity = candidates.labels, candidates.counts, candidates.sensitivity
gap_column = f"log weight λ·(count − best), λ = {'ε/Δ' if monotonic else 'ε/(2Δ)'}"
st.caption(f"Score = count, sensitivity Δ = {sensitivity:g}. {candidates.note}")
if len(labels) == 1:
    st.warning(
        f"Only one candidate ({labels[0]}): the mechanism always returns it, whatever ε. "
        "There is nothing to choose between."
    )
elif np.all(scores == scores[0]):
    st.info(
        "All candidates have the same count, so every one is a best answer and every ε "
        "gives the uniform distribution."
    )
if epsilon == 0:
    st.info(
        f"ε = 0: every candidate is equally likely (1/{len(labels)} each). Given a candidate "
        "list fixed in advance, the answer says nothing about the data: perfect privacy and "
        "no usefulness. Here the candidates are the categories seen in the data, so the list "
        "itself reveals that each of them occurs; a real release must fix the candidate list "
        "in advance."
    )

# --- The answer at this epsilon -------------------------------------------------------------
st.header("The probability table")
log_p = exponential_log_probabilities(scores, epsilon, sensitivity, monotonic=monotonic)
probabilities = np.exp(log_p)
sampled = sample_counts(page_rng("exponential"), probabilities, n_draws)
best = best_mask(scores)
p_best = float(probability_of_best(probabilities, scores))
best_names = ", ".join(np.array(labels)[best][:3]) + ("…" if best.sum() > 3 else "")
lost = float(expected_score_lost(probabilities, scores))
st.markdown(
    f"**At ε = {format_number(epsilon)} the mechanism names the true most common answer "
    f"({best_names}) with probability {p_best:.3f}; on average its answer's count is "
    f"{lost:,.1f} below the best.**"
)
t = math.log(20)
shortfall = exponential_score_shortfall_bound(
    len(labels), epsilon, sensitivity, t=t, n_best=int(best.sum()), monotonic=monotonic
)
cols = st.columns(3)
cols[0].metric("P(true best answer)", f"{p_best:.3f}")
cols[1].metric("Expected count lost", f"{lost:,.2f}")
cols[2].metric(
    "Textbook: within this of the best, 95%",
    "no guarantee" if math.isinf(shortfall) else f"{shortfall:,.1f}",
    help="Dwork & Roth 2014, Thm 3.11: P(count ≤ best − (ln(|R|/|R_best|) + t)/λ) ≤ e^(−t), "
    "t = ln 20. A worst-case bound, usually loose.",
)
if not math.isinf(shortfall):
    exact_tail = probability_of_shortfall(probabilities, scores, shortfall)
    exact_text = format_probability(math.log(exact_tail)) if exact_tail > 0 else "0"
    st.caption(
        f"The bound says an answer {shortfall:,.1f} or more below the best comes out at most "
        f"5% of the time; here the exact chance is {exact_text}."
    )

table = pd.DataFrame(
    {
        "candidate": labels,
        "true count": scores,
        gap_column: exponential_log_weights(scores, epsilon, sensitivity, monotonic=monotonic),
        "probability": [probability_text(v) for v in log_p],
        "sampled runs": sampled,
        f"sampled share of {n_draws:,}": sampled / n_draws,
    }
)
st.dataframe(
    table,
    hide_index=True,
    width="stretch",
    column_config={
        "true count": st.column_config.NumberColumn(format="%g"),
        gap_column: st.column_config.NumberColumn(format="%.3f"),
        f"sampled share of {n_draws:,}": st.column_config.NumberColumn(format="%.3f"),
    },
)
if len(labels) > SHOWN:
    st.caption(f"The chart shows the {SHOWN} largest of {len(labels)} candidates.")
st.plotly_chart(
    probability_bars(labels[:SHOWN], probabilities[:SHOWN], sampled[:SHOWN] / n_draws, n_draws),
    width="stretch",
)
st.caption(
    "Bars: exact probabilities. Diamonds: how often each candidate came out of N simulated "
    "runs (change the seed or press “Draw new noise” for another N). With more runs the "
    "diamonds settle on the bars."
)

runs = st.slider("Run the mechanism k times on the same data", 1, 50, 1, key="exp_runs")
st.markdown(
    f"**Budget:** k runs cost k × ε = {runs} × {format_number(epsilon)} = "
    f"**ε = {format_number(round(runs * epsilon, 10))}** in total (sequential composition, "
    f"Dwork & Roth 2014, Thm 3.16). The {n_draws:,} runs above are a simulation to show the "
    f"probabilities; releasing them all would cost {n_draws:,} × ε."
)

# --- Compare epsilons -----------------------------------------------------------------------
st.header("Several epsilons side by side")
eps_text = st.text_input(
    "Epsilons to compare, separated by commas (0 allowed)", value="0, 0.1, 1.0", key="exp_compare"
)
compare_eps, bad_eps = parse_epsilons(eps_text)
for message in bad_eps:
    st.error(f"Left out {message}")
if compare_eps:
    compare = pd.DataFrame({"candidate": labels, "true count": scores})
    for e in compare_eps:
        column_log_p = exponential_log_probabilities(scores, e, sensitivity, monotonic=monotonic)
        compare[f"ε = {format_number(e)}"] = [probability_text(v) for v in column_log_p]
    st.dataframe(compare, hide_index=True, width="stretch")
    st.caption("Like a textbook table: each column is one ε; each column sums to 1.")
else:
    st.warning("Type at least one epsilon (a number of at least 0) to fill the table.")

# --- P(best) against epsilon ----------------------------------------------------------------
st.header("How often is the answer right, for every ε?")
log_x = (
    st.radio("Epsilon axis", ["log scale", "linear, 0 to 20"], horizontal=True, key="exp_axis")
    == "log scale"
)
curves = best_answer_curves(tuple(float(s) for s in scores), sensitivity, monotonic)
st.plotly_chart(
    best_probability_curves(CURVE_EPSILONS, curves, epsilon, log_x=log_x), width="stretch"
)
now = {
    "Exponential mechanism": p_best,
    "Permute-and-flip": probability_of_best(
        permute_and_flip_probabilities(scores, epsilon, sensitivity, monotonic=monotonic), scores
    ),
    "Report-noisy-max, Laplace noise": probability_of_best(
        report_noisy_max_laplace_probabilities(scores, epsilon, sensitivity, monotonic=monotonic),
        scores,
    ),
}
now_cols = st.columns(3)
for col, (name, value) in zip(now_cols, now.items(), strict=True):
    col.metric(f"{name}, ε = {format_number(epsilon)}", f"{float(value):.4f}")
st.caption(
    "All three are ε-differentially private at the same ε and none is simulated here: the "
    "first two are exact formulas, and report-noisy-max with Laplace noise is computed "
    "numerically (to about 1e-12). Report-noisy-max adds independent noise of scale 2Δ/ε (Δ/ε when "
    "monotonic) to every count and names the largest: with Gumbel noise it *is* the "
    "exponential mechanism, with exponential noise it *is* permute-and-flip, and with "
    "Laplace noise it is a third mechanism. Permute-and-flip never loses more expected "
    "count than the exponential mechanism (McKenna & Sheldon 2020)."
)

# --- The sensitivity pitfall ----------------------------------------------------------------
st.header("The sensitivity pitfall")
if st.toggle("Score by count ÷ largest count instead", value=False, key="exp_pitfall"):
    try:
        shares = share_of_largest_scores(scores)
        local = share_of_largest_local_sensitivity(scores)
    except ValueError as error:
        st.warning(f"Cannot show the pitfall here: {error}")
    else:
        # Not monotonic: adding a record to the top candidate lowers every other share, so
        # the rate is always epsilon / (2 Delta) (Dwork & Roth 2014, remark after Thm 3.10).
        wrong = exponential_probabilities(
            shares, epsilon, SHARE_OF_LARGEST_GLOBAL_SENSITIVITY, monotonic=False
        )
        right = probabilities
        st.plotly_chart(pitfall_bars(labels[:SHOWN], wrong[:SHOWN], right[:SHOWN]), width="stretch")
        st.dataframe(
            pd.DataFrame(
                {
                    "candidate": labels,
                    "count ÷ largest": shares,
                    "probability, count ÷ largest with Δ = 1": [
                        probability_text(v) for v in np.log(wrong)
                    ],
                    f"probability, count with Δ = {sensitivity:g}": [
                        probability_text(v) for v in log_p
                    ],
                }
            ),
            hide_index=True,
            width="stretch",
            column_config={"count ÷ largest": st.column_config.NumberColumn(format="%.3f")},
        )
        squeeze = (
            f"Dividing by the largest count squeezes every score into [0, 1], but keeping "
            f"Δ = 1 (a count's Δ when each person has one row) makes it near-uniform: no two "
            f"probabilities differ by more than a factor e^(ε/2) = "
            f"{math.exp(epsilon / 2):.3f}. The best answer now comes "
            f"out with probability {float(probability_of_best(wrong, scores)):.3f} instead "
            f"of {p_best:.3f}. "
        )
        if sensitivity == 1:
            st.markdown(
                f"{squeeze}Here one person moves a share by at most 1/{1 / local:,.0f} = "
                f"{local:.3g} (1 ÷ largest count). Δ = 1 is still a true bound over all "
                "datasets (a table whose largest count is 1 can jump from 0 to 1), which is "
                "exactly why it is useless. Plugging in 1 ÷ largest count from the data is not "
                "a valid recipe in general, but here it cancels out and gives back the count "
                "with Δ = 1: that is the right one."
            )
        else:
            st.markdown(
                f"{squeeze}Δ = 1 is still a true bound for the share, whatever the cap, since "
                "every share lies in [0, 1]: that is exactly why it is useless. The right "
                f"choice is the count itself with Δ = {sensitivity:g}, the cap on one "
                "person's rows."
            )
        st.caption(
            "The count ÷ largest score always uses ε/(2Δ), whatever the monotonic switch says: "
            "it is not monotonic (adding a record to the top candidate lowers every other "
            "share), and with ε/Δ the mechanism would only be guaranteed 2ε-differentially "
            "private (Dwork & Roth 2014, remark after Thm 3.10)."
        )
else:
    st.caption("Switch on to see what a wrong choice of score and sensitivity does.")

what_to_notice(
    [
        "The chance of each answer depends on how far its count is from the best, in units "
        "of 2Δ/ε (Δ/ε when monotonic): a lead of 106 (industry groups) is decisive at "
        "ε = 0.1, a lead of 4 (Flu over Diabetes) is not even at ε = 1.",
        "Even unlikely answers keep a positive probability: that is what hides any one person.",
        "Sampled frequencies wander around the exact probabilities; with 100,000 runs they "
        "agree to about two decimals.",
        "Here the candidates are the categories seen in the data, for the demonstration. In "
        "a real release the list of candidates must be fixed in advance, without looking at "
        "the data.",
        "The sensitivity belongs to the score: change the score and the sensitivity must be "
        "worked out again, or the guarantee or the usefulness is lost.",
    ]
)

with st.expander("The formula"):
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
        "McSherry & Talwar (2007); Dwork & Roth, *The Algorithmic Foundations of Differential "
        "Privacy* (2014), Def. 3.4, Thm. 3.10 and 3.11 (monotonic scores: ε/Δ instead of "
        "ε/(2Δ)). Permute-and-flip: McKenna & Sheldon (2020); it equals report-noisy-max "
        "with exponential noise (Ding et al. 2021), which gives the integral above. "
        "Probabilities are computed in log space (log-sum-exp) from each count's gap to the "
        "best, λ·(count − best), so large counts and large ε neither overflow nor lose the "
        "small probabilities."
    )
