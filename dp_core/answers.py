"""A query's noisy answers as a page shows them: one function for counts, sums, predicates and
means, Laplace or Gaussian noise, teaching draws or a secure release.

- Teaching draws: numpy's noise from the caller's ``rng`` (the same seed gives the same
  answers); Laplace b = Delta_1 / eps (Dwork & Roth 2014, Thm 3.6), Gaussian sigma by the
  analytic (Balle & Wang 2018) or classic (Dwork & Roth 2014, Thm A.1) calibration.
- Secure release: OpenDP's exact samplers (dp_core.release), whose noise scale is the one the
  bands use.
- A mean is a noisy clipped sum over a noisy count, eps/2 (and delta/2) each
  (dp_core.queries.release_clipped_mean); its 95% half-width and E|error| are simulated from
  ``rng`` in both cases (the ratio has no closed form), its values drawn by numpy or OpenDP.

    answers = noisy_answers(query, mechanism="laplace", epsilon=1.0, rng=rng)
    answers.values, answers.half_widths, answers.expected_abs_errors
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from dp_core import gaussian, laplace
from dp_core.queries import Query
from dp_core.release import clipped_mean_release, gaussian_release, laplace_release

__all__ = ["AnswerNoise", "NoisyAnswers", "noisy_answers"]

AnswerNoise = Literal["laplace", "analytic", "classic"]


@dataclass(frozen=True)
class NoisyAnswers:
    """Released values and what their noise does: per value, the 95% half-width and E|error|
    (in the values' units); the noise's standard deviation (None for a mean, whose error is
    simulated: ``simulated``)."""

    values: np.ndarray
    half_widths: np.ndarray
    expected_abs_errors: np.ndarray
    std: float | None
    simulated: bool = False


def _mean(
    query: Query,
    noise: AnswerNoise,
    epsilon: float,
    delta: float,
    rng: np.random.Generator,
    secure: bool,
) -> NoisyAnswers:
    simulated = query.release_mean(rng, epsilon=epsilon, mechanism=noise, delta=delta)
    values = simulated.noisy_mean
    if secure:
        values = clipped_mean_release(
            query.true_values * query.counts,
            query.counts,
            lower=query.spec.lower,
            upper=query.spec.upper,
            epsilon=epsilon,
            records_per_person=query.records_per_person,
            rows_l2=query.rows_l2,
            delta=delta,
        ).values
    return NoisyAnswers(
        values, simulated.half_width, simulated.expected_abs_error, None, simulated=True
    )


def noisy_answers(
    query: Query,
    *,
    mechanism: AnswerNoise,
    epsilon: float,
    rng: np.random.Generator,
    delta: float = 0.0,
    secure: bool = False,
) -> NoisyAnswers:
    """The query's noisy answers: Laplace at L1 sensitivity, or Gaussian ("analytic" or
    "classic" sigma) at L2 sensitivity and ``delta``; numpy draws from ``rng`` or, with
    ``secure``, one OpenDP release (each call a new release: the caller holds it)."""
    delta = 0.0 if mechanism == "laplace" else delta
    if query.kind == "mean":
        return _mean(query, mechanism, epsilon, delta, rng, secure)
    true = np.asarray(query.true_values, dtype=float)
    size = len(true)
    if mechanism == "laplace":
        if secure:
            released = laplace_release(true, l1_sensitivity=query.sensitivity, epsilon=epsilon)
            values, scale = released.values, released.scale
        else:
            scale = laplace.laplace_scale(query.sensitivity, epsilon)
            values = true + laplace.sample_laplace(rng, scale, true.shape)
        half, mean_abs = (
            laplace.laplace_half_width(scale),
            laplace.laplace_expected_abs_error(scale),
        )
        std = laplace.laplace_std(scale)
    else:
        l2 = query.l2_sensitivity
        if secure:
            released = gaussian_release(true, l2_sensitivity=l2, epsilon=epsilon, delta=delta)
            values, scale = released.values, released.scale
        else:
            scale = gaussian.gaussian_sigma(l2, epsilon, delta, mechanism)
            values = true + gaussian.sample_gaussian(rng, scale, true.shape)
        half, mean_abs = (
            gaussian.gaussian_half_width(scale),
            gaussian.gaussian_expected_abs_error(scale),
        )
        std = scale
    return NoisyAnswers(values, np.full(size, half), np.full(size, mean_abs), std)
