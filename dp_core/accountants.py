"""What several different noisy releases cost together, by four accountants side by side.

A release plan runs several mechanisms on the same data, each with its own noise and
sensitivity (``NoiseRelease``). Their total (epsilon, delta) depends on the accounting:

- basic composition: (sum eps_i, sum delta_i) (Dwork & Roth 2014, Thm 3.16);
- optimal composition: the exact smallest total epsilon at a total delta for mechanisms known
  only to be (eps_i, delta_i)-DP: that of randomized response with a delta_i chance of
  revealing the input, composed (Kairouz, Oh & Viswanath 2015, Thm 3.3 for k equal ones;
  Murtagh & Vadhan 2016, Thm 1.5, for different ones). Computed exactly over the distinct
  sums of +-eps_i (``optimal_total_epsilon``); beyond ``MAX_SUPPORT`` sums each eps_i is
  rounded up onto a grid first, which can only raise the total;
- zero-concentrated DP: Laplace noise is (Delta/b)^2 / 2-zCDP (Bun & Steinke 2016, Prop 1.4),
  Gaussian noise Delta^2 / (2 sigma^2)-zCDP (Prop 1.6); rho adds up (Lemma 2.3); converted to
  (eps, delta) by Canonne, Kamath & Steinke 2020 (Cor 13), tighter than Bun & Steinke's
  rho + 2 sqrt(rho ln(1/delta)) (Prop 1.3), which is also given;
- privacy loss distributions (PLD) of the mechanisms themselves, composed numerically by
  Google's dp-accounting with pessimistic discretisation (Meiser & Mohammadi 2018; Koskela,
  Jalko & Honkela 2020; Doroshenko et al. 2022), imported at run time;
- when every release is Gaussian, the exact total: k Gaussians compose to one with
  mu = sqrt(sum (Delta_i / sigma_i)^2) (Dong, Roth & Su 2019, Cor 3.3), read off the exact
  profile (Balle & Wang 2018, Thm 8).

Neighbouring datasets differ by one person added or removed (with all their rows). A vector
release is accounted by its L1 (Laplace) or L2 (Gaussian) sensitivity, as one mechanism; for
the Laplace PLD this scalar shift dominates any split of the same L1 norm over several
coordinates (checked against dp-accounting in tests/test_planner.py).

    releases = [NoiseRelease("laplace", scale=2.0, sensitivity=1.0, epsilon=0.5),
                NoiseRelease("gaussian", scale=4.0, sensitivity=1.0, epsilon=1.2, delta=1e-6)]
    compare_accountants(releases, delta=1e-6)   # one AccountingTotal per accountant
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy.optimize import brentq, minimize_scalar

from dp_core.composition import (
    gaussian_composed_epsilons,
    optimal_composition_delta,
    optimal_composition_epsilon,
)
from dp_core.errors import CodedError
from dp_core.validation import check_delta, check_epsilon, check_sensitivity

__all__ = [
    "AccountingTotal",
    "NoiseRelease",
    "basic_total",
    "compare_accountants",
    "gaussian_exact_epsilon",
    "optimal_total_delta",
    "optimal_total_epsilon",
    "pld_epsilon",
    "total_rho",
    "zcdp_delta",
    "zcdp_epsilon",
    "zcdp_rho_for",
]

Mechanism = Literal["laplace", "gaussian"]
Conversion = Literal["cks", "bun_steinke"]

# Distinct sums of +-eps_i kept exactly by the optimal composition; beyond, a grid.
MAX_SUPPORT = 1 << 20
# Relative tolerance of the zCDP inversions (bisection on rho).
_RHO_TOLERANCE = 1e-12


@dataclass(frozen=True)
class NoiseRelease:
    """One noisy release: its mechanism, noise scale and sensitivity, and its (eps, delta).

    ``scale`` is the Laplace b or the Gaussian sigma, ``sensitivity`` the L1 (Laplace) or L2
    (Gaussian) norm one person can move the released vector by, in the same units.
    ``epsilon``/``delta`` are the guarantee it was calibrated to (for the Gaussian, by the
    calibration the plan chose); the accountants that look at the noise itself (zCDP, PLD)
    use only the scale and the sensitivity.
    """

    mechanism: Mechanism
    scale: float
    sensitivity: float
    epsilon: float
    delta: float = 0.0
    label: str = ""

    def __post_init__(self) -> None:
        if self.mechanism not in ("laplace", "gaussian"):
            raise CodedError(
                "choice",
                name="mechanism",
                choices="'laplace', 'gaussian'",
                got=repr(self.mechanism),
            )
        check_sensitivity(self.scale, "the noise scale")
        check_sensitivity(self.sensitivity)
        check_epsilon(self.epsilon)
        check_delta(self.delta)

    @property
    def noise_multiplier(self) -> float:
        """scale / sensitivity: the noise for a sensitivity of 1."""
        return self.scale / self.sensitivity

    @property
    def rho(self) -> float:
        """zCDP parameter: (Delta / b)^2 / 2 for Laplace (Bun & Steinke 2016, Prop 1.4, from
        its pure Delta/b-DP), Delta^2 / (2 sigma^2) for Gaussian (Prop 1.6)."""
        return 0.5 / self.noise_multiplier**2  # the same formula for both


@dataclass(frozen=True)
class AccountingTotal:
    """The total of a list of releases by one accountant."""

    key: str  # "basic", "optimal", "zcdp_bs", "zcdp", "pld", "gaussian"
    name: str
    epsilon: float  # inf when no epsilon is enough at this delta
    delta: float
    assumes: str  # what it needs to hold
    source: str


def _releases(releases: Sequence[NoiseRelease]) -> tuple[NoiseRelease, ...]:
    if len(releases) == 0:
        raise CodedError("accounting_no_releases")
    return tuple(releases)


def basic_total(releases: Sequence[NoiseRelease]) -> tuple[float, float]:
    """(sum eps_i, sum delta_i): basic composition (Dwork & Roth 2014, Thm 3.16)."""
    items = _releases(releases)
    return float(sum(r.epsilon for r in items)), float(sum(r.delta for r in items))


# --- optimal composition of (eps_i, delta_i)-DP mechanisms --------------------------------


def _pairs(pairs: Sequence[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    if len(pairs) == 0:
        raise CodedError("accounting_no_releases")
    eps = np.array([check_epsilon(e) for e, _ in pairs])
    deltas = np.array([check_delta(d) for _, d in pairs])
    return eps, deltas


def _rr_loss_distribution(eps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Support and P1-masses of L = sum_i +-eps_i, randomized response composed.

    Release i reports the truth with chance e^eps_i / (1 + e^eps_i) (loss +eps_i) and lies
    otherwise (loss -eps_i). Equal eps_i are grouped (a Binomial number of truths), then the
    groups convolved, merging equal sums. When the sums would exceed MAX_SUPPORT, every eps_i
    is first rounded up to a multiple of a grid step h: an (eps, delta)-DP mechanism is also
    (eps', delta)-DP for eps' >= eps, so the total can only grow (Murtagh & Vadhan 2016 use the
    same rounding for their approximation).
    """
    values, counts = np.unique(eps, return_counts=True)
    support = float(np.prod(counts.astype(float) + 1.0))
    if support > MAX_SUPPORT:
        step = float(eps.sum()) / (MAX_SUPPORT // 2)
        values, counts = np.unique(np.ceil(eps / step) * step, return_counts=True)
    levels = np.zeros(1)
    masses = np.ones(1)
    for value, count in zip(values, counts, strict=True):
        truths = np.arange(count + 1)
        log_choose = math.lgamma(count + 1) - np.array(
            [math.lgamma(j + 1) + math.lgamma(count - j + 1) for j in truths]
        )
        p_true = -np.logaddexp(0.0, -value)  # ln(e^eps / (1 + e^eps))
        p_lie = -np.logaddexp(0.0, value)
        group_mass = np.exp(log_choose + truths * p_true + (count - truths) * p_lie)
        group_levels = (2 * truths - count) * value
        levels = (levels[:, None] + group_levels[None, :]).ravel()
        masses = (masses[:, None] * group_mass[None, :]).ravel()
        scale = max(1.0, float(np.abs(levels).max()))
        keys = np.round(levels / scale, 12)
        keys, inverse = np.unique(keys, return_inverse=True)
        merged = np.zeros(keys.size)
        np.add.at(merged, inverse, masses)
        first = np.zeros(keys.size)
        first[inverse] = levels
        levels, masses = first, merged
    order = np.argsort(levels)
    return levels[order], masses[order]


def _rr_target(deltas: np.ndarray, total_delta: float) -> float:
    """The delta left for randomized response: 1 - (1 - delta_total) / prod(1 - delta_i)."""
    return float(-np.expm1(math.log1p(-total_delta) - np.log1p(-deltas).sum()))


def optimal_total_delta(pairs: Sequence[tuple[float, float]], total_epsilon: float) -> float:
    """Exact total delta at total epsilon eps' of mechanisms that are (eps_i, delta_i)-DP.

    delta(eps') = 1 - prod(1 - delta_i) (1 - sum_l max(0, P1(l) - e^eps' P0(l))), P0(l) =
    P1(l) e^-l, over the loss l of composed randomized response (Murtagh & Vadhan 2016,
    Thm 1.5). Equal mechanisms go through ``dp_core.composition.optimal_composition_delta``
    (the same formula, Kairouz, Oh & Viswanath 2015, Thm 3.3).
    """
    eps, deltas = _pairs(pairs)
    target = float(total_epsilon)
    if not target >= 0:
        raise CodedError("composition_total_epsilon")
    if np.all(eps == eps[0]) and np.all(deltas == deltas[0]):
        return float(optimal_composition_delta(float(eps[0]), float(deltas[0]), eps.size, target))
    levels, masses = _rr_loss_distribution(eps)
    above = levels > target
    rr = float(np.sum(masses[above] * -np.expm1(target - levels[above])))
    return float(-np.expm1(np.log1p(-deltas).sum() + math.log1p(-min(rr, 1.0))))


def _rr_delta(levels: np.ndarray, masses: np.ndarray, epsilon: float) -> float:
    """delta_RR(eps') = sum over l > eps' of P1(l) (1 - e^(eps' - l)): a sum of terms >= 0,
    each with its own relative precision (no cancellation between large cumulative sums)."""
    above = levels > epsilon
    return float(np.sum(masses[above] * -np.expm1(epsilon - levels[above])))


def _first_level_meeting(levels: np.ndarray, masses: np.ndarray, target: float) -> int:
    """The smallest j with delta_RR(levels[j]) <= target (the last level always meets it:
    delta_RR is 0 there). A first guess from cumulative sums, confirmed by ``_rr_delta`` at
    j and j - 1; a bisection on ``_rr_delta`` when rounding made the guess wrong."""
    p0 = masses * np.exp(-levels)
    a = np.cumsum(masses[::-1])[::-1]  # P1-mass of the levels >= l_j
    b = np.cumsum(p0[::-1])[::-1]
    at_levels = np.append(a[1:] - np.exp(levels[:-1]) * b[1:], 0.0)  # delta_RR(l_j)
    meets = np.flatnonzero(at_levels <= target)
    last = levels.size - 1
    j = int(meets[0]) if meets.size else last
    if _rr_delta(levels, masses, levels[j]) <= target and (
        j == 0 or _rr_delta(levels, masses, levels[j - 1]) > target
    ):
        return j
    lo, hi = -1, last  # delta_RR(levels[lo]) > target (lo = -1: eps' = 0), levels[hi] meets it
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _rr_delta(levels, masses, levels[mid]) <= target:
            hi = mid
        else:
            lo = mid
    return hi


def optimal_total_epsilon(pairs: Sequence[tuple[float, float]], total_delta: float) -> float:
    """Exact smallest total epsilon at ``total_delta`` of (eps_i, delta_i)-DP mechanisms.

    The tightest bound that holds for every mechanism with these (eps_i, delta_i): exact for
    the worst of them (randomized response with a delta_i chance of revealing the input),
    above the truth for most others (Gaussian noise among them). Inverts
    ``optimal_total_delta``: the level segment [l_(j-1), l_j] where delta_RR falls to the
    delta left for randomized response is found with delta_RR summed term by term, and there
    eps' = ln((A_j - target) / B_j) (A_j, B_j the P1- and P0-mass of the levels >= l_j),
    checked the same way and raised by bisection if rounding put it a hair too low. 0 when
    eps' = 0 already meets the total delta; sum eps_i (delta_RR = 0) when no delta is left
    for randomized response, as at total delta = sum delta_i up to rounding; infinite when
    the total delta is below 1 - prod(1 - delta_i). Equal mechanisms go through
    ``dp_core.composition.optimal_composition_epsilon`` (the same bound, Kairouz, Oh &
    Viswanath 2015, Thm 3.3). Source: Murtagh & Vadhan 2016, Thm 1.5.
    """
    eps, deltas = _pairs(pairs)
    d = check_delta(total_delta)
    # Basic composition holds at sum delta_i: never report more than sum eps_i there.
    cap = float(eps.sum()) if d >= float(deltas.sum()) else math.inf
    if d < float(-np.expm1(np.log1p(-deltas).sum())):  # below 1 - prod(1 - delta_i)
        return cap
    if np.all(eps == eps[0]) and np.all(deltas == deltas[0]):
        found = float(optimal_composition_epsilon(float(eps[0]), float(deltas[0]), eps.size, d))
        found = _raised_to_meet(lambda e: optimal_total_delta(pairs, e), found, eps.sum(), d)
        return min(found, cap)
    return min(_optimal_mixed(eps, deltas, d), cap)


def _raised_to_meet(delta_at, found: float, top: float, target: float) -> float:
    """``found`` if delta_at(found) <= target, else the smallest epsilon in [found, top] that
    meets it, by bisection keeping the end that meets it (the closed forms can land a hair
    low when rounding eats the last digits; delta_at(top) <= target)."""
    if not math.isfinite(found) or delta_at(found) <= target:
        return found
    low, high = found, float(top)
    for _ in range(200):
        if high - low <= 1e-15 * max(high, 1.0):
            break
        mid = 0.5 * (low + high)
        low, high = (low, mid) if delta_at(mid) <= target else (mid, high)
    return high


def _optimal_mixed(eps: np.ndarray, deltas: np.ndarray, d: float) -> float:
    """``optimal_total_epsilon`` for different (eps_i, delta_i), at a total delta of at least
    1 - prod(1 - delta_i)."""
    target = max(_rr_target(deltas, d), 0.0)
    levels, masses = _rr_loss_distribution(eps)
    if _rr_delta(levels, masses, 0.0) <= target:
        return 0.0
    positive = levels > 0
    levels, masses = levels[positive], masses[positive]
    if target == 0.0:  # only eps' = the largest level makes delta_RR vanish
        return float(levels[-1])
    j = _first_level_meeting(levels, masses, target)
    left, right = (float(levels[j - 1]) if j > 0 else 0.0), float(levels[j])
    tail, tail_p0 = masses[j:], masses[j:] * np.exp(-levels[j:])
    a, b = float(tail.sum()), float(tail_p0.sum())
    solved = math.log((a - target) / b) if a > target else left
    found = min(max(solved, left), right)
    return _raised_to_meet(lambda e: _rr_delta(levels, masses, e), found, right, target)


# --- zero-concentrated DP ----------------------------------------------------------------


def total_rho(releases: Sequence[NoiseRelease]) -> float:
    """sum rho_i: zCDP composes by adding rho (Bun & Steinke 2016, Lemma 2.3)."""
    return float(sum(r.rho for r in _releases(releases)))


def _cks_log_delta(rho: float, epsilon: float, alpha: float) -> float:
    """ln delta at order alpha: (a-1)(a rho - eps) + (a-1) ln(1 - 1/a) - ln a (CKS 2020, Cor 13)."""
    return (
        (alpha - 1) * (alpha * rho - epsilon)
        + (alpha - 1) * math.log1p(-1 / alpha)
        - math.log(alpha)
    )


def zcdp_delta(rho: float, epsilon: float) -> float:
    """delta at epsilon for a rho-zCDP mechanism, Canonne, Kamath & Steinke 2020, Cor 13:

        delta = inf_(alpha > 1) e^((alpha-1)(alpha rho - eps)) / alpha * (1 - 1/alpha)^(alpha-1).

    The minimum over alpha is found numerically; any alpha gives a valid delta, so the value
    returned is never below the infimum. At most 1.
    """
    r = check_sensitivity(rho, "rho")
    eps = check_epsilon(epsilon, allow_zero=True)
    found = minimize_scalar(
        lambda t: _cks_log_delta(r, eps, 1.0 + math.exp(t)),
        bounds=(-30.0, 30.0),
        method="bounded",
        options={"xatol": 1e-10},
    )
    return float(min(1.0, math.exp(found.fun)))


def zcdp_epsilon(rho: float, delta: float, conversion: Conversion = "cks") -> float:
    """epsilon at delta for a rho-zCDP mechanism.

    "bun_steinke": rho + 2 sqrt(rho ln(1/delta)) (Bun & Steinke 2016, Prop 1.3);
    "cks": inf_(alpha > 1) alpha rho + ln(1 - 1/alpha) + ln(1 / (alpha delta)) / (alpha - 1)
    (Canonne, Kamath & Steinke 2020, Cor 13, solved for epsilon), never above the first. As
    OpenDP's make_zCDP_to_approxDP. Any alpha gives a valid epsilon, so the numerical minimum
    is never below the true infimum.
    """
    r = check_sensitivity(rho, "rho")
    d = check_delta(delta, allow_zero=False)
    closed = r + 2.0 * math.sqrt(r * math.log(1.0 / d))
    if conversion == "bun_steinke":
        return closed
    if conversion != "cks":
        raise CodedError(
            "choice", name="conversion", choices="'cks', 'bun_steinke'", got=repr(conversion)
        )

    def eps_at(t: float) -> float:
        alpha = 1.0 + math.exp(t)
        return (
            alpha * r + math.log1p(-1 / alpha) + (math.log(1 / d) - math.log(alpha)) / (alpha - 1)
        )

    found = minimize_scalar(
        eps_at, bounds=(-30.0, 30.0), method="bounded", options={"xatol": 1e-12}
    )
    return float(max(0.0, min(found.fun, closed)))


@functools.lru_cache(maxsize=4096)
def zcdp_rho_for(epsilon: float, delta: float, conversion: Conversion = "cks") -> float:
    """The largest rho whose zCDP -> (eps, delta) conversion gives at most ``epsilon``.

    Brent's method on rho (the converted epsilon grows with rho), stepped down until the
    conversion of the rho returned is at most epsilon. Bun & Steinke's conversion inverts in
    closed form: sqrt(rho) = sqrt(eps + ln(1/delta)) - sqrt(ln(1/delta)).
    """
    eps = check_epsilon(epsilon)
    d = check_delta(delta, allow_zero=False)
    log_inv = math.log(1.0 / d)
    closed = (math.sqrt(eps + log_inv) - math.sqrt(log_inv)) ** 2
    if conversion == "bun_steinke":
        return closed
    hi = closed * 2.0
    while zcdp_epsilon(hi, d) <= eps:
        hi *= 2.0
    rho = brentq(lambda r: zcdp_epsilon(r, d) - eps, closed, hi, rtol=_RHO_TOLERANCE)
    if zcdp_epsilon(rho, d) <= eps:
        return float(rho)
    above, step = rho, _RHO_TOLERANCE  # the root landed a hair above: find a valid rho below
    while zcdp_epsilon(rho, d) > eps:
        rho, step = above * (1.0 - step), step * 2.0
    for _ in range(60):  # then close the gap, keeping the valid end
        if above - rho <= _RHO_TOLERANCE * rho:
            break
        mid = 0.5 * (rho + above)
        rho, above = (mid, above) if zcdp_epsilon(mid, d) <= eps else (rho, mid)
    return float(rho)


# --- privacy loss distributions (dp-accounting) -------------------------------------------


def _discretisation(releases: Sequence[NoiseRelease]) -> float:
    """A thousandth of the largest single epsilon, between 1e-6 and 1e-3: a fine grid that keeps
    each PLD at about a thousand points."""
    largest = max(r.epsilon for r in releases)
    return float(min(1e-3, max(1e-6, largest / 1000.0)))


def pld_epsilon(
    releases: Sequence[NoiseRelease], delta: float, *, discretisation: float | None = None
) -> float:
    """epsilon at delta of the releases' own privacy loss distributions, composed.

    Laplace(b) at L1 sensitivity Delta and Gaussian(sigma) at L2 sensitivity Delta, through
    dp-accounting's ``from_laplace_mechanism`` / ``from_gaussian_mechanism`` with pessimistic
    estimates (never below the exact value, up to the discretisation ``discretisation`` of
    the loss, by default ``_discretisation``); equal releases are self-composed. Add or remove
    one person. Source: dp-accounting (Google), Meiser & Mohammadi 2018, Koskela et al. 2020.
    """
    from dp_accounting.pld import privacy_loss_distribution as pld  # runtime dependency

    items = _releases(releases)
    d = check_delta(delta, allow_zero=False)
    step = discretisation or _discretisation(items)
    groups: dict[tuple[str, float, float], int] = {}
    for r in items:
        key = (r.mechanism, r.scale, r.sensitivity)
        groups[key] = groups.get(key, 0) + 1
    total = None
    for (mechanism, scale, sensitivity), count in groups.items():
        if mechanism == "laplace":
            one = pld.from_laplace_mechanism(
                scale, sensitivity=sensitivity, value_discretization_interval=step
            )
        else:
            one = pld.from_gaussian_mechanism(
                scale, sensitivity=sensitivity, value_discretization_interval=step
            )
        if count > 1:
            one = one.self_compose(count)
        total = one if total is None else total.compose(one)
    return float(total.get_epsilon_for_delta(d))


def gaussian_exact_epsilon(releases: Sequence[NoiseRelease], delta: float) -> float:
    """Exact epsilon at delta when every release is Gaussian: one Gaussian with
    mu = sqrt(sum (Delta_i / sigma_i)^2) (Dong, Roth & Su 2019, Cor 3.3), exact profile
    (Balle & Wang 2018, Thm 8), through ``dp_core.composition.gaussian_composed_epsilons``
    (k equal releases are its sigma / sqrt(k); different ones one release of noise 1 / mu)."""
    items = _releases(releases)
    if any(r.mechanism != "gaussian" for r in items):
        raise CodedError("accounting_gaussian_only")
    d = check_delta(delta, allow_zero=False)
    multipliers = {r.noise_multiplier for r in items}
    if len(multipliers) == 1:
        return float(gaussian_composed_epsilons(multipliers.pop(), len(items), d))
    mu = math.sqrt(sum(1.0 / r.noise_multiplier**2 for r in items))
    return float(gaussian_composed_epsilons(1.0 / mu, 1, d))


# --- side by side ----------------------------------------------------------------------


def _budget_totals(items: tuple[NoiseRelease, ...], d: float) -> list[AccountingTotal]:
    """Totals from the (eps_i, delta_i) alone, for any mechanisms: basic (at sum delta_i)
    and optimal composition (at ``d``)."""
    basic_eps, basic_delta = basic_total(items)
    return [
        AccountingTotal(
            "basic",
            "Basic composition",
            basic_eps,
            basic_delta,
            "any mechanisms with these (ε_i, δ_i)",
            "Dwork & Roth 2014, Thm 3.16",
        ),
        AccountingTotal(
            "optimal",
            "Optimal composition",
            optimal_total_epsilon([(r.epsilon, r.delta) for r in items], d),
            d,
            "any mechanisms with these (ε_i, δ_i): the exact worst case",
            "Kairouz, Oh & Viswanath 2015, Thm 3.3; Murtagh & Vadhan 2016, Thm 1.5",
        ),
    ]


def _zcdp_totals(items: tuple[NoiseRelease, ...], d: float) -> list[AccountingTotal]:
    """The noise's total rho, converted to epsilon at ``d`` by Bun-Steinke and by CKS."""
    rho = total_rho(items)
    return [
        AccountingTotal(
            "zcdp_bs",
            "zCDP (Bun–Steinke conversion)",
            zcdp_epsilon(rho, d, "bun_steinke"),
            d,
            f"this noise: ρ = {rho:.4g} in total",
            "Bun & Steinke 2016, Prop 1.3, 1.4, 1.6",
        ),
        AccountingTotal(
            "zcdp",
            "zCDP (Canonne–Kamath–Steinke)",
            zcdp_epsilon(rho, d, "cks"),
            d,
            f"this noise: ρ = {rho:.4g} in total",
            "Canonne, Kamath & Steinke 2020, Cor 13 (OpenDP's conversion)",
        ),
    ]


def _numerical_totals(
    items: tuple[NoiseRelease, ...], d: float, pld: bool
) -> list[AccountingTotal]:
    """The noise composed numerically (PLDs, if ``pld``) and, when every release is
    Gaussian, exactly."""
    totals = []
    if pld:
        totals.append(
            AccountingTotal(
                "pld",
                "Privacy loss distributions",
                pld_epsilon(items, d),
                d,
                "this noise (Laplace and Gaussian PLDs), numerically composed",
                "dp-accounting (Google); Koskela, Jälkö & Honkela 2020",
            )
        )
    if all(r.mechanism == "gaussian" for r in items):
        totals.append(
            AccountingTotal(
                "gaussian",
                "Exact Gaussian composition",
                gaussian_exact_epsilon(items, d),
                d,
                "this noise, every release Gaussian",
                "Dong, Roth & Su 2019, Cor 3.3; Balle & Wang 2018, Thm 8",
            )
        )
    return totals


def compare_accountants(
    releases: Sequence[NoiseRelease], delta: float, *, pld: bool = True
) -> tuple[AccountingTotal, ...]:
    """The releases' total by every accountant, the tighter ones read at ``delta``.

    Basic composition stays at its own total delta (sum delta_i). ``delta`` must be above 0
    (zCDP and PLD have no finite epsilon at delta = 0 for Gaussian noise; for Laplace alone
    the basic total is the pure one). ``pld=False`` leaves out dp-accounting (slowest).
    """
    items = _releases(releases)
    d = check_delta(delta, allow_zero=False)
    return (*_budget_totals(items, d), *_zcdp_totals(items, d), *_numerical_totals(items, d, pld))
