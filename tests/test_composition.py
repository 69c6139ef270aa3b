"""dp_core.composition against hand computation, the published corollary, and dp-accounting's
PLD and RDP accountants."""

from __future__ import annotations

import math

import dp_accounting
import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution as pld

from dp_core import (
    advanced_composition_epsilon,
    analytic_gaussian_sigma,
    basic_composition,
    compose_releases,
    gaussian_composed_epsilons,
    gaussian_composed_sigma,
    gaussian_epsilon_for,
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
    composed = pld.from_gaussian_mechanism(sigma, value_discretization_interval=1e-5).self_compose(
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
    assert [pure.tightest(i) for i in range(4)] == ["basic", "basic", "advanced", "advanced"]
    assert pure.advanced_delta == pytest.approx([1e-6] * 4)
    approx = compose_releases(0.1, 1e-7, ks, 1e-6)
    assert approx.tightest(3) == "gaussian"
    assert approx.tightest(3, gaussian=False) == "advanced"
    assert approx.gaussian_epsilon[3] < approx.advanced_epsilon[3] < approx.basic_epsilon[3]


def test_void_totals_are_nan():
    curves = compose_releases(1.0, 1e-2, [10, 100, 1000], 1e-6)
    assert np.isnan(curves.basic_epsilon[2]) and np.isnan(curves.advanced_epsilon[2])
    assert np.isnan(curves.gaussian_epsilon[2]) and not np.isnan(curves.gaussian_epsilon[0])


@pytest.mark.parametrize("bad", [0, 1.5, -3])
def test_bad_k(bad):
    with pytest.raises(ValueError, match="whole number"):
        basic_composition(1.0, 0.0, [bad])
