"""Report-noisy-max: Laplace probabilities against scipy's quad, and which noise gives which
mechanism (Gumbel = exponential mechanism, exponential = permute-and-flip)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from conftest import ROOT
from scipy import integrate, stats

from dp_core import (
    exponential_probabilities,
    permute_and_flip_probabilities,
    probability_of_best,
    report_noisy_max,
    report_noisy_max_laplace_probabilities,
)

INDUSTRY = pd.read_csv(ROOT / "data" / "industry_groups.csv")["count"].to_numpy()


def quad_laplace(scores, epsilon, sensitivity=1.0):
    """P(r) = integral f_r(y) prod_{j != r} F_j(y) dy, by scipy quad between the scores."""
    s = np.asarray(scores, dtype=float)
    b = 2 * sensitivity / epsilon
    cuts = [-np.inf, *sorted(set(s)), np.inf]
    out = []
    for r in range(s.size):
        others = np.delete(s, r)

        def integrand(y, r=r, others=others):
            return stats.laplace.pdf(y, s[r], b) * np.prod(stats.laplace.cdf(y, others, b))

        out.append(
            sum(
                integrate.quad(integrand, a, c, epsabs=1e-15, epsrel=1e-13, limit=400)[0]
                for a, c in itertools.pairwise(cuts)
            )
        )
    return np.array(out)


@pytest.mark.parametrize("scores", [[24, 8, 28, 5], [3, 3, 1, 0], [10, 2, 9.5, 9.5, 7]])
@pytest.mark.parametrize("epsilon", [0.01, 0.1, 1.0, 10.0])
def test_laplace_probabilities_match_quad(scores, epsilon):
    got = report_noisy_max_laplace_probabilities(scores, epsilon, 1)
    np.testing.assert_allclose(got, quad_laplace(scores, epsilon), rtol=1e-9, atol=1e-14)
    assert got.sum() == pytest.approx(1.0, abs=1e-12)


def test_laplace_industry_groups_sum_to_one_and_sit_between_the_others():
    for eps in (0.001, 0.05, 0.1, 1.0, 20.0):
        p = report_noisy_max_laplace_probabilities(INDUSTRY, eps, 1)
        assert p.sum() == pytest.approx(1.0, abs=1e-11)
        assert np.all(p >= 0)
    p = report_noisy_max_laplace_probabilities(INDUSTRY, 0.1, 1)
    assert 0.93 < probability_of_best(p, INDUSTRY) < 0.95
    np.testing.assert_allclose(report_noisy_max_laplace_probabilities(INDUSTRY, 0, 1), 1 / 119)


@pytest.mark.parametrize(
    ("noise", "exact"),
    [
        ("gumbel", exponential_probabilities),
        ("exponential", permute_and_flip_probabilities),
        ("laplace", report_noisy_max_laplace_probabilities),
    ],
)
def test_each_noise_samples_its_mechanism(noise, exact):
    scores = [24, 8, 28, 5]
    p = exact(scores, 0.1, 1)
    n = 100_000
    counts = np.bincount(
        report_noisy_max(np.random.default_rng(11), scores, 0.1, 1, noise=noise, size=n),
        minlength=4,
    )
    low, high = stats.binom.ppf(0.0005, n, p), stats.binom.ppf(0.9995, n, p)
    assert np.all((low <= counts) & (counts <= high)), (noise, counts, low, high)


def test_the_three_mechanisms_differ():
    scores = [24, 8, 28, 5]
    em, pf, lap = (
        f(scores, 0.1, 1)
        for f in (
            exponential_probabilities,
            permute_and_flip_probabilities,
            report_noisy_max_laplace_probabilities,
        )
    )
    assert abs(em[2] - pf[2]) > 0.04 and abs(em[2] - lap[2]) > 0.01 and abs(pf[2] - lap[2]) > 0.03


def test_bad_noise_and_epsilon_zero():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="noise"):
        report_noisy_max(rng, [1, 2], 1, 1, noise="normal")
    assert set(report_noisy_max(rng, [1, 50], 0, 1, size=200)) == {0, 1}


@pytest.mark.parametrize("offset", [1e13, 1e20, -1e13])
@pytest.mark.parametrize("epsilon", [0.1, 1.0])
def test_laplace_probabilities_depend_only_on_score_differences(offset, epsilon):
    # scores a multiple of the spacing of floats near the offset, so s + offset is exact
    unit = max(1.0, np.spacing(abs(offset)))
    small = np.array([24.0, 8.0, 28.0, 5.0]) * unit
    reference = report_noisy_max_laplace_probabilities(small, epsilon / unit, 1)
    np.testing.assert_allclose(reference, quad_laplace([24, 8, 28, 5], epsilon), rtol=1e-9)
    shifted = small + offset
    assert np.array_equal(shifted - offset, small)  # the differences are representable
    got = report_noisy_max_laplace_probabilities(shifted, epsilon / unit, 1)
    np.testing.assert_allclose(got, reference, rtol=0, atol=1e-12)
    assert got.sum() == pytest.approx(1.0, abs=1e-12)


def test_laplace_probabilities_when_one_score_trails_by_1e308():
    p = report_noisy_max_laplace_probabilities([1e308, 0.0], 10, 1)
    assert p == pytest.approx([1.0, 0.0], abs=1e-12)
