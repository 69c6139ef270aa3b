"""dp_core.sensitivity and dp_core.queries: true answers and how much one person moves them."""

import itertools

import numpy as np
import opendp.prelude as dp
import pandas as pd
import pytest

from data.registry import DATASETS, load_dataset
from dp_core import (
    capped_contribution_norms,
    clipped_mean_sensitivity,
    clipped_sum_sensitivity,
    count_sensitivity,
    count_where,
    most_rows_per_person,
    numeric_column,
    release_clipped_mean,
)
from dp_core.domains import clipped_sums_over_domain

dp.enable_features("contrib")


@pytest.mark.parametrize(("lower", "upper"), [(0.0, 50.0), (10.0, 120.0), (-50.0, -5.0)])
def test_clipped_sum_sensitivity_matches_opendp(lower, upper) -> None:
    # OpenDP: clamp to [L, U] then sum, under the symmetric distance (add/remove one record).
    input_space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.symmetric_distance()
    query = input_space >> dp.t.then_clamp(bounds=(lower, upper)) >> dp.t.then_sum()
    # OpenDP rounds up by a hair to cover float error in the sum: equal to 1e-6, never below.
    ours = clipped_sum_sensitivity(lower, upper)
    assert query.map(1) == pytest.approx(ours, rel=1e-6)
    assert query.map(1) >= ours
    assert count_sensitivity() == 1.0


def test_clipped_sum_sensitivity_with_bounds_around_zero() -> None:
    # Adding or removing one value v in [L, U] moves the sum by |v| <= max(|L|, |U|).
    values = np.linspace(-20, 5, 1001)
    assert np.abs(values).max() == clipped_sum_sensitivity(-20, 5) == 20
    # OpenDP's float sum reports the looser U - L here; ours is never above it.
    input_space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.symmetric_distance()
    query = input_space >> dp.t.then_clamp(bounds=(-20.0, 5.0)) >> dp.t.then_sum()
    assert query.map(1) >= clipped_sum_sensitivity(-20, 5)


def test_teaching_sum_sensitivity_and_mean() -> None:
    # shared/README: at most 4 contributions, spend in [0, 50] -> 4 * 50 = 200.
    assert 4 * clipped_sum_sensitivity(0, 50) == 200
    assert clipped_mean_sensitivity(0, 50, 100) == 0.5


def test_capped_contribution_norms_match_brute_force() -> None:
    # Largest L2 norm of a vector of per-category row counts, entries in [0, g], sum <= m.
    for m in range(1, 7):
        for g in range(1, m + 1):
            best = max(
                np.sqrt(sum(x * x for x in combo))
                for combo in itertools.product(range(g + 1), repeat=m)
                if sum(combo) <= m
            )
            assert capped_contribution_norms(m, g) == (m, pytest.approx(best))
    # The restaurant rule (one visit a day, 7 days): L1 7, L2 sqrt 7; no rule: L2 = L1.
    assert capped_contribution_norms(7, 1) == (7, pytest.approx(7**0.5))
    assert capped_contribution_norms(7) == (7, 7.0)


def test_most_rows_per_person() -> None:
    visits = load_dataset("restaurant")
    assert most_rows_per_person(visits["visitor_id"]) == 6
    assert most_rows_per_person(pd.Series([None, None])) == 1


def test_clipped_sums_reproduce_the_published_daily_revenue() -> None:
    visits = load_dataset("restaurant")
    days = DATASETS["restaurant"].domains["day"]
    by_day = clipped_sums_over_domain(visits["day"], visits["money_spent"], days, 0, 50).as_frame()
    assert by_day["raw_sum"].tolist() == [8678, 8696, 12088, 12079, 13765, 16576, 16500]
    assert by_day["clipped_sum"].tolist() == [8642, 8696, 11998, 12054, 13765, 16576, 16500]
    assert by_day["rows"].tolist() == [300, 300, 400, 400, 450, 500, 500]


def test_bad_query_input() -> None:
    tips = load_dataset("tips")
    with pytest.raises(ValueError, match="not numeric"):
        numeric_column(tips, "smoker")
    with pytest.raises(ValueError, match="no column"):
        numeric_column(tips, "nope")
    with pytest.raises(ValueError, match="lower bound must be below"):
        clipped_sums_over_domain(tips["day"], tips["tip"], ("Thur",), 10, 0)
    assert count_where(tips["size"] > 100) == 0


def test_clipped_mean_release_is_centred_with_honest_bands() -> None:
    sums, counts = np.array([3000.0, 60.0]), np.array([100.0, 2.0])
    release = release_clipped_mean(
        np.random.default_rng(0), sums, counts, lower=0, upper=50, epsilon=1.0, simulations=20_000
    )
    np.testing.assert_allclose(release.true_mean, [30, 30])
    assert np.all((release.noisy_mean >= 0) & (release.noisy_mean <= 50))
    # A big group's mean is far more accurate than a group of two.
    assert release.half_width[0] < release.half_width[1] / 5
    # The simulated band covers 95% of fresh releases.
    hits = [
        abs(
            release_clipped_mean(
                np.random.default_rng(s),
                sums,
                counts,
                lower=0,
                upper=50,
                epsilon=1.0,
                simulations=10,
            ).noisy_mean[0]
            - 30
        )
        <= release.half_width[0]
        for s in range(400)
    ]
    assert 0.91 < np.mean(hits) < 0.99
    # Records per person multiply the noise.
    wider = release_clipped_mean(
        np.random.default_rng(0),
        sums,
        counts,
        lower=0,
        upper=50,
        epsilon=1.0,
        records_per_person=4,
        simulations=20_000,
    )
    assert wider.half_width[0] > 3 * release.half_width[0]


def test_gaussian_mean_release_uses_half_the_budget_on_each_part() -> None:
    from dp_core import analytic_gaussian_sigma

    sums, counts = np.array([3000.0]), np.array([100.0])
    kwargs = {"lower": 0, "upper": 50, "epsilon": 1.0, "mechanism": "analytic", "delta": 1e-5}
    release = release_clipped_mean(
        np.random.default_rng(1), sums, counts, simulations=40_000, **kwargs
    )
    # Delta method for a big group: error ~ (Z_sum - mean * Z_count) / n, with both sigmas at
    # (eps/2, delta/2); the count's sensitivity is 1/50 of the sum's, the mean is 30.
    sigma_sum = analytic_gaussian_sigma(50.0, 0.5, 5e-6)
    sd = sigma_sum * np.sqrt(1 + (30 / 50) ** 2) / 100
    assert release.expected_abs_error[0] == pytest.approx(sd * np.sqrt(2 / np.pi), rel=0.03)
    with pytest.raises(ValueError, match="pure"):
        release_clipped_mean(np.random.default_rng(1), sums, counts, **{**kwargs, "delta": 0})
