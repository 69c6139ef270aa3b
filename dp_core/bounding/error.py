"""The expected error of a bounded, noisy release: bias, selection spread, noise and RMSE.

The three parts are independent, so for each group

    RMSE^2 = bias^2 + selection variance + noise variance,

bias = E[answer after bounding] - truth (dp_core.bounding.bias), selection variance the
spread of a random choice of kept records (dp_core.bounding.spread, 0 for "first"), noise
variance Laplace 2 b^2 or the analytic Gaussian sigma^2 (dp_core.bounding.noise). Every
part is computed exactly, without sampling: PipelineDP-style utility analysis plus the
selection term. Over groups the root mean square keeps the identity.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from dp_core.bounding.bias import bounded_totals_by_cap
from dp_core.bounding.caps import Bounding, Statistic, release_sensitivity
from dp_core.bounding.noise import NoisePlan, group_noise
from dp_core.bounding.spread import selection_variance_by_cap
from dp_core.bounding.table import ContributionTable

__all__ = ["error_summary", "expected_group_errors", "group_errors", "noise_std_by_cap"]


def noise_std_by_cap(
    table: ContributionTable, statistic: Statistic, bounding: Bounding, plan: NoisePlan, caps
) -> np.ndarray:
    """The noise standard deviation for each cap in ``caps`` in place of ``max_groups``."""
    return np.array(
        [
            group_noise(
                release_sensitivity(statistic, bounding.with_cap(int(cap))),
                plan,
                max_groups=int(cap),
                n_groups=len(table.groups),
            ).std
            for cap in np.asarray(caps)
        ]
    )


def error_summary(
    true_totals: np.ndarray,
    bounded: np.ndarray,
    noise_std: ArrayLike,
    *,
    selection_variance: np.ndarray,
) -> pd.DataFrame:
    """Root-mean-square over groups of bias, selection spread, noise and error, per setting.

    ``bounded`` (expected answers) and ``selection_variance`` have shape (groups, settings);
    ``noise_std`` one value per setting. RMSE^2 = bias^2 + selection variance + noise
    variance (the three independent); the root-mean-square over groups keeps this identity.
    """
    bias = bounded - np.asarray(true_totals, dtype=float)[:, None]
    bias_rms = np.sqrt(np.mean(bias**2, axis=0))
    selection_rms = np.sqrt(np.mean(selection_variance, axis=0))
    noise = np.broadcast_to(np.asarray(noise_std, dtype=float), bias_rms.shape)
    return pd.DataFrame(
        {
            "bias": bias_rms,
            "selection_std": selection_rms,
            "noise_std": noise,
            "rmse": np.sqrt(bias_rms**2 + selection_rms**2 + noise**2),
        }
    )


def group_errors(
    groups: pd.Index,
    true_totals: np.ndarray,
    bounded: np.ndarray,
    noise_std: float,
    *,
    selection_variance: ArrayLike,
) -> pd.DataFrame:
    """Per group: truth, expected answer after bounding, bias, selection sd, noise sd, RMSE."""
    bias = np.asarray(bounded, dtype=float) - true_totals
    selection = np.asarray(selection_variance, dtype=float)
    return pd.DataFrame(
        {
            "true": true_totals,
            "bounded": bounded,
            "bias": bias,
            "selection_std": np.sqrt(selection),
            "noise_std": noise_std,
            "rmse": np.sqrt(bias**2 + selection + noise_std**2),
        },
        index=groups,
    )


def expected_group_errors(
    table: ContributionTable, statistic: Statistic, bounding: Bounding, plan: NoisePlan
) -> pd.DataFrame:
    """Per group: truth, expected bounded answer, bias, selection sd, noise sd, RMSE."""
    caps = [bounding.max_groups]
    bounded = bounded_totals_by_cap(table, statistic, bounding, caps=caps)
    spread = selection_variance_by_cap(table, statistic, bounding, caps=caps)
    noise = noise_std_by_cap(table, statistic, bounding, plan, caps)
    return group_errors(
        table.groups,
        table.true_totals(statistic),
        bounded[:, 0],
        noise[0],
        selection_variance=spread[:, 0],
    )
