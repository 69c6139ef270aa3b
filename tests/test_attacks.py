"""dp_core.attacks against brute force (Bayes, scipy.stats ROCs, worst-case mechanisms) and
Google's dp-accounting (privacy loss distributions)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution as pld
from scipy import stats

from dp_core import (
    analytic_gaussian_sigma,
    attacker_accuracy,
    best_advantage,
    gaussian_advantage,
    gaussian_privacy_loss_tail,
    gaussian_roc,
    laplace_advantage,
    laplace_roc,
    loss_excess_probability,
    posterior_bounds,
    roc_ceiling,
    simulate_threshold_attack,
)

ALPHAS = np.linspace(0, 1, 2001)


def test_posterior_at_epsilon_1_and_even_prior_is_e_over_1_plus_e():
    low, high = posterior_bounds(0.5, 1.0)
    assert high == pytest.approx(math.e / (1 + math.e)) and f"{high:.3f}" == "0.731"
    assert low == pytest.approx(1 / (1 + math.e))


@pytest.mark.parametrize("eps", [0.01, 0.5, 1.0, 3.0, 10.0])
def test_posterior_is_bayes_with_likelihood_ratio_e_eps(eps):
    priors = np.linspace(0.001, 0.999, 200)
    low, high = posterior_bounds(priors, eps)
    ratio = math.exp(eps)  # randomized response's "yes" is this much likelier with Alice in
    assert high == pytest.approx(priors * ratio / (priors * ratio + 1 - priors), rel=1e-12)
    assert low == pytest.approx(priors / ratio / (priors / ratio + 1 - priors), rel=1e-12)


def test_randomized_response_reaches_the_bound():
    # shared/README: coin randomized response, P(yes|yes) = 0.75, P(yes|no) = 0.25, eps = ln 3
    prior = 0.5
    posterior_after_yes = prior * 0.75 / (prior * 0.75 + (1 - prior) * 0.25)
    assert posterior_bounds(prior, math.log(3))[1] == pytest.approx(posterior_after_yes) == 0.75


def test_posterior_never_overflows_and_certain_priors_stay():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        low, high = posterior_bounds(np.array([0.0, 0.3, 1.0]), 1000.0)
    assert high[0] == low[0] == 0.0 and high[2] == low[2] == 1.0  # certain priors stay
    assert 0.0 < low[1] < 1e-300 and 1 - 1e-15 < high[1] < 1.0  # uncertain ones stay inside


@pytest.mark.parametrize("bad", [-0.1, 1.5, np.nan])
def test_bad_prior(bad):
    with pytest.raises(ValueError, match="prior"):
        posterior_bounds(bad, 1.0)


def _worst_case_roc(eps: float, delta: float) -> np.ndarray:
    """ROC of the Kairouz-Oh-Viswanath worst-case (eps, delta) mechanism, four outputs.

    Outputs ordered by likelihood ratio: P(.|in) = (delta, (1-delta) e/(1+e), (1-delta)/(1+e), 0),
    P(.|out) = (0, (1-delta)/(1+e), (1-delta) e/(1+e), delta); the Neyman-Pearson ROC joins
    the cumulative rates linearly (randomised tests).
    """
    e = math.exp(eps)
    p_in = np.array([delta, (1 - delta) * e / (1 + e), (1 - delta) / (1 + e), 0.0])
    p_out = np.array([0.0, (1 - delta) / (1 + e), (1 - delta) * e / (1 + e), delta])
    fpr = np.concatenate([[0], np.cumsum(p_out)])
    tpr = np.concatenate([[0], np.cumsum(p_in)])
    return np.interp(ALPHAS, fpr, tpr)


@pytest.mark.parametrize(("eps", "delta"), [(0.1, 0.0), (1.0, 0.0), (1.0, 1e-2), (3.0, 0.2)])
def test_ceiling_is_the_roc_of_the_worst_case_mechanism(eps, delta):
    assert roc_ceiling(ALPHAS, eps, delta) == pytest.approx(_worst_case_roc(eps, delta), abs=1e-12)


@pytest.mark.parametrize(("eps", "delta"), [(0.1, 0.0), (1.0, 1e-5), (2.0, 0.3), (10.0, 1e-6)])
def test_best_advantage_is_the_ceilings_maximum(eps, delta):
    grid = np.linspace(0, 1, 200_001)
    numeric = np.max(roc_ceiling(grid, eps, delta) - grid)
    formula = (math.exp(eps) - 1 + 2 * delta) / (math.exp(eps) + 1)
    assert best_advantage(eps, delta) == pytest.approx(formula, rel=1e-12)
    assert numeric == pytest.approx(formula, abs=1e-4)


def test_advantage_figures_at_epsilon_1():
    assert float(best_advantage(1.0)) == pytest.approx(0.46211715726, rel=1e-9)  # tanh(1/2)
    assert float(attacker_accuracy(best_advantage(1.0))) == pytest.approx(0.7310585786)
    assert float(laplace_advantage(1.0)) == pytest.approx(1 - math.exp(-0.5))
    assert float(best_advantage(1000.0, 0.1)) == 1.0  # no overflow


@pytest.mark.parametrize("eps", [0.05, 0.5, 1.0, 4.0, 12.0])
def test_laplace_roc_matches_scipy_threshold_tests(eps):
    b = 1 / eps
    thresholds = np.linspace(-8 * b - 1, 8 * b + 2, 4001)
    fpr = stats.laplace.sf(thresholds, loc=0, scale=b)
    tpr = stats.laplace.sf(thresholds, loc=1, scale=b)
    assert laplace_roc(fpr, eps) == pytest.approx(tpr, abs=1e-12)
    assert float(laplace_advantage(eps)) == pytest.approx(np.max(tpr - fpr), abs=1e-5)


def _roc_from_profile(profile, alphas: np.ndarray) -> np.ndarray:
    """TPR(alpha) = inf over eps' of e^eps' alpha + delta(eps') (duality of the privacy profile)."""
    eps_grid = np.linspace(-15, 15, 6001)
    deltas = np.asarray(profile.get_delta_for_epsilon(eps_grid))
    return np.min(np.exp(eps_grid)[None, :] * alphas[:, None] + deltas[None, :], axis=1)


def test_laplace_roc_and_advantage_match_dp_accounting():
    eps = 1.0
    profile = pld.from_laplace_mechanism(1 / eps, value_discretization_interval=1e-5)
    alphas = np.linspace(0.001, 0.999, 60)
    assert laplace_roc(alphas, eps) == pytest.approx(_roc_from_profile(profile, alphas), abs=2e-4)
    assert float(laplace_advantage(eps)) == pytest.approx(
        profile.get_delta_for_epsilon(0.0), abs=1e-5
    )


def test_gaussian_roc_and_advantage_match_scipy_and_dp_accounting():
    sigma = analytic_gaussian_sigma(1.0, 1.0, 1e-5)
    thresholds = np.linspace(-6 * sigma, 6 * sigma + 1, 2001)
    fpr = stats.norm.sf(thresholds, scale=sigma)
    tpr = stats.norm.sf(thresholds, loc=1, scale=sigma)
    assert gaussian_roc(fpr, 1 / sigma) == pytest.approx(tpr, abs=1e-12)
    profile = pld.from_gaussian_mechanism(sigma, value_discretization_interval=1e-5)
    alphas = np.linspace(0.001, 0.999, 60)
    assert gaussian_roc(alphas, 1 / sigma) == pytest.approx(
        _roc_from_profile(profile, alphas), abs=2e-4
    )
    assert float(gaussian_advantage(1 / sigma)) == pytest.approx(
        profile.get_delta_for_epsilon(0.0), abs=1e-5
    )


@pytest.mark.parametrize(("eps", "delta"), [(0.1, 1e-6), (1.0, 1e-5), (5.0, 1e-3)])
def test_calibrated_mechanisms_stay_under_the_ceiling_and_gaussian_touches_it(eps, delta):
    ceiling = roc_ceiling(ALPHAS, eps, delta)
    assert np.all(laplace_roc(ALPHAS, eps) <= roc_ceiling(ALPHAS, eps, 0.0) + 1e-12)
    gap = ceiling - gaussian_roc(ALPHAS, 1 / analytic_gaussian_sigma(1.0, eps, delta))
    assert gap.min() > -1e-9
    # the analytic sigma is the smallest that works, so its ROC meets the ceiling somewhere
    fine = np.geomspace(1e-12, 1, 200_001)
    fine_gap = roc_ceiling(fine, eps, delta) - gaussian_roc(
        fine, 1 / analytic_gaussian_sigma(1.0, eps, delta)
    )
    assert fine_gap.min() < 1e-6 * max(delta, 1e-3)


@pytest.mark.parametrize(("eps", "delta"), [(0.5, 1e-5), (1.0, 1e-3), (3.0, 1e-6)])
@pytest.mark.parametrize("slack", [0.05, math.log(2), 1.0])
def test_loss_excess_bound_holds_for_the_gaussian_mechanism(eps, delta, slack):
    sigma = analytic_gaussian_sigma(1.0, eps, delta)
    exact = gaussian_privacy_loss_tail(sigma, eps + slack)
    assert exact <= loss_excess_probability(delta, slack)
    assert loss_excess_probability(delta, math.log(10 / 9)) == pytest.approx(10 * delta)


def test_simulated_attack_is_seeded_and_close_to_exact():
    thresholds = np.linspace(-3, 4, 15)
    first = simulate_threshold_attack(
        np.random.default_rng(7), noise="laplace", scale=1.0, thresholds=thresholds, trials=20_000
    )
    again = simulate_threshold_attack(
        np.random.default_rng(7), noise="laplace", scale=1.0, thresholds=thresholds, trials=20_000
    )
    assert np.array_equal(first.true_positive_rate, again.true_positive_rate)
    fpr = stats.laplace.sf(thresholds)
    tpr = stats.laplace.sf(thresholds, loc=1)
    se = 0.5 / math.sqrt(20_000)
    assert np.all(np.abs(first.false_positive_rate - fpr) < 5 * se)
    assert np.all(np.abs(first.true_positive_rate - tpr) < 5 * se)
    assert first.best_advantage == pytest.approx(float(laplace_advantage(1.0)), abs=0.03)
    gauss = simulate_threshold_attack(
        np.random.default_rng(1), noise="gaussian", scale=2.0, thresholds=thresholds, trials=20_000
    )
    assert np.all(np.abs(gauss.true_positive_rate - stats.norm.sf(thresholds, 1, 2)) < 5 * se)


def test_bad_inputs_raise_readable_errors():
    with pytest.raises(ValueError, match="false positive rates"):
        roc_ceiling([1.2], 1.0)
    with pytest.raises(ValueError, match="delta"):
        roc_ceiling([0.2], 1.0, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        laplace_roc([0.2], 0.0)
    with pytest.raises(ValueError, match="noise"):
        simulate_threshold_attack(
            np.random.default_rng(0), noise="uniform", scale=1.0, thresholds=[0.0]
        )


def test_gaussian_exceeds_the_epsilon_bound_on_more_than_delta_of_outputs():
    # (eps, delta)-DP does not cap the loss at eps except on delta-rare outputs: the analytic
    # Gaussian at (1, 1e-5) exceeds eps with chance 1.6e-4 = 16 delta when Alice is in
    eps, delta = 1.0, 1e-5
    sigma = analytic_gaussian_sigma(1.0, eps, delta)
    tail = gaussian_privacy_loss_tail(sigma, eps)
    mu = 1 / (2 * sigma**2)  # privacy loss ~ Normal(mu, 2 mu) (Balle & Wang 2018, Lemma 3)
    assert tail == pytest.approx(stats.norm.sf(eps, loc=mu, scale=math.sqrt(2 * mu)), rel=1e-9)
    assert tail == pytest.approx(1.6e-4, rel=0.05) and tail > 15 * delta
    # what does hold: beyond eps + ln(10/9) only with chance <= 10 delta (Markov)
    slack = math.log(10 / 9)
    assert gaussian_privacy_loss_tail(sigma, eps + slack) <= loss_excess_probability(delta, slack)
