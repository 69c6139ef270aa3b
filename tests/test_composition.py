"""dp_core.composition against hand computation, the published corollary, dp-accounting's
PLD and RDP accountants, and brute force over the worst-case mechanism's outputs."""

from __future__ import annotations

import math

import dp_accounting
import mpmath
import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution as pld
from dp_accounting.pld.common import DifferentialPrivacyParameters

from dp_core import (
    advanced_composition_crossover,
    advanced_composition_epsilon,
    analytic_gaussian_sigma,
    basic_composition,
    compose_releases,
    gaussian_composed_epsilons,
    gaussian_composed_sigma,
    gaussian_epsilon_for,
    optimal_composition_delta,
    optimal_composition_epsilon,
)


def test_basic_composition_adds_up():
    eps, delta = basic_composition(0.5, 1e-6, [1, 7, 1000])
    assert list(eps) == [0.5, 3.5, 500.0]  # shared/README: 0.5 a day for seven days is 3.5
    assert delta == pytest.approx([1e-6, 7e-6, 1e-3])


def test_advanced_composition_hand_computed():
    # Dwork & Roth Thm 3.20 with eps = 0.1, k = 100, delta' = 1e-6, written out by hand:
    # sqrt(2 * 100 * ln(10^6)) * 0.1 + 100 * 0.1 * (e^0.1 - 1)
    by_hand = math.sqrt(200 * 6 * math.log(10)) * 0.1 + 10 * (math.exp(0.1) - 1)
    assert by_hand == pytest.approx(6.3082, abs=1e-4)
    assert float(advanced_composition_epsilon(0.1, 100, 1e-6)) == pytest.approx(by_hand, rel=1e-12)


@pytest.mark.parametrize(("target", "k", "slack"), [(0.5, 100, 1e-6), (0.9, 1000, 1e-5)])
def test_dwork_roth_corollary_3_21(target, k, slack):
    # Corollary 3.21: eps = target / (2 sqrt(2 k ln(1/delta'))) gives at most target (target < 1)
    eps = target / (2 * math.sqrt(2 * k * math.log(1 / slack)))
    assert float(advanced_composition_epsilon(eps, k, slack)) <= target


@pytest.mark.parametrize(("eps", "k"), [(0.1, 100), (0.05, 1000), (1.0, 10)])
def test_advanced_composition_is_an_upper_bound_on_exact_laplace_composition(eps, k):
    exact = pld.from_laplace_mechanism(1 / eps).self_compose(k).get_epsilon_for_delta(1e-6)
    assert exact <= float(advanced_composition_epsilon(eps, k, 1e-6))
    assert exact <= k * eps + 1e-9


def test_advanced_composition_does_not_overflow():
    assert np.isinf(advanced_composition_epsilon(800.0, [1, 10], 1e-6)).all()


@pytest.mark.parametrize(
    ("eps", "delta", "k"), [(1.0, 1e-5, 10), (0.1, 1e-6, 1000), (5.0, 1e-3, 3)]
)
def test_gaussian_exact_composition_matches_dp_accounting_pld(eps, delta, k):
    sigma = analytic_gaussian_sigma(1.0, eps, delta)
    total_delta = k * delta + 1e-6
    ours = float(gaussian_composed_epsilons(sigma, k, total_delta))
    # a grid of 1e-4: the epsilon of 1e-5 to 1e-6 relative here, at a tenth of the CPU (6 s)
    composed = pld.from_gaussian_mechanism(sigma, value_discretization_interval=1e-4).self_compose(
        k
    )
    assert ours == pytest.approx(composed.get_epsilon_for_delta(total_delta), rel=2e-3)
    assert ours == pytest.approx(gaussian_epsilon_for(sigma / math.sqrt(k), total_delta), rel=1e-10)
    rdp = dp_accounting.rdp.RdpAccountant()
    rdp.compose(dp_accounting.GaussianDpEvent(sigma), k)
    assert ours <= rdp.get_epsilon(total_delta)  # RDP is a (looser) upper bound


def test_composed_sigma_and_averaging():
    assert gaussian_composed_sigma(4.0, [1, 4, 100]) == pytest.approx([4.0, 2.0, 0.4])
    rng = np.random.default_rng(3)
    averages = rng.normal(0, 4.0, (20_000, 100)).mean(axis=1)
    assert averages.std() == pytest.approx(0.4, rel=0.03)


def test_one_release_costs_its_own_epsilon():
    curves = compose_releases(1.0, 1e-5, [1], 1e-6)
    assert curves.basic_epsilon[0] == 1.0
    # one analytic Gaussian release at delta + delta' costs a little less than epsilon
    assert 0.98 < curves.gaussian_epsilon[0] < 1.0
    assert curves.tightest(0) == "gaussian"
    assert compose_releases(1.0, 0.0, [1], 1e-6).tightest(0) == "basic"


def test_tightest_accounting_changes_with_k():
    ks = np.array([1, 10, 100, 1000])
    pure = compose_releases(0.1, 0.0, ks, 1e-6)
    assert pure.gaussian_epsilon is None
    simple = [pure.tightest(i, optimal=False) for i in range(4)]
    assert simple == ["basic", "basic", "advanced", "advanced"]
    assert pure.advanced_delta == pytest.approx([1e-6] * 4)
    approx = compose_releases(0.1, 1e-7, ks, 1e-6)
    assert approx.tightest(3) == "gaussian"
    assert approx.tightest(3, gaussian=False, optimal=False) == "advanced"
    assert approx.gaussian_epsilon[3] < approx.advanced_epsilon[3] < approx.basic_epsilon[3]


def test_void_totals_are_nan():
    curves = compose_releases(1.0, 1e-2, [10, 100, 1000], 1e-6)
    assert np.isnan(curves.basic_epsilon[2]) and np.isnan(curves.advanced_epsilon[2])
    assert np.isnan(curves.gaussian_epsilon[2]) and not np.isnan(curves.gaussian_epsilon[0])


@pytest.mark.parametrize("bad", [0, 1.5, -3])
def test_bad_k(bad):
    with pytest.raises(ValueError, match="whole number"):
        basic_composition(1.0, 0.0, [bad])


def _dp_accounting_optimal(eps: float, delta: float, k: int, total_delta: float) -> float:
    """dp-accounting: the (eps, delta) worst-case PLD composed k times, read at total_delta."""
    one = pld.from_privacy_parameters(
        DifferentialPrivacyParameters(eps, delta), value_discretization_interval=1e-4
    )
    return one.self_compose(k).get_epsilon_for_delta(total_delta)


@pytest.mark.parametrize(
    ("eps", "delta", "k", "total_delta"),
    [
        (0.1, 0.0, 100, 1e-6),
        (1.0, 1e-5, 10, 10 * 1e-5 + 1e-6),
        (0.5, 1e-6, 50, 50 * 1e-6 + 1e-6),
        (0.05, 1e-7, 1000, 1000 * 1e-7 + 1e-9),
        (2.0, 0.0, 30, 1e-3),
    ],
)
def test_optimal_composition_matches_dp_accounting(eps, delta, k, total_delta):
    ours = float(optimal_composition_epsilon(eps, delta, k, total_delta))
    assert ours == pytest.approx(_dp_accounting_optimal(eps, delta, k, total_delta), rel=1e-3)
    # it is the exact total: never above the basic or the advanced bound at the same total delta
    assert ours <= k * eps
    slack = total_delta - k * delta
    if slack > 0:
        assert ours <= float(advanced_composition_epsilon(eps, k, slack))


def test_optimal_composition_published_example():
    # eps = 0.1, k = 100, delta = 0, delta' = 1e-6: dp-accounting's PLD gives 4.774568,
    # the Dwork-Rothblum-Vadhan bound 6.3082 (Dwork & Roth Thm 3.20, written out by hand)
    ours = float(optimal_composition_epsilon(0.1, 0.0, 100, 1e-6))
    assert ours == pytest.approx(4.774568, abs=1e-5)
    assert round(ours, 2) == 4.77 and float(advanced_composition_epsilon(0.1, 100, 1e-6)) == (
        pytest.approx(6.3082, abs=1e-4)
    )


@pytest.mark.parametrize(("eps", "delta"), [(0.1, 0.0), (1.0, 1e-5), (3.0, 0.2), (10.0, 1e-9)])
def test_optimal_composition_of_one_release_gives_epsilon_back(eps, delta):
    assert float(optimal_composition_epsilon(eps, delta, 1, delta)) == pytest.approx(eps, rel=1e-12)
    # a little more delta buys a little less epsilon: (e^eps - e^eps') / (1 + e^eps) = extra
    extra = 1e-3
    want = math.log(math.exp(eps) - extra / (1 - delta) * (1 + math.exp(eps)))
    got = float(optimal_composition_epsilon(eps, delta, 1, delta + extra))
    assert got == pytest.approx(want, rel=1e-9)


def _worst_case_pair(eps: float, delta: float) -> tuple[np.ndarray, np.ndarray]:
    """Kairouz-Oh-Viswanath's worst-case (eps, delta) mechanism: four outputs, in and out."""
    e = math.exp(eps)
    p_in = np.array([delta, (1 - delta) * e / (1 + e), (1 - delta) / (1 + e), 0.0])
    p_out = np.array([0.0, (1 - delta) / (1 + e), (1 - delta) * e / (1 + e), delta])
    return p_in, p_out


def _brute_force_delta(eps: float, delta: float, k: int, total_eps: float) -> float:
    """sum over all 4^k outputs of max(0, P_in(y) - e^eps' P_out(y)): the exact hockey stick."""
    p_in, p_out = _worst_case_pair(eps, delta)
    joint_in, joint_out = np.ones(1), np.ones(1)
    for _ in range(k):
        joint_in, joint_out = np.outer(joint_in, p_in).ravel(), np.outer(joint_out, p_out).ravel()
    return float(np.maximum(0.0, joint_in - math.exp(total_eps) * joint_out).sum())


def _brute_force_epsilon(eps: float, delta: float, k: int, total_delta: float) -> float:
    low, high = 0.0, k * eps
    if _brute_force_delta(eps, delta, k, high) > total_delta:
        return math.inf  # the delta-chance outputs alone exceed it, at any epsilon
    if _brute_force_delta(eps, delta, k, 0.0) <= total_delta:
        return 0.0
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (
            (middle, high)
            if _brute_force_delta(eps, delta, k, middle) > total_delta
            else (
                low,
                middle,
            )
        )
    return high


@pytest.mark.parametrize(("eps", "delta"), [(0.3, 0.01), (1.0, 0.0), (2.0, 1e-3)])
@pytest.mark.parametrize("k", [1, 2, 3, 6])
def test_optimal_composition_is_the_worst_case_mechanism_composed(eps, delta, k):
    grid = np.linspace(0, k * eps, 13)
    brute = [_brute_force_delta(eps, delta, k, e) for e in grid]
    np.testing.assert_allclose(optimal_composition_delta(eps, delta, k, grid), brute, atol=1e-14)
    for total_delta in (1.5 * (1 - (1 - delta) ** k) + 1e-4, 0.05, 0.3):
        ours = float(optimal_composition_epsilon(eps, delta, k, total_delta))
        assert ours == pytest.approx(_brute_force_epsilon(eps, delta, k, total_delta), abs=1e-9)
        if 0 < ours < math.inf:  # 0 when eps' = 0 already meets total_delta
            assert float(optimal_composition_delta(eps, delta, k, ours)) == pytest.approx(
                total_delta
            )


def _mpmath_delta(eps: float, delta: float, k: int, total_eps: float) -> float:
    """The Kairouz-Oh-Viswanath sum in 60-digit arithmetic (no overflow at e^(k eps))."""
    with mpmath.workdps(60):
        e, t = mpmath.mpf(eps), mpmath.mpf(total_eps)
        rr = (
            mpmath.fsum(
                mpmath.binomial(k, j) * max(0, mpmath.exp((k - j) * e) - mpmath.exp(t + j * e))
                for j in range(k + 1)
            )
            / (1 + mpmath.exp(e)) ** k
        )
        keep = (1 - mpmath.mpf(delta)) ** k
        return float(1 - keep + keep * rr)


@pytest.mark.parametrize(
    ("eps", "delta", "k"), [(10.0, 0.0, 1000), (10.0, 1e-9, 1000), (0.01, 0.0, 1000), (5.0, 0, 999)]
)
def test_optimal_composition_large_k_and_epsilon(eps, delta, k):
    total_delta = k * delta + 1e-6
    ours = float(optimal_composition_epsilon(eps, delta, k, total_delta))
    assert 0 < ours <= k * eps
    assert _mpmath_delta(eps, delta, k, ours) == pytest.approx(total_delta, rel=1e-6)
    assert _mpmath_delta(eps, delta, k, ours * (1 - 1e-6)) > total_delta  # the smallest one
    assert float(optimal_composition_delta(eps, delta, k, ours)) == pytest.approx(
        total_delta, rel=1e-6
    )


def test_optimal_composition_vectorised_over_k():
    ks = np.array([1, 2, 7, 50, 333, 1000])
    together = optimal_composition_epsilon(0.2, 1e-7, ks, ks * 1e-7 + 1e-6)
    one_by_one = [float(optimal_composition_epsilon(0.2, 1e-7, k, k * 1e-7 + 1e-6)) for k in ks]
    np.testing.assert_allclose(together, one_by_one, rtol=1e-13)
    assert np.all(np.diff(together) > 0)


def test_optimal_composition_needs_the_delta_the_releases_already_use():
    # total delta below 1 - (1 - delta)^k: no finite epsilon covers the composition
    assert np.isinf(optimal_composition_epsilon(1.0, 1e-3, 10, 5e-3))
    with pytest.raises(ValueError, match="total delta"):
        optimal_composition_epsilon(1.0, 0.0, 10, 1.0)


def test_advanced_composition_crossover():
    # sqrt(2k ln(1/delta')) eps + k eps (e^eps - 1) < k eps  iff  k > 2 ln(1/delta') / (2 - e^eps)^2
    crossover = float(advanced_composition_crossover(0.1, 1e-6))
    assert crossover == pytest.approx(2 * math.log(1e6) / (2 - math.exp(0.1)) ** 2)
    below, above = math.floor(crossover), math.ceil(crossover)
    assert float(advanced_composition_epsilon(0.1, below, 1e-6)) > below * 0.1
    assert float(advanced_composition_epsilon(0.1, above, 1e-6)) < above * 0.1
    assert math.isinf(advanced_composition_crossover(math.log(2), 1e-6))  # e^eps - 1 >= 1
    assert math.isinf(advanced_composition_crossover(1.0, 1e-6))


def test_compose_releases_adds_the_optimal_total():
    ks = np.array([1, 10, 100, 1000])
    for delta in (0.0, 1e-7):
        curves = compose_releases(0.1, delta, ks, 1e-6)
        want = [float(optimal_composition_epsilon(0.1, delta, k, k * delta + 1e-6)) for k in ks]
        np.testing.assert_allclose(curves.optimal_epsilon, want, rtol=1e-13)
        assert np.all(curves.optimal_epsilon <= curves.advanced_epsilon)
        assert np.all(curves.optimal_epsilon <= curves.basic_epsilon)
    pure = compose_releases(0.1, 0.0, ks, 1e-6)
    # at k = 1 the optimal total is within 0.01% of k eps: basic wins the tie with its delta 0
    assert [pure.tightest(i) for i in range(4)] == ["basic", "optimal", "optimal", "optimal"]
    approx = compose_releases(0.1, 1e-7, ks, 1e-6)
    assert approx.tightest(3) == "gaussian" and approx.tightest(3, gaussian=False) == "optimal"
    assert approx.gaussian_epsilon[3] <= approx.optimal_epsilon[3]
    void = compose_releases(1.0, 1e-2, [10, 1000], 1e-6)
    assert np.isnan(void.optimal_epsilon[1]) and not np.isnan(void.optimal_epsilon[0])


def test_compose_releases_optimal_is_fast_enough_for_a_page():
    import time

    ks = np.unique(np.concatenate([np.round(np.geomspace(1, 1000, 61)), [1000]]))
    start = time.perf_counter()
    compose_releases(10.0, 1e-9, ks, 1e-6)
    assert time.perf_counter() - start < 0.2
