"""dp_core.gaussian against dp-accounting, diffprivlib, OpenDP, scipy.stats and mpmath."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from diffprivlib.mechanisms import Gaussian, GaussianAnalytic
from dp_accounting.gaussian_mechanism import get_epsilon_gaussian, get_sigma_gaussian
from dp_accounting.pld.privacy_loss_mechanism import GaussianPrivacyLoss
from scipy import stats

from dp_core.gaussian import (
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
    gaussian_sigma,
    gaussian_tail,
    gaussian_zcdp_rho,
    k_statistics_sensitivities,
    laplace_gaussian_crossover,
    noise_per_statistic,
    sample_gaussian,
)

GRID = [
    (eps, delta)
    for eps in (0.01, 0.1, 0.5, 0.99, 1.0, 2.0, 10.0)
    for delta in (1e-12, 1e-9, 1e-5, 1e-2)
]


def _exact_profile(sigma: float, eps: float, sensitivity: float = 1.0) -> mpmath.mpf:
    """Balle & Wang 2018 Thm 8 in 60-digit arithmetic."""
    with mpmath.workdps(60):
        s, sd, e = mpmath.mpf(sensitivity), mpmath.mpf(sigma), mpmath.mpf(eps)
        a, b = s / (2 * sd), e * sd / s
        return mpmath.ncdf(a - b) - mpmath.exp(e) * mpmath.ncdf(-a - b)


# --- classic calibration -------------------------------------------------------------------


def test_classic_sigma_matches_published_figure():
    # shared/README: eps 0.1, delta 1e-4, s = 1 -> sigma 43.4, mean absolute error about 35
    sigma = classic_gaussian_sigma(1, 0.1, 1e-4)
    assert sigma == pytest.approx(43.4, abs=0.05)
    assert gaussian_expected_abs_error(sigma) == pytest.approx(34.66, abs=0.01)


@pytest.mark.parametrize("eps", [0.01, 0.1, 0.5, 0.99])
@pytest.mark.parametrize("delta", [1e-12, 1e-5, 1e-2])
@pytest.mark.parametrize("sensitivity", [1.0, 7.5])
def test_classic_sigma_matches_diffprivlib(eps, delta, sensitivity):
    reference = Gaussian(epsilon=eps, delta=delta, sensitivity=sensitivity)._scale
    assert classic_gaussian_sigma(sensitivity, eps, delta) == pytest.approx(reference, rel=1e-12)


@pytest.mark.parametrize("eps", [1.0, 1.5, 10.0])
def test_classic_sigma_refuses_epsilon_one_and_above(eps):
    with pytest.raises(ValueError, match="only for epsilon below 1"):
        classic_gaussian_sigma(1, eps, 1e-5)


@pytest.mark.parametrize(("eps", "delta"), [(e, d) for e, d in GRID if e < 1])
def test_classic_sigma_is_a_valid_but_larger_calibration(eps, delta):
    classic = classic_gaussian_sigma(1, eps, delta)
    assert GaussianPrivacyLoss(classic).get_delta_for_epsilon(eps) <= delta
    assert classic > analytic_gaussian_sigma(1, eps, delta)


# --- analytic calibration ------------------------------------------------------------------


@pytest.mark.parametrize(("eps", "delta"), GRID)
def test_analytic_sigma_matches_dp_accounting(eps, delta):
    reference = get_sigma_gaussian(eps, delta, tol=1e-14)
    assert analytic_gaussian_sigma(1, eps, delta) == pytest.approx(reference, rel=1e-9)


@pytest.mark.parametrize(("eps", "delta"), [(10.0, 1e-9), (0.01, 1e-12), (1.0, 1e-5), (10, 1e-2)])
def test_analytic_sigma_is_exact_to_1e9_and_never_below(eps, delta):
    sigma = analytic_gaussian_sigma(1, eps, delta)
    assert _exact_profile(sigma, eps) <= delta  # meets delta: never below the exact sigma
    assert _exact_profile(sigma * (1 - 1e-9), eps) > delta  # and within 1e-9 of it


def test_analytic_sigma_matches_diffprivlib():
    # diffprivlib's GaussianAnalytic stops its search at about 1e-6 relative
    for eps, delta in [(1.0, 1e-5), (10.0, 1e-9), (0.01, 1e-12), (3.0, 1e-3)]:
        reference = GaussianAnalytic(epsilon=eps, delta=delta, sensitivity=2.0)._scale
        ours = analytic_gaussian_sigma(2.0, eps, delta)
        assert ours == pytest.approx(reference, rel=1e-5)


def test_analytic_sigma_is_linear_in_sensitivity_and_vectorised():
    deltas = np.logspace(-12, -2, 11)
    many = analytic_gaussian_sigmas(3.0, 0.7, deltas)
    singles = [3.0 * analytic_gaussian_sigma(1.0, 0.7, d) for d in deltas]
    np.testing.assert_allclose(many, singles, rtol=1e-12)
    assert np.all(np.diff(many) < 0)  # a larger delta needs less noise


def test_gaussian_sigma_dispatch():
    assert gaussian_sigma(1, 0.5, 1e-6, "classic") == classic_gaussian_sigma(1, 0.5, 1e-6)
    assert gaussian_sigma(1, 0.5, 1e-6) == analytic_gaussian_sigma(1, 0.5, 1e-6)
    with pytest.raises(ValueError, match="calibration"):
        gaussian_sigma(1, 0.5, 1e-6, "optimal")


@pytest.mark.parametrize("function", [analytic_gaussian_sigma, classic_gaussian_sigma])
def test_bad_privacy_parameters_give_readable_errors(function):
    with pytest.raises(ValueError, match="Laplace"):
        function(1, 0.5, 0.0)
    with pytest.raises(ValueError, match="below 1"):
        function(1, 0.5, 1.0)
    with pytest.raises(ValueError, match="greater than 0"):
        function(1, 0.0, 1e-5)
    with pytest.raises(ValueError, match="greater than 0"):
        function(1, -1.0, 1e-5)
    with pytest.raises(ValueError, match="sensitivity"):
        function(0, 0.5, 1e-5)


# --- profile, inverse, zCDP, privacy loss ---------------------------------------------------


@pytest.mark.parametrize("sigma", [0.3, 1.0, 4.0, 50.0])
@pytest.mark.parametrize("eps", [0.0, 0.1, 1.0, 3.0])
def test_profile_matches_dp_accounting_privacy_loss(sigma, eps):
    reference = GaussianPrivacyLoss(sigma, sensitivity=2.0).get_delta_for_epsilon(eps)
    assert gaussian_delta_for(sigma, eps, sensitivity=2.0) == pytest.approx(reference, rel=1e-9)


def test_profile_is_vectorised_and_falls_with_epsilon():
    deltas = gaussian_delta_for(2.0, np.linspace(0, 3, 31))
    assert deltas.shape == (31,)
    assert np.all(np.diff(deltas) < 0)


@pytest.mark.parametrize("sigma", [0.5, 1.0, 3.7306, 20.0])
@pytest.mark.parametrize("delta", [1e-9, 1e-5, 1e-2])
def test_epsilon_for_sigma_matches_dp_accounting(sigma, delta):
    reference = get_epsilon_gaussian(sigma, delta, tol=1e-14)
    assert gaussian_epsilon_for(sigma, delta) == pytest.approx(reference, rel=1e-9, abs=1e-12)


def test_epsilon_for_sigma_inverts_the_calibration():
    sigma = analytic_gaussian_sigma(1, 1.3, 1e-7)
    assert gaussian_epsilon_for(sigma, 1e-7) == pytest.approx(1.3, rel=1e-10)
    assert gaussian_epsilon_for(1000.0, 0.5) == 0.0  # delta(0) <= 0.5 already


def test_zcdp_rho_matches_opendp():
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    measurement = dp.m.make_gaussian(
        dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale=2.5
    )
    assert gaussian_zcdp_rho(2.5, sensitivity=3.0) == pytest.approx(measurement.map(3.0))


def test_privacy_loss_tail_is_normal_rho_2rho_and_bounds_delta():
    sigma, eps = 3.7306, 1.0
    rho = gaussian_zcdp_rho(sigma)
    reference = stats.norm.sf(eps, loc=rho, scale=math.sqrt(2 * rho))
    tail = gaussian_privacy_loss_tail(sigma, eps)
    assert tail == pytest.approx(reference, rel=1e-12)
    assert tail > 10 * gaussian_delta_for(sigma, eps)  # delta is much smaller than P(L > eps)


# --- error facts and sampling ---------------------------------------------------------------


def test_error_facts_match_scipy():
    sigma = 43.4
    assert gaussian_expected_abs_error(sigma) == pytest.approx(stats.halfnorm(scale=sigma).mean())
    assert gaussian_half_width(sigma) == pytest.approx(stats.norm(scale=sigma).interval(0.95)[1])
    assert gaussian_half_width(sigma, 0.5) == pytest.approx(stats.norm(scale=sigma).ppf(0.75))
    x = np.array([-1.0, 0.0, 10.0, 100.0, 500.0])
    np.testing.assert_allclose(gaussian_tail(sigma, x), [1, 1, *2 * stats.norm.sf(x[2:], 0, sigma)])
    np.testing.assert_allclose(gaussian_pdf(sigma, x), stats.norm.pdf(x, 0, sigma))
    p_inside = 1 - gaussian_tail(sigma, gaussian_half_width(sigma))
    assert float(p_inside) == pytest.approx(0.95)


def test_sampling_is_seeded_and_normal():
    draws = sample_gaussian(np.random.default_rng(7), 2.0, 100_000)
    again = sample_gaussian(np.random.default_rng(7), 2.0, 100_000)
    np.testing.assert_array_equal(draws, again)
    assert stats.kstest(draws, stats.norm(scale=2.0).cdf).pvalue > 1e-3
    assert np.mean(np.abs(draws)) == pytest.approx(gaussian_expected_abs_error(2.0), rel=0.01)


def test_mechanism_adds_noise_of_the_calibrated_size():
    true = np.full(200_000, 882.0)
    noisy = gaussian_mechanism(
        np.random.default_rng(1),
        true,
        sensitivity=1,
        epsilon=0.1,
        delta=1e-4,
        calibration="classic",
    )
    assert noisy.shape == true.shape
    assert np.std(noisy - true) == pytest.approx(43.436, rel=0.01)


# --- one person changes k statistics --------------------------------------------------------


def test_k_statistics_sensitivities():
    assert k_statistics_sensitivities(1) == (1.0, 1.0)
    assert k_statistics_sensitivities(9) == (9.0, 3.0)
    with pytest.raises(ValueError):
        k_statistics_sensitivities(0)


def test_noise_per_statistic_equals_direct_calibration():
    ks = np.arange(1, 30)
    laplace, gaussian = noise_per_statistic(ks, 0.8, 1e-6)
    np.testing.assert_allclose(laplace, math.sqrt(2) * ks / 0.8)
    direct = [analytic_gaussian_sigma(math.sqrt(k), 0.8, 1e-6) for k in ks]
    np.testing.assert_allclose(gaussian, direct, rtol=1e-11)
    laplace_abs, gaussian_abs = noise_per_statistic(ks, 0.8, 1e-6, measure="mean_abs")
    np.testing.assert_allclose(laplace_abs, ks / 0.8)
    np.testing.assert_allclose(gaussian_abs, np.asarray(direct) * math.sqrt(2 / math.pi))


def test_crossover_about_seven_at_epsilon_one_delta_1e5():
    # shared/README: with eps 1, delta 1e-5, Gaussian wins from about 7 statistics on. That
    # holds for the analytic calibration compared by standard deviation (k* = 6.96).
    crossover = laplace_gaussian_crossover(1.0, 1e-5)
    assert crossover == pytest.approx(get_sigma_gaussian(1.0, 1e-5) ** 2 / 2, rel=1e-9)
    assert crossover == pytest.approx(6.959, abs=1e-3)
    assert first_k_gaussian_wins(crossover) == 7
    laplace, gaussian = noise_per_statistic([6, crossover, 7], 1.0, 1e-5)
    assert laplace[0] < gaussian[0] and laplace[2] > gaussian[2]
    assert laplace[1] == pytest.approx(gaussian[1], rel=1e-12)
    by_abs = laplace_gaussian_crossover(1.0, 1e-5, measure="mean_abs")
    assert by_abs == pytest.approx(2 / math.pi * get_sigma_gaussian(1.0, 1e-5) ** 2, rel=1e-9)


def test_classic_crossover_and_first_k():
    crossover = laplace_gaussian_crossover(0.5, 1e-5, calibration="classic")
    assert crossover == pytest.approx(math.log(1.25e5), rel=1e-12)  # (eps sigma)^2 / 2
    assert first_k_gaussian_wins(0.4) == 1
    assert first_k_gaussian_wins(7.0) == 8
