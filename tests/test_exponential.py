"""The exponential mechanism and the selection facts, against scipy, diffprivlib and the
published disease and industry-group figures (/work/shared/README.md)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import ROOT
from diffprivlib.mechanisms import Exponential
from scipy import special, stats

from dp_core import (
    expected_score_lost,
    exponential_log_probabilities,
    exponential_log_weights,
    exponential_mechanism,
    exponential_probabilities,
    exponential_probabilities_by_epsilon,
    exponential_score_shortfall_bound,
    exponential_unnormalised_log_weights,
    log_probability_of_shortfall,
    probability_of_best,
    probability_of_shortfall,
    sample_counts,
    selection_rate,
)

DISEASES = {"Diabetes": 24, "Hepatitis": 8, "Flu": 28, "HIV": 5}
PUBLISHED = {  # epsilon -> (Diabetes, Hepatitis, Flu, HIV)
    0.0: (0.25, 0.25, 0.25, 0.25),
    0.1: (0.327, 0.147, 0.399, 0.126),
    1.0: (0.119, 4.0e-5, 0.881, 8.9e-6),
}
INDUSTRY = pd.read_csv(ROOT / "data" / "industry_groups.csv")["count"].to_numpy()


@pytest.mark.parametrize("epsilon", [0.0, 0.1, 1.0])
def test_published_disease_table(epsilon):
    p = exponential_probabilities(list(DISEASES.values()), epsilon, 1)
    for got, want in zip(p, PUBLISHED[epsilon], strict=True):
        assert got == pytest.approx(want, rel=5e-3, abs=5e-4)
    assert p.sum() == pytest.approx(1.0, abs=1e-15)


def test_published_disease_table_three_decimals_and_flu_at_ten():
    assert np.round(exponential_probabilities(list(DISEASES.values()), 0.1, 1), 3).tolist() == [
        0.327,
        0.147,
        0.399,
        0.126,
    ]
    assert exponential_probabilities(list(DISEASES.values()), 10, 1)[2] > 1 - 1e-8


def test_unnormalised_weights_are_the_german_notebooks_implementation_step():
    """exp(ε·u / (2Δ)) at ε = 0.1 for Diabetes, Hepatitis, Flu, HIV, before normalising."""
    log_w = exponential_unnormalised_log_weights(list(DISEASES.values()), 0.1, 1)
    assert np.round(np.exp(log_w), 3).tolist() == [3.320, 1.492, 4.055, 1.284]
    published = exponential_probabilities(list(DISEASES.values()), 0.1, 1)
    np.testing.assert_allclose(np.exp(log_w) / np.exp(log_w).sum(), published)  # normalised
    assert np.exp(exponential_unnormalised_log_weights([28], 1, 1, monotonic=True)) == (
        pytest.approx(np.exp(28))
    )
    assert exponential_unnormalised_log_weights([5, 7], 0, 1).tolist() == [0, 0]  # weight 1
    huge = exponential_unnormalised_log_weights([4140, 9], 20, 1)  # e^41400: beyond a float
    assert huge.tolist() == [41400, 90] and huge[0] > np.log(np.finfo(float).max)


def test_industry_groups_best_is_0_9501_at_epsilon_0_1():
    assert INDUSTRY.size == 119 and INDUSTRY.sum() == 37_080
    p = exponential_probabilities(INDUSTRY, 0.1, 1)
    assert round(float(probability_of_best(p, INDUSTRY)), 4) == 0.9501


@pytest.mark.parametrize("epsilon", [0.01, 0.1, 1.0, 7.5])
@pytest.mark.parametrize("monotonic", [False, True])
def test_matches_scipy_softmax(epsilon, monotonic):
    scores = np.array([3.0, -2.0, 10.5, 10.5, 0.0])
    factor = epsilon / (1.0 if monotonic else 2.0) / 2.5
    want = special.softmax(factor * scores)
    got = exponential_probabilities(scores, epsilon, 2.5, monotonic=monotonic)
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("epsilon", [0.05, 1.0, 4.0])
@pytest.mark.parametrize("monotonic", [False, True])
def test_matches_diffprivlib_exponential(epsilon, monotonic):
    utility = [24.0, 8.0, 28.0, 5.0, 17.5]
    mech = Exponential(epsilon=epsilon, sensitivity=1.5, utility=utility, monotonic=monotonic)
    want = np.diff(mech._probabilities, prepend=0.0)  # diffprivlib stores the CDF
    got = exponential_probabilities(utility, epsilon, 1.5, monotonic=monotonic)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-15)


def test_huge_scores_stay_finite_where_naive_exp_fails():
    scores = np.array([5000.0, 4990.0, 3000.0])
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp(10 * scores / 2) / np.exp(10 * scores / 2).sum()
    assert np.isnan(naive).any()
    p = exponential_probabilities(scores, 10, 1)
    assert np.all(np.isfinite(p)) and p.sum() == pytest.approx(1.0)
    assert p[1] == pytest.approx(np.exp(-50) / (1 + np.exp(-50)), rel=1e-12)
    log_p = exponential_log_probabilities(scores, 10, 1)
    assert log_p[2] == pytest.approx(-10_000.0, rel=1e-12)  # exp underflows, the log does not
    # log weights relative to the best: 5 * (4990 - 5000) = -50, and 0 for the best
    assert exponential_log_weights(scores, 10, 1).tolist() == [0.0, -50.0, -10_000.0]


def test_epsilon_zero_is_uniform_and_bad_input_is_refused():
    np.testing.assert_allclose(exponential_probabilities([1, 50, 3], 0, 1), [1 / 3] * 3)
    for bad in (-0.1, "abc", float("nan"), float("inf")):
        with pytest.raises(ValueError, match="epsilon"):
            exponential_probabilities([1, 2], bad, 1)
    with pytest.raises(ValueError, match="no candidates"):
        exponential_probabilities([], 1, 1)
    with pytest.raises(ValueError, match="sensitivity"):
        exponential_probabilities([1, 2], 1, 0)
    with pytest.raises(ValueError, match="finite"):
        exponential_probabilities([1, np.nan], 1, 1)
    assert exponential_probabilities([7], 3, 1).tolist() == [1.0]


def test_all_equal_scores_give_uniform_and_ties_count_as_best():
    np.testing.assert_allclose(exponential_probabilities([4, 4, 4, 4], 5, 1), [0.25] * 4)
    p = exponential_probabilities([5, 5, 1], 2, 1)
    assert probability_of_best(p, [5, 5, 1]) == pytest.approx(2 / (2 + np.exp(-4)))


def test_rows_by_epsilon_match_single_calls():
    rows = exponential_probabilities_by_epsilon(INDUSTRY, [0, 0.1, 3], 1)
    for row, eps in zip(rows, [0, 0.1, 3], strict=True):
        np.testing.assert_allclose(row, exponential_probabilities(INDUSTRY, eps, 1), rtol=1e-12)


def test_expected_score_lost_and_selection_rate():
    scores = [24, 8, 28, 5]
    p = exponential_probabilities(scores, 0.1, 1)
    assert expected_score_lost(p, scores) == pytest.approx(28 - p @ np.array(scores))
    assert expected_score_lost(exponential_probabilities(scores, 0, 1), scores) == 28 - 16.25
    assert selection_rate(1.0, 2.0) == 0.25 and selection_rate(1.0, 2.0, monotonic=True) == 0.5


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 5.0])
@pytest.mark.parametrize("t", [0.5, 2.0, 5.0])
def test_utility_bound_holds_exactly(epsilon, t):
    """Dwork & Roth Thm 3.11: P(score <= OPT - 2 Delta / eps (ln |R| + t)) <= exp(-t)."""
    rng = np.random.default_rng(7)
    scores = rng.integers(0, 60, size=40).astype(float)
    gap = exponential_score_shortfall_bound(scores.size, epsilon, 1, t=t)
    assert gap == pytest.approx(2 / epsilon * (np.log(40) + t))
    p = exponential_probabilities(scores, epsilon, 1)
    assert probability_of_shortfall(p, scores, gap) <= np.exp(-t)
    assert exponential_score_shortfall_bound(40, 0, 1, t=t) == float("inf")


def test_the_log_shortfall_agrees_and_keeps_a_tail_no_float_holds():
    """Summed in log space: the same tail as the probabilities while a float holds it; a tail
    of about 10⁻⁹³³ keeps its exponent (the sum of floats is 0); None when none falls short."""
    scores = np.array([28.0, 24.0, 8.0, 5.0])
    log_p = exponential_log_probabilities(scores, 1.0, 1)
    tail = log_probability_of_shortfall(log_p, scores, 10)
    assert np.exp(tail) == pytest.approx(probability_of_shortfall(np.exp(log_p), scores, 10))
    far = np.array([14976.0, 10683.0, 23.0])  # census marital status at ε = 1
    log_far = exponential_log_probabilities(far, 1.0, 1)
    assert probability_of_shortfall(np.exp(log_far), far, 9.9) == 0
    assert log_probability_of_shortfall(log_far, far, 9.9) / np.log(10) == pytest.approx(
        -4293 / 2 / np.log(10), rel=1e-9
    )
    assert log_probability_of_shortfall(log_p, scores, 100) is None


def test_sampling_matches_exact_probabilities_within_binomial_bounds():
    """At a fixed seed every sampled count lies in its exact two-sided 99.9% binomial range."""
    scores = list(DISEASES.values())
    p = exponential_probabilities(scores, 0.1, 1)
    n = 100_000
    counts = sample_counts(np.random.default_rng(2026), p, n)
    draws = np.bincount(
        exponential_mechanism(np.random.default_rng(1), scores, 0.1, 1, size=n), minlength=4
    )
    for observed in (counts, draws):
        low, high = stats.binom.ppf(0.0005, n, p), stats.binom.ppf(0.9995, n, p)
        assert np.all((low <= observed) & (observed <= high)), (observed, low, high)
        assert observed.sum() == n


def test_a_million_draws_are_fast():
    import time

    rng = np.random.default_rng(0)
    start = time.perf_counter()
    counts = sample_counts(rng, exponential_probabilities(INDUSTRY, 0.1, 1), 1_000_000)
    draws = exponential_mechanism(rng, INDUSTRY, 0.1, 1, size=1_000_000)
    assert time.perf_counter() - start < 0.5
    assert counts.sum() == 1_000_000 and draws.size == 1_000_000


@pytest.mark.parametrize("monotonic", [False, True])
def test_astronomical_counts_stay_finite(monotonic):
    # lambda * 1e308 overflows to inf (and inf - inf = NaN); the gaps lambda * (s - max s) do not
    scores = [1e308, 0.0]
    p = exponential_probabilities(scores, 10, 1, monotonic=monotonic)
    assert np.all(np.isfinite(p)) and p.sum() == pytest.approx(1.0, abs=1e-15)
    assert p[0] == pytest.approx(1.0, abs=1e-15)  # B trails by 1e308 counts: P(B) = e^-(5e308)
    log_p = exponential_log_probabilities(scores, 10, 1, monotonic=monotonic)
    assert log_p[0] == 0.0 and log_p[1] == -np.inf
    gaps = exponential_log_weights(scores, 10, 1, monotonic=monotonic)
    assert gaps[0] == 0.0 and gaps[1] == -np.inf  # lambda * (0 - 1e308), below -1.8e308
    # powers of two keep every gap exact: lambda * gaps = (0, -10, -10240), scipy's softmax
    rate = 10 / 2.0**990
    scores = [2.0**1000, 2.0**1000 - 2.0**990, 0.0]
    epsilon = rate * (1 if monotonic else 2)  # lambda = eps / Delta or eps / (2 Delta)
    p = exponential_probabilities(scores, epsilon, 1, monotonic=monotonic)
    np.testing.assert_allclose(p, special.softmax([0.0, -10.0, -10240.0]), rtol=1e-12)
