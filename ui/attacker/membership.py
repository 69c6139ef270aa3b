"""Section 2 of the attacker page: the best membership test, the ROC ceiling (ε, δ) sets, the
exact ROCs of the Laplace and Gaussian counts, and threshold tests simulated on them (the same
standard draws at every ε and δ, scaled by b or σ, so a dragged thumb shows the server's
simulation)."""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from dp_core import attacks, gaussian, laplace
from dp_core.attacks import SimulatedAttack
from ui.attacker import charts as attacker_charts
from ui.attacker.settings import Settings
from ui.common import charts, live
from ui.common.formatting import count, fixed, percent, significant
from ui.common.i18n import _
from ui.common.shell import page_rng

TRIALS = 2000  # simulated noisy answers per world
# the exact ROCs' false positive rates: within a pixel of the curves at every ε and δ
ALPHAS = np.unique(np.concatenate([np.linspace(0, 1, 51), np.geomspace(1e-6, 0.1, 30)]))
# thresholds spread over each noise's range, between n and n + 1 in the middle
Z = np.linspace(-2.5, 2.5, 11)
Draws = tuple[np.ndarray, np.ndarray]  # standard Laplace and standard normal draws


def membership_test(s: Settings) -> None:
    """Section 2: the ROC ceiling, the exact Laplace/Gaussian ROCs and simulated tests; the
    intro, the chart and its caption follow the ε and δ thumbs."""
    draws = _standard_draws()
    live.text(
        s.stops,
        lambda *values: _intro(s.at(*values)),
        key="attacker_test_intro",
        depends=s.pure,
    )
    live.chart(
        s.stops,
        lambda *values: _roc_chart(s.at(*values), draws),
        key="attacker_roc",
        depends=s.pure,
    )
    _test_metrics(s)
    live.text(
        s.stops,
        lambda *values: _caption(s.at(*values), draws),
        key="attacker_test_caption",
        depends=s.pure,
        style="caption",
    )


def _intro(s: Settings) -> str:
    """What a membership test is, and the noise of the count: Laplace's b (and the Gaussian's
    σ when δ > 0)."""
    scale = significant(laplace.laplace_scale(1, s.epsilon), 3)
    if s.sigma is None:  # δ = 0
        return _("attacker.test.intro_pure", scale=scale)
    return _("attacker.test.intro_both", scale=scale, sigma=significant(s.sigma, 3))


def _caption(s: Settings, draws: Draws) -> str:
    """What the simulated tests reached (and at δ = 0, the posterior bound at a 50% prior)."""
    laplace_attack, gaussian_attack = _simulated(s, draws)
    found = fixed(laplace_attack.best_advantage, 3)
    if gaussian_attack is None:  # δ = 0: the best accuracy is the posterior bound at 50%
        at_half = percent(float(attacks.posterior_bounds(0.5, s.epsilon)[1]))
        return _("attacker.test.caption_pure", laplace=found, posterior=at_half)
    gaussian_found = fixed(gaussian_attack.best_advantage, 3)
    return _("attacker.test.caption_both", laplace=found, gaussian=gaussian_found)


def _standard_draws() -> Draws:
    """The simulation's standard draws, (2, TRIALS) each (without Alice, with her): Laplace(0, 1)
    and Normal(0, 1), from the page's stream at the seed and draw, the same at every ε and δ."""
    rng = page_rng("attacker", "test")
    return laplace.sample_laplace(rng, 1.0, (2, TRIALS)), gaussian.sample_gaussian(
        rng, 1.0, (2, TRIALS)
    )


def _threshold_tests(standard: np.ndarray, scale: float, thresholds: np.ndarray) -> SimulatedAttack:
    """Threshold tests on noisy answers n + scale × standard[0] (without Alice) and
    n + 1 + scale × standard[1] (with her), as dp_core.attacks.simulate_threshold_attack runs
    them: "in" above n + threshold; the rates are the shares of answers above it."""
    trials = standard.shape[1]
    out_answers = np.sort(scale * standard[0])
    in_answers = np.sort(scale * standard[1] + 1.0)
    fpr = 1.0 - np.searchsorted(out_answers, thresholds, side="right") / trials
    tpr = 1.0 - np.searchsorted(in_answers, thresholds, side="right") / trials
    return SimulatedAttack(thresholds, fpr, tpr, trials)


def _simulated(s: Settings, draws: Draws) -> tuple[SimulatedAttack, SimulatedAttack | None]:
    """The simulated threshold tests on Laplace answers (b = 1/ε) and, when δ > 0, on the
    analytic Gaussian's (σ): thresholds spread over each noise's range."""
    b = laplace.laplace_scale(1, s.epsilon)
    laplace_attack = _threshold_tests(draws[0], b, 0.5 + laplace.laplace_std(b) * Z / 2)
    if s.sigma is None:
        return laplace_attack, None
    return laplace_attack, _threshold_tests(draws[1], s.sigma, 0.5 + s.sigma * Z)


def _roc_chart(s: Settings, draws: Draws) -> charts.Spec:
    """The ROC chart: the ceiling, the exact curves and the simulated threshold tests (the
    Gaussian's only when δ > 0)."""
    laplace_attack, gaussian_attack = _simulated(s, draws)
    simulated = [
        (
            _("attacker.chart.simulated_laplace", trials=count(TRIALS)),
            laplace_attack.false_positive_rate,
            laplace_attack.true_positive_rate,
        )
    ]
    # the ceiling min(1, e^ε α + δ, 1 - e^-ε (1 - δ - α)) is a broken line: its corners, at
    # α = (1 - δ) / (e^ε + 1) and 1 - δ (Kairouz, Oh & Viswanath 2015, Thm 2.1), join ALPHAS
    corners = [(1 - s.delta) / (math.exp(s.epsilon) + 1), 1 - s.delta]
    alphas = np.unique(np.concatenate([ALPHAS, corners]))
    gaussian_curve = None
    if gaussian_attack is not None:
        gaussian_curve = attacks.gaussian_roc(alphas, 1 / s.sigma)
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
    return attacker_charts.roc(
        alphas,
        attacks.roc_ceiling(alphas, s.epsilon, s.delta),
        attacks.laplace_roc(alphas, s.epsilon),
        gaussian_curve,
        simulated,
        ceiling_name,
    )


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
