"""Unary encoding: epsilon from the definition, SUE/OUE, Wang et al.'s variances, simulation."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from dp_core import (
    debiased_count,
    estimate_variance,
    grr_oue_crossover_domain_size,
    grr_probabilities,
    optimized_unary_encoding,
    symmetric_unary_encoding,
    unary_encode,
    unary_encoding_epsilon,
    unary_perturb,
    unary_report_counts,
)

# shared/README: UCI Adult occupation counts (14 categories).
OCCUPATIONS = np.array(
    [4140, 4099, 4066, 3770, 3650, 3295, 2002, 1597, 1370, 994, 928, 649, 149, 9]
)


def definition_epsilon(k: int, p: float, q: float) -> float:
    """Max over all 2^k reported bit vectors and pairs of inputs of the log likelihood ratio."""
    worst = 0.0
    for bits in itertools.product((0, 1), repeat=k):
        likelihood = [
            math.prod(
                (p if b else 1 - p) if i == v else (q if b else 1 - q) for i, b in enumerate(bits)
            )
            for v in range(k)
        ]
        worst = max(worst, math.log(max(likelihood) / min(likelihood)))
    return worst


def test_published_unary_encoding_is_ln9():
    # shared/README: p = 0.75, q = 0.25 gives ln 9 = 2.197.
    assert unary_encoding_epsilon(0.75, 0.25) == pytest.approx(math.log(9))
    assert unary_encoding_epsilon(0.75, 0.25) == pytest.approx(2.197, abs=1e-3)


@pytest.mark.parametrize(("k", "p", "q"), [(3, 0.75, 0.25), (4, 0.5, 0.1), (5, 0.9, 0.4)])
def test_epsilon_matches_the_definition(k, p, q):
    assert unary_encoding_epsilon(p, q) == pytest.approx(definition_epsilon(k, p, q))


@pytest.mark.parametrize("epsilon", [0.1, 1.0, math.log(9), 5.0])
def test_sue_and_oue_reach_the_target_epsilon(epsilon):
    p, q = symmetric_unary_encoding(epsilon)
    assert p + q == pytest.approx(1.0)
    assert unary_encoding_epsilon(p, q) == pytest.approx(epsilon)
    p, q = optimized_unary_encoding(epsilon)
    assert (p, q) == pytest.approx((0.5, 1 / (math.exp(epsilon) + 1)))
    assert unary_encoding_epsilon(p, q) == pytest.approx(epsilon)


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 3.0])
def test_variances_match_wang_et_al(epsilon):
    # Wang et al. 2017: variance per respondent for a category nobody holds.
    n, e = 10_000, math.exp(epsilon)
    oue = estimate_variance(0, n, *optimized_unary_encoding(epsilon)) / n
    sue = estimate_variance(0, n, *symmetric_unary_encoding(epsilon)) / n
    assert oue == pytest.approx(4 * e / (e - 1) ** 2)
    assert sue == pytest.approx(math.exp(epsilon / 2) / (math.exp(epsilon / 2) - 1) ** 2)
    for k in (2, 10, 100):
        grr = estimate_variance(0, n, *grr_probabilities(epsilon, k)) / n
        assert grr == pytest.approx((e + k - 2) / (e - 1) ** 2)


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0])
def test_crossover_domain_size(epsilon):
    k_star = grr_oue_crossover_domain_size(epsilon)
    assert k_star == pytest.approx(3 * math.exp(epsilon) + 2)
    e = math.exp(epsilon)
    oue = 4 * e / (e - 1) ** 2
    below, above = math.floor(k_star), math.floor(k_star) + 1
    assert (e + k_star - 2) / (e - 1) ** 2 == pytest.approx(oue)
    assert estimate_variance(0, 1, *grr_probabilities(epsilon, below)) < oue
    assert estimate_variance(0, 1, *grr_probabilities(epsilon, above)) > oue


def test_oue_minimises_variance_among_unary_encodings():
    epsilon = 1.0
    best = estimate_variance(0, 1, *optimized_unary_encoding(epsilon))
    for p in np.linspace(0.2, 0.95, 16):
        # q solving ln(p (1 - q) / ((1 - p) q)) = eps for this p.
        q = p / (p + (1 - p) * math.exp(epsilon))
        assert unary_encoding_epsilon(p, q) == pytest.approx(epsilon)
        assert estimate_variance(0, 1, p, q) >= best - 1e-12


def test_per_person_bits_follow_p_and_q():
    rng = np.random.default_rng(21)
    k, n = 14, 200_000  # spans several row chunks
    values = rng.integers(0, k, n)
    bits = unary_perturb(rng, values, k, 0.75, 0.25)
    assert bits.shape == (n, k) and bits.dtype == bool
    own = bits[np.arange(n), values]
    assert abs(own.mean() - 0.75) < 4 * math.sqrt(0.75 * 0.25 / n)
    others = (bits.sum() - own.sum()) / (n * (k - 1))
    assert abs(others - 0.25) < 4 * math.sqrt(0.25 * 0.75 / (n * (k - 1)))


def test_aggregate_draws_are_unbiased_with_the_exact_variance():
    rng = np.random.default_rng(22)
    p, q = optimized_unary_encoding(1.0)
    n, repeats = OCCUPATIONS.sum(), 50_000
    estimates = debiased_count(unary_report_counts(rng, OCCUPATIONS, p, q, repeats), n, p, q)
    var = estimate_variance(OCCUPATIONS, n, p, q)
    assert np.all(np.abs(estimates.mean(axis=0) - OCCUPATIONS) < 4 * np.sqrt(var / repeats))
    assert estimates.var(axis=0) == pytest.approx(var, rel=0.05)


def test_aggregate_and_per_person_column_sums_agree():
    rng = np.random.default_rng(23)
    counts = np.array([30, 15, 5])
    values = np.repeat(np.arange(3), counts)
    per_person = np.stack(
        [unary_perturb(rng, values, 3, 0.6, 0.2).sum(axis=0) for _ in range(4_000)]
    )
    aggregate = unary_report_counts(rng, counts, 0.6, 0.2, repeats=4_000)
    mean = counts * 0.6 + (counts.sum() - counts) * 0.2
    for draws in (per_person, aggregate):
        assert np.all(np.abs(draws.mean(axis=0) - mean) < 0.3)


# shared/README: the Chinese notebook's unary encoding keeps the 1,843 persons with no
# occupation as all-zero vectors, so 32,561 reports in all.
NO_OCCUPATION = 1_843
REPORTS = int(OCCUPATIONS.sum()) + NO_OCCUPATION


def test_a_person_with_no_value_sends_an_all_zero_vector_perturbed_with_q():
    rng = np.random.default_rng(24)
    k, n = 14, 100_000
    values = np.where(rng.random(n) < 0.5, -1, rng.integers(0, k, n))  # half hold no value
    bits = unary_perturb(rng, values, k, 0.75, 0.25)
    none, held = bits[values < 0], bits[values >= 0]
    assert abs(none.mean() - 0.25) < 4 * math.sqrt(0.25 * 0.75 / none.size)  # every bit: q
    own = held[np.arange(len(held)), values[values >= 0]]
    assert abs(own.mean() - 0.75) < 4 * math.sqrt(0.75 * 0.25 / own.size)


def test_bit_sums_over_every_report_have_mean_n_q_plus_count_times_p_minus_q():
    rng = np.random.default_rng(25)
    p, q = optimized_unary_encoding(1.0)
    repeats = 50_000
    sums = unary_report_counts(rng, OCCUPATIONS, p, q, repeats, n=REPORTS)
    expected = REPORTS * q + OCCUPATIONS * (p - q)
    sd = np.sqrt(OCCUPATIONS * p * (1 - p) + (REPORTS - OCCUPATIONS) * q * (1 - q))
    assert np.all(np.abs(sums.mean(axis=0) - expected) < 4 * sd / math.sqrt(repeats))
    # about 1,843 q = 496 more per category than if only the 30,718 persons answered
    left_out = int(OCCUPATIONS.sum()) * q + OCCUPATIONS * (p - q)
    assert np.allclose(expected - left_out, NO_OCCUPATION * q)
    estimates = debiased_count(sums, REPORTS, p, q)  # over all n reports: unbiased
    var = estimate_variance(OCCUPATIONS, REPORTS, p, q)
    assert np.all(np.abs(estimates.mean(axis=0) - OCCUPATIONS) < 4 * np.sqrt(var / repeats))
    assert estimates.var(axis=0) == pytest.approx(var, rel=0.05)


def test_aggregate_and_per_person_sums_agree_with_all_zero_vectors():
    rng = np.random.default_rng(26)
    counts, nobody = np.array([30, 15, 5]), 20
    values = np.concatenate([np.repeat(np.arange(3), counts), np.full(nobody, -1)])
    per_person = np.stack(
        [unary_perturb(rng, values, 3, 0.6, 0.2).sum(axis=0) for _ in range(4_000)]
    )
    n = counts.sum() + nobody
    aggregate = unary_report_counts(rng, counts, 0.6, 0.2, repeats=4_000, n=n)
    mean = n * 0.2 + counts * (0.6 - 0.2)
    for draws in (per_person, aggregate):
        assert np.all(np.abs(draws.mean(axis=0) - mean) < 0.3)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: unary_encoding_epsilon(0.25, 0.75), "greater than q"),
        (
            lambda: unary_report_counts(np.random.default_rng(0), [3, 4], 0.75, 0.25, n=6),
            "cannot come from the 7 persons",
        ),
        (lambda: unary_perturb(np.random.default_rng(0), [0, -2], 2, 0.75, 0.25), "between -1"),
        (lambda: unary_encoding_epsilon(0.5, 0.5), "greater than q"),
        (lambda: unary_encoding_epsilon(1.0, 0.25), "strictly between 0 and 1"),
        (lambda: unary_encoding_epsilon(0.75, 0.0), "strictly between 0 and 1"),
        (lambda: optimized_unary_encoding(-1), "greater than 0"),
        (
            lambda: unary_report_counts(np.random.default_rng(0), [32561], 0.75, 0.25),
            "2 categories",
        ),
        (lambda: unary_perturb(np.random.default_rng(0), [0, 1], 1, 0.75, 0.25), "at least 2"),
    ],
)
def test_bad_input_messages(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_unary_encode_is_one_hot_and_all_zero_for_no_value():
    bits = unary_encode([4, 0, -1], 6)
    assert bits.astype(int).tolist() == [[0, 0, 0, 0, 1, 0], [1, 0, 0, 0, 0, 0], [0] * 6]
