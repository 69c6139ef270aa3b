"""What epsilon means to an attacker: posterior bound, best membership test, composition."""

import math

import numpy as np
import streamlit as st

from dp_core import (
    advanced_composition_crossover,
    analytic_gaussian_sigma,
    attacker_accuracy,
    best_advantage,
    compose_releases,
    gaussian_advantage,
    gaussian_privacy_loss_tail,
    gaussian_roc,
    laplace_advantage,
    laplace_roc,
    laplace_scale,
    laplace_std,
    loss_excess_probability,
    posterior_bounds,
    roc_ceiling,
    simulate_threshold_attack,
)
from ui.attacker_figures import (
    composition_figure,
    odds_factor,
    percent,
    posterior_figure,
    roc_figure,
    total_label,
)
from ui.common.formatting import number as format_number
from ui.common.formatting import power_of_ten as format_delta
from ui.common.shell import page_header, page_rng, what_to_notice
from ui.common.widgets import delta_input, epsilon_input

# (eps, delta)-DP: the privacy loss exceeds eps + ln(10/9) with chance at most 10 delta.
SLACK = math.log(10 / 9)
K_OPTIONS = [1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500, 1000]
TRIALS = 2000  # simulated noisy answers per world
ACCOUNTING = {
    "basic": "basic composition (k·ε)",
    "advanced": "advanced composition",
    "optimal": "optimal composition (Kairouz, Oh & Viswanath)",
    "gaussian": "the exact accounting of the Gaussian mechanism",
}
RARE = "all but ≤ 10δ of outputs"  # where the bound at eps + ln(10/9) holds when delta > 0
ONLY_PURE = "every output only when δ = 0"

page_header(
    "What ε means to an attacker",
    "If an attacker sees a differentially private answer, how sure can they become that Alice "
    "is in the data, and how does that change when the data are released many times?",
    "Keep the prior at 50% and move ε from 0.1 to 10: watch how sure the attacker can become. "
    "Then, under “Many releases”, move k to 1,000 and see which accounting keeps the total "
    "smallest.",
)

epsilon = epsilon_input("attacker_epsilon", default=1.0)
pure = st.toggle(
    "pure ε-DP (δ = 0)",
    key="attacker_pure",
    help="Off: (ε, δ)-DP, which the Gaussian mechanism needs. On: δ = 0, as for Laplace noise.",
)
delta = 0.0 if pure else delta_input("attacker_delta", default=1e-5)
prior = st.slider(
    "The attacker's prior: chance that Alice is in the data, before seeing any output",
    0.0,
    1.0,
    0.5,
    0.01,
    key="attacker_prior",
    format="%.2f",
)
eps_text, delta_text = format_number(epsilon), format_delta(delta)
certain = prior in (0.0, 1.0)


def posterior_caveat(eps: float, d: float, *, for_what: str, loss_tail: float | None = None) -> str:
    """Why the eps bound is no promise about outputs when d > 0, and what holds (Markov bound).

    ``loss_tail``: the analytic Gaussian's exact chance that its privacy loss exceeds eps.
    """
    chance = loss_excess_probability(d, SLACK)
    reveal = (
        "a mechanism that publishes Alice's record with chance δ and is ε-DP otherwise meets "
        "(ε, δ)-DP"
    )
    if chance >= 1:
        return (
            f"With δ = {format_delta(d)} {for_what}, the bound at ε + ln(10/9) promises nothing: "
            "the chance of the outputs where it may fail is bounded only by 10δ ≥ 1 (δ is too "
            f"large), and {reveal}."
        )
    eps_low, eps_high = (float(v) for v in posterior_bounds(prior, eps))
    low_t, high_t = (float(v) for v in posterior_bounds(prior, eps + SLACK))
    example = (
        ""
        if loss_tail is None
        else " The analytic Gaussian mechanism calibrated to these (ε, δ) has a privacy loss above "
        f"ε with chance {format_delta(loss_tail)} = {loss_tail / d:.2g}δ when Alice is in."
    )
    return (
        f"With δ = {format_delta(d)} {for_what}, the bound at ε = {eps:.4g} (posterior between "
        f"{percent(eps_low)} and {percent(eps_high)}) holds for {ONLY_PURE}. With δ > 0 it is "
        "not even a promise about all but a δ share of the outputs: the privacy loss may "
        "exceed ε on outputs of much larger total chance (it exceeds ε + t with chance at most "
        f"δ/(1 − e^−t)).{example} Rare outputs may reveal far more: {reveal}. What does hold "
        "for every (ε, δ)-DP mechanism: except on outputs whose total chance is at most "
        f"10δ = {format_delta(chance)}, whether or not Alice is in, the posterior stays below "
        f"{percent(high_t)}, the bound at ε + ln(10/9) = {eps + SLACK:.4g}; likewise it stays "
        f"above {percent(low_t)} except on other outputs of total chance at most 10δ."
    )


# --- 1. The attacker's guess ----------------------------------------------------------------
st.header("1. The attacker's guess: is Alice in the data?")
st.markdown(
    "The attacker knows everything about everyone else and how the noise is added. One thing is "
    "unknown: is Alice in the data? They start with a belief (the prior), see one published "
    "output and update by Bayes' rule. ε-DP means no output is more than e^ε times likelier "
    "with Alice than without her, so the odds on “Alice is in” can grow or shrink by at most "
    f"e^ε = {odds_factor(epsilon)}."
    + ("" if pure else " With δ > 0 the promise is weaker: see below.")
)
priors = np.linspace(0.0, 1.0, 201)
rare_chance = loss_excess_probability(delta, SLACK)  # 10 delta, capped at 1; 0 when pure
bounded = pure or rare_chance < 1
# what holds: the eps bound for every output (delta = 0), else the bound at eps + ln(10/9) on
# all outputs but a 10 delta chance; no bound at all when 10 delta >= 1
eps_lower_curve, eps_upper_curve = posterior_bounds(priors, epsilon)
eps_low, eps_high = (float(v) for v in posterior_bounds(prior, epsilon))
holding_eps = epsilon if pure else epsilon + SLACK
if bounded:
    lower_curve, upper_curve = posterior_bounds(priors, holding_eps)
    low, high = (float(v) for v in posterior_bounds(prior, holding_eps))
else:
    # every posterior is possible except from a certain prior
    lower_curve, upper_curve = np.where(priors < 1, 0.0, 1.0), np.where(priors > 0, 1.0, 0.0)
    low, high = (prior, prior) if certain else (0.0, 1.0)
if certain:
    st.warning(
        f"A prior of {prior:.0%} means the attacker is already certain Alice is "
        f"{'in' if prior == 1 else 'out'}. Bayes' rule never moves a certain belief, so there is "
        "nothing to learn, and nothing for privacy to protect against this attacker. Move the "
        "prior inside (0, 1)."
    )
elif pure:
    st.markdown(
        f"**If you thought Alice had a {prior:.0%} chance of being in the data, after seeing "
        f"the output you can be at most {percent(high)} sure she is in (and no less than "
        f"{percent(low)}), at ε = {eps_text}.**"
    )
elif bounded:
    st.markdown(
        f"**If you thought Alice had a {prior:.0%} chance of being in the data, after seeing "
        f"the output you can be at most {percent(high)} sure she is in, except on outputs whose "
        f"total chance is at most 10δ = {format_delta(rare_chance)}: the bound at "
        f"ε + ln(10/9) = {holding_eps:.4g}.** Likewise no less than {percent(low)}, except on "
        f"other outputs of total chance at most 10δ. The bound at ε itself, {percent(eps_high)}, "
        f"holds for {ONLY_PURE} (below)."
    )
else:
    st.markdown(
        f"**With δ = {delta_text}, the bound at ε + ln(10/9) promises nothing (10δ ≥ 1)**, and a "
        "mechanism that publishes Alice's record with chance δ meets (ε, δ)-DP. Choose a "
        "smaller δ to see a bound."
    )
cols = st.columns(3)
if pure:
    cols[0].metric("Highest posterior after any output", percent(high))
    cols[1].metric("Lowest posterior after any output", percent(low))
    cols[2].metric("Odds on “in” change at most", f"×{odds_factor(epsilon)}")
elif bounded:
    where = (
        "Holds except on outputs whose total chance is at most 10δ, whether or not Alice is "
        f"in: the bound at ε + ln(10/9) = {holding_eps:.4g} (Markov's inequality)."
    )
    for col, label, value, eps_value, note in (
        (cols[0], f"Highest posterior, {RARE}", percent(high), percent(eps_high), ""),
        (cols[1], f"Lowest posterior, {RARE}", percent(low), percent(eps_low), ""),
        (
            cols[2],
            "Odds on “in” grow at most, same outputs",
            f"×{odds_factor(holding_eps)}",
            f"×{odds_factor(epsilon)}",
            " They shrink by at most as much, except on other outputs of total chance ≤ 10δ.",
        ),
    ):
        col.metric(
            label,
            value,
            delta=f"ε bound {eps_value}: {ONLY_PURE}",
            delta_color="off",
            delta_arrow="off",
            help=where + note,
        )
else:
    for col, label in zip(
        cols,
        (f"Highest posterior, {RARE}", f"Lowest posterior, {RARE}", "Odds on “in” grow at most"),
        strict=True,
    ):
        col.metric(label, "—", delta="10δ ≥ 1: no promise", delta_color="off", delta_arrow="off")
if pure:
    figure_labels = {"curve_label": f"possible posterior (ε = {eps_text})"}
elif bounded:
    figure_labels = {
        "curve_label": f"posterior on {RARE} (ε + ln(10/9) = {holding_eps:.4g})",
        "marker_note": f" ({RARE})",
        "epsilon_upper": eps_upper_curve,
        "epsilon_name": f"ε bound (ε = {eps_text}): {ONLY_PURE}",
    }
else:
    figure_labels = {
        "curve_label": "posterior: no promise (10δ ≥ 1)",
        "epsilon_upper": eps_upper_curve,
        "epsilon_name": f"ε bound (ε = {eps_text}): {ONLY_PURE}",
    }
st.plotly_chart(
    posterior_figure(priors, lower_curve, upper_curve, prior, low, high, **figure_labels),
    width="stretch",
)
sigma = None if pure else analytic_gaussian_sigma(1.0, epsilon, delta)
if pure:
    st.caption(
        "This holds after every output of any ε-DP mechanism, whatever the attacker knows "
        "beforehand (but see below on correlated records), and it is tight: randomized "
        "response reaches it (at ε = ln 3, a 50% belief that Alice's true answer is “yes” "
        "becomes 75% after she reports “yes”)."
    )
elif not certain:
    loss_tail = gaussian_privacy_loss_tail(sigma, epsilon) if bounded else None
    st.warning(posterior_caveat(epsilon, delta, for_what="per release", loss_tail=loss_tail))
st.caption(
    "What ε bounds is what the output reveals about the inclusion of Alice's data: “in” and "
    "“out” differ by her record(s) only. If other records are correlated with Alice's (her "
    "family's, or repeated records of hers that no per-person cap limits), an attacker can "
    "learn about Alice through them, and no bound here covers that: the bound is about the "
    "inclusion of her data, not about every fact about her."
)

# --- 2. The best membership test ------------------------------------------------------------
st.header("2. The best possible membership test")
st.markdown(
    "Now the attacker must decide: say “Alice is in” or “out”. Every such test has a **false "
    "positive rate** (says “in” when she is out) and a **true positive rate** (says “in” when "
    "she is in). (ε, δ)-DP caps the true positive rate at each false positive rate: no test, "
    "however clever, lies above the red line. Here the output is a count: n people without "
    "Alice, n + 1 with her, plus noise"
    + (
        f" from the Laplace mechanism (scale 1/ε = {laplace_scale(1, epsilon):.3g})."
        if pure
        else f": Laplace (scale 1/ε = {laplace_scale(1, epsilon):.3g}, pure ε-DP) or the analytic "
        f"Gaussian for (ε, δ) (σ = {analytic_gaussian_sigma(1.0, epsilon, delta):.3g})."
    )
)
alphas = np.unique(np.concatenate([np.linspace(0, 1, 401), np.geomspace(1e-6, 1, 200)]))
rng = page_rng("attacker")
laplace_b = laplace_scale(1, epsilon)
# thresholds spread over each noise's range, between n and n + 1 in the middle
z = np.linspace(-2.5, 2.5, 11)
laplace_attack = simulate_threshold_attack(
    rng,
    noise="laplace",
    scale=laplace_b,
    thresholds=0.5 + laplace_std(laplace_b) * z / 2,
    trials=TRIALS,
)
simulated = [
    (
        f"Laplace: simulated threshold tests ({TRIALS:,} answers per world)",
        laplace_attack.false_positive_rate,
        laplace_attack.true_positive_rate,
    )
]
gaussian_curve = None
if sigma is not None:
    gaussian_curve = gaussian_roc(alphas, 1 / sigma)
    gaussian_attack = simulate_threshold_attack(
        rng, noise="gaussian", scale=sigma, thresholds=0.5 + sigma * z, trials=TRIALS
    )
    simulated.append(
        (
            "Gaussian: simulated threshold tests",
            gaussian_attack.false_positive_rate,
            gaussian_attack.true_positive_rate,
        )
    )
ceiling_name = (
    f"ceiling for any ({eps_text}, {delta_text})-DP output"
    if not pure
    else f"ceiling for any {eps_text}-DP output"
)
st.plotly_chart(
    roc_figure(
        alphas,
        roc_ceiling(alphas, epsilon, delta),
        laplace_roc(alphas, epsilon),
        gaussian_curve,
        simulated,
        ceiling_name,
    ),
    width="stretch",
)
advantage = float(best_advantage(epsilon, delta))
cols = st.columns(3 if sigma is not None else 2)
cols[0].metric(
    "Best accuracy of any test (50/50 prior)",
    percent(float(attacker_accuracy(advantage))),
    delta=f"advantage TPR − FPR ≤ {advantage:.4g}",
    delta_color="off",
)
laplace_adv = float(laplace_advantage(epsilon))
cols[1].metric(
    "Laplace count: best accuracy (exact)",
    percent(float(attacker_accuracy(laplace_adv))),
    delta=f"advantage {laplace_adv:.4g}",
    delta_color="off",
)
if sigma is not None:
    gaussian_adv = float(gaussian_advantage(1 / sigma))
    cols[2].metric(
        "Gaussian count: best accuracy (exact)",
        percent(float(attacker_accuracy(gaussian_adv))),
        delta=f"advantage {gaussian_adv:.4g}",
        delta_color="off",
    )
st.caption(
    "Accuracy = chance of guessing right when in and out are equally likely beforehand, "
    "(1 + TPR − FPR) / 2 for the best test. Simulated: the best of these threshold tests "
    f"reached TPR − FPR = {laplace_attack.best_advantage:.3f} on Laplace answers"
    + (f" and {gaussian_attack.best_advantage:.3f} on Gaussian ones" if sigma is not None else "")
    + " (a noisy estimate, new with every draw). "
    + (
        f"At δ = 0 the best accuracy equals the posterior bound at a 50% prior, "
        f"{percent(float(posterior_bounds(0.5, epsilon)[1]))}."
        if pure
        else ""
    )
)

# --- 3. Many releases -----------------------------------------------------------------------
st.header("3. Many releases: how the budget adds up")
st.markdown(
    "Each release is one (ε, δ) output like the ones above. An attacker who sees k of them "
    "about Alice learns more: the totals below bound what all k outputs together reveal."
)
k_col, slack_col = st.columns([3, 2])
with k_col:
    k_now = st.select_slider(
        "k: number of releases",
        options=K_OPTIONS,
        value=10,
        key="attacker_k",
        format_func=lambda k: f"{k:,}",
    )
with slack_col:
    delta_prime = st.select_slider(
        "δ′: extra δ for advanced and optimal composition",
        options=[10.0**-e for e in range(12, 2, -1)],
        value=1e-6,
        key="attacker_delta_prime",
        format_func=format_delta,
        help="Advanced and optimal composition, and the exact Gaussian total, are read at a "
        "total δ of k·δ + δ′: a little extra δ′ can buy a smaller total ε.",
    )
ks = np.unique(np.concatenate([np.round(np.geomspace(1, 1000, 61)), [k_now]]))
curves = compose_releases(epsilon, delta, ks, delta_prime)
now = int(np.searchsorted(ks, k_now))
basic_eps, advanced_eps = curves.basic_epsilon[now], curves.advanced_epsilon[now]
optimal_eps = curves.optimal_epsilon[now]
total_delta = curves.advanced_delta[now]
gaussian_eps = curves.gaussian_epsilon[now] if curves.gaussian_epsilon is not None else None
if math.isnan(advanced_eps):
    st.warning(
        f"k·δ + δ′ = {total_delta:.3g} is not below 1: after {k_now:,} releases at "
        f"δ = {delta_text} the total guarantee is empty. Choose a smaller δ or fewer releases."
    )

totals = {
    "basic": (basic_eps, curves.basic_delta[now], "Basic: total ε", None),
    "advanced": (
        advanced_eps,
        total_delta,
        "Advanced: total ε",
        "Dwork, Rothblum & Vadhan; Dwork & Roth Thm 3.20: √(2k ln(1/δ′))·ε + kε(e^ε − 1).",
    ),
    "optimal": (
        optimal_eps,
        total_delta,
        "Optimal: total ε",
        "Kairouz, Oh & Viswanath (2015), Thm 3.3: the smallest total ε at this total δ that "
        "holds for k releases of any (ε, δ)-DP mechanisms; randomized response reaches it.",
    ),
}
if gaussian_eps is not None:
    totals["gaussian"] = (
        gaussian_eps,
        total_delta,
        "Gaussian, exact: total ε",
        "Holds only when every release is the Gaussian mechanism: k releases reveal what one "
        "with σ/√k does.",
    )
for col, (total_eps, total_d, label, note) in zip(
    st.columns(len(totals)), totals.values(), strict=True
):
    col.metric(
        label,
        total_label(total_eps),
        delta=f"δ = {format_delta(total_d)}",
        delta_color="off",
        delta_arrow="off",
        help=note,
    )
st.plotly_chart(
    composition_figure(
        ks,
        curves.basic_epsilon,
        curves.advanced_epsilon,
        curves.optimal_epsilon,
        curves.gaussian_epsilon,
        k_now,
    ),
    width="stretch",
)
if not math.isnan(advanced_eps):
    best = curves.tightest(now)
    best_eps, best_delta = float(totals[best][0]), float(totals[best][1])
    smaller = [name for name in totals if totals[name][0] < best_eps]
    st.markdown(
        f"**At k = {k_now:,}, {ACCOUNTING[best]} gives the best total: "
        f"ε = {best_eps:.4g} (δ = {format_delta(best_delta)}).**"
        + (
            " It is exact: no smaller total ε at this total δ holds for every k releases of "
            f"({eps_text}, {delta_text})-DP mechanisms, and randomized response reaches it."
            if best == "optimal"
            else ""
        )
        + (
            f" The {', '.join(ACCOUNTING[name] for name in smaller)} total is smaller by less "
            "than 0.01%, at a larger δ."
            if smaller
            else ""
        )
    )
    if best == "gaussian":
        generic = curves.tightest(now, gaussian=False)
        st.caption(
            "That total holds when every release is the Gaussian mechanism. For other "
            f"({eps_text}, {delta_text})-DP mechanisms the best bound here is {ACCOUNTING[generic]}"
            f", ε = {totals[generic][0]:.4g}."
        )
    crossover = advanced_composition_crossover(epsilon, delta_prime)
    where = (
        f"so it can beat k·ε only when ε < ln 2, and then once k > 2 ln(1/δ′)/(2 − e^ε)² = "
        f"{crossover:,.1f}"
        if math.isfinite(crossover)
        else "so at ε ≥ ln 2 it never beats k·ε, whatever k"
    )
    st.caption(
        f"Advanced composition is {'below' if advanced_eps < basic_eps else 'above'} k·ε here. "
        "Its first term, √(2k ln(1/δ′))·ε, grows like √k, but its second, kε(e^ε − 1), grows "
        f"linearly in k, {where}."
    )
    total_chance = loss_excess_probability(best_delta, SLACK)
    if not certain and (best_delta == 0 or total_chance < 1):
        exact = best_delta == 0
        total_high = float(posterior_bounds(prior, best_eps if exact else best_eps + SLACK)[1])
        st.markdown(
            f"**What that total means to the attacker:** starting from a {prior:.0%} prior, "
            f"after all {k_now:,} outputs they can be at most {percent(total_high)} sure Alice is "
            "in"
            + (
                " (section 1 at the total ε)."
                if exact
                else f", except on outputs whose total chance is at most 10δ = "
                f"{format_delta(total_chance)} (section 1 at the total ε + ln(10/9) = "
                f"{best_eps + SLACK:.4g})."
            )
        )
    if not certain and best_delta > 0:
        st.caption(posterior_caveat(best_eps, best_delta, for_what="in total"))
st.caption(
    "Basic composition keeps δ at k·δ; advanced and optimal composition and the exact Gaussian "
    f"accounting are read at k·δ + δ′, with δ′ = {format_delta(delta_prime)}. The optimal "
    "total is exact for any (ε, δ)-DP mechanisms (the worst is randomized response that "
    "reveals the input with chance δ); basic and advanced composition are simpler upper "
    "bounds on it. "
    + (
        "The Gaussian curve needs δ > 0: turn off “pure ε-DP” to see it."
        if pure
        else "The exact Gaussian total uses that k Gaussian releases reveal exactly as much as "
        "one release with σ/√k; it is never above the optimal total."
    )
)

st.subheader("The averaging attack")
if sigma is not None:
    one, averaged = sigma, sigma / math.sqrt(k_now)
    noise_name = "Gaussian σ"
else:
    one, averaged = laplace_std(laplace_b), laplace_std(laplace_b) / math.sqrt(k_now)
    noise_name = "Laplace std"
cols = st.columns(3)
cols[0].metric(f"Noise on one answer ({noise_name})", f"{one:.4g}")
cols[1].metric(f"Noise on the average of {k_now:,} answers", f"{averaged:.4g}")
if sigma is not None:
    averaged_adv = float(gaussian_advantage(math.sqrt(k_now) / sigma))
    cols[2].metric(
        f"Accuracy from the average of {k_now:,}",
        percent(float(attacker_accuracy(averaged_adv))),
        delta=f"one answer: {percent(float(attacker_accuracy(gaussian_advantage(1 / sigma))))}",
        delta_color="off",
    )
elif not math.isnan(advanced_eps):
    cols[2].metric(
        f"Any test on {k_now:,} answers: accuracy ≤",
        percent(float(attacker_accuracy(best_advantage(best_eps, best_delta)))),
        delta=f"from the total ε = {best_eps:.4g}",
        delta_color="off",
    )
st.caption(
    f"Asking the same question k times and averaging shrinks the noise by √k = "
    f"{math.sqrt(k_now):.3g}: the count n or n + 1 shows through, and telling the two apart "
    "gets easy. "
    + (
        "For Gaussian noise the average is all the attacker needs: the k answers reveal exactly "
        "what one answer with σ/√k would, which is why the exact total ε above is that of σ/√k, "
        "and the accuracy is the best any test on the k answers can reach."
        if sigma is not None
        else "Averaging is not the best test on Laplace answers; any test on the k answers stays "
        "below the accuracy that the total ε above allows."
    )
)

what_to_notice(
    [
        "With δ = 0, ε caps how much any single output can shift the attacker's odds: by e^ε. At "
        "ε = 1 a 50/50 guess becomes at most 73/27; at ε = 10 the cap is 99.995%, almost no "
        "protection.",
        "A prior near 0 or 1 moves little in absolute terms: DP limits the change in odds, not "
        "what the attacker knew before.",
        "δ > 0 means the ε cap is no promise about every output, nor about all but a δ share of "
        "them: what holds is a slightly looser cap (at ε + ln(10/9)) on all outputs but a 10δ "
        "share, and the rest may reveal more. Keep δ tiny.",
        "DP protects the inclusion of Alice's data. Records correlated with hers (her family's, "
        "or her own repeated records that no cap limits) can still tell an attacker about her.",
        "Real mechanisms are often below the ceiling: the Laplace count's best test is weaker than "
        "what ε allows.",
        "Repeated releases add up. k·ε is safe but pessimistic. Advanced composition's first term "
        "grows like √k, but its kε(e^ε − 1) term grows linearly in k: it helps only for ε < ln 2 "
        "and many releases. Optimal composition is the exact total for any mechanisms; the exact "
        "Gaussian accounting, for Gaussian noise only, is never above it.",
    ]
)

with st.expander("The formula"):
    st.latex(
        r"\frac{P(\text{in}\mid y)}{P(\text{out}\mid y)} = "
        r"\frac{p}{1-p}\cdot\frac{P(y\mid\text{in})}{P(y\mid\text{out})},\qquad "
        r"\frac{p\,e^{-\varepsilon}}{p\,e^{-\varepsilon}+1-p} \le P(\text{in}\mid y) \le "
        r"\frac{p\,e^{\varepsilon}}{p\,e^{\varepsilon}+1-p}"
    )
    st.latex(
        r"(\varepsilon,\delta)\text{-DP}:\quad P_{\text{in}}\big(L > \varepsilon + t\big) \le "
        r"\frac{\delta}{1-e^{-t}},\qquad L(y) = \ln\frac{P(y\mid\text{in})}{P(y\mid\text{out})}"
    )
    st.latex(
        r"\text{TPR} \le \min\!\big(1,\; e^{\varepsilon}\,\text{FPR} + \delta,\; "
        r"1 - e^{-\varepsilon}(1 - \delta - \text{FPR})\big),\qquad "
        r"\max(\text{TPR}-\text{FPR}) = \frac{e^{\varepsilon} - 1 + 2\delta}{e^{\varepsilon} + 1}"
    )
    st.latex(
        r"\text{Laplace: TPR} = 1 - \frac{e^{-\varepsilon}}{4\,\text{FPR}}"
        r"\ \ (\tfrac{1}{2}e^{-\varepsilon} \le \text{FPR} \le \tfrac12),\ "
        r"\max(\text{TPR}-\text{FPR}) = 1 - e^{-\varepsilon/2};\quad "
        r"\text{Gaussian: TPR} = \Phi\big(\Phi^{-1}(\text{FPR}) + \Delta/\sigma\big)"
    )
    st.latex(
        r"k \text{ releases: } (k\varepsilon,\ k\delta);\quad "
        r"\big(\sqrt{2k\ln(1/\delta')}\,\varepsilon + k\varepsilon(e^{\varepsilon}-1),\ "
        r"k\delta + \delta'\big);\quad \text{Gaussian: } \sigma \to \sigma/\sqrt{k}"
    )
    st.latex(
        r"\text{optimal: smallest } \varepsilon' \text{ with } "
        r"1 - (1-\delta)^k + (1-\delta)^k \sum_{l=0}^{k} \binom{k}{l}"
        r"\frac{\max\big(0,\ e^{(k-l)\varepsilon} - e^{\varepsilon'} e^{l\varepsilon}\big)}"
        r"{(1+e^{\varepsilon})^k} \le k\delta + \delta'"
    )
    st.markdown(
        "Posterior bound: Bayes' rule with the ε-DP likelihood ratio (Dwork & Roth, *The "
        "Algorithmic Foundations of Differential Privacy*, 2014, Def. 2.4; Kasiviswanathan & "
        "Smith, *On the ‘semantics’ of differential privacy*, 2014). The δ statement applies "
        "the (ε, δ) definition to the outputs with L > ε and Markov's inequality. Hypothesis "
        "testing: Wasserman & Zhou (2010), Kairouz, Oh & Viswanath, *The composition theorem "
        "for differential privacy* (2015), Thm 2.1; Gaussian trade-off: Dong, Roth & Su, "
        "*Gaussian differential privacy* (2019). Composition: Dwork & Roth Thm 3.16 (basic) and "
        "Thm 3.20 (advanced; Dwork, Rothblum & Vadhan 2010); optimal: Kairouz, Oh & Viswanath "
        "(2015), Thm 3.3; exact Gaussian profile: Balle & Wang (2018), Thm 8. Checked against "
        "Google's dp-accounting (privacy loss distributions and the RDP accountant) and scipy "
        "in the tests."
    )
