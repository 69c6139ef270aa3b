"""dp_core.laplace against scipy.stats.laplace, OpenDP and diffprivlib."""

import numpy as np
import opendp.prelude as dp
import pytest
from diffprivlib.mechanisms import Laplace as DiffprivlibLaplace
from scipy import stats

import dp_core
from dp_core import (
    laplace_average_std,
    laplace_expected_abs_error,
    laplace_half_width,
    laplace_mechanism,
    laplace_pdf,
    laplace_scale,
    laplace_std,
    laplace_tail,
    running_average_of_releases,
    sample_laplace,
)

dp.enable_features("contrib")


@pytest.mark.parametrize(("sensitivity", "epsilon"), [(1, 0.01), (1, 1), (50, 0.5), (200, 3.5)])
def test_scale_is_sensitivity_over_epsilon_as_in_opendp(sensitivity, epsilon) -> None:
    # OpenDP's Laplace measurement with scale b: its privacy map gives epsilon = d_in / b.
    scale = laplace_scale(sensitivity, epsilon)
    space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    measurement = dp.m.make_laplace(*space, scale=scale)
    assert measurement.map(float(sensitivity)) == pytest.approx(epsilon, rel=1e-9)


def test_scale_matches_diffprivlib_variance() -> None:
    mech = DiffprivlibLaplace(epsilon=0.5, delta=0.0, sensitivity=2.0)
    # diffprivlib's variance is 2 b^2 for b = sensitivity / epsilon.
    assert laplace_std(laplace_scale(2.0, 0.5)) ** 2 == pytest.approx(mech.variance(0.0))


def test_scale_is_importable_from_the_package() -> None:
    assert dp_core.laplace_scale(1, 0.1) == pytest.approx(10.0)


@pytest.mark.parametrize("scale", [0.1, 1.0, 10.0, 1234.5])
def test_error_facts_match_scipy(scale) -> None:
    dist = stats.laplace(scale=scale)
    assert laplace_expected_abs_error(scale) == pytest.approx(dist.expect(abs), rel=1e-6)
    assert laplace_std(scale) == pytest.approx(dist.std())
    for confidence in (0.5, 0.9, 0.95, 0.999):
        t = laplace_half_width(scale, confidence)
        assert dist.cdf(t) - dist.cdf(-t) == pytest.approx(confidence, rel=1e-12)
    x = np.array([0.0, 0.3, 1.0, 7.0]) * scale
    assert laplace_tail(scale, x) == pytest.approx(2 * dist.sf(x))
    assert laplace_pdf(scale, x) == pytest.approx(dist.pdf(x))
    assert laplace_tail(scale, -1.0) == 1.0


def test_95_percent_half_width_at_epsilon_1_is_ln_20() -> None:
    # The sentence the page prints: "within +/-3.0 of the true count 95% of the time".
    assert laplace_half_width(laplace_scale(1, 1)) == pytest.approx(np.log(20))
    assert f"{laplace_half_width(laplace_scale(1, 1)):.1f}" == "3.0"


def test_published_mean_absolute_errors_nlsy_count() -> None:
    # shared/README: count query, mean absolute error ~10 at eps 0.1 and ~1.1 at eps 0.9.
    assert laplace_expected_abs_error(laplace_scale(1, 0.1)) == pytest.approx(10)
    assert laplace_expected_abs_error(laplace_scale(1, 0.9)) == pytest.approx(1.1, abs=0.02)


def test_samples_follow_the_laplace_distribution() -> None:
    draws = sample_laplace(np.random.default_rng(7), 2.5, 200_000)
    assert stats.kstest(draws, stats.laplace(scale=2.5).cdf).pvalue > 0.001
    # ... and a wrong scale is rejected, so the check can fail.
    assert stats.kstest(draws, stats.laplace(scale=2.8).cdf).pvalue < 1e-6


def test_mechanism_is_reproducible_and_centred() -> None:
    true = np.array([24.0, 8.0, 28.0, 5.0])
    first = laplace_mechanism(np.random.default_rng(1), true, sensitivity=1, epsilon=0.5)
    again = laplace_mechanism(np.random.default_rng(1), true, sensitivity=1, epsilon=0.5)
    np.testing.assert_array_equal(first, again)
    many = laplace_mechanism(
        np.random.default_rng(2), np.tile(true, (50_000, 1)), sensitivity=1, epsilon=0.5
    )
    np.testing.assert_allclose(many.mean(axis=0), true, atol=0.05)


def test_averaging_attack_converges_like_the_published_run() -> None:
    # shared/README: averages of 10, 1,000, 100,000 draws of a count of 3 at eps 0.1 came to
    # 4.77, 3.06, 2.98. The spread of such averages is sqrt(2) * 10 / sqrt(k).
    averages = running_average_of_releases(np.random.default_rng(3), 3.0, 10.0, 100_000)
    for k in (10, 1_000, 100_000):
        assert abs(averages[k - 1] - 3.0) < 4 * laplace_average_std(10.0, k)
    assert laplace_average_std(10.0, [1, 100]) == pytest.approx([np.sqrt(2) * 10, np.sqrt(2)])


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: laplace_scale(1, 0), "greater than 0"),
        (lambda: laplace_scale(1, -1), "greater than 0"),
        (lambda: laplace_scale(1, "abc"), "must be a number"),
        (lambda: laplace_scale(1, float("inf")), "finite"),
        (lambda: laplace_scale(0, 1), "sensitivity"),
        (lambda: laplace_half_width(1.0, 1.0), "strictly between 0 and 1"),
    ],
)
def test_bad_arguments_raise_readable_errors(call, message) -> None:
    with pytest.raises(ValueError, match=message):
        call()
