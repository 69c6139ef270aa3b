"""dp_core.release against OpenDP's own privacy maps and search, scipy.stats and closed forms."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import opendp.prelude as dp
import pytest
from scipy import stats

from dp_core.gaussian import analytic_gaussian_sigma
from dp_core.release import (
    OPENDP_FLOAT_K,
    Release,
    gaussian_release,
    laplace_release,
    noise_name,
    opendp_gaussian_sigma,
)

dp.enable_features("contrib")


def _space(length: int, metric: dp.Metric) -> tuple[dp.Domain, dp.Metric]:
    return dp.vector_domain(dp.atom_domain(T=float, nan=False), size=length), metric


def _opendp_gaussian(sigma: float, delta: float, length: int) -> dp.Measurement:
    # OpenDP's documented chain: make_gaussian (zCDP) -> make_zCDP_to_approxDP -> make_fix_delta.
    gaussian = dp.m.make_gaussian(
        *_space(length, dp.l2_distance(T=float)), scale=sigma, k=OPENDP_FLOAT_K
    )
    return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gaussian), delta)


@pytest.mark.parametrize(
    ("sensitivity", "epsilon", "length"),
    [(1, 1, 120), (1, 0.1, 5), (3, 0.7, 1_000), (50, 0.5, 1), (200, 3.5, 64), (0.25, 10, 10_000)],
)
def test_laplace_map_is_the_stated_epsilon(sensitivity, epsilon, length) -> None:
    release = laplace_release(np.ones(length), l1_sensitivity=sensitivity, epsilon=epsilon)
    # OpenDP's own map for a Laplace measurement of the released scale on vectors this long.
    measurement = dp.m.make_laplace(
        *_space(length, dp.l1_distance(T=float)), scale=release.scale, k=OPENDP_FLOAT_K
    )
    assert measurement.map(float(sensitivity)) == release.epsilon
    assert release.epsilon <= epsilon
    assert release.epsilon == pytest.approx(epsilon, rel=1e-9)
    # Dwork & Roth 2014, Def 3.3: b = sensitivity / epsilon (nudged by a few floats at most).
    assert release.scale == pytest.approx(sensitivity / epsilon, rel=1e-12)
    assert release.delta == 0.0
    assert release.rho is None


@pytest.mark.parametrize(
    ("sensitivity", "epsilon", "delta", "length"),
    [(1, 1, 1e-5, 120), (1, 0.1, 1e-6, 10), (2.5, 3, 1e-9, 1), (1, 0.5, 1e-2, 1_000)],
)
def test_gaussian_map_meets_epsilon_delta_with_the_smallest_sigma(
    sensitivity, epsilon, delta, length
) -> None:
    release = gaussian_release(
        np.zeros(length), l2_sensitivity=sensitivity, epsilon=epsilon, delta=delta
    )
    mapped_epsilon, mapped_delta = _opendp_gaussian(release.scale, delta, length).map(
        float(sensitivity)
    )
    assert (release.epsilon, release.delta) == (mapped_epsilon, mapped_delta)
    assert mapped_epsilon <= epsilon
    assert mapped_delta <= delta
    # 1% less noise is refused by OpenDP: the calibrated sigma is (nearly) the smallest.
    tighter = _opendp_gaussian(0.99 * release.scale, delta, length)
    assert not tighter.check(float(sensitivity), (float(epsilon), float(delta)))
    # OpenDP's own parameter search lands on the same sigma.
    searched = dp.binary_search_param(
        lambda s: _opendp_gaussian(s, delta, length),
        d_in=float(sensitivity),
        d_out=(float(epsilon), float(delta)),
    )
    assert release.scale == pytest.approx(searched, rel=1e-6)


def test_gaussian_release_reports_rho_and_the_analytic_sigma() -> None:
    release = gaussian_release([3.0, 4.0], l2_sensitivity=1, epsilon=1, delta=1e-5)
    # Bun & Steinke 2016, Prop 1.6: rho = sensitivity^2 / (2 sigma^2).
    assert release.rho == pytest.approx(1 / (2 * release.scale**2), rel=1e-12)
    assert release.analytic_sigma == analytic_gaussian_sigma(1, 1, 1e-5)
    # The zCDP conversion is a bound, so OpenDP needs more noise: 4.045 against 3.731.
    assert round(release.scale, 3) == 4.045
    assert round(release.analytic_sigma, 3) == 3.731
    assert opendp_gaussian_sigma(1, 1, 1e-5, length=2) == release.scale
    assert "4.045" in release.description and "3.731" in release.description


@pytest.mark.parametrize("kind", ["laplace", "gaussian"])
def test_releases_are_centred_with_the_textbook_variance(kind) -> None:
    values = np.linspace(-500.0, 500.0, 40_000)
    if kind == "laplace":
        release = laplace_release(values, l1_sensitivity=2, epsilon=0.5)
        reference = stats.laplace(scale=release.scale)  # variance 2 b^2
    else:
        release = gaussian_release(values, l2_sensitivity=2, epsilon=0.5, delta=1e-6)
        reference = stats.norm(scale=release.scale)  # variance sigma^2
    errors = release.values - values
    assert abs(errors.mean()) < 4 * reference.std() / math.sqrt(values.size)
    # Standard error of a sample variance: sqrt(5 / n) (Laplace) or sqrt(2 / n) relative.
    assert errors.var() == pytest.approx(reference.var(), rel=4 * math.sqrt(5 / values.size))
    assert stats.kstest(errors, reference.cdf).pvalue > 1e-3
    # ... and the wrong distribution is rejected, so the check can fail.
    wrong = (stats.laplace if kind == "laplace" else stats.norm)(scale=1.2 * release.scale)
    assert stats.kstest(errors, wrong.cdf).pvalue < 1e-6


def test_released_values_lie_on_the_grid_of_2_to_the_k() -> None:
    # OpenDP rounds each input to 2^k Z and adds integer multiples of 2^k (make_laplace proof).
    # Noise of scale 1e-29 keeps outputs below 2^-48, where floats are finer than the grid.
    grid = 2.0**OPENDP_FLOAT_K
    release = laplace_release(np.zeros(200), l1_sensitivity=1e-29, epsilon=1)
    assert np.all(np.fmod(release.values, grid) == 0)
    assert np.count_nonzero(release.values) > 150
    # numpy's float Laplace at the same scale is not on the grid, so the check can fail.
    naive = np.random.default_rng(0).laplace(0.0, release.scale, 200)
    assert np.mean(np.fmod(naive, grid) == 0) < 0.1


@pytest.mark.parametrize("kind", ["laplace", "gaussian"])
def test_two_releases_differ_whatever_numpy_is_seeded_with(kind) -> None:
    values = np.arange(50.0)

    def release() -> Release:
        np.random.seed(0)  # a seed could only matter if the noise came from numpy
        if kind == "laplace":
            return laplace_release(values, l1_sensitivity=1, epsilon=1)
        return gaussian_release(values, l2_sensitivity=1, epsilon=1, delta=1e-5)

    first, second = release(), release()
    assert np.all(first.values != second.values)
    assert first.scale == second.scale and first.epsilon == second.epsilon


def test_a_release_cannot_be_changed() -> None:
    release = laplace_release([1.0, 2.0], l1_sensitivity=1, epsilon=1)
    with pytest.raises(ValueError, match="read-only"):
        release.values[0] = 0.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        release.epsilon = 2.0  # type: ignore[misc]


def test_names_say_which_opendp_sampler() -> None:
    assert "make_laplace" in noise_name("laplace") and "discrete Laplace" in noise_name("laplace")
    assert "make_gaussian" in noise_name("gaussian") and "2^-100" in noise_name("gaussian")
    assert laplace_release([1.0], l1_sensitivity=1, epsilon=1).mechanism == noise_name("laplace")
    with pytest.raises(ValueError, match="kind must be one of 'laplace', 'gaussian'"):
        noise_name("uniform")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: laplace_release([1.0], l1_sensitivity=1, epsilon=0), "greater than 0"),
        (lambda: laplace_release([1.0], l1_sensitivity=1, epsilon=-1), "greater than 0"),
        (lambda: laplace_release([1.0], l1_sensitivity=0, epsilon=1), "L1 sensitivity"),
        (lambda: laplace_release([], l1_sensitivity=1, epsilon=1), "empty"),
        (lambda: laplace_release([1.0, np.nan], l1_sensitivity=1, epsilon=1), "finite"),
        (lambda: laplace_release([np.inf], l1_sensitivity=1, epsilon=1), "finite"),
        (lambda: laplace_release([[1.0]], l1_sensitivity=1, epsilon=1), "flat list"),
        (lambda: laplace_release(["a"], l1_sensitivity=1, epsilon=1), "must be numbers"),
        (lambda: gaussian_release([1.0], l2_sensitivity=1, epsilon=1, delta=0), "greater than 0"),
        (lambda: gaussian_release([1.0], l2_sensitivity=1, epsilon=1, delta=1), "below 1"),
        (lambda: gaussian_release([1.0], l2_sensitivity=1, epsilon=0, delta=1e-5), "epsilon"),
        (lambda: gaussian_release([], l2_sensitivity=1, epsilon=1, delta=1e-5), "empty"),
        (lambda: gaussian_release([np.nan], l2_sensitivity=1, epsilon=1, delta=1e-5), "finite"),
        (lambda: opendp_gaussian_sigma(1, 1, 1e-5, length=0), "length"),
    ],
)
def test_bad_arguments_raise_readable_errors(call, message) -> None:
    with pytest.raises(ValueError, match=message):
        call()


# --- Partition selection and means through OpenDP ----------------------------------------------


def test_threshold_release_meets_opendps_map_and_keeps_large_categories() -> None:
    from dp_core.partition_selection import laplace_threshold
    from dp_core.release import threshold_release

    chosen = threshold_release(
        ["rare", "common"], [1, 10_000], epsilon=1.0, delta=1e-6, max_partitions=2
    )
    # OpenDP's map at (l0, l1, linf) = (2, 2, 1) is within the request (make_laplace_threshold).
    assert chosen.epsilon <= 1.0 + 1e-12 and chosen.delta <= 1e-6
    # The threshold is the closed form, nudged up only by OpenDP's outward rounding.
    closed = laplace_threshold(epsilon=1.0, delta=1e-6, max_partitions=2)
    assert closed <= chosen.threshold < closed + 1e-3
    assert "common" in chosen.labels
    assert chosen.n_candidates == 2


def test_no_candidate_category_keeps_none_rather_than_failing() -> None:
    """Whether a selection is released never depends on a column being empty: with no
    category to choose from, the secure release keeps none, as the teaching draw does."""
    from dp_core.release import threshold_release

    chosen = threshold_release([], [], epsilon=1.0, delta=1e-6, max_partitions=1)
    assert chosen.labels == () and chosen.n_candidates == 0 and chosen.epsilon <= 1.0 + 1e-12


def test_a_one_person_category_is_almost_never_released() -> None:
    from dp_core.release import threshold_release

    kept = sum(
        "one" in threshold_release(["one"], [1], epsilon=1.0, delta=0.05, max_partitions=1).labels
        for _ in range(400)
    )
    # P(kept) = delta = 0.05 exactly for a count of 1 and l0 = 1 (Wilson et al. 2020): 400 runs.
    assert kept < 0.05 * 400 + 4 * (400 * 0.05 * 0.95) ** 0.5


def test_clipped_mean_release_spends_half_the_budget_on_each_part() -> None:
    from dp_core.release import clipped_mean_release

    released = clipped_mean_release(
        [500.0, 20.0], [10.0, 1.0], lower=0, upper=50, epsilon=1.0, records_per_person=2
    )
    assert released.sums.epsilon == pytest.approx(0.5) and released.counts.epsilon == pytest.approx(
        0.5
    )
    assert released.sums.sensitivity == 2 * 50 and released.counts.sensitivity == 2
    assert np.all((released.values >= 0) & (released.values <= 50))
    gaussian = clipped_mean_release(
        [500.0], [10.0], lower=0, upper=50, epsilon=1.0, rows_l2=2**0.5, delta=1e-6
    )
    assert gaussian.sums.delta == pytest.approx(5e-7) and gaussian.sums.rho is not None
