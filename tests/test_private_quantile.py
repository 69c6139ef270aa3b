"""dp_core.private_quantile against brute force, exact neighbours and OpenDP's quantile."""

import itertools
import math

import numpy as np
import opendp.prelude as dp
import pytest
from scipy import stats

from dp_core.private_quantile import (
    MAX_CANDIDATES,
    private_bounds,
    private_cap,
    private_quantile,
    quantile_probabilities,
    quantile_scores,
    quantile_sensitivity,
    quantile_spread,
)

dp.enable_features("contrib")

VALUES = np.array([1.0, 5, 12, 18, 25, 33, 41, 47, 49, 60])
GRID = np.array([0.0, 10, 20, 30, 40, 50])


def _brute_scores(values, candidates, alpha):
    # Smith 2011 / OpenDP's score_candidates, one candidate and one value at a time.
    return [
        -abs((1 - alpha) * sum(x < c for x in values) - alpha * sum(x > c for x in values))
        for c in candidates
    ]


def _brute_exponential(values, candidates, alpha, epsilon, m=1):
    # McSherry & Talwar 2007: P(c) proportional to exp(eps score / (2 Delta)).
    delta_u = m * max(alpha, 1 - alpha)
    weights = [
        math.exp(epsilon * s / (2 * delta_u)) for s in _brute_scores(values, candidates, alpha)
    ]
    return np.array(weights) / sum(weights)


def _brute_permute_and_flip(values, candidates, alpha, epsilon):
    # McKenna & Sheldon 2020, Alg 1, every visiting order enumerated exactly.
    delta_u = max(alpha, 1 - alpha)
    scores = _brute_scores(values, candidates, alpha)
    stop = [math.exp(epsilon * (s - max(scores)) / (2 * delta_u)) for s in scores]
    out = np.zeros(len(scores))
    orders = list(itertools.permutations(range(len(scores))))
    for order in orders:
        carry = 1.0 / len(orders)
        for r in order:
            out[r] += carry * stop[r]
            carry *= 1 - stop[r]
    return out


def _opendp_quantile(alpha, scale, measure):
    domain = dp.vector_domain(dp.atom_domain(T=float, nan=False))
    return dp.m.make_private_quantile(
        domain, dp.symmetric_distance(), measure, GRID.tolist(), alpha, scale
    )


# ---------------------------------------------------------------------------------------
# Exact probabilities
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("alpha", "epsilon", "m"), [(0.5, 1.0, 1), (0.9, 0.3, 1), (0.05, 2, 3)])
def test_probabilities_match_brute_force_exponential_mechanism(alpha, epsilon, m) -> None:
    np.testing.assert_allclose(
        quantile_scores(VALUES, GRID, alpha=alpha), _brute_scores(VALUES, GRID, alpha), atol=1e-12
    )
    p = quantile_probabilities(VALUES, GRID, alpha=alpha, epsilon=epsilon, max_rows_per_person=m)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(p, _brute_exponential(VALUES, GRID, alpha, epsilon, m), rtol=1e-10)


@pytest.mark.parametrize(("alpha", "epsilon"), [(0.5, 1.0), (0.9, 0.9), (0.25, 4.0)])
def test_permute_and_flip_probabilities_match_enumerating_every_order(alpha, epsilon) -> None:
    p = quantile_probabilities(
        VALUES, GRID, alpha=alpha, epsilon=epsilon, mechanism="permute_and_flip"
    )
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(p, _brute_permute_and_flip(VALUES, GRID, alpha, epsilon), rtol=1e-9)


def test_probabilities_stay_finite_for_a_million_values_and_large_epsilon() -> None:
    values = np.random.default_rng(0).exponential(100, 1_000_000)
    grid = np.linspace(0, 1000, 501)
    p = quantile_probabilities(values, grid, alpha=0.95, epsilon=50)
    assert np.isfinite(p).all() and p.sum() == pytest.approx(1.0)
    assert grid[p.argmax()] == pytest.approx(np.quantile(values, 0.95), abs=2.0)


@pytest.mark.parametrize("mechanism", ["exponential", "permute_and_flip"])
@pytest.mark.parametrize(("alpha", "m"), [(0.5, 1), (0.9, 1), (0.9, 2)])
def test_removing_any_person_moves_log_probabilities_by_at_most_epsilon(
    mechanism, alpha, m
) -> None:
    # Exact eps-DP on every neighbour: remove one person (their m values), all candidates.
    epsilon = 0.7
    persons = VALUES.reshape(-1, m)
    run = {"alpha": alpha, "max_rows_per_person": m, "mechanism": mechanism}

    def worst_log_ratio(eps: float) -> float:
        full = np.log(quantile_probabilities(persons.ravel(), GRID, epsilon=eps, **run))
        return max(
            np.abs(
                full
                - np.log(
                    quantile_probabilities(
                        np.delete(persons, i, axis=0).ravel(), GRID, epsilon=eps, **run
                    )
                )
            ).max()
            for i in range(len(persons))
        )

    assert worst_log_ratio(epsilon) <= epsilon * (1 + 1e-9)
    # ... and the check can fail: half the sensitivity (twice the rate) breaks eps.
    assert worst_log_ratio(2 * epsilon) > epsilon


def test_large_epsilon_picks_the_true_quantile() -> None:
    values = np.arange(0.0, 101.0)  # the 0.25-quantile is 25: 0.75 * 25 = 0.25 * 75
    grid = np.arange(0.0, 101.0, 5.0)
    assert np.quantile(values, 0.25) == 25.0
    p = quantile_probabilities(values, grid, alpha=0.25, epsilon=50)
    assert grid[p.argmax()] == 25.0 and p.max() > 0.99
    assert private_quantile(np.random.default_rng(0), values, grid, alpha=0.25, epsilon=50) == 25.0


def test_more_rows_per_person_is_the_same_as_a_smaller_epsilon() -> None:
    # Delta = m max(alpha, 1 - alpha): m rows at eps equals one row at eps / m.
    assert quantile_sensitivity(alpha=0.9, max_rows_per_person=3) == pytest.approx(2.7)
    a = quantile_probabilities(VALUES, GRID, alpha=0.9, epsilon=1.5, max_rows_per_person=3)
    b = quantile_probabilities(VALUES, GRID, alpha=0.9, epsilon=0.5)
    np.testing.assert_allclose(a, b, rtol=1e-12)


# ---------------------------------------------------------------------------------------
# OpenDP's make_private_quantile: privacy maps and 20,000 draws
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("alpha", "epsilon", "m"), [(0.5, 1.0, 1), (0.9, 0.9, 1), (0.05, 2, 3)])
def test_epsilon_matches_opendp_privacy_map(alpha, epsilon, m) -> None:
    # OpenDP scale s = 2 Delta / eps with our Delta = m max(alpha, 1 - alpha): its
    # max-divergence map at d_in = m rows must give eps, its zCDP map rho = eps^2 / 8.
    scale = 2 * quantile_sensitivity(alpha=alpha, max_rows_per_person=m) / epsilon
    eps_opendp = _opendp_quantile(alpha, scale, dp.max_divergence()).map(m)
    assert eps_opendp == pytest.approx(epsilon, rel=1e-9)
    rho = _opendp_quantile(alpha, scale, dp.zero_concentrated_divergence()).map(m)
    assert rho == pytest.approx(epsilon**2 / 8, rel=1e-9)
    # ... the same scale with one more row per person costs more: the check can fail.
    assert _opendp_quantile(alpha, scale, dp.max_divergence()).map(m + 1) > epsilon * 1.1


@pytest.mark.parametrize(
    ("measure", "mechanism", "other"),
    [
        (dp.zero_concentrated_divergence(), "exponential", "permute_and_flip"),
        (dp.max_divergence(), "permute_and_flip", "exponential"),
    ],
)
def test_probabilities_match_20000_opendp_draws(measure, mechanism, other) -> None:
    # OpenDP runs the exponential mechanism for zCDP and permute-and-flip for pure DP.
    alpha, epsilon, n = 0.9, 0.9, 20_000
    scale = 2 * quantile_sensitivity(alpha=alpha) / epsilon
    release = _opendp_quantile(alpha, scale, measure)
    draws = np.array([release(VALUES.tolist()) for _ in range(n)])
    observed = np.array([(draws == c).sum() for c in GRID])
    assert observed.sum() == n
    ours = quantile_probabilities(VALUES, GRID, alpha=alpha, epsilon=epsilon, mechanism=mechanism)
    assert stats.chisquare(observed, n * ours).pvalue > 1e-4  # false alarm 1 in 10,000
    # The test can fail: the other mechanism's probabilities are rejected.
    wrong = quantile_probabilities(VALUES, GRID, alpha=alpha, epsilon=epsilon, mechanism=other)
    assert stats.chisquare(observed, n * wrong).pvalue < 1e-8


# ---------------------------------------------------------------------------------------
# Draws, bounds, caps and the spread of the choice
# ---------------------------------------------------------------------------------------


def test_draws_follow_the_exact_probabilities() -> None:
    rng = np.random.default_rng(4)
    draws = [private_quantile(rng, VALUES, GRID, alpha=0.5, epsilon=0.5) for _ in range(6000)]
    observed = np.array([draws.count(c) for c in GRID])
    p = quantile_probabilities(VALUES, GRID, alpha=0.5, epsilon=0.5)
    assert stats.chisquare(observed, 6000 * p).pvalue > 1e-4
    uniform = np.full(GRID.size, 1000.0)
    assert stats.chisquare(observed, uniform).pvalue < 1e-8  # the check can fail


def test_private_bounds_split_epsilon_and_are_always_ordered() -> None:
    rng = np.random.default_rng(8)
    adjusted = 0
    for epsilon in (0.01, 0.1, 1.0, 10.0):
        for _ in range(200):
            bounds = private_bounds(rng, VALUES, GRID, epsilon=epsilon)
            assert bounds.lower < bounds.upper
            assert bounds.lower in GRID and bounds.upper in GRID
            adjusted += bounds.adjusted
    assert adjusted > 0  # small epsilon does make the draws cross: the fix was exercised
    assert bounds.epsilon == 10.0 and bounds.epsilon_each == 5.0
    np.testing.assert_allclose(
        bounds.lower_probabilities, quantile_probabilities(VALUES, GRID, alpha=0.05, epsilon=5)
    )
    np.testing.assert_allclose(
        bounds.upper_probabilities, quantile_probabilities(VALUES, GRID, alpha=0.95, epsilon=5)
    )
    big = private_bounds(rng, np.arange(0.0, 101.0), np.arange(0.0, 101.0, 5.0), epsilon=200)
    assert (big.lower, big.upper) == (5.0, 95.0)  # 0.05 and 0.95 quantiles of 0 .. 100


def test_private_bounds_do_not_change_the_callers_grid() -> None:
    grid = GRID.copy()
    bounds = private_bounds(np.random.default_rng(0), VALUES, grid, epsilon=1.0)
    assert grid.flags.writeable and not bounds.candidates.flags.writeable


def test_private_cap_is_a_quantile_of_contributions_over_one_to_max_cap() -> None:
    contributions = np.repeat([1, 2, 3, 4, 8, 20], [50, 30, 10, 5, 4, 1])  # persons with k rows
    result = private_cap(np.random.default_rng(1), contributions, alpha=0.9, epsilon=1, max_cap=10)
    np.testing.assert_array_equal(result.candidates, np.arange(1, 11))
    np.testing.assert_allclose(
        result.probabilities,
        _brute_exponential(contributions, range(1, 11), 0.9, 1.0),
        rtol=1e-10,
    )
    assert 1 <= result.cap <= 10 and result.sensitivity == pytest.approx(0.9)
    sure = private_cap(np.random.default_rng(1), contributions, alpha=0.9, epsilon=100, max_cap=10)
    assert sure.cap == 3  # 90 of 100 persons have at most 3 rows: #(<3) = 80, #(>3) = 10


def test_quantile_spread_is_exact() -> None:
    spread = quantile_spread(VALUES, GRID, alpha=0.9, epsilon=0.9, coverage=0.8)
    p = _brute_exponential(VALUES, GRID, 0.9, 0.9)
    assert spread.expected == pytest.approx(p @ GRID)
    assert spread.std == pytest.approx(math.sqrt(p @ (GRID - p @ GRID) ** 2))
    grid = GRID
    inside = (grid >= spread.low) & (grid <= spread.high)
    assert p[inside].sum() >= 0.8
    assert p[grid < spread.low].sum() < 0.1 and p[grid > spread.high].sum() <= 0.1 + 1e-12
    assert (spread.best_low, spread.best_high) == (50.0, 50.0)  # score 0 only at 50
    assert spread.probability_best == pytest.approx(p[-1])
    ties = quantile_spread([1.0, 2.0, 9.0, 10.0], np.arange(0.0, 12.0), alpha=0.5, epsilon=1)
    assert (ties.best_low, ties.best_high) == (3.0, 8.0)  # every c strictly between 2 and 9


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: quantile_probabilities([], GRID, alpha=0.5, epsilon=1), "no values"),
        (lambda: quantile_probabilities([1.0, np.nan], GRID, alpha=0.5, epsilon=1), "missing"),
        (lambda: quantile_probabilities(VALUES, [], alpha=0.5, epsilon=1), "at least one"),
        (lambda: quantile_probabilities(VALUES, [3, 1, 2], alpha=0.5, epsilon=1), "sorted"),
        (lambda: quantile_probabilities(VALUES, [1, 1, 2], alpha=0.5, epsilon=1), "sorted"),
        (lambda: quantile_probabilities(VALUES, [1, np.inf], alpha=0.5, epsilon=1), "finite"),
        (
            lambda: quantile_probabilities(
                VALUES, np.arange(MAX_CANDIDATES + 1), alpha=0.5, epsilon=1
            ),
            "at most 2,000",
        ),
        (lambda: quantile_probabilities(VALUES, GRID, alpha=0, epsilon=1), "strictly between"),
        (lambda: quantile_probabilities(VALUES, GRID, alpha=1, epsilon=1), "strictly between"),
        (lambda: quantile_probabilities(VALUES, GRID, alpha=1.5, epsilon=1), "strictly between"),
        (lambda: quantile_probabilities(VALUES, GRID, alpha=0.5, epsilon=0), "greater than 0"),
        (lambda: quantile_probabilities(VALUES, GRID, alpha=0.5, epsilon=-1), "greater than 0"),
        (
            lambda: quantile_probabilities(VALUES, GRID, alpha=0.5, epsilon=1, mechanism="x"),
            "mechanism",
        ),
        (
            lambda: quantile_probabilities(
                VALUES, GRID, alpha=0.5, epsilon=1, max_rows_per_person=0
            ),
            "at least 1",
        ),
        (
            lambda: private_bounds(
                np.random.default_rng(0), VALUES, GRID, epsilon=1, lower_alpha=0.9, upper_alpha=0.1
            ),
            "below the upper",
        ),
        (lambda: private_bounds(np.random.default_rng(0), VALUES, [1.0], epsilon=1), "two"),
        (
            lambda: private_cap(
                np.random.default_rng(0), [1, 2.5], alpha=0.9, epsilon=1, max_cap=5
            ),
            "whole numbers",
        ),
        (
            lambda: private_cap(np.random.default_rng(0), [1, 2], alpha=0.9, epsilon=1, max_cap=0),
            "at least 1",
        ),
    ],
)
def test_bad_arguments_raise_readable_errors(call, message) -> None:
    with pytest.raises(ValueError, match=message):
        call()
