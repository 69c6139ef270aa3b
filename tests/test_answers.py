"""dp_core.answers: one function gives every page's noisy answers (Laplace or Gaussian,
teaching draws or a secure OpenDP release, a count or a clipped mean)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dp_core import answers, gaussian, laplace
from dp_core.queries import QuerySpec, answer

FRAME = pd.DataFrame({"g": ["a", "b", "a", "c", "b", "a"], "x": [1.0, 5.0, 3.0, 9.0, 2.0, 4.0]})
LABELS = ("a", "b", "c")


def _query(kind: str):
    spec = QuerySpec(kind=kind, category="g", value=None if kind == "count" else "x",
                     lower=None if kind == "count" else 0.0,
                     upper=None if kind == "count" else 10.0)  # fmt: skip
    return answer(FRAME, spec, LABELS)


def test_teaching_laplace_draws_are_the_mechanisms_own():
    query = _query("count")
    found = answers.noisy_answers(
        query, mechanism="laplace", epsilon=0.5, rng=np.random.default_rng(3)
    )
    expected = laplace.laplace_mechanism(
        np.random.default_rng(3), query.true_values, sensitivity=query.sensitivity, epsilon=0.5
    )
    np.testing.assert_array_equal(found.values, expected)
    b = query.sensitivity / 0.5
    np.testing.assert_allclose(found.half_widths, b * np.log(20))
    np.testing.assert_allclose(found.expected_abs_errors, b)
    assert found.std == pytest.approx(b * np.sqrt(2)) and not found.simulated


@pytest.mark.parametrize("calibration", ["analytic", "classic"])
def test_teaching_gaussian_draws_use_the_chosen_calibration(calibration):
    query = _query("sum")
    found = answers.noisy_answers(
        query, mechanism=calibration, epsilon=0.5, delta=1e-6, rng=np.random.default_rng(4)
    )
    sigma = gaussian.gaussian_sigma(query.l2_sensitivity, 0.5, 1e-6, calibration)
    expected = gaussian.gaussian_mechanism(
        np.random.default_rng(4), query.true_values, sensitivity=query.l2_sensitivity,
        epsilon=0.5, delta=1e-6, calibration=calibration,
    )  # fmt: skip
    np.testing.assert_array_equal(found.values, expected)
    assert found.std == pytest.approx(sigma)
    np.testing.assert_allclose(found.half_widths, 1.959963984540054 * sigma)


@pytest.mark.parametrize("mechanism", ["laplace", "analytic"])
def test_a_secure_release_names_openDPs_noise_and_bands_use_it(mechanism):
    query = _query("count")
    found = answers.noisy_answers(
        query, mechanism=mechanism, epsilon=1.0, delta=1e-6, rng=np.random.default_rng(0),
        secure=True,
    )  # fmt: skip
    assert found.values.shape == query.true_values.shape
    assert np.all(np.abs(found.values - query.true_values) < 200 * found.std)
    if mechanism == "laplace":  # OpenDP's Laplace scale is Δ/ε itself
        assert found.std == pytest.approx(np.sqrt(2) * query.sensitivity)
    else:  # OpenDP's σ certifies (ε, δ) through zCDP: at least the analytic one
        assert found.std >= gaussian.analytic_gaussian_sigma(query.l2_sensitivity, 1.0, 1e-6)


@pytest.mark.parametrize("secure", [False, True])
def test_a_mean_has_simulated_bands_and_stays_in_its_bounds(secure):
    query = _query("mean")
    found = answers.noisy_answers(
        query, mechanism="laplace", epsilon=1.0, rng=np.random.default_rng(1), secure=secure
    )
    assert found.simulated and found.std is None
    assert np.all((found.values >= 0) & (found.values <= 10))
    assert np.all(found.half_widths > 0) and np.all(found.expected_abs_errors > 0)
