"""The total of k releases at the attacker page's settings, by every accounting the app has.

The planner's accountants (dp_core.accountants: basic, optimal, zCDP, privacy loss
distributions, exact Gaussian) on k equal releases of the page's noise (Laplace with b = 1/ε
when δ = 0, the analytic Gaussian for (ε, δ) otherwise), plus advanced composition
(dp_core.composition), which the planner does not use. The tighter totals are read at the
total δ k·δ + δ′; basic composition keeps its own k·δ. Where a total δ reaches 1 the guarantee
is void and its ε is NaN.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from dp_core import accountants, composition, gaussian

# the accountings, in the order of the table; the first three hold for any (ε, δ) mechanism
ORDER = ("basic", "advanced", "optimal", "zcdp", "pld", "gaussian")
GENERIC = ("basic", "advanced", "optimal")
# among totals that tie, the exact ones first (the PLD's pessimistic grid can tie the exact
# Gaussian total from above)
TIE_ORDER = ("basic", "optimal", "gaussian", "pld", "zcdp", "advanced")


@dataclass(frozen=True)
class Total:
    """One accounting's total ε at its total δ."""

    key: str
    epsilon: float  # NaN when void, inf when no ε is enough
    delta: float


def noise_release(epsilon: float, delta: float) -> accountants.NoiseRelease:
    """One release of the page's noise: Laplace(1/ε) when δ = 0, else the analytic Gaussian."""
    if delta == 0:
        return accountants.NoiseRelease("laplace", 1.0 / epsilon, 1.0, epsilon)
    sigma = gaussian.analytic_gaussian_sigma(1.0, epsilon, delta)
    return accountants.NoiseRelease("gaussian", sigma, 1.0, epsilon, delta)


@functools.lru_cache(maxsize=64)
def composition_totals(
    epsilon: float, delta: float, k: int, delta_prime: float
) -> tuple[Total, ...]:
    """Every accounting's total for k releases at (ε, δ), in ``ORDER`` (no Gaussian at δ = 0)."""
    release = noise_release(epsilon, delta)
    basic_eps, basic_delta = accountants.basic_total([release] * k)
    total_delta = k * delta + delta_prime
    found = {"basic": Total("basic", basic_eps if basic_delta < 1 else math.nan, basic_delta)}
    if total_delta < 1:
        advanced = composition.advanced_composition_epsilon(epsilon, k, delta_prime)
        found["advanced"] = Total("advanced", float(advanced), total_delta)
        for t in accountants.compare_accountants([release] * k, total_delta):
            if t.key in ORDER and t.key != "basic":
                found[t.key] = Total(t.key, t.epsilon, t.delta)
    else:
        for key in ORDER[1:]:
            if key != "gaussian" or delta > 0:
                found[key] = Total(key, math.nan, total_delta)
    return tuple(found[key] for key in ORDER if key in found)


def tightest(totals: tuple[Total, ...], keys: tuple[str, ...] = ORDER) -> Total | None:
    """The smallest total ε among ``keys`` (None when all are void).

    Totals within composition.TIE_TOLERANCE (relative) of the smallest count as equal; among
    them the smaller total δ wins (basic's k·δ is below the others' k·δ + δ′), then ``TIE_ORDER``.
    """
    candidates = [t for t in totals if t.key in keys and not math.isnan(t.epsilon)]
    if not candidates:
        return None
    smallest = min(t.epsilon for t in candidates)
    near = [t for t in candidates if t.epsilon <= smallest * (1 + composition.TIE_TOLERANCE)]
    return min(near, key=lambda t: (t.delta, TIE_ORDER.index(t.key)))
