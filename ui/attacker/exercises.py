"""The attacker page's exercises, each answered by the section it sits in.

Section 1's exercise gets the page's Settings, section 3's the ReleaseSettings (the page's
settings with k and δ′); each reads only what it needs.
"""

from __future__ import annotations

from dp_core import attacks, composition
from ui.attacker.totals import composition_totals
from ui.common import formatting
from ui.common.exercises import TRUE_FALSE, Answer, Exercise
from ui.common.i18n import N_, _


def _highest_posterior(s) -> Answer:
    """Pure ε-DP at ε = 1 from a 50% prior: at most e / (1 + e), in percent."""
    high = float(attacks.posterior_bounds(0.5, 1.0)[1])
    return Answer(
        high * 100,
        _(
            "attacker.exercise.posterior.answer",
            high=formatting.percent(high),
            odds=formatting.odds_factor(1.0),
        ),
    )


def _totals_at(r, epsilon: float, delta: float, k: int) -> dict[str, float]:
    """Total ε by each accounting at these settings and the page's δ′ (as section 3's table)."""
    found = composition_totals(epsilon, delta, k, r.delta_prime)
    return {t.key: t.epsilon for t in found}


def _hundred_releases(r) -> Answer:
    """100 releases at ε = 0.1, δ = 0: basic gives 10, optimal less at δ′."""
    totals = _totals_at(r, 0.1, 0.0, 100)
    return Answer(
        "true",
        _(
            "attacker.exercise.hundred.answer",
            basic=formatting.epsilon(totals["basic"]),
            optimal=formatting.epsilon(totals["optimal"]),
            delta_prime=formatting.power_of_ten(r.delta_prime),
        ),
    )


def _larger(r) -> Answer:
    """At k = 100 and the page's (ε, δ), δ′: basic is larger unless the two tie."""
    s = r.page
    totals = _totals_at(r, s.epsilon, s.delta, 100)
    basic, optimal = totals["basic"], totals["optimal"]
    same = optimal >= basic * (1 - composition.TIE_TOLERANCE)
    values = {
        "basic": formatting.epsilon(basic),
        "optimal": formatting.epsilon(optimal),
        "epsilon": s.eps_text,
    }
    if same:
        return Answer("same", _("attacker.exercise.larger.answer_same", **values))
    return Answer("basic", _("attacker.exercise.larger.answer_basic", **values))


EXERCISES = (
    Exercise(
        key="attacker.posterior",
        page="attacker",
        section="guess",
        question=N_("attacker.exercise.posterior.question"),
        kind="number",
        solve=_highest_posterior,
        tolerance=0.005,
    ),
    Exercise(
        key="attacker.hundred",
        page="attacker",
        section="releases",
        question=N_("attacker.exercise.hundred.question"),
        kind="choice",
        choices=TRUE_FALSE,
        solve=_hundred_releases,
    ),
    Exercise(
        key="attacker.larger",
        page="attacker",
        section="releases",
        question=N_("attacker.exercise.larger.question"),
        kind="choice",
        choices=(
            ("basic", N_("attacker.exercise.larger.basic")),
            ("optimal", N_("attacker.exercise.larger.optimal")),
            ("same", N_("attacker.exercise.larger.same")),
        ),
        solve=_larger,
    ),
)
