"""Simulated releases of a planned row: standard draws, scaled by the row's noise."""

from __future__ import annotations

import numpy as np

from dp_core.planner.row import RowPlan

__all__ = ["simulate_release", "standard_draws"]


def standard_draws(rng: np.random.Generator, row: RowPlan) -> np.ndarray:
    """One standard draw per noisy value of the row (Laplace(1) or Normal(0, 1)); a mean's
    two parts in its last axis. Scaled by the row's noise in ``simulate_release``, so moving
    the budget rescales one draw."""
    size = (len(row.statistic.labels), row.statistic.parts)
    if row.statistic.spec.mechanism == "laplace":
        return rng.laplace(0.0, 1.0, size)
    return rng.normal(0.0, 1.0, size)


def simulate_release(row: RowPlan, draws: np.ndarray) -> np.ndarray:
    """The released values for standard ``draws``: truth + scale x draw; a mean as
    clip((S + b_s z_s) / max(N + b_c z_c, 1), L, U), as dp_core.queries.release_clipped_mean."""
    stat = row.statistic
    z = np.asarray(draws, dtype=float)
    truth = np.asarray(stat.true_values, dtype=float)
    if stat.spec.kind != "mean":
        return truth + row.scale * z[..., 0]
    n = stat.rows
    noisy_sum = truth * max(n, 1.0) + row.scale * z[..., 0]
    noisy_rows = n + row.count_scale * z[..., 1]
    return np.clip(noisy_sum / np.maximum(noisy_rows, 1.0), stat.spec.lower, stat.spec.upper)
