"""The attacker page's settings, its first two sections (the guess, the best membership test)
and its closing (section 3 is ui.attacker.releases, section 4 ui.attacker.floating_point)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import attacks, gaussian, laplace
from ui.attacker import charts as attacker_charts
from ui.attacker.exercises import EXERCISES
from ui.common import charts
from ui.common.catalog import entry
from ui.common.exercises import section_exercises
from ui.common.export import Export, export_buttons
from ui.common.formatting import count, fixed, number, odds_factor, percent, significant
from ui.common.formatting import power_of_ten as format_delta
from ui.common.i18n import N_, _
from ui.common.sections import Section, story
from ui.common.shell import formula_box, page_rng, presenter_row, what_to_notice
from ui.common.widgets import delta_input, epsilon_input

# (ε, δ)-DP: the privacy loss exceeds ε + ln(10/9) with chance at most 10 δ.
SLACK = math.log(10 / 9)
TRIALS = 2000  # simulated noisy answers per world
PRIORS = np.linspace(0.0, 1.0, 101)  # a 1% grid: smooth curves, a light chart to redraw
TABLE_PRIORS = (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99)  # the table's rows
ALPHAS = np.unique(np.concatenate([np.linspace(0, 1, 201), np.geomspace(1e-6, 1, 100)]))
# thresholds spread over each noise's range, between n and n + 1 in the middle
Z = np.linspace(-2.5, 2.5, 11)


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

    @property
    def rare_chance(self) -> float:
        """10 δ, capped at 1 (0 when pure): the outputs on which the bound at ε + ln(10/9) may
        fail."""
        return float(attacks.loss_excess_probability(self.delta, SLACK))

    @property
    def bounded(self) -> bool:
        """Whether any posterior bound holds: always at δ = 0, else when 10 δ < 1."""
        return self.pure or self.rare_chance < 1

    @property
    def holding_epsilon(self) -> float:
        """The ε whose posterior bound holds: ε itself at δ = 0, else ε + ln(10/9)."""
        return self.epsilon if self.pure else self.epsilon + SLACK


def listed(values: list[str]) -> str:
    """0.1, 0.3, 1 and 3; 80.2%, 81.4%, 80.7% and 88.0%: a list in the reader's language."""
    if len(values) == 1:
        return values[0]
    return _(
        "attacker.fp.list",
        items=_("attacker.fp.list_separator").join(values[:-1]),
        last=values[-1],
    )


def whole_percent(p: float) -> str:
    """A prior on the slider's 1% grid: 50%."""
    return f"{fixed(p * 100)}%"


@st.fragment
def explore(sections: list[Section]) -> None:
    """ε, pure or not, δ, the prior, and the open section: an ε step reruns only this."""
    left, middle, right = presenter_row(1, 1, 1)
    with left:
        epsilon = epsilon_input("attacker_epsilon", default=1.0)
    with middle:
        pure = st.toggle(
            _("attacker.controls.pure"),
            key="attacker_pure",
            help=_("attacker.controls.pure.help"),
            bind="query-params",
        )
        delta = 0.0 if pure else delta_input("attacker_delta", default=1e-5)
    prior = right.slider(
        _("attacker.controls.prior"),
        0.0,
        1.0,
        0.5,
        0.01,
        key="attacker_prior",
        format="%.2f",
        bind="query-params",
    )
    sigma = None if pure else gaussian.analytic_gaussian_sigma(1.0, epsilon, delta)
    story("attacker", sections, Settings(epsilon, pure, delta, prior, sigma))


# The caveat under a posterior bound with δ > 0, per release (with the analytic Gaussian's
# exact loss tail) or for a total, by whether it promises nothing (10δ ≥ 1) (message ids).
CAVEATS = {
    ("release", True): N_("attacker.caveat.release_void"),
    ("release", False): N_("attacker.caveat.release"),
    ("total", True): N_("attacker.caveat.total_void"),
    ("total", False): N_("attacker.caveat.total"),
}


def posterior_caveat(
    prior: float,
    eps: float,
    d: float,
    *,
    scope: Literal["release", "total"],
    loss_tail: float | None = None,
) -> str:
    """Why the ε bound is no promise about outputs when d > 0, and what holds (Markov bound).

    ``scope``: the δ of one release (section 1, which also gives ``loss_tail``, the analytic
    Gaussian's exact chance that its privacy loss exceeds ε) or of the total (section 3,
    without it). One message per case: a sentence is never glued from pieces.
    """
    chance = attacks.loss_excess_probability(d, SLACK)
    if chance >= 1:
        void = CAVEATS[scope, True]
        return _(void, delta=format_delta(d))
    eps_low, eps_high = (float(v) for v in attacks.posterior_bounds(prior, eps))
    low_t, high_t = (float(v) for v in attacks.posterior_bounds(prior, eps + SLACK))
    values = {
        "delta": format_delta(d),
        "epsilon": significant(eps, 4),
        "eps_low": percent(eps_low),
        "eps_high": percent(eps_high),
        "chance": format_delta(chance),
        "high": percent(high_t),
        "low": percent(low_t),
        "slack_epsilon": significant(eps + SLACK, 4),
    }
    if (scope == "release") != (loss_tail is not None):
        raise ValueError("a release's caveat states the Gaussian's loss tail, a total's does not")
    if loss_tail is not None:
        values |= {"tail": format_delta(loss_tail), "ratio": significant(loss_tail / d, 2)}
    bound = CAVEATS[scope, False]
    return _(bound, **values)


# --- 1. The attacker's guess ----------------------------------------------------------------
@dataclass(frozen=True)
class Posterior:
    """What section 1 shows for one prior: the bounds that hold and the ε bound itself."""

    low: float
    high: float
    eps_low: float
    eps_high: float


def posterior(s: Settings, prior: float) -> Posterior:
    """The posterior bounds at ``prior``: at ε (δ = 0), at ε + ln(10/9) on all outputs but a
    10 δ chance (δ > 0), or none at all (10 δ ≥ 1: every posterior possible)."""
    eps_low, eps_high = (float(v) for v in attacks.posterior_bounds(prior, s.epsilon))
    if s.bounded:
        low, high = (float(v) for v in attacks.posterior_bounds(prior, s.holding_epsilon))
    elif prior in (0.0, 1.0):
        low, high = prior, prior
    else:
        low, high = 0.0, 1.0
    return Posterior(low, high, eps_low, eps_high)


def posterior_table(s: Settings) -> pd.DataFrame:
    """The posterior bounds for a few priors and the chosen one, in percent, as on screen."""
    priors = sorted({*TABLE_PRIORS, s.prior})
    rows = [posterior(s, p) for p in priors]
    table = {
        _("attacker.table.prior"): [round(p * 100, 2) for p in priors],
        _("attacker.table.lowest"): [round(r.low * 100, 4) for r in rows],
        _("attacker.table.highest"): [round(r.high * 100, 4) for r in rows],
    }
    if not s.pure:
        table[_("attacker.table.eps_lowest")] = [round(r.eps_low * 100, 4) for r in rows]
        table[_("attacker.table.eps_highest")] = [round(r.eps_high * 100, 4) for r in rows]
    return pd.DataFrame(table)


def attackers_guess(s: Settings) -> None:
    """Section 1: the posterior bound after one output, for the prior chosen."""
    intro = N_("attacker.guess.intro_pure") if s.pure else N_("attacker.guess.intro_delta")
    st.markdown(_(intro, odds=odds_factor(s.epsilon)))
    now = posterior(s, s.prior)
    _headline(s, now)
    _posterior_metrics(s, now)
    chart = _posterior_chart(s, now)
    charts.show(chart, key="attacker_posterior")
    if s.pure:
        st.caption(_("attacker.guess.tight"))
    elif not s.certain:
        tail = gaussian.gaussian_privacy_loss_tail(s.sigma, s.epsilon) if s.bounded else None
        st.warning(posterior_caveat(s.prior, s.epsilon, s.delta, scope="release", loss_tail=tail))
    st.caption(_("attacker.guess.correlated"))
    table = st.expander(_("attacker.table.title"), key="attacker_table", on_change="rerun")
    if table.open:
        with table:
            st.dataframe(posterior_table(s), hide_index=True, width="stretch")
    export_buttons("attacker", None, lambda: posterior_export(s, chart), secure=False)
    section_exercises(EXERCISES, "guess", s)


def _posterior_chart(s: Settings, now: Posterior) -> charts.Spec:
    """The posterior chart: the curves that hold, and the ε bound dashed when δ > 0."""
    if s.bounded:
        lower_curve, upper_curve = attacks.posterior_bounds(PRIORS, s.holding_epsilon)
    else:  # every posterior is possible except from a certain prior
        lower_curve = np.where(PRIORS < 1, 0.0, 1.0)
        upper_curve = np.where(PRIORS > 0, 1.0, 0.0)
    eps_upper_curve = attacks.posterior_bounds(PRIORS, s.epsilon)[1]
    eps_name = _("attacker.chart.eps_bound", epsilon=s.eps_text)
    if s.pure:
        labels = {"curve_label": _("attacker.chart.possible", epsilon=s.eps_text)}
    elif s.bounded:
        labels = {
            # ui.attacker.charts writes "lowest {curve}" and appends the note to a marker's
            # name: the curve's label starts with the posterior, the note is one message
            "curve_label": _(
                "attacker.chart.on_rare", slack_epsilon=significant(s.holding_epsilon, 4)
            ),
            "marker_note": _("attacker.chart.marker_rare"),
            "epsilon_upper": eps_upper_curve,
            "epsilon_name": eps_name,
        }
    else:
        labels = {
            "curve_label": _("attacker.chart.no_promise"),
            "epsilon_upper": eps_upper_curve,
            "epsilon_name": eps_name,
        }
    return attacker_charts.posterior(
        PRIORS, lower_curve, upper_curve, s.prior, now.low, now.high, **labels
    )


def guarantee_text(s: Settings) -> str:
    """What any mechanism with these (ε, δ) promises the attacker, in one plain sentence."""
    if s.pure:
        return _("attacker.guarantee.pure", epsilon=s.eps_text, odds=odds_factor(s.epsilon))
    if s.bounded:
        return _(
            "attacker.guarantee.delta",
            epsilon=s.eps_text,
            delta=s.delta_text,
            chance=format_delta(s.rare_chance),
            slack_epsilon=significant(s.holding_epsilon, 4),
            odds=odds_factor(s.holding_epsilon),
        )
    return _("attacker.guarantee.void", epsilon=s.eps_text, delta=s.delta_text)


def common_settings(s: Settings) -> dict[str, str]:
    """The page's main settings, named in the reader's language, for an export."""
    return {
        _("attacker.export.epsilon"): s.eps_text,
        _("attacker.export.delta"): "0" if s.pure else s.delta_text,
        _("attacker.export.prior"): whole_percent(s.prior),
    }


def posterior_export(s: Settings, chart: charts.Spec) -> Export:
    """Section 1's export: the posterior table, the settings, the guarantee and the chart."""
    return Export(
        title=_("attacker.export.guess.title"),
        question=entry("attacker").question,
        table=posterior_table(s),
        settings=common_settings(s),
        guarantee=guarantee_text(s),
        unit=_("attacker.export.unit"),
        charts=[("posterior", chart)],
    )


def _headline(s: Settings, now: Posterior) -> None:
    """The sentence the section answers with: how sure the attacker can become."""
    prior = whole_percent(s.prior)
    if s.certain:
        certain = (
            N_("attacker.guess.certain_in") if s.prior == 1 else N_("attacker.guess.certain_out")
        )
        st.warning(_(certain, prior=prior))
    elif s.pure:
        st.markdown(
            _(
                "attacker.guess.headline_pure",
                prior=prior,
                high=percent(now.high),
                low=percent(now.low),
                epsilon=s.eps_text,
            )
        )
    elif s.bounded:
        st.markdown(
            _(
                "attacker.guess.headline_delta",
                prior=prior,
                high=percent(now.high),
                low=percent(now.low),
                chance=format_delta(s.rare_chance),
                slack_epsilon=significant(s.holding_epsilon, 4),
                eps_high=percent(now.eps_high),
            )
        )
    else:
        st.markdown(_("attacker.guess.headline_void", delta=s.delta_text))


def _posterior_metrics(s: Settings, now: Posterior) -> None:
    """Highest and lowest posterior and the odds factor, labelled with where they hold."""
    cols = st.columns(3)
    if s.pure:
        cols[0].metric(_("attacker.metric.highest_pure"), percent(now.high))
        cols[1].metric(_("attacker.metric.lowest_pure"), percent(now.low))
        cols[2].metric(_("attacker.metric.odds_pure"), f"×{odds_factor(s.epsilon)}")
    elif s.bounded:
        slack = {"slack_epsilon": significant(s.holding_epsilon, 4)}
        for col, label, value, eps_value, where in (
            (
                cols[0],
                _("attacker.metric.highest"),
                percent(now.high),
                percent(now.eps_high),
                _("attacker.metric.where", **slack),
            ),
            (
                cols[1],
                _("attacker.metric.lowest"),
                percent(now.low),
                percent(now.eps_low),
                _("attacker.metric.where", **slack),
            ),
            (
                cols[2],
                _("attacker.metric.odds"),
                f"×{odds_factor(s.holding_epsilon)}",
                f"×{odds_factor(s.epsilon)}",
                _("attacker.metric.where_odds", **slack),
            ),
        ):
            col.metric(
                label,
                value,
                delta=_("attacker.metric.eps_bound", value=eps_value),
                delta_color="off",
                delta_arrow="off",
                help=where,
            )
    else:
        for col, label in zip(
            cols,
            (
                _("attacker.metric.highest"),
                _("attacker.metric.lowest"),
                _("attacker.metric.odds_void"),
            ),
            strict=True,
        ):
            col.metric(
                label,
                "—",
                delta=_("attacker.metric.no_promise"),
                delta_color="off",
                delta_arrow="off",
            )


# --- 2. The best membership test ------------------------------------------------------------
def membership_test(s: Settings) -> None:
    """Section 2: the ROC ceiling, the exact Laplace/Gaussian ROCs and simulated tests."""
    epsilon, delta, sigma = s.epsilon, s.delta, s.sigma
    laplace_b = laplace.laplace_scale(1, epsilon)
    if sigma is None:  # δ = 0
        st.markdown(_("attacker.test.intro_pure", scale=significant(laplace_b, 3)))
    else:
        st.markdown(
            _(
                "attacker.test.intro_both",
                scale=significant(laplace_b, 3),
                sigma=significant(sigma, 3),
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
            _("attacker.chart.simulated_laplace", trials=count(TRIALS)),
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
                _("attacker.chart.simulated_gaussian"),
                gaussian_attack.false_positive_rate,
                gaussian_attack.true_positive_rate,
            )
        )
    ceiling_name = (
        _("attacker.chart.ceiling_pure", epsilon=s.eps_text)
        if s.pure
        else _("attacker.chart.ceiling", epsilon=s.eps_text, delta=s.delta_text)
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
    _test_metrics(s)
    found = fixed(laplace_attack.best_advantage, 3)
    if gaussian_attack is None:  # δ = 0: the best accuracy is the posterior bound at 50%
        at_half = percent(float(attacks.posterior_bounds(0.5, epsilon)[1]))
        st.caption(_("attacker.test.caption_pure", laplace=found, posterior=at_half))
    else:
        gaussian_found = fixed(gaussian_attack.best_advantage, 3)
        st.caption(_("attacker.test.caption_both", laplace=found, gaussian=gaussian_found))


def _test_metrics(s: Settings) -> None:
    """The best accuracy of any test, and of the best test on a Laplace / Gaussian count."""
    advantage = float(attacks.best_advantage(s.epsilon, s.delta))
    cols = st.columns(3 if s.sigma is not None else 2)
    cols[0].metric(
        _("attacker.metric.best_accuracy"),
        percent(float(attacks.attacker_accuracy(advantage))),
        delta=_("attacker.metric.advantage_at_most", advantage=significant(advantage, 4)),
        delta_color="off",
        delta_arrow="off",
    )
    laplace_adv = float(attacks.laplace_advantage(s.epsilon))
    cols[1].metric(
        _("attacker.metric.laplace_accuracy"),
        percent(float(attacks.attacker_accuracy(laplace_adv))),
        delta=_("attacker.metric.advantage", advantage=significant(laplace_adv, 4)),
        delta_color="off",
        delta_arrow="off",
    )
    if s.sigma is not None:
        gaussian_adv = float(attacks.gaussian_advantage(1 / s.sigma))
        cols[2].metric(
            _("attacker.metric.gaussian_accuracy"),
            percent(float(attacks.attacker_accuracy(gaussian_adv))),
            delta=_("attacker.metric.advantage", advantage=significant(gaussian_adv, 4)),
            delta_color="off",
            delta_arrow="off",
        )


def closing() -> None:
    """What to notice, and the formulas with their sources."""
    what_to_notice(
        [
            _("attacker.notice.odds"),
            _("attacker.notice.prior"),
            _("attacker.notice.delta"),
            _("attacker.notice.correlated"),
            _("attacker.notice.ceiling"),
            _("attacker.notice.composition"),
            _("attacker.notice.floating"),
        ]
    )
    # Lazy: its seven formulas are most of the page's elements (KaTeX draws each symbol), and
    # the browser walks every element after each slider step; they are drawn only when open.
    formula_box("attacker", _formulas)


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
        r"\text{Gauss: TPR} = \Phi\big(\Phi^{-1}(\text{FPR}) + \Delta/\sigma\big)"
    )
    st.latex(
        r"k:\ (k\varepsilon,\ k\delta);\quad "
        r"\big(\sqrt{2k\ln(1/\delta')}\,\varepsilon + k\varepsilon(e^{\varepsilon}-1),\ "
        r"k\delta + \delta'\big);\quad \text{Gauss: } \sigma \to \sigma/\sqrt{k};\quad "
        r"\text{zCDP: } \rho \to k\rho"
    )
    st.latex(
        r"\varepsilon'_{\text{opt}} = \min\Big\{\varepsilon' :\ "
        r"1 - (1-\delta)^k + (1-\delta)^k \sum_{l=0}^{k} \binom{k}{l}"
        r"\frac{\max\big(0,\ e^{(k-l)\varepsilon} - e^{\varepsilon'} e^{l\varepsilon}\big)}"
        r"{(1+e^{\varepsilon})^k} \le k\delta + \delta'\Big\}"
    )
    st.latex(
        r"\text{numpy: noise}(k) = b\ln(2U)\ (U < \tfrac12),\ "
        r"-b\ln(2 - 2U)\ (U \ge \tfrac12),\ U = k\,2^{-53};\quad "
        r"x \to y \iff \exists k:\ x \oplus \mathrm{noise}(k) = y"
    )
    st.markdown(_("attacker.formula.sources"))
