"""The Gaussian mechanism: what delta buys, classic vs analytic sigma, Gaussian vs Laplace."""

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import (
    analytic_gaussian_sigma,
    analytic_gaussian_sigmas,
    classic_gaussian_sigma,
    first_k_gaussian_wins,
    gaussian_delta_for,
    gaussian_epsilon_for,
    gaussian_expected_abs_error,
    gaussian_half_width,
    gaussian_mechanism,
    gaussian_pdf,
    gaussian_privacy_loss_tail,
    gaussian_zcdp_rho,
    laplace_expected_abs_error,
    laplace_gaussian_crossover,
    laplace_half_width,
    laplace_mechanism,
    laplace_pdf,
    laplace_scale,
    laplace_std,
    noise_per_statistic,
    sample_gaussian,
    sample_laplace,
)
from ui.common.formatting import number as format_number
from ui.common.formatting import power_of_ten as format_delta
from ui.common.shell import page_header, page_rng, what_to_notice
from ui.common.widgets import delta_input, epsilon_input
from ui.export import download_results
from ui.figures import noisy_vs_true_bars
from ui.gaussian_figures import (
    noise_densities_figure,
    noise_per_statistic_figure,
    sigma_vs_delta_figure,
)
from ui.query_picker import pick_query

MECHANISMS = {
    "laplace": "Laplace (pure ε-DP)",
    "classic": "Classic Gaussian",
    "analytic": "Analytic Gaussian",
}
NAMES = {"laplace": "Laplace", "classic": "classic Gaussian", "analytic": "analytic Gaussian"}
K_MAX = 100
DRAWS = 100_000

page_header(
    "Gaussian mechanism",
    "What does delta buy, and when does Gaussian noise beat Laplace?",
    "Keep δ at 10⁻⁵ and move ε above 1: the classic σ greys out while the analytic one "
    "carries on. Then, under “One person affects k statistics”, set k to 20 and see which "
    "noise is smaller.",
)

query = pick_query("gaussian")
epsilon = epsilon_input("gaussian_epsilon", default=1.0)
delta = delta_input("gaussian_delta", default=1e-5)
mechanism = st.radio(
    "Mechanism for the noisy answers",
    list(MECHANISMS),
    format_func=MECHANISMS.get,
    index=2,
    horizontal=True,
    key="gaussian_mechanism",
)

rng = page_rng("gaussian")
# Laplace covers the L1 sensitivity, Gaussian the L2 one (they differ when a person owns
# rows in several statistics).
l1 = query.sensitivity if query is not None else 1.0
l2 = query.l2_sensitivity if query is not None else 1.0
eps_text, delta_text = format_number(epsilon), format_delta(delta)
laplace_b = laplace_scale(l1, epsilon)
analytic_sigma = analytic_gaussian_sigma(l2, epsilon, delta)
try:
    classic_sigma: float | None = classic_gaussian_sigma(l2, epsilon, delta)
    classic_reason = ""
except ValueError as error:
    classic_sigma, classic_reason = None, str(error)
sigmas = {"classic": classic_sigma, "analytic": analytic_sigma}

# --- Noisy vs true -------------------------------------------------------------------------
st.header("Noisy vs true answers")
if query is None:
    st.caption("The sections below use sensitivity 1 until the query above can run.")
elif mechanism == "classic" and classic_sigma is None:
    st.warning(f"{classic_reason} Pick the analytic Gaussian or Laplace to see noisy answers.")
elif query.kind == "mean":
    release = query.release_mean(rng, epsilon=epsilon, mechanism=mechanism, delta=delta)
    noisy, half_width = release.noisy_mean, release.half_width
    guarantee = (
        f"({eps_text}, 0)-DP" if mechanism == "laplace" else f"({eps_text}, {delta_text})-DP"
    )
    st.markdown(
        f"**With the {NAMES[mechanism]} mechanism, a noisy sum over a noisy count with half the "
        f"budget each, each mean is within ±{half_width.min():.3g} to ±{half_width.max():.3g} "
        "of the clipped mean 95% of the time (largest groups are the most accurate; simulated "
        "from the true data, so these bands are a teaching aid, not themselves private).**"
    )
    cols = st.columns([1.6, 1, 1])  # the guarantee, e.g. "(0.01, 10⁻¹²)-DP", needs room
    cols[0].metric("Guarantee", guarantee)
    cols[1].metric(
        "Expected |error| (median group)", f"{np.median(release.expected_abs_error):,.4g}"
    )
    cols[2].metric("95% half-width (median group)", f"{np.median(half_width):,.4g}")
    st.caption(
        "Each half is calibrated on its own (ε/2, δ/2); the sections below show the noise for "
        "the clipped sum or a count released alone with the whole budget."
    )
else:
    if mechanism == "laplace":
        noisy = laplace_mechanism(rng, query.true_values, sensitivity=l1, epsilon=epsilon)
        std, half_width = laplace_std(laplace_b), laplace_half_width(laplace_b)
        mean_abs, guarantee = laplace_expected_abs_error(laplace_b), f"({eps_text}, 0)-DP"
    else:
        noisy = gaussian_mechanism(
            rng,
            query.true_values,
            sensitivity=l2,
            epsilon=epsilon,
            delta=delta,
            calibration=mechanism,
        )
        std = sigmas[mechanism]
        half_width, mean_abs = gaussian_half_width(std), gaussian_expected_abs_error(std)
        guarantee = f"({eps_text}, {delta_text})-DP"
    st.markdown(
        f"**With the {NAMES[mechanism]} mechanism at ε = {eps_text}"
        + ("" if mechanism == "laplace" else f" and δ = {delta_text}")
        + f", each {query.value_name} is within ±{half_width:,.3g} of the truth 95% of the "
        "time, whatever the true value.**"
    )
    cols = st.columns([1.6, 1, 1, 1])  # the guarantee, e.g. "(0.01, 10⁻¹²)-DP", needs room
    cols[0].metric("Guarantee", guarantee)
    cols[1].metric("Noise standard deviation", f"{std:,.4g}")
    cols[2].metric("Expected |error|", f"{mean_abs:,.4g}")
    cols[3].metric("95% half-width (exact)", f"{half_width:,.4g}")
if query is not None and not (mechanism == "classic" and classic_sigma is None):
    shown = slice(0, 30)
    if len(query.labels) > 30:
        st.caption(f"The chart shows the 30 largest of {len(query.labels)} groups.")
    st.plotly_chart(
        noisy_vs_true_bars(
            query.labels[shown],
            query.true_values[shown],
            noisy[shown],
            half_width,
            value_name=query.value_name,
        ),
        width="stretch",
    )
    download_results(
        pd.DataFrame(
            {
                "group": query.labels,
                f"true {query.value_name}": query.true_values,
                f"noisy {query.value_name}": noisy,
                "95% half-width": np.broadcast_to(half_width, noisy.shape),
            }
        ),
        name="gaussian_results",
        settings={
            "mechanism": NAMES[mechanism],
            "query": query.description,
            "epsilon": eps_text,
            "delta": "0" if mechanism == "laplace" else f"{delta:g}",
            "sensitivity (L1, L2)": f"{l1:g}, {l2:.6g}",
        },
        key="gaussian_download",
    )
    if l1 != l2:
        st.caption(
            f"One person can change several of these statistics: Laplace noise must cover the "
            f"L1 sensitivity {l1:g}, Gaussian noise only the L2 sensitivity {l2:.4g} (see “One "
            "person affects k statistics” below)."
        )

# --- Classic vs analytic sigma ------------------------------------------------------------
st.header("How much noise: classic vs analytic σ")
st.markdown(
    ("Both calibrations give" if classic_sigma is not None else "The analytic calibration gives")
    + f" ({eps_text}, {delta_text})-DP for a query of L2 sensitivity "
    f"{l2:.4g} (L1 sensitivity {l1:g}, for Laplace). The classic formula is a simple "
    "sufficient bound; the analytic one is the smallest σ that works, read off the Gaussian's "
    "exact privacy curve."
)
cols = st.columns(4)
cols[0].metric(
    "Laplace scale b = Δ₁/ε (δ = 0)",
    f"{laplace_b:,.4g}",
    help=f"Its standard deviation is √2·b = {laplace_std(laplace_b):,.4g}.",
)
if classic_sigma is None:
    cols[1].metric("Classic σ (Dwork & Roth)", "—")
    cols[1].markdown(
        f":grey[Does not apply at ε = {eps_text}: its proof (Dwork & Roth 2014, Thm A.1) "
        "needs ε < 1, so it would be a guarantee without proof.]"
    )
    cols[3].metric("Ratio classic / analytic", "—")
else:
    cols[1].metric("Classic σ (Dwork & Roth)", f"{classic_sigma:,.4g}")
    cols[3].metric("Ratio classic / analytic", f"{classic_sigma / analytic_sigma:.3f}")
cols[2].metric("Analytic σ (Balle & Wang)", f"{analytic_sigma:,.4g}")
if classic_sigma is not None:
    st.caption(
        f"The classic σ = {classic_sigma:,.4g} in fact buys ε = "
        f"{gaussian_epsilon_for(classic_sigma, delta, l2):.4g} at δ = {delta_text} "
        f"(exact), not just ε = {eps_text}: it adds "
        f"{classic_sigma / analytic_sigma - 1:.0%} more noise than needed."
    )
st.caption(
    f"In zero-concentrated DP terms the analytic σ gives ρ = Δ²/(2σ²) = "
    f"{gaussian_zcdp_rho(analytic_sigma, l2):.4g}."
)

deltas = np.logspace(-12, -2, 41)
analytic_curve = analytic_gaussian_sigmas(l2, epsilon, deltas)
classic_curve = (
    np.array([classic_gaussian_sigma(l2, epsilon, d) for d in deltas])
    if classic_sigma is not None
    else None
)
st.subheader(f"σ against δ at ε = {eps_text}")
st.plotly_chart(
    sigma_vs_delta_figure(deltas, analytic_curve, classic_curve, laplace_std(laplace_b), delta),
    width="stretch",
)
st.caption(
    f"From δ = 10⁻² down to 10⁻¹², ten billion times smaller, the analytic σ grows only "
    f"×{analytic_curve[0] / analytic_curve[-1]:.2f}: noise grows roughly like √ln(1/δ), so a "
    "tiny δ is cheap. Laplace noise (dotted) needs no δ at all."
)

# --- The two noise densities --------------------------------------------------------------
gaussian_kind = mechanism if mechanism != "laplace" and sigmas[mechanism] else "analytic"
sigma = sigmas[gaussian_kind]
st.header(f"Laplace vs Gaussian noise at ε = {eps_text}")
laplace_draws = sample_laplace(rng, laplace_b, DRAWS)
gaussian_draws = sample_gaussian(rng, sigma, DRAWS)
reach = max(laplace_half_width(laplace_b, 0.995), gaussian_half_width(sigma, 0.995))
x = np.linspace(-reach, reach, 401)
st.plotly_chart(
    noise_densities_figure(
        x,
        laplace_pdf(laplace_b, x),
        laplace_draws,
        gaussian_pdf(sigma, x),
        gaussian_draws,
        f"{MECHANISMS[gaussian_kind]} (δ = {delta_text})",
    ),
    width="stretch",
)
laplace_half, gaussian_half = laplace_half_width(laplace_b), gaussian_half_width(sigma)
st.caption(
    f"Laplace: 95% within ±{laplace_half:,.3g} (exact); "
    f"{np.mean(np.abs(laplace_draws) <= laplace_half):.1%} of {DRAWS:,} fresh draws. "
    f"Gaussian σ = {sigma:,.3g}: 95% within ±{gaussian_half:,.3g} (exact); "
    f"{np.mean(np.abs(gaussian_draws) <= gaussian_half):.1%} of the draws. "
    f"Laplace has a sharp peak and heavy tails; the Gaussian is "
    f"{'wider' if sigma > laplace_std(laplace_b) else 'narrower'} here (standard deviation "
    f"{sigma:,.3g} against {laplace_std(laplace_b):,.3g}) and its tails die off much faster."
)

# --- One person affects k statistics ------------------------------------------------------
st.header("One person affects k statistics")
st.markdown(
    "If one person can change **k** published statistics by at most 1 each (a histogram over "
    "k days, k answers in a survey), the L1 sensitivity is k but the L2 sensitivity only √k. "
    "Laplace noise must grow like k, Gaussian noise only like √k."
)
k_now = st.slider("k: statistics one person can change", 1, K_MAX, 10, key="gaussian_k")
crossover = laplace_gaussian_crossover(epsilon, delta)
first_k = first_k_gaussian_wins(crossover)
ks = np.arange(1, min(K_MAX, max(20, 3 * first_k, k_now)) + 1)  # chart range around the action
laplace_k, analytic_k = noise_per_statistic(ks, epsilon, delta)
classic_k = (
    noise_per_statistic(ks, epsilon, delta, calibration="classic")[1]
    if classic_sigma is not None
    else None
)
laplace_now, gaussian_now = laplace_k[k_now - 1], analytic_k[k_now - 1]
if gaussian_now < laplace_now:
    st.success(
        f"**For k = {k_now}, pick the Gaussian mechanism** (analytic σ): its noise on each "
        f"statistic has standard deviation {gaussian_now:,.3g}, against {laplace_now:,.3g} for "
        f"Laplace, if a δ of {delta_text} is acceptable."
    )
else:
    st.success(
        f"**For k = {k_now}, pick the Laplace mechanism**: its noise on each statistic has "
        f"standard deviation {laplace_now:,.3g}, against {gaussian_now:,.3g} for the analytic "
        "Gaussian, and it gives pure ε-DP (δ = 0)."
    )
cols = st.columns(2)
cols[0].metric("Break-even k (equal noise std)", f"{crossover:.2f}")
cols[1].metric("Gaussian noise is smaller from k =", f"{first_k}")
st.plotly_chart(
    noise_per_statistic_figure(ks, laplace_k, analytic_k, classic_k, crossover, k_now),
    width="stretch",
)
crossover_abs = laplace_gaussian_crossover(epsilon, delta, measure="mean_abs")
st.caption(
    f"Noise compared by standard deviation (the root mean squared error): Laplace √2·k/ε, "
    f"Gaussian √k·σ₁ with σ₁ the analytic σ for sensitivity 1, equal at k = (ε σ₁)²/2 = "
    f"{crossover:.2f}. Compared by expected absolute error instead, the break-even is "
    f"k = {crossover_abs:.2f}."
)

# --- What delta means ---------------------------------------------------------------------
st.header("What δ means")
st.markdown(
    "**In plain words.** A mechanism is (ε, δ)-DP when, for any set of outputs an attacker "
    "might look for, its probability with your data is at most e^ε times its probability "
    "without your data, **plus δ**. So δ is an extra allowance of probability that the e^ε "
    "factor does not have to cover. It is often read as “the chance the guarantee fails”, "
    "but that undersells it: the privacy loss can exceed ε more often than δ (see below). "
    "Laplace noise needs no δ. Gaussian noise always needs "
    "some, because far out in its tails the ratio of the two bell curves (with and without "
    "you) grows without limit, so no ε covers every output."
)
loss_tail = gaussian_privacy_loss_tail(sigma, epsilon, l2)
exact_delta = float(gaussian_delta_for(sigma, epsilon, l2))
st.markdown(
    f"**Precisely, for the {NAMES[gaussian_kind]} mechanism here** "
    f"(σ = {sigma:,.4g}): the privacy loss of an output, the log of how much more likely it "
    "is with one person's data than without, is itself normally distributed, with mean ρ and "
    f"variance 2ρ (ρ = {gaussian_zcdp_rho(sigma, l2):.4g}). The chance that it "
    f"exceeds ε = {eps_text} is P(loss > ε) = {format_delta(loss_tail)}. The exact δ at this "
    f"ε is smaller, {format_delta(exact_delta)}: it counts only the probability of those "
    "outputs beyond e^ε times their probability without the person, "
    "δ = P(loss > ε) − e^ε·P′(loss > ε). So reading δ as “ε holds except with probability δ” "
    f"undersells the chance of a loss above ε (here ×{loss_tail / exact_delta:,.3g}); what δ "
    "bounds is the excess."
)
n = query.n_persons if query is not None else None
if n:
    st.markdown(
        f"**Rule of thumb: δ much smaller than 1/n**, with n the number of people in the data. "
        f"Here n = {n:,} people, so 1/n = {format_delta(1 / n)}"
        + (
            f": δ = {delta_text} is {1 / (delta * n):,.{0 if delta * n < 0.1 else 2}f} times "
            "smaller."
            if delta * n < 1
            else f", and δ = {delta_text} is not smaller."
        )
    )
    if delta * n >= 1:
        st.warning(
            f"δ = {delta_text} is at least 1/n = {format_delta(1 / n)}. Publishing the full "
            "record of one person picked at random satisfies (0, 1/n)-DP, so a δ this large "
            "allows a mechanism that exposes someone completely. Choose δ well below 1/n.",
            icon=":material/warning:",
        )
st.caption(
    "Smaller δ is safer and, as the σ-against-δ chart shows, costs little noise. δ = 0 is pure "
    "DP, which the Gaussian mechanism cannot give: use the Laplace mechanism for that."
)

what_to_notice(
    [
        "Gaussian noise buys its bell shape with δ > 0: a small additive slack on top of the e^ε "
        "factor, which must be kept far below 1/n.",
        "Making δ a million times smaller costs little extra noise: σ grows roughly like √ln(1/δ).",
        "The classic formula is proven only for ε < 1 and overshoots; the analytic σ is the exact "
        "minimum for every ε.",
        "For one statistic, Laplace adds less noise. When one person touches many statistics, "
        "Gaussian noise grows with √k instead of k and wins past the break-even k.",
        "Keep δ far below 1/n: δ ≥ 1/n would allow publishing a random person's whole record.",
    ]
)

with st.expander("The formula"):
    st.latex(
        r"M(x) = f(x) + \mathcal{N}(0, \sigma^2),\qquad "
        r"\Delta_2 f = \max_{x \simeq x'} \lVert f(x) - f(x') \rVert_2"
    )
    st.latex(
        r"\text{classic } (0<\varepsilon<1):\quad "
        r"\sigma = \frac{\sqrt{2\ln(1.25/\delta)}\,\Delta_2 f}{\varepsilon}"
    )
    st.latex(
        r"\text{analytic: smallest } \sigma \text{ with }\; "
        r"\Phi\!\left(\tfrac{\Delta}{2\sigma} - \tfrac{\varepsilon\sigma}{\Delta}\right)"
        r" - e^{\varepsilon}\,\Phi\!\left(-\tfrac{\Delta}{2\sigma} - "
        r"\tfrac{\varepsilon\sigma}{\Delta}\right) \le \delta"
    )
    st.latex(
        r"E|Z| = \sigma\sqrt{2/\pi},\quad t_{95\%} = 1.96\,\sigma,\quad "
        r"P(|Z|>t) = 2\Phi(-t/\sigma),\quad \rho = \frac{\Delta^2}{2\sigma^2}"
    )
    st.latex(
        r"k \text{ statistics: } \Delta_1 = k,\ \Delta_2 = \sqrt{k};\quad "
        r"\sqrt{2}\,k/\varepsilon = \sqrt{k}\,\sigma_1 \iff "
        r"k^* = (\varepsilon\sigma_1)^2/2"
    )
    st.markdown(
        "Dwork & Roth, *The Algorithmic Foundations of Differential Privacy* (2014), Thm A.1 "
        "(classic σ, proven for ε < 1). Balle & Wang, *Improving the Gaussian Mechanism for "
        "Differential Privacy: Analytical Calibration and Optimal Denoising*, ICML 2018, "
        "Thm 8 (exact privacy curve; σ found here by bisection, within 10⁻⁹ of the exact "
        "value and never below it). Bun & Steinke (2016), Prop 1.6 (zCDP ρ). Checked against "
        "Google's dp-accounting, IBM's diffprivlib and OpenDP in the tests."
    )
