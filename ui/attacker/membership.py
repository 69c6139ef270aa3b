"""Section 2 of the attacker page: the best membership test, the ROC ceiling (ε, δ) sets, the
exact ROCs of the Laplace and Gaussian counts, and threshold tests simulated on them."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dp_core import attacks, laplace
from dp_core.attacks import SimulatedAttack
from ui.attacker import charts as attacker_charts
from ui.attacker.settings import Settings
from ui.common import charts
from ui.common.formatting import count, fixed, percent, significant
from ui.common.i18n import _
from ui.common.shell import page_rng

TRIALS = 2000  # simulated noisy answers per world
ALPHAS = np.unique(np.concatenate([np.linspace(0, 1, 201), np.geomspace(1e-6, 1, 100)]))
# thresholds spread over each noise's range, between n and n + 1 in the middle
Z = np.linspace(-2.5, 2.5, 11)


def membership_test(s: Settings) -> None:
    """Section 2: the ROC ceiling, the exact Laplace/Gaussian ROCs and simulated tests."""
    laplace_b = laplace.laplace_scale(1, s.epsilon)
    if s.sigma is None:  # δ = 0
        st.markdown(_("attacker.test.intro_pure", scale=significant(laplace_b, 3)))
    else:
        st.markdown(
            _(
                "attacker.test.intro_both",
                scale=significant(laplace_b, 3),
                sigma=significant(s.sigma, 3),
            )
        )
    laplace_attack, gaussian_attack = _roc_chart(s, laplace_b)
    _test_metrics(s)
    found = fixed(laplace_attack.best_advantage, 3)
    if gaussian_attack is None:  # δ = 0: the best accuracy is the posterior bound at 50%
        at_half = percent(float(attacks.posterior_bounds(0.5, s.epsilon)[1]))
        st.caption(_("attacker.test.caption_pure", laplace=found, posterior=at_half))
    else:
        gaussian_found = fixed(gaussian_attack.best_advantage, 3)
        st.caption(_("attacker.test.caption_both", laplace=found, gaussian=gaussian_found))


def _roc_chart(s: Settings, laplace_b: float) -> tuple[SimulatedAttack, SimulatedAttack | None]:
    """The ROC chart: the ceiling, the exact curves and the simulated threshold tests (the
    Gaussian's only when δ > 0), which it returns."""
    epsilon, delta, sigma = s.epsilon, s.delta, s.sigma
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
    return laplace_attack, gaussian_attack


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
