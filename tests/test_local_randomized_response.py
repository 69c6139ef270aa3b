"""Randomized response (yes/no and k-ary) against OpenDP, the definition, and simulation."""

from __future__ import annotations

import itertools
import math

import numpy as np
import opendp.prelude as dp
import pytest
from scipy import stats

from dp_core import (
    coin_flip_answers,
    coin_flip_epsilon,
    coin_flip_for_epsilon,
    coin_flip_report_probabilities,
    epsilon_form_report_probabilities,
    gamma_epsilon,
    grr_perturb,
    grr_probabilities,
    grr_report_counts,
    randomized_response_epsilon,
    randomized_response_truth_probability,
    report_probabilities_epsilon,
    sample_yes_count,
    truth_gammas,
    yes_tally,
)

dp.enable_features("contrib")


def definition_epsilon(report_matrix: np.ndarray) -> float:
    """Max over outputs and pairs of inputs of ln P(out | a) / P(out | b), from the definition."""
    ratios = [
        math.log(report_matrix[a, out] / report_matrix[b, out])
        for a, b in itertools.permutations(range(report_matrix.shape[0]), 2)
        for out in range(report_matrix.shape[1])
    ]
    return max(ratios)


def coin_game_matrix(t: float, y: float) -> np.ndarray:
    """Rows: true no/yes; columns: report no/yes, by enumerating the four coin outcomes."""
    matrix = np.zeros((2, 2))
    for truth in (0, 1):
        for first_truthful, second_yes in itertools.product((True, False), repeat=2):
            prob = (t if first_truthful else 1 - t) * (y if second_yes else 1 - y)
            report = truth if first_truthful else int(second_yes)
            matrix[truth, report] += prob
    return matrix


@pytest.mark.parametrize("p_truth", [0.5, 0.6, 0.75, 0.9, 0.99, 0.999])
def test_yes_no_epsilon_matches_opendp(p_truth):
    measurement = dp.m.make_randomized_response_bool(p_truth)
    assert randomized_response_epsilon(p_truth) == pytest.approx(measurement.map(1), rel=1e-9)


@pytest.mark.parametrize(("k", "p_truth"), [(3, 0.5), (4, 0.75), (14, 0.3), (100, 0.9)])
def test_k_ary_epsilon_matches_opendp(k, p_truth):
    measurement = dp.m.make_randomized_response([str(c) for c in range(k)], p_truth)
    assert randomized_response_epsilon(p_truth, k) == pytest.approx(measurement.map(1), rel=1e-9)


@pytest.mark.parametrize("t", [0.05, 0.5, 0.8])
def test_fair_coin_game_matches_opendp(t):
    # With a fair second coin the truth is reported with probability (1 + t) / 2.
    measurement = dp.m.make_randomized_response_bool((1 + t) / 2)
    assert coin_flip_epsilon(t, 0.5) == pytest.approx(measurement.map(1), rel=1e-9)


def test_published_coin_scheme_is_ln3():
    # shared/README: P(yes|yes) = 0.75, P(yes|no) = 0.25, eps = ln 3 = 1.0986.
    assert coin_flip_report_probabilities(0.5, 0.5) == (0.75, 0.25)
    assert coin_flip_epsilon(0.5, 0.5) == pytest.approx(math.log(3))
    assert randomized_response_epsilon(0.75) == pytest.approx(1.0986, abs=1e-4)


@pytest.mark.parametrize("gamma", [0.1, 0.25, 0.4])
def test_truth_half_plus_gamma(gamma):
    # shared/README (responsible data science tutorial): eps = ln((1/2 + g) / (1/2 - g)).
    assert randomized_response_epsilon(0.5 + gamma) == pytest.approx(
        math.log((0.5 + gamma) / (0.5 - gamma))
    )


@pytest.mark.parametrize(("t", "y"), [(0.5, 0.25), (0.3, 0.9), (0.9, 0.5), (0.2, 0.05)])
def test_unfair_second_coin_matches_definition(t, y):
    matrix = coin_game_matrix(t, y)
    assert coin_flip_report_probabilities(t, y) == pytest.approx((matrix[1, 1], matrix[0, 1]))
    assert coin_flip_epsilon(t, y) == pytest.approx(definition_epsilon(matrix))


def test_unfair_coin_epsilon_is_the_larger_of_the_two_reports():
    # t = 1/2, y = 1/4: P(yes|yes) = 5/8, P(yes|no) = 1/8 -> ln 5 from a "yes" report,
    # ln(7/3) from a "no" report; epsilon is the larger.
    assert coin_flip_epsilon(0.5, 0.25) == pytest.approx(math.log(5))
    assert coin_flip_epsilon(0.5, 0.75) == pytest.approx(math.log(5))


def test_edge_cases_of_the_coin_game():
    assert coin_flip_epsilon(1.0, 0.5) == math.inf  # always truthful: no privacy
    assert coin_flip_epsilon(0.3, 0.0) == math.inf  # a "yes" can only be true
    assert coin_flip_epsilon(0.0, 0.5) == 0.0  # never truthful: no information
    assert randomized_response_epsilon(1.0) == math.inf
    assert report_probabilities_epsilon(0.25, 0.75) == pytest.approx(math.log(3))


@pytest.mark.parametrize("epsilon", [0.01, 0.5, 1.0, math.log(3), 5.0, 10.0])
def test_epsilon_form_and_coins_stay_in_step(epsilon):
    t, y = coin_flip_for_epsilon(epsilon)
    assert y == 0.5
    assert coin_flip_epsilon(t, y) == pytest.approx(epsilon, rel=1e-9)
    p_yes_given_yes, _ = coin_flip_report_probabilities(t, y)
    truth = randomized_response_truth_probability(epsilon)
    assert p_yes_given_yes == pytest.approx(truth)
    assert truth == pytest.approx(math.exp(epsilon) / (1 + math.exp(epsilon)))


@pytest.mark.parametrize(("epsilon", "k"), [(0.5, 2), (1.0, 14), (3.0, 100), (800.0, 5)])
def test_grr_probabilities_give_epsilon_and_sum_to_one(epsilon, k):
    p, q = grr_probabilities(epsilon, k)
    assert float(p + (k - 1) * q) == pytest.approx(1.0)
    assert np.isfinite(p) and np.isfinite(q)
    if epsilon < 50:
        assert randomized_response_epsilon(float(p), k) == pytest.approx(epsilon)
        measurement = dp.m.make_randomized_response(list(range(k)), float(p), T="i32")
        assert measurement.map(1) == pytest.approx(epsilon, rel=1e-9)


def test_coin_answers_follow_the_report_probabilities():
    rng = np.random.default_rng(1)
    truth = np.arange(400_000) % 2 == 0
    answers = coin_flip_answers(rng, truth, 0.3, 0.8)
    p, q = coin_flip_report_probabilities(0.3, 0.8)
    for observed, expected in (
        (answers.reported[truth].mean(), p),
        (answers.reported[~truth].mean(), q),
    ):
        assert abs(observed - expected) < 4 * math.sqrt(expected * (1 - expected) / 200_000)
    # Truthful persons report their truth; the others report the second coin.
    assert np.array_equal(answers.reported[answers.truthful], truth[answers.truthful])
    assert np.array_equal(
        answers.reported[~answers.truthful], answers.random_yes[~answers.truthful]
    )


def test_grr_perturbation_transition_probabilities():
    rng = np.random.default_rng(2)
    k, n = 5, 500_000
    values = rng.integers(0, k, n)
    reported = grr_perturb(rng, values, k, 1.0)
    p, q = (float(v) for v in grr_probabilities(1.0, k))
    transitions = np.zeros((k, k))
    np.add.at(transitions, (values, reported), 1)
    transitions /= transitions.sum(axis=1, keepdims=True)
    expected = np.full((k, k), q)
    np.fill_diagonal(expected, p)
    assert np.abs(transitions - expected).max() < 0.005  # sd about 0.0014


def test_exact_aggregate_draws_match_per_person_law():
    rng = np.random.default_rng(3)
    true_counts = np.array([50, 30, 15, 5])
    n, repeats = true_counts.sum(), 40_000
    p, q = (float(v) for v in grr_probabilities(1.2, 4))
    draws = grr_report_counts(rng, true_counts, 1.2, repeats=repeats)
    assert draws.shape == (repeats, 4)
    assert np.all(draws.sum(axis=1) == n)  # every person reports exactly one category
    mean = true_counts * p + (n - true_counts) * q
    var = true_counts * p * (1 - p) + (n - true_counts) * q * (1 - q)
    assert np.all(np.abs(draws.mean(axis=0) - mean) < 4 * np.sqrt(var / repeats))
    assert draws.var(axis=0) == pytest.approx(var, rel=0.05)
    # The same moments from perturbing each person.
    values = np.repeat(np.arange(4), true_counts)
    per_person = np.stack(
        [np.bincount(grr_perturb(rng, values, 4, 1.2), minlength=4) for _ in range(2_000)]
    )
    assert np.all(np.abs(per_person.mean(axis=0) - mean) < 4 * np.sqrt(var / 2_000))


def test_yes_tally_moments():
    rng = np.random.default_rng(4)
    tallies = yes_tally(rng, 3650, 32561 - 3650, 0.75, 0.25, repeats=100_000)
    mean = 3650 * 0.75 + (32561 - 3650) * 0.25
    var = 32561 * 0.75 * 0.25
    assert abs(tallies.mean() - mean) < 4 * math.sqrt(var / 100_000)
    assert tallies.var() == pytest.approx(var, rel=0.02)
    assert isinstance(yes_tally(rng, 10, 5, 0.75, 0.25), int)


def test_sampled_yes_count_is_hypergeometric():
    rng = np.random.default_rng(5)
    draws = np.array([sample_yes_count(rng, 3650, 32561, 1000) for _ in range(5000)])
    mean = 1000 * 3650 / 32561
    var = stats.hypergeom(32561, 3650, 1000).var()
    assert abs(draws.mean() - mean) < 4 * math.sqrt(var / 5000)
    assert draws.var() == pytest.approx(var, rel=0.08)
    assert sample_yes_count(rng, 3650, 32561, 32561) == 3650


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: coin_flip_epsilon(1.5, 0.5), "between 0 and 1"),
        (lambda: coin_flip_epsilon(0.5, -0.1), "between 0 and 1"),
        (lambda: randomized_response_epsilon("abc"), "must be a number"),
        (lambda: randomized_response_epsilon(0.7, k=1), "at least 2"),
        (lambda: grr_probabilities(0, 3), "greater than 0"),
        (lambda: grr_report_counts(np.random.default_rng(0), [12], 1.0), "at least 2 categories"),
        (lambda: grr_perturb(np.random.default_rng(0), [0, 3], 3, 1.0), "between 0 and 2"),
        (lambda: yes_tally(np.random.default_rng(0), 5, 5, 0.25, 0.75), "greater than q"),
        (lambda: sample_yes_count(np.random.default_rng(0), 5, 10, 11), "cannot exceed"),
    ],
)
def test_bad_input_messages(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("epsilon", [0.5, 5.0, 10.0])  # OpenDP takes 1 - p: 20 loses digits
def test_epsilon_form_report_probabilities_match_opendp(epsilon):
    p, q = epsilon_form_report_probabilities(epsilon)
    assert p + q == pytest.approx(1.0, abs=1e-15)  # the truth with p, the other answer with q
    measurement = dp.m.make_randomized_response_bool(p)  # OpenDP's privacy map of p_truth
    assert measurement.map(1) == pytest.approx(epsilon, rel=1e-9)


@pytest.mark.parametrize("epsilon", [38.0, 40.0, 100.0])
def test_epsilon_form_keeps_a_huge_epsilon_finite(epsilon):
    # tanh(eps / 2) rounds to 1 from eps = 38 on: the coin form would give t = 1 and eps = inf
    p, q = epsilon_form_report_probabilities(epsilon)
    assert 0 < q < 1e-16  # P(yes | no) = 1 / (1 + e^eps) stays positive
    # closed form: ln(P(yes|yes) / P(yes|no)) = ln e^eps = eps; P(no|yes) = q, P(no|no) = p
    got = report_probabilities_epsilon(p, q, no_given_yes=q, no_given_no=p)
    assert got == pytest.approx(epsilon, abs=1e-9)


# --- The gamma form (shared/README: the tutorial tells the truth w.p. 1/2 + gamma) --------------


def test_gamma_one_quarter_tells_the_truth_with_three_quarters_and_gives_ln3():
    assert gamma_epsilon(0.25) == pytest.approx(math.log(3))  # ln(0.75 / 0.25)
    p, q = coin_flip_report_probabilities(0.5, 0.5)  # the fair coins
    assert truth_gammas(p, q) == (0.25, 0.25) and 0.5 + 0.25 == p == 0.75


@pytest.mark.parametrize("gamma", [0.0, 0.05, 0.25, 0.4, 0.499])
def test_gamma_form_is_the_coins_with_t_twice_gamma_and_a_fair_second_coin(gamma):
    p, q = coin_flip_report_probabilities(2 * gamma, 0.5)
    assert truth_gammas(p, q) == pytest.approx((gamma, gamma))
    assert gamma_epsilon(gamma) == pytest.approx(coin_flip_epsilon(2 * gamma, 0.5), abs=1e-12)
    if gamma > 0:  # OpenDP's boolean randomized response: the truth w.p. 1/2 + gamma
        measurement = dp.m.make_randomized_response_bool(0.5 + gamma)
        assert gamma_epsilon(gamma) == pytest.approx(measurement.map(1), rel=1e-9)


def test_a_lopsided_second_coin_has_one_gamma_per_answer():
    p, q = coin_flip_report_probabilities(0.5, 0.25)  # p = 0.625, q = 0.125
    assert truth_gammas(p, q) == pytest.approx((0.125, 0.375))


@pytest.mark.parametrize(("gamma", "epsilon"), [(0.5, math.inf), (-0.25, math.log(3))])
def test_gamma_epsilon_at_the_ends(gamma, epsilon):
    assert gamma_epsilon(gamma) == pytest.approx(epsilon)


@pytest.mark.parametrize("gamma", [0.6, -0.51, math.nan])
def test_gamma_outside_a_half_is_refused(gamma):
    with pytest.raises(ValueError, match="between -1/2 and 1/2"):
        gamma_epsilon(gamma)
