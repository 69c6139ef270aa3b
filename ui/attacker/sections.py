"""The attacker page's settings and its first three sections: the guess, the best membership
test, many releases (section 4 is ui.attacker.floating_point)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import streamlit as st

from dp_core import attacks, composition, gaussian, laplace
from ui.attacker import charts as attacker_charts
from ui.common import charts
from ui.common.formatting import epsilon as total_label
from ui.common.formatting import number, odds_factor, percent
from ui.common.formatting import power_of_ten as format_delta
from ui.common.sections import Section, story
from ui.common.shell import page_rng, what_to_notice
from ui.common.widgets import delta_input, epsilon_input

# (ε, δ)-DP: the privacy loss exceeds ε + ln(10/9) with chance at most 10 δ.
SLACK = math.log(10 / 9)
K_OPTIONS = [1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500, 1000]
TRIALS = 2000  # simulated noisy answers per world
ACCOUNTING = {
    "basic": "basic composition (k·ε)",
    "advanced": "advanced composition",
    "optimal": "optimal composition (Kairouz, Oh & Viswanath)",
    "gaussian": "the exact accounting of the Gaussian mechanism",
}
RARE = "all but ≤ 10δ of outputs"  # where the bound at ε + ln(10/9) holds when δ > 0
ONLY_PURE = "every output only when δ = 0"
PRIORS = np.linspace(0.0, 1.0, 101)  # a 1% grid: smooth curves, a light chart to redraw
ALPHAS = np.unique(np.concatenate([np.linspace(0, 1, 201), np.geomspace(1e-6, 1, 100)]))
# thresholds spread over each noise's range, between n and n + 1 in the middle
Z = np.linspace(-2.5, 2.5, 11)
KS = np.round(np.geomspace(1, 1000, 61))


@dataclass(frozen=True)
class Settings:
    """The page's main controls: what every section depends on."""

    epsilon: float
    pure: bool
    delta: float  # 0 when pure
    prior: float  # the attacker's chance that Alice is in, before any output
    sigma: float | None  # analytic Gaussian σ for (ε, δ), sensitivity 1; None when pure

    @property
    def certain(self) -> bool:
        """A prior of 0 or 1: nothing to learn."""
        return self.prior in (0.0, 1.0)

    @property
    def eps_text(self) -> str:
        return number(self.epsilon)

    @property
    def delta_text(self) -> str:
        return format_delta(self.delta)


@st.fragment
def explore(sections: list[Section]) -> None:
    """ε, pure or not, δ, the prior, and the open section: an ε step reruns only this."""
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
    sigma = None if pure else gaussian.analytic_gaussian_sigma(1.0, epsilon, delta)
    story("attacker", sections, Settings(epsilon, pure, delta, prior, sigma))


def posterior_caveat(
    prior: float, eps: float, d: float, *, for_what: str, loss_tail: float | None = None
) -> str:
    """Why the ε bound is no promise about outputs when d > 0, and what holds (Markov bound).

    ``loss_tail``: the analytic Gaussian's exact chance that its privacy loss exceeds ε.
    """
    chance = attacks.loss_excess_probability(d, SLACK)
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
    eps_low, eps_high = (float(v) for v in attacks.posterior_bounds(prior, eps))
    low_t, high_t = (float(v) for v in attacks.posterior_bounds(prior, eps + SLACK))
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
def attackers_guess(s: Settings) -> None:
    """Section 1: the posterior bound after one output, for the prior chosen."""
    epsilon, delta, prior, pure = s.epsilon, s.delta, s.prior, s.pure
    st.markdown(
        "The attacker knows everything about everyone else and how the noise is added. One "
        "thing is unknown: is Alice in the data? They start with a belief (the prior), see one "
        "published output and update by Bayes' rule. ε-DP means no output is more than e^ε "
        "times likelier with Alice than without her, so the odds on “Alice is in” can grow or "
        f"shrink by at most e^ε = {odds_factor(epsilon)}."
        + ("" if pure else " With δ > 0 the promise is weaker: see below.")
    )
    rare_chance = attacks.loss_excess_probability(delta, SLACK)  # 10 δ, capped at 1; 0 if pure
    bounded = pure or rare_chance < 1
    # what holds: the ε bound for every output (δ = 0), else the bound at ε + ln(10/9) on all
    # outputs but a 10 δ chance; no bound at all when 10 δ >= 1
    eps_upper_curve = attacks.posterior_bounds(PRIORS, epsilon)[1]
    eps_low, eps_high = (float(v) for v in attacks.posterior_bounds(prior, epsilon))
    holding_eps = epsilon if pure else epsilon + SLACK
    if bounded:
        lower_curve, upper_curve = attacks.posterior_bounds(PRIORS, holding_eps)
        low, high = (float(v) for v in attacks.posterior_bounds(prior, holding_eps))
    else:
        # every posterior is possible except from a certain prior
        lower_curve = np.where(PRIORS < 1, 0.0, 1.0)
        upper_curve = np.where(PRIORS > 0, 1.0, 0.0)
        low, high = (prior, prior) if s.certain else (0.0, 1.0)
    _headline(s, bounded, rare_chance, holding_eps, low, high, eps_high)
    _posterior_metrics(s, bounded, holding_eps, low, high, eps_low, eps_high)
    if pure:
        labels = {"curve_label": f"possible posterior (ε = {s.eps_text})"}
    elif bounded:
        labels = {
            "curve_label": f"posterior on {RARE} (ε + ln(10/9) = {holding_eps:.4g})",
            "marker_note": f" ({RARE})",
            "epsilon_upper": eps_upper_curve,
            "epsilon_name": f"ε bound (ε = {s.eps_text}): {ONLY_PURE}",
        }
    else:
        labels = {
            "curve_label": "posterior: no promise (10δ ≥ 1)",
            "epsilon_upper": eps_upper_curve,
            "epsilon_name": f"ε bound (ε = {s.eps_text}): {ONLY_PURE}",
        }
    charts.show(
        attacker_charts.posterior(PRIORS, lower_curve, upper_curve, prior, low, high, **labels),
        key="attacker_posterior",
    )
    if pure:
        st.caption(
            "This holds after every output of any ε-DP mechanism, whatever the attacker knows "
            "beforehand (but see below on correlated records), and it is tight: randomized "
            "response reaches it (at ε = ln 3, a 50% belief that Alice's true answer is “yes” "
            "becomes 75% after she reports “yes”)."
        )
    elif not s.certain:
        tail = gaussian.gaussian_privacy_loss_tail(s.sigma, epsilon) if bounded else None
        st.warning(posterior_caveat(prior, epsilon, delta, for_what="per release", loss_tail=tail))
    st.caption(
        "What ε bounds is what the output reveals about the inclusion of Alice's data: “in” and "
        "“out” differ by her record(s) only. If other records are correlated with Alice's (her "
        "family's, or repeated records of hers that no per-person cap limits), an attacker can "
        "learn about Alice through them, and no bound here covers that: the bound is about the "
        "inclusion of her data, not about every fact about her."
    )


def _headline(
    s: Settings,
    bounded: bool,
    rare_chance: float,
    holding_eps: float,
    low: float,
    high: float,
    eps_high: float,
) -> None:
    """The sentence the section answers with: how sure the attacker can become."""
    prior = s.prior
    if s.certain:
        st.warning(
            f"A prior of {prior:.0%} means the attacker is already certain Alice is "
            f"{'in' if prior == 1 else 'out'}. Bayes' rule never moves a certain belief, so there "
            "is nothing to learn, and nothing for privacy to protect against this attacker. Move "
            "the prior inside (0, 1)."
        )
    elif s.pure:
        st.markdown(
            f"**If you thought Alice had a {prior:.0%} chance of being in the data, after seeing "
            f"the output you can be at most {percent(high)} sure she is in (and no less than "
            f"{percent(low)}), at ε = {s.eps_text}.**"
        )
    elif bounded:
        st.markdown(
            f"**If you thought Alice had a {prior:.0%} chance of being in the data, after seeing "
            f"the output you can be at most {percent(high)} sure she is in, except on outputs "
            f"whose total chance is at most 10δ = {format_delta(rare_chance)}: the bound at "
            f"ε + ln(10/9) = {holding_eps:.4g}.** Likewise no less than {percent(low)}, except "
            f"on other outputs of total chance at most 10δ. The bound at ε itself, "
            f"{percent(eps_high)}, holds for {ONLY_PURE} (below)."
        )
    else:
        st.markdown(
            f"**With δ = {s.delta_text}, the bound at ε + ln(10/9) promises nothing (10δ ≥ 1)**, "
            "and a mechanism that publishes Alice's record with chance δ meets (ε, δ)-DP. Choose "
            "a smaller δ to see a bound."
        )


def _posterior_metrics(
    s: Settings,
    bounded: bool,
    holding_eps: float,
    low: float,
    high: float,
    eps_low: float,
    eps_high: float,
) -> None:
    """Highest and lowest posterior and the odds factor, labelled with where they hold."""
    cols = st.columns(3)
    if s.pure:
        cols[0].metric("Highest posterior after any output", percent(high))
        cols[1].metric("Lowest posterior after any output", percent(low))
        cols[2].metric("Odds on “in” change at most", f"×{odds_factor(s.epsilon)}")
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
                f"×{odds_factor(s.epsilon)}",
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
            (
                f"Highest posterior, {RARE}",
                f"Lowest posterior, {RARE}",
                "Odds on “in” grow at most",
            ),
            strict=True,
        ):
            col.metric(
                label, "—", delta="10δ ≥ 1: no promise", delta_color="off", delta_arrow="off"
            )


# --- 2. The best membership test ------------------------------------------------------------
def membership_test(s: Settings) -> None:
    """Section 2: the ROC ceiling, the exact Laplace/Gaussian ROCs and simulated tests."""
    epsilon, delta, sigma = s.epsilon, s.delta, s.sigma
    laplace_b = laplace.laplace_scale(1, epsilon)
    st.markdown(
        "Now the attacker must decide: say “Alice is in” or “out”. Every such test has a "
        "**false positive rate** (says “in” when she is out) and a **true positive rate** (says "
        "“in” when she is in). (ε, δ)-DP caps the true positive rate at each false positive "
        "rate: no test, however clever, lies above the red line. Here the output is a count: n "
        "people without Alice, n + 1 with her, plus noise"
        + (
            f" from the Laplace mechanism (scale 1/ε = {laplace_b:.3g})."
            if sigma is None
            else f": Laplace (scale 1/ε = {laplace_b:.3g}, pure ε-DP) or the analytic "
            f"Gaussian for (ε, δ) (σ = {sigma:.3g})."
        )
    )
    rng = page_rng("attacker", "test")
    laplace_attack = attacks.simulate_threshold_attack(
        rng,
        noise="laplace",
        scale=laplace_b,
        thresholds=0.5 + laplace.laplace_std(laplace_b) * Z / 2,
        trials=TRIALS,
    )
    simulated = [
        (
            f"Laplace: simulated threshold tests ({TRIALS:,} answers per world)",
            laplace_attack.false_positive_rate,
            laplace_attack.true_positive_rate,
        )
    ]
    gaussian_curve, gaussian_attack = None, None
    if sigma is not None:
        gaussian_curve = attacks.gaussian_roc(ALPHAS, 1 / sigma)
        gaussian_attack = attacks.simulate_threshold_attack(
            rng, noise="gaussian", scale=sigma, thresholds=0.5 + sigma * Z, trials=TRIALS
        )
        simulated.append(
            (
                "Gaussian: simulated threshold tests",
                gaussian_attack.false_positive_rate,
                gaussian_attack.true_positive_rate,
            )
        )
    ceiling_name = (
        f"ceiling for any {s.eps_text}-DP output"
        if s.pure
        else f"ceiling for any ({s.eps_text}, {s.delta_text})-DP output"
    )
    charts.show(
        attacker_charts.roc(
            ALPHAS,
            attacks.roc_ceiling(ALPHAS, epsilon, delta),
            attacks.laplace_roc(ALPHAS, epsilon),
            gaussian_curve,
            simulated,
            ceiling_name,
        ),
        key="attacker_roc",
    )
    advantage = float(attacks.best_advantage(epsilon, delta))
    cols = st.columns(3 if sigma is not None else 2)
    cols[0].metric(
        "Best accuracy of any test (50/50 prior)",
        percent(float(attacks.attacker_accuracy(advantage))),
        delta=f"advantage TPR − FPR ≤ {advantage:.4g}",
        delta_color="off",
        delta_arrow="off",
    )
    laplace_adv = float(attacks.laplace_advantage(epsilon))
    cols[1].metric(
        "Laplace count: best accuracy (exact)",
        percent(float(attacks.attacker_accuracy(laplace_adv))),
        delta=f"advantage {laplace_adv:.4g}",
        delta_color="off",
        delta_arrow="off",
    )
    if sigma is not None:
        gaussian_adv = float(attacks.gaussian_advantage(1 / sigma))
        cols[2].metric(
            "Gaussian count: best accuracy (exact)",
            percent(float(attacks.attacker_accuracy(gaussian_adv))),
            delta=f"advantage {gaussian_adv:.4g}",
            delta_color="off",
            delta_arrow="off",
        )
    st.caption(
        "Accuracy = chance of guessing right when in and out are equally likely beforehand, "
        "(1 + TPR − FPR) / 2 for the best test. Simulated: the best of these threshold tests "
        f"reached TPR − FPR = {laplace_attack.best_advantage:.3f} on Laplace answers"
        + (
            f" and {gaussian_attack.best_advantage:.3f} on Gaussian ones"
            if gaussian_attack is not None
            else ""
        )
        + " (a noisy estimate, new with every draw). "
        + (
            f"At δ = 0 the best accuracy equals the posterior bound at a 50% prior, "
            f"{percent(float(attacks.posterior_bounds(0.5, epsilon)[1]))}."
            if s.pure
            else ""
        )
    )


# --- 3. Many releases -----------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def _composed(
    epsilon: float, delta: float, k_now: int, delta_prime: float
) -> tuple[np.ndarray, composition.CompositionCurves]:
    """The four totals over k = 1 … 1,000 (k_now included); exact, so computed once."""
    ks = np.unique(np.concatenate([KS, [k_now]]))
    return ks, composition.compose_releases(epsilon, delta, ks, delta_prime)


@st.fragment
def many_releases(s: Settings) -> None:
    """Section 3: k releases by four accountings, what the total means, averaging attacks.

    A fragment: moving k or δ′ reruns this section only.
    """
    st.markdown(
        "Each release is one (ε, δ) output like the ones in the first two sections. An "
        "attacker who sees k of them about Alice learns more: the totals below bound what all "
        "k outputs together reveal."
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
    ks, curves = _composed(s.epsilon, s.delta, k_now, delta_prime)
    now = int(np.searchsorted(ks, k_now))
    totals = _totals(curves, now)
    advanced_eps, total_delta = totals["advanced"][0], curves.advanced_delta[now]
    if math.isnan(advanced_eps):
        st.warning(
            f"k·δ + δ′ = {total_delta:.3g} is not below 1: after {k_now:,} releases at "
            f"δ = {s.delta_text} the total guarantee is empty. Choose a smaller δ or fewer "
            "releases."
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
    charts.show(
        attacker_charts.composition(
            ks,
            curves.basic_epsilon,
            curves.advanced_epsilon,
            curves.optimal_epsilon,
            curves.gaussian_epsilon,
            k_now,
        ),
        key="attacker_composition",
    )
    best_eps, best_delta = math.nan, math.nan
    if not math.isnan(advanced_eps):
        best_eps, best_delta = _best_total(s, curves, now, totals, k_now, delta_prime)
    st.caption(
        "Basic composition keeps δ at k·δ; advanced and optimal composition and the exact "
        f"Gaussian accounting are read at k·δ + δ′, with δ′ = {format_delta(delta_prime)}. The "
        "optimal total is exact for any (ε, δ)-DP mechanisms (the worst is randomized response "
        "that reveals the input with chance δ); basic and advanced composition are simpler "
        "upper bounds on it. "
        + (
            "The Gaussian curve needs δ > 0: turn off “pure ε-DP” to see it."
            if s.pure
            else "The exact Gaussian total uses that k Gaussian releases reveal exactly as much "
            "as one release with σ/√k; it is never above the optimal total."
        )
    )
    _averaging(s, k_now, advanced_eps, best_eps, best_delta)


def _totals(curves: composition.CompositionCurves, now: int) -> dict[str, tuple]:
    """(total ε, total δ, metric label, note) per accounting at ks[now]."""
    total_delta = curves.advanced_delta[now]
    totals = {
        "basic": (curves.basic_epsilon[now], curves.basic_delta[now], "Basic: total ε", None),
        "advanced": (
            curves.advanced_epsilon[now],
            total_delta,
            "Advanced: total ε",
            "Dwork, Rothblum & Vadhan; Dwork & Roth Thm 3.20: √(2k ln(1/δ′))·ε + kε(e^ε − 1).",
        ),
        "optimal": (
            curves.optimal_epsilon[now],
            total_delta,
            "Optimal: total ε",
            "Kairouz, Oh & Viswanath (2015), Thm 3.3: the smallest total ε at this total δ that "
            "holds for k releases of any (ε, δ)-DP mechanisms; randomized response reaches it.",
        ),
    }
    if curves.gaussian_epsilon is not None:
        totals["gaussian"] = (
            curves.gaussian_epsilon[now],
            total_delta,
            "Gaussian, exact: total ε",
            "Holds only when every release is the Gaussian mechanism: k releases reveal what one "
            "with σ/√k does.",
        )
    return totals


def _best_total(
    s: Settings,
    curves: composition.CompositionCurves,
    now: int,
    totals: dict[str, tuple],
    k_now: int,
    delta_prime: float,
) -> tuple[float, float]:
    """Which accounting wins, why advanced composition may lose, and what the total means to
    the attacker; returns the best (total ε, total δ)."""
    best = curves.tightest(now)
    best_eps, best_delta = float(totals[best][0]), float(totals[best][1])
    smaller = [name for name in totals if totals[name][0] < best_eps]
    st.markdown(
        f"**At k = {k_now:,}, {ACCOUNTING[best]} gives the best total: "
        f"ε = {best_eps:.4g} (δ = {format_delta(best_delta)}).**"
        + (
            " It is exact: no smaller total ε at this total δ holds for every k releases of "
            f"({s.eps_text}, {s.delta_text})-DP mechanisms, and randomized response reaches it."
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
            f"({s.eps_text}, {s.delta_text})-DP mechanisms the best bound here is "
            f"{ACCOUNTING[generic]}, ε = {totals[generic][0]:.4g}."
        )
    basic_eps, advanced_eps = totals["basic"][0], totals["advanced"][0]
    crossover = composition.advanced_composition_crossover(s.epsilon, delta_prime)
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
    total_chance = attacks.loss_excess_probability(best_delta, SLACK)
    if not s.certain and (best_delta == 0 or total_chance < 1):
        exact = best_delta == 0
        holding = best_eps if exact else best_eps + SLACK
        total_high = float(attacks.posterior_bounds(s.prior, holding)[1])
        st.markdown(
            f"**What that total means to the attacker:** starting from a {s.prior:.0%} prior, "
            f"after all {k_now:,} outputs they can be at most {percent(total_high)} sure Alice "
            "is in"
            + (
                " (section 1 at the total ε)."
                if exact
                else f", except on outputs whose total chance is at most 10δ = "
                f"{format_delta(total_chance)} (section 1 at the total ε + ln(10/9) = "
                f"{best_eps + SLACK:.4g})."
            )
        )
    if not s.certain and best_delta > 0:
        st.caption(posterior_caveat(s.prior, best_eps, best_delta, for_what="in total"))
    return best_eps, best_delta


def _averaging(
    s: Settings, k_now: int, advanced_eps: float, best_eps: float, best_delta: float
) -> None:
    """The averaging attack: the noise on the mean of k answers and what it gives away."""
    st.subheader("The averaging attack")
    sigma = s.sigma
    if sigma is not None:
        one, averaged = sigma, sigma / math.sqrt(k_now)
        noise_name = "Gaussian σ"
    else:
        std = laplace.laplace_std(laplace.laplace_scale(1, s.epsilon))
        one, averaged = std, std / math.sqrt(k_now)
        noise_name = "Laplace std"
    cols = st.columns(3)
    cols[0].metric(f"Noise on one answer ({noise_name})", f"{one:.4g}")
    cols[1].metric(f"Noise on the average of {k_now:,} answers", f"{averaged:.4g}")
    if sigma is not None:
        averaged_adv = float(attacks.gaussian_advantage(math.sqrt(k_now) / sigma))
        one_accuracy = float(attacks.attacker_accuracy(attacks.gaussian_advantage(1 / sigma)))
        cols[2].metric(
            f"Accuracy from the average of {k_now:,}",
            percent(float(attacks.attacker_accuracy(averaged_adv))),
            delta=f"one answer: {percent(one_accuracy)}",
            delta_color="off",
            delta_arrow="off",
        )
    elif not math.isnan(advanced_eps):
        cols[2].metric(
            f"Any test on {k_now:,} answers: accuracy ≤",
            percent(float(attacks.attacker_accuracy(attacks.best_advantage(best_eps, best_delta)))),
            delta=f"from the total ε = {best_eps:.4g}",
            delta_color="off",
            delta_arrow="off",
        )
    st.caption(
        f"Asking the same question k times and averaging shrinks the noise by √k = "
        f"{math.sqrt(k_now):.3g}: the count n or n + 1 shows through, and telling the two apart "
        "gets easy. "
        + (
            "For Gaussian noise the average is all the attacker needs: the k answers reveal "
            "exactly what one answer with σ/√k would, which is why the exact total ε above is "
            "that of σ/√k, and the accuracy is the best any test on the k answers can reach."
            if sigma is not None
            else "Averaging is not the best test on Laplace answers; any test on the k answers "
            "stays below the accuracy that the total ε above allows."
        )
    )


def closing() -> None:
    """What to notice, and the formulas with their sources."""
    what_to_notice(
        [
            "With δ = 0, ε caps how much any single output can shift the attacker's odds: by "
            "e^ε. At ε = 1 a 50/50 guess becomes at most 73/27; at ε = 10 the cap is 99.995%, "
            "almost no protection.",
            "A prior near 0 or 1 moves little in absolute terms: DP limits the change in odds, "
            "not what the attacker knew before.",
            "δ > 0 means the ε cap is no promise about every output, nor about all but a δ share "
            "of them: what holds is a slightly looser cap (at ε + ln(10/9)) on all outputs but a "
            "10δ share, and the rest may reveal more. Keep δ tiny.",
            "DP protects the inclusion of Alice's data. Records correlated with hers (her "
            "family's, or her own repeated records that no cap limits) can still tell an "
            "attacker about her.",
            "Real mechanisms are often below the ceiling: the Laplace count's best test is "
            "weaker than what ε allows.",
            "Repeated releases add up. k·ε is safe but pessimistic. Advanced composition's first "
            "term grows like √k, but its kε(e^ε − 1) term grows linearly in k: it helps only for "
            "ε < ln 2 and many releases. Optimal composition is the exact total for any "
            "mechanisms; the exact Gaussian accounting, for Gaussian noise only, is never above "
            "it.",
            "The guarantee is about real-valued noise. Naive floating-point noise, like numpy's "
            "that the charts use, can give the input away for certain whatever ε says; a real "
            "release needs a sampler built for it, such as OpenDP's.",
        ]
    )
    # Lazy: its seven formulas are most of the page's elements (KaTeX draws each symbol), and
    # the browser walks every element after each slider step; they are drawn only when open.
    formula = st.expander("The formula", key="attacker_formula", on_change="rerun")
    if formula.open:
        with formula:
            _formulas()


def _formulas() -> None:
    """The page's formulas and their sources."""
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
        r"\max(\text{TPR}-\text{FPR}) = "
        r"\frac{e^{\varepsilon} - 1 + 2\delta}{e^{\varepsilon} + 1}"
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
    st.latex(
        r"\text{numpy: noise}(k) = b\ln(2U)\ (U < \tfrac12),\ "
        r"-b\ln(2 - 2U)\ (U \ge \tfrac12),\ U = k\,2^{-53};\quad "
        r"y \text{ reachable from } x \iff \exists k:\ x \oplus \mathrm{noise}(k) = y"
    )
    st.markdown(
        "Posterior bound: Bayes' rule with the ε-DP likelihood ratio (Dwork & Roth, *The "
        "Algorithmic Foundations of Differential Privacy*, 2014, Def. 2.4; Kasiviswanathan & "
        "Smith, *On the ‘semantics’ of differential privacy*, 2014). The δ statement applies "
        "the (ε, δ) definition to the outputs with L > ε and Markov's inequality. Hypothesis "
        "testing: Wasserman & Zhou (2010), Kairouz, Oh & Viswanath, *The composition theorem "
        "for differential privacy* (2015), Thm 2.1; Gaussian trade-off: Dong, Roth & Su, "
        "*Gaussian differential privacy* (2019). Composition: Dwork & Roth Thm 3.16 (basic) "
        "and Thm 3.20 (advanced; Dwork, Rothblum & Vadhan 2010); optimal: Kairouz, Oh & "
        "Viswanath (2015), Thm 3.3; exact Gaussian profile: Balle & Wang (2018), Thm 8. "
        "Checked against Google's dp-accounting (privacy loss distributions and the RDP "
        "accountant) and scipy in the tests. Floating-point attack: Mironov, *On significance "
        "of the least significant bits for differential privacy* (CCS 2012), run against "
        "numpy's random_laplace (⊕ is float64 addition); OpenDP's samplers: Canonne, Kamath & "
        "Steinke (2020), on the grid 2⁻¹⁰⁰."
    )
