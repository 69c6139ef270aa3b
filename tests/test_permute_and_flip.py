"""Permute-and-flip: exact probabilities against enumeration of every visiting order,
high-precision integration, diffprivlib's stop probabilities and sampled runs."""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import pandas as pd
import pytest
from conftest import ROOT
from diffprivlib.mechanisms import PermuteAndFlip
from scipy import stats

from dp_core import (
    expected_score_lost,
    exponential_probabilities,
    permute_and_flip,
    permute_and_flip_probabilities,
    permute_and_flip_probabilities_by_epsilon,
    permute_and_flip_stop_probabilities,
    probability_of_best,
    report_noisy_max,
)

INDUSTRY = pd.read_csv(ROOT / "data" / "industry_groups.csv")["count"].to_numpy()


def enumerate_orders(stop: np.ndarray) -> np.ndarray:
    """Average over all n! visiting orders of P(first stop is r) = p_r prod_{earlier}(1 - p)."""
    n = stop.size
    total = np.zeros(n)
    for order in itertools.permutations(range(n)):
        carry = 1.0
        for r in order:
            total[r] += carry * stop[r]
            carry *= 1.0 - stop[r]
    return total / math.factorial(n)


@pytest.mark.parametrize(
    "scores",
    [[24, 8, 28, 5], [3, 3, 1, 0, 2], [5, 5, 5], [10, 9.5, 9.5, 2, 0, 7], [1.0, 0.0]],
)
@pytest.mark.parametrize("epsilon", [0.0, 0.3, 1.0, 4.0])
@pytest.mark.parametrize("monotonic", [False, True])
def test_exact_probabilities_equal_enumeration_over_all_orders(scores, epsilon, monotonic):
    stop = permute_and_flip_stop_probabilities(scores, epsilon, 1, monotonic=monotonic)
    got = permute_and_flip_probabilities(scores, epsilon, 1, monotonic=monotonic)
    np.testing.assert_allclose(got, enumerate_orders(stop), rtol=1e-12, atol=1e-15)


def test_industry_groups_agree_with_30_digit_integration():
    stop = permute_and_flip_stop_probabilities(INDUSTRY, 0.1, 1)
    got = permute_and_flip_probabilities(INDUSTRY, 0.1, 1)
    mpmath.mp.dps = 30
    weights = [mpmath.mpf(float(w)) for w in stop]
    for r in (0, 1, 11, 118):
        others = weights[:r] + weights[r + 1 :]
        want = weights[r] * mpmath.quad(
            lambda u, others=others: mpmath.fprod(1 - w * u for w in others), [0, 0.5, 1]
        )
        assert abs(got[r] - float(want)) < 1e-12 * max(1.0, float(want))
    assert got.sum() == pytest.approx(1.0, abs=1e-12)


def test_stop_probabilities_match_diffprivlib():
    utility = [24.0, 8.0, 28.0, 5.0]
    for monotonic in (False, True):
        mech = PermuteAndFlip(epsilon=0.7, sensitivity=2.0, utility=utility, monotonic=monotonic)
        got = permute_and_flip_stop_probabilities(utility, 0.7, 2.0, monotonic=monotonic)
        np.testing.assert_allclose(np.log(got), mech._probabilities, rtol=1e-12)


@pytest.mark.parametrize("epsilon", [0.01, 0.1, 0.5, 2.0, 20.0])
def test_never_worse_than_the_exponential_mechanism(epsilon):
    """McKenna & Sheldon 2020: PF never loses more expected score than the exponential mechanism."""
    pf = permute_and_flip_probabilities(INDUSTRY, epsilon, 1)
    em = exponential_probabilities(INDUSTRY, epsilon, 1)
    assert expected_score_lost(pf, INDUSTRY) <= expected_score_lost(em, INDUSTRY) + 1e-9
    assert probability_of_best(pf, INDUSTRY) >= probability_of_best(em, INDUSTRY) - 1e-12


def test_rows_by_epsilon_and_epsilon_zero():
    rows = permute_and_flip_probabilities_by_epsilon(INDUSTRY, [0.0, 0.1, 5.0], 1)
    np.testing.assert_allclose(rows[0], 1 / 119, rtol=1e-12)
    np.testing.assert_allclose(
        rows[1], permute_and_flip_probabilities(INDUSTRY, 0.1, 1), rtol=1e-12
    )
    with pytest.raises(ValueError, match="epsilon"):
        permute_and_flip_probabilities([1, 2], -1, 1)


def test_sampled_runs_inside_binomial_bounds():
    """The algorithm itself and report-noisy-max with exponential noise, at fixed seeds."""
    scores = [24, 8, 28, 5]
    p = permute_and_flip_probabilities(scores, 0.1, 1)
    n = 100_000
    low, high = stats.binom.ppf(0.0005, n, p), stats.binom.ppf(0.9995, n, p)
    runs = permute_and_flip(np.random.default_rng(3), scores, 0.1, 1, size=n)
    noisy_max = report_noisy_max(
        np.random.default_rng(4), scores, 0.1, 1, noise="exponential", size=n
    )
    for indices in (runs, noisy_max):
        counts = np.bincount(indices, minlength=4)
        assert np.all((low <= counts) & (counts <= high)), (counts, low, high)
