"""Debiasing, exact variance, exact distribution and intervals of locally private counts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dp_core import (
    coin_flip_answers,
    coin_flip_report_probabilities,
    debiased_count,
    estimate_distribution,
    estimate_interval,
    estimate_variance,
    expected_abs_error,
    laplace_expected_abs_error,
    laplace_scale,
    minimum_respondents,
    yes_tally,
)
from dp_core.local_estimation import exact_count_interval

N, SALES = 32_561, 3_650  # shared/README: UCI Adult, persons working in Sales


def test_fair_coin_estimator_is_two_times_yes_minus_quarter():
    # shared/README: estimate = 2 * (#yes - n / 4).
    for tally in (0, 9_000, 10_071, N):
        assert debiased_count(tally, N, 0.75, 0.25) == pytest.approx(2 * (tally - N / 4))


def test_published_run_is_a_plausible_draw():
    # shared/README: one run estimated 3,861.5 (true 3,650, 5.8% error).
    tally = 3_861.5 / 2 + N / 4
    assert debiased_count(tally, N, 0.75, 0.25) == pytest.approx(3_861.5)
    assert abs(3_861.5 - SALES) / SALES == pytest.approx(0.058, abs=0.001)
    low, high = estimate_interval(3_861.5, N, 0.75, 0.25, confidence=0.99)
    assert low < SALES < high
    # Central Laplace at eps = 1 on the same count: expected error 1 person, about 0.03 %.
    assert laplace_expected_abs_error(laplace_scale(1, 1.0)) / SALES < 0.0003


@pytest.mark.parametrize(("p", "q"), [(0.75, 0.25), (0.5, 0.1), (0.9, 0.6)])
def test_unbiased_and_exact_variance_against_many_surveys(p, q):
    rng = np.random.default_rng(11)
    repeats = 200_000
    estimates = debiased_count(yes_tally(rng, SALES, N - SALES, p, q, repeats), N, p, q)
    var = float(estimate_variance(SALES, N, p, q))
    assert abs(estimates.mean() - SALES) < 4 * math.sqrt(var / repeats)
    # Sample variance of 200,000 normal-ish draws: relative sd sqrt(2 / m) = 0.3 %.
    assert estimates.var() == pytest.approx(var, rel=0.015)


def test_per_person_surveys_agree_with_the_exact_aggregate_law():
    rng = np.random.default_rng(12)
    n, n_yes, surveys = 400, 90, 5_000
    truth = np.zeros((surveys, n), dtype=bool)
    truth[:, :n_yes] = True
    answers = coin_flip_answers(rng, truth, 0.5, 0.5)  # 2 million persons at once
    estimates = debiased_count(answers.reported.sum(axis=1), n, 0.75, 0.25)
    var = float(estimate_variance(n_yes, n, 0.75, 0.25))
    assert abs(estimates.mean() - n_yes) < 4 * math.sqrt(var / surveys)
    assert estimates.var() == pytest.approx(var, rel=0.06)


def test_variance_equals_wang_et_al_form():
    n, n_v = 10_000, 1_234
    for p, q in ((0.75, 0.25), (0.5, 1 / (math.e + 1)), (0.3, 0.01)):
        wang = n * q * (1 - q) / (p - q) ** 2 + n_v * (1 - p - q) / (p - q)
        assert estimate_variance(n_v, n, p, q) == pytest.approx(wang)


def test_exact_distribution_against_full_convolution():
    n, n_v, p, q = 300, 40, 0.7, 0.2
    values, probs = estimate_distribution(n_v, n, p, q)
    full = np.convolve(
        stats.binom.pmf(np.arange(n_v + 1), n_v, p),
        stats.binom.pmf(np.arange(n - n_v + 1), n - n_v, q),
    )
    full_values = (np.arange(full.size) - n * q) / (p - q)
    lookup = dict(zip(np.round(full_values, 6), full, strict=True))
    assert np.allclose([lookup[v] for v in np.round(values, 6)], probs, atol=1e-15)
    assert probs.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.sum(probs * values) == pytest.approx(n_v)
    assert np.sum(probs * (values - n_v) ** 2) == pytest.approx(estimate_variance(n_v, n, p, q))


def test_expected_abs_error_against_simulation_and_normal_limit():
    rng = np.random.default_rng(13)
    n, n_v = 200, 23
    simulated = np.abs(
        debiased_count(yes_tally(rng, n_v, n - n_v, 0.75, 0.25, 400_000), n, 0.75, 0.25) - n_v
    )
    exact = expected_abs_error(n_v, n, 0.75, 0.25)
    assert simulated.mean() == pytest.approx(exact, rel=0.01)
    # Large n: the normal limit sd * sqrt(2 / pi).
    normal = math.sqrt(estimate_variance(SALES, N, 0.75, 0.25)) * math.sqrt(2 / math.pi)
    assert expected_abs_error(SALES, N, 0.75, 0.25) == pytest.approx(normal, rel=1e-3)


def test_interval_coverage_is_close_to_nominal():
    rng = np.random.default_rng(14)
    estimates = debiased_count(yes_tally(rng, SALES, N - SALES, 0.75, 0.25, 50_000), N, 0.75, 0.25)
    low, high = estimate_interval(estimates, N, 0.75, 0.25)
    coverage = np.mean((low <= SALES) & (high >= SALES))
    assert 0.94 < coverage < 0.96


@pytest.mark.parametrize("estimate", [-40.0, 0.0, 3_861.5, N + 25.0])
def test_interval_is_wald_with_the_variance_at_the_clipped_estimate(estimate):
    """Plug-in: the exact variance formula at the estimate clipped to [0, n], not at the truth."""
    p, q, n_v = 0.75, 0.25, min(max(estimate, 0.0), N)
    var = (n_v * p * (1 - p) + (N - n_v) * q * (1 - q)) / (p - q) ** 2
    half = stats.norm.ppf(0.975) * math.sqrt(var)
    low, high = estimate_interval(estimate, N, p, q)
    assert (low, high) == pytest.approx((estimate - half, estimate + half), rel=1e-12)


def test_minimum_respondents_is_the_smallest_n():
    n = minimum_respondents(0.75, 0.25, share_half_width=0.25)
    z = stats.norm.ppf(0.975)

    def worst_half_width(m):
        return z * math.sqrt(0.75 * 0.25 / m) / 0.5

    assert worst_half_width(n) <= 0.25 < worst_half_width(n - 1)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: debiased_count(10, 20, 0.25, 0.25), "greater than q"),
        (lambda: debiased_count(10, 20, 1.2, 0.25), "between 0 and 1"),
        (lambda: estimate_variance(30, 20, 0.75, 0.25), "between 0 and the number"),
        (lambda: estimate_distribution(1, 0, 0.75, 0.25), "at least 1"),
        (lambda: minimum_respondents(0.75, 0.25, share_half_width=0), "strictly between"),
    ],
)
def test_bad_input_messages(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --- The exact interval of a room's survey --------------------------------------------------------


def _coverage(true_count: int, n: int, p: float, q: float, confidence: float) -> float:
    """P(the interval holds the true count), summed exactly over every reported count, with the
    reported count's law from two scipy binomials convolved here (not dp_core's)."""
    holding = stats.binom.pmf(np.arange(true_count + 1), true_count, p)
    lacking = stats.binom.pmf(np.arange(n - true_count + 1), n - true_count, q)
    law = np.convolve(holding, lacking)
    return sum(
        law[c]
        for c in range(n + 1)
        if exact_count_interval(c, n, p, q, confidence)[0]
        <= true_count
        <= exact_count_interval(c, n, p, q, confidence)[1]
    )


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(1, 30),
    share=st.floats(0, 1),
    t=st.floats(0.05, 0.95),
    y=st.floats(0.05, 0.95),
    confidence=st.sampled_from([0.8, 0.9, 0.95]),
)
def test_the_exact_interval_covers_every_true_count_at_its_confidence(n, share, t, y, confidence):
    p, q = coin_flip_report_probabilities(t, y)
    true_count = round(share * n)
    assert _coverage(true_count, n, p, q, confidence) >= confidence - 1e-9


def test_the_exact_interval_without_noise_is_the_count_and_is_wider_than_wald_with_it() -> None:
    assert exact_count_interval(3, 10, 1.0, 0.0) == (3, 3)
    low, high = exact_count_interval(15, 30, 0.75, 0.25)  # the coin game, half said yes
    wald_low, wald_high = estimate_interval(debiased_count(15, 30, 0.75, 0.25), 30, 0.75, 0.25)
    assert low <= 15 <= high and low <= wald_low + 1 and high >= wald_high - 1
    assert exact_count_interval(0, 40, 0.75, 0.25) == (0, 0)  # implausible: the near end
    assert exact_count_interval(40, 40, 0.75, 0.25) == (40, 40)
    with pytest.raises(ValueError):
        exact_count_interval(11, 10, 0.75, 0.25)
