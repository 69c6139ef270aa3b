"""What epsilon means to an attacker: posterior bound, best membership test, composition."""

import math

import numpy as np
import streamlit as st

from dp_core import (
    analytic_gaussian_sigma,
    attacker_accuracy,
    best_advantage,
    compose_releases,
    gaussian_advantage,
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
from ui.shell import page_header, page_rng, what_to_notice
from ui.widgets import delta_input, epsilon_input, format_delta, format_number

# (eps, delta)-DP: the privacy loss exceeds eps + ln(10/9) with chance at most 10 delta.
SLACK = math.log(10 / 9)
K_OPTIONS = [1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500, 1000]
TRIALS = 2000  # simulated noisy answers per world
ACCOUNTING = {
    "basic": "basic composition (k·ε)",
    "advanced": "advanced composition",
    "gaussian": "the exact accounting of the Gaussian mechanism",
}

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


def posterior_caveat(eps: float, d: float, *, for_what: str) -> str:
    """What an (eps, d) guarantee still says about the posterior when d > 0 (Markov bound)."""
    chance = loss_excess_probability(d, SLACK)
    if chance >= 1:
        return (
            f"With δ = {format_delta(d)} {for_what}, the guarantee says nothing about single "
            "outputs: δ is too large."
        )
    high = float(posterior_bounds(prior, eps + SLACK)[1])
    return (
        f"With δ = {format_delta(d)} {for_what}, this is not a promise about every output: "
        "rare outputs may reveal more (a mechanism that publishes Alice's record with chance δ "
        "and is ε-DP otherwise meets (ε, δ)-DP). What does hold: except on outputs whose total "
        f"chance is at most 10δ = {format_delta(chance)} when Alice is in (less when she is "
        f"out), the posterior stays below {percent(high)}, the bound at "
        f"ε + ln(10/9) = {eps + SLACK:.4g}. The lowest posterior behaves the same way."
    )


# --- 1. The attacker's guess ----------------------------------------------------------------
st.header("1. The attacker's guess: is Alice in the data?")
st.markdown(
    "The attacker knows everything about everyone else and how the noise is added. One thing is "
    "unknown: is Alice in the data? They start with a belief (the prior), see one published "
    "output and update by Bayes' rule. ε-DP means no output is more than e^ε times likelier "
    "with Alice than without her, so the odds on “Alice is in” can grow or shrink by at most "
    f"e^ε = {odds_factor(epsilon)}."
)
priors = np.linspace(0.0, 1.0, 201)
lower_curve, upper_curve = posterior_bounds(priors, epsilon)
low, high = (float(v) for v in posterior_bounds(prior, epsilon))
if certain:
    st.warning(
        f"A prior of {prior:.0%} means the attacker is already certain Alice is "
        f"{'in' if prior == 1 else 'out'}. Bayes' rule never moves a certain belief, so there is "
        "nothing to learn, and nothing for privacy to protect against this attacker. Move the "
        "prior inside (0, 1)."
    )
else:
    st.markdown(
        f"**If you thought Alice had a {prior:.0%} chance of being in the data, after seeing "
        f"the output you can be at most {percent(high)} sure she is in (and no less than "
        f"{percent(low)}), at ε = {eps_text}"
        + ("." if pure else ", unless the output is one of the rare ones δ allows (below).")
        + "**"
    )
cols = st.columns(3)
reach = "after any output" if pure else "(ε bound)"
cols[0].metric(f"Highest posterior {reach}", percent(high))
cols[1].metric(f"Lowest posterior {reach}", percent(low))
cols[2].metric("Odds on “in” change at most", f"×{odds_factor(epsilon)}")
st.plotly_chart(
    posterior_figure(priors, lower_curve, upper_curve, prior, low, high, eps_text),
    width="stretch",
)
if pure:
    st.caption(
        "This holds after every output of any ε-DP mechanism, whatever the attacker knows, and "
        "it is tight: randomized response reaches it (at ε = ln 3, a 50% belief that Alice's "
        "true answer is “yes” becomes 75% after she reports “yes”)."
    )
elif not certain:
    st.warning(posterior_caveat(epsilon, delta, for_what="per release"))

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
sigma = None if pure else analytic_gaussian_sigma(1.0, epsilon, delta)
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
        "δ′ for advanced composition",
        options=[10.0**-e for e in range(12, 2, -1)],
        value=1e-6,
        key="attacker_delta_prime",
        format_func=format_delta,
        help="Advanced composition trades a little extra δ′ for a much smaller total ε.",
    )
ks = np.unique(np.concatenate([np.round(np.geomspace(1, 1000, 61)), [k_now]]))
curves = compose_releases(epsilon, delta, ks, delta_prime)
now = int(np.searchsorted(ks, k_now))
basic_eps, advanced_eps = curves.basic_epsilon[now], curves.advanced_epsilon[now]
total_delta = curves.advanced_delta[now]
gaussian_eps = curves.gaussian_epsilon[now] if curves.gaussian_epsilon is not None else None
if math.isnan(advanced_eps):
    st.warning(
        f"k·δ + δ′ = {total_delta:.3g} is not below 1: after {k_now:,} releases at "
        f"δ = {delta_text} the total guarantee is empty. Choose a smaller δ or fewer releases."
    )


cols = st.columns(3 if gaussian_eps is not None else 2)
cols[0].metric(
    "Basic: total ε",
    total_label(basic_eps),
    delta=f"δ = {format_delta(curves.basic_delta[now])}",
    delta_color="off",
)
cols[1].metric(
    "Advanced: total ε",
    total_label(advanced_eps),
    delta=f"δ = {format_delta(total_delta)}",
    delta_color="off",
)
if gaussian_eps is not None:
    cols[2].metric(
        "Gaussian, exact: total ε",
        total_label(gaussian_eps),
        delta=f"δ = {format_delta(total_delta)}",
        delta_color="off",
    )
st.plotly_chart(
    composition_figure(
        ks, curves.basic_epsilon, curves.advanced_epsilon, curves.gaussian_epsilon, k_now
    ),
    width="stretch",
)
if not math.isnan(advanced_eps):
    best = curves.tightest(now)
    totals = {"basic": basic_eps, "advanced": advanced_eps, "gaussian": gaussian_eps}
    best_eps = float(totals[best])
    best_delta = float(curves.basic_delta[now] if best == "basic" else total_delta)
    st.markdown(
        f"**At k = {k_now:,}, {ACCOUNTING[best]} gives the smallest total: "
        f"ε = {best_eps:.4g} (δ = {format_delta(best_delta)}).**"
        + (
            " Advanced composition grows like √k, so it wins once k is large enough."
            if best == "advanced"
            else ""
        )
    )
    if best == "gaussian":
        generic = curves.tightest(now, gaussian=False)
        st.caption(
            "That total holds when every release is the Gaussian mechanism. For other "
            f"({eps_text}, {delta_text})-DP mechanisms the best bound here is {ACCOUNTING[generic]}"
            f", ε = {totals[generic]:.4g}."
        )
    if not certain and loss_excess_probability(best_delta, SLACK) < 1:
        total_high = float(posterior_bounds(prior, best_eps)[1])
        st.markdown(
            f"**What that total means to the attacker:** starting from a {prior:.0%} prior, "
            f"after all {k_now:,} outputs they can be at most {percent(total_high)} sure Alice is "
            "in (section 1 at the total ε)"
            + ("." if best_delta == 0 else ", except on the rare outputs δ allows (below).")
        )
    if not certain and best_delta > 0:
        st.caption(posterior_caveat(best_eps, best_delta, for_what="in total"))
st.caption(
    "Basic composition keeps δ at k·δ; advanced composition and the exact Gaussian accounting "
    f"are both read at k·δ + δ′, with δ′ = {format_delta(delta_prime)}. "
    + (
        "The Gaussian curve needs δ > 0: turn off “pure ε-DP” to see it."
        if pure
        else "The exact Gaussian total uses that k Gaussian releases reveal exactly as much as "
        "one release with σ/√k."
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
        "ε is a cap on how much any single output can shift the attacker's odds: by e^ε. At ε = 1 "
        "a 50/50 guess becomes at most 73/27; at ε = 10 the cap is 99.995%, almost no protection.",
        "A prior near 0 or 1 moves little in absolute terms: DP limits the change in odds, not "
        "what the attacker knew before.",
        "δ > 0 means no cap holds for every output: rare outputs may reveal more. Keep δ tiny.",
        "Real mechanisms are often below the ceiling: the Laplace count's best test is weaker than "
        "what ε allows.",
        "Repeated releases add up. k·ε is safe but pessimistic; advanced composition grows like √k "
        "for small ε; the exact Gaussian accounting is tighter still.",
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
    st.markdown(
        "Posterior bound: Bayes' rule with the ε-DP likelihood ratio (Dwork & Roth, *The "
        "Algorithmic Foundations of Differential Privacy*, 2014, Def. 2.4; Kasiviswanathan & "
        "Smith, *On the ‘semantics’ of differential privacy*, 2014). The δ statement applies "
        "the (ε, δ) definition to the outputs with L > ε and Markov's inequality. Hypothesis "
        "testing: Wasserman & Zhou (2010), Kairouz, Oh & Viswanath, *The composition theorem "
        "for differential privacy* (2015), Thm 2.1; Gaussian trade-off: Dong, Roth & Su, "
        "*Gaussian differential privacy* (2019). Composition: Dwork & Roth Thm 3.16 (basic) and "
        "Thm 3.20 (advanced; Dwork, Rothblum & Vadhan 2010); exact Gaussian profile: Balle & "
        "Wang (2018), Thm 8. Checked against Google's dp-accounting (privacy loss distributions "
        "and the RDP accountant) and scipy in the tests."
    )
