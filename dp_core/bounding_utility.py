"""The price of bounding: bias, selection spread, noise and RMSE for every cap and bound.

Bounding trades noise for bias: data dropped or clipped moves the answer. Everything here is
computed on the data, without sampling. "First" selection (first records in a given order)
is deterministic: its bias is exact and it has no selection variance. "Random" selection
keeps a uniformly random c of a person's k groups (l0) and a uniformly random m = min(r,
linf) of their r records in a kept group; the answer then varies with that choice, so the
error has three parts (bias, noise and selection independent; PipelineDP-style utility
analysis plus the selection term):
    RMSE^2 = bias^2 + selection variance + noise variance,
bias = E[answer] - truth; noise variance: Laplace 2 (sensitivity / epsilon)^2 (L1, pure
epsilon-DP) or the analytic Gaussian sigma^2 (L2, (epsilon, delta)-DP; Balle & Wang 2018).
Selection variance, exact for these two caps: one person enters a group's answer through
one unit (person x group) only, and persons choose independently, so Var(answer_g) is the
sum over the units u of g of Var(I_u Y_u) = pi Var(Y_u) + pi (1 - pi) E[Y_u]^2, with
I_u ~ Bernoulli(pi), pi = min(1, c / k), independent of Y_u, the unit's kept total
(a simple random sample of m of its r records: Var(Y) = m (r - m) / (r (r - 1)) *
(S2 - S1^2 / r), S1, S2 the sums of the clipped values and of their squares; Cochran,
Sampling Techniques, Thm 2.2). Counts and pre-aggregated sums have Var(Y) = 0. With at most
one record per person per group (the restaurant week) this is sum of p (1 - p) v^2, p =
min(1, c / k), v the clipped value (1 for counts). That per-record sum is not the variance
when a person has several records in a group: a unit's records are kept or dropped
together by l0 and compete for the linf places. A cap on a person's records over all groups
(not offered here) would also need its own (hypergeometric) unit moments.
The data are reduced once to contribution units, from which every cap and every upper bound
is evaluated at once; every lower bound too, since clip(v, L, U) = -clip(-v, -U, -L); and
every pair (L, U), since clip(v, L, U) = max(v, L) + min(v, U) - v (and likewise squared).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from dp_core.bounding import (
    Selection,
    Sensitivity,
    Statistic,
    _check_selection,
    _check_statistic,
    _dense_keys,
    _ranks_and_runs,
    _ranks_within,
    check_bounding_frame,
    clip_values,
    grouped_sum_sensitivity,
    release_sensitivity,
)
from dp_core.gaussian import analytic_gaussian_sigma, gaussian_half_width, sample_gaussian
from dp_core.laplace import laplace_half_width, laplace_scale, laplace_std, sample_laplace
from dp_core.validation import check_bounds, check_delta, check_epsilon, check_positive_int

Mechanism = Literal["laplace", "gaussian"]

__all__ = [
    "ContributionTable",
    "GroupNoise",
    "add_group_noise",
    "best_bounds",
    "best_setting",
    "bounded_totals_by_cap",
    "bounded_totals_by_upper",
    "bounds_rmse_grid",
    "cap_tradeoff",
    "contribution_table",
    "error_summary",
    "expected_group_errors",
    "group_errors",
    "group_noise",
    "lower_tradeoff",
    "selection_variance_by_cap",
    "selection_variance_by_upper",
    "upper_tradeoff",
]


# ---------------------------------------------------------------------------------------
# Exact bias of bounding, per group, from a table of contribution units
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ContributionTable:
    """A table reduced to what bounding analysis needs (build with ``contribution_table``).

    Rows: group code, value, unit (person x group) index, rank in the unit, unit size.
    Units: group code, the person's number of groups k, the unit's rank among the person's
    groups (first appearance in order), the unit's total value.
    """

    groups: pd.Index
    row_group: np.ndarray
    row_value: np.ndarray | None
    row_unit: np.ndarray
    row_rank: np.ndarray
    unit_size: np.ndarray
    unit_group: np.ndarray
    unit_groups_of_person: np.ndarray
    unit_rank: np.ndarray
    unit_total: np.ndarray | None

    @property
    def max_groups_per_person(self) -> int:
        return int(self.unit_groups_of_person.max())

    @property
    def max_records_per_unit(self) -> int:
        return int(self.unit_size.max())

    def true_totals(self, statistic: Statistic) -> np.ndarray:
        """Per group, before any bounding: record counts, or sums of the raw values."""
        weights = None if statistic == "count" else self._values()
        return np.bincount(self.row_group, weights=weights, minlength=len(self.groups))

    def _values(self) -> np.ndarray:
        if self.row_value is None:
            raise ValueError("a sum needs a value column.")
        return self.row_value


def contribution_table(
    frame: pd.DataFrame,
    id_column: str | None,
    group_column: str,
    value_column: str | None = None,
    *,
    order_column: str | None = None,
) -> ContributionTable:
    """Reduce a table to contribution units; ``id_column=None`` means one person per row."""
    check_bounding_frame(frame, id_column, group_column, value_column)
    sequence = (
        np.arange(len(frame))
        if order_column is None
        else np.argsort(frame[order_column].to_numpy(), kind="stable")
    )
    ordered = frame.iloc[sequence]
    group_codes, groups = pd.factorize(ordered[group_column], sort=True)
    person = (
        np.arange(len(frame), dtype=np.int64)
        if id_column is None
        else _dense_keys(ordered[id_column])
    )
    row_rank, row_unit = _ranks_and_runs(person * len(groups) + group_codes)
    unit_first = np.flatnonzero(row_rank == 0)  # units in order of first appearance
    n_units = len(unit_first)
    unit_person = np.empty(n_units, dtype=np.int64)
    unit_person[row_unit[unit_first]] = person[unit_first]
    unit_rank = np.empty(n_units, dtype=np.int64)
    unit_rank[row_unit[unit_first]] = _ranks_within(person[unit_first])
    unit_group = np.empty(n_units, dtype=np.int64)
    unit_group[row_unit[unit_first]] = group_codes[unit_first]
    groups_per_person = np.bincount(unit_person)
    values = None if value_column is None else ordered[value_column].to_numpy(dtype=float)
    return ContributionTable(
        groups=pd.Index(groups, name=group_column),
        row_group=group_codes.astype(np.int64),
        row_value=values,
        row_unit=row_unit,
        row_rank=row_rank,
        unit_size=np.bincount(row_unit, minlength=n_units),
        unit_group=unit_group,
        unit_groups_of_person=groups_per_person[unit_person],
        unit_rank=unit_rank,
        unit_total=None if values is None else np.bincount(row_unit, weights=values),
    )


def _record_keep(table: ContributionTable, max_per_group: int, selection: Selection) -> np.ndarray:
    """Each record's chance of surviving the linf cap: r records in its unit, rank i in it.

    Random: min(1, linf / r) (a uniform subset of linf records); first: 1 if i < linf else 0.
    """
    if selection == "random":
        return np.minimum(1.0, max_per_group / table.unit_size[table.row_unit])
    return (table.row_rank < max_per_group).astype(float)


def _unit_contributions(
    table: ContributionTable,
    statistic: Statistic,
    *,
    max_per_group: int,
    lower: float | None,
    upper: float | None,
    pre_aggregate: bool,
    selection: Selection,
) -> np.ndarray:
    """Each unit's expected contribution to its group once linf and clipping are applied.

    Random: each of r records is kept with probability min(1, linf / r); first: the records
    of rank < linf. Pre-aggregation: the unit's total clipped to [L, U] (linf not used).
    """
    n_units = len(table.unit_group)
    if statistic == "sum" and pre_aggregate:
        return clip_values(table.unit_total, lower, upper)
    weight = _record_keep(table, max_per_group, selection)
    if statistic == "sum":
        weight = weight * clip_values(table._values(), lower, upper)
    return np.bincount(table.row_unit, weights=weight, minlength=n_units)


def bounded_totals_by_cap(
    table: ContributionTable,
    statistic: Statistic,
    *,
    caps: ArrayLike,
    max_per_group: int = 1,
    lower: float | None = None,
    upper: float | None = None,
    pre_aggregate: bool = False,
    selection: Selection = "random",
) -> np.ndarray:
    """Expected per-group answers after bounding, shape (groups, caps) for each l0 cap.

    Random: a person with k groups keeps each with probability min(1, c / k), so
    E[answer_g] = sum over k of W[g, k] * min(1, c / k), W = contributions by (group, k).
    First: the units of rank < c, a cumulative sum over ranks. Exact, no sampling.
    """
    statistic = _check_statistic(statistic, lower, upper)
    selection = _check_selection(selection)
    check_positive_int(max_per_group, "the cap on records per person per group")
    caps = np.asarray(caps, dtype=np.int64)
    if caps.size == 0 or caps.min() < 1:
        raise ValueError("the cap on groups per person must be at least 1.")
    contribution = _unit_contributions(
        table,
        statistic,
        max_per_group=max_per_group,
        lower=lower,
        upper=upper,
        pre_aggregate=pre_aggregate,
        selection=selection,
    )
    n_groups = len(table.groups)
    if selection == "random":
        k = table.unit_groups_of_person
        width = int(k.max()) + 1
        by_k = np.bincount(table.unit_group * width + k, contribution, n_groups * width)
        keep = np.minimum(1.0, caps[None, :] / np.maximum(np.arange(width), 1)[:, None])
        return by_k.reshape(n_groups, width) @ keep
    rank = table.unit_rank
    width = int(rank.max()) + 1
    by_rank = np.bincount(table.unit_group * width + rank, contribution, n_groups * width)
    cumulative = np.cumsum(by_rank.reshape(n_groups, width), axis=1)
    return cumulative[:, np.minimum(caps, width) - 1]


def bounded_totals_by_upper(
    table: ContributionTable,
    *,
    uppers: ArrayLike,
    lower: float,
    max_groups: int,
    max_per_group: int = 1,
    pre_aggregate: bool = False,
    selection: Selection = "random",
) -> np.ndarray:
    """Expected per-group sums after bounding, shape (groups, uppers), for each upper bound U.

    With kept-weights w_i: sum_i w_i min(max(v_i, L), U), by :func:`_clipped_power_sums`.
    """
    selection = _check_selection(selection)
    uppers = _check_uppers(uppers, lower)
    groups = check_positive_int(max_groups, "the cap on groups per person")
    k = table.unit_groups_of_person
    unit_keep = (
        np.minimum(1.0, groups / k) if selection == "random" else (table.unit_rank < groups) * 1.0
    )
    if pre_aggregate:
        values, weight, group = table.unit_total, unit_keep, table.unit_group
    else:
        check_positive_int(max_per_group, "the cap on records per person per group")
        values, group = table._values(), table.row_group
        weight = unit_keep[table.row_unit] * _record_keep(table, max_per_group, selection)
    return _clipped_power_sums(values, weight, group, len(table.groups), lower, uppers, power=1)


def _check_uppers(uppers: ArrayLike, lower: float) -> np.ndarray:
    """Upper bounds to compare: increasing, all above the lower bound."""
    uppers = np.asarray(uppers, dtype=float)
    if uppers.size == 0 or not np.all(np.diff(uppers) > 0):
        raise ValueError("the upper bounds to compare must be increasing.")
    check_bounds(lower, uppers[0])
    return uppers


def _clipped_power_sums(
    values: np.ndarray,
    weight: np.ndarray,
    group: np.ndarray,
    n_groups: int,
    lower: float,
    uppers: np.ndarray,
    *,
    power: int,
) -> np.ndarray:
    """Per group and U: sum_i weight_i min(a_i, U)^power, a_i = max(v_i, L); (groups, uppers).

    = sum_i w_i a_i^power - sum_{a_i > U} w_i (a_i^power - U^power): one pass over the rows
    puts each in a bin by how many U lie below a_i; suffix sums give every U at once.
    """
    raised = np.maximum(values, lower)
    n_uppers = len(uppers)
    above = np.searchsorted(uppers, raised, side="left")  # number of U below each value
    cell = group * (n_uppers + 1) + above
    size = n_groups * (n_uppers + 1)
    weight_sum = np.bincount(cell, weight, size).reshape(n_groups, n_uppers + 1)
    value_sum = np.bincount(cell, weight * raised**power, size).reshape(n_groups, n_uppers + 1)
    # rows with above > j have raised value > U_j: suffix sums over the bins after j
    weight_over = np.cumsum(weight_sum[:, ::-1], axis=1)[:, ::-1][:, 1:]
    value_over = np.cumsum(value_sum[:, ::-1], axis=1)[:, ::-1][:, 1:]
    return value_sum.sum(axis=1)[:, None] - (value_over - uppers[None, :] ** power * weight_over)


# ---------------------------------------------------------------------------------------
# Exact variance of the random choice of kept records, per group
# ---------------------------------------------------------------------------------------


def _sum_by(index: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Sums of the rows of ``values`` (1-D or 2-D) that share an index: shape (size, ...)."""
    if values.ndim == 1:
        return np.bincount(index, weights=values, minlength=size)
    width = values.shape[1]
    cells = (index[:, None] * width + np.arange(width)[None, :]).ravel()
    return np.bincount(cells, values.ravel(), size * width).reshape(size, width)


def _kept_total_moments(
    row_unit: np.ndarray, unit_size: np.ndarray, weight: np.ndarray, max_per_group: int
) -> tuple[np.ndarray, np.ndarray]:
    """E[Y] and Var(Y) of each unit's kept total Y: m = min(r, linf) of its r records.

    A uniform subset (simple random sampling without replacement, Cochran 1977, Thm 2.2):
    E[Y] = (m / r) S1, Var(Y) = m (r - m) / (r (r - 1)) (S2 - S1^2 / r); 0 when m = r.
    ``weight`` holds each row's clipped value, one column per setting when 2-D.
    """
    n_units = len(unit_size)
    s1 = _sum_by(row_unit, weight, n_units)
    s2 = _sum_by(row_unit, weight**2, n_units)
    r = unit_size.astype(float).reshape(-1, *[1] * (weight.ndim - 1))
    m = np.minimum(r, max_per_group)
    spread = m * (r - m) / (r * np.maximum(r - 1, 1))
    return m / r * s1, spread * np.maximum(s2 - s1**2 / r, 0.0)


def _unit_mean_and_variance(
    table: ContributionTable,
    statistic: Statistic,
    *,
    max_per_group: int,
    lower: float | None,
    upper: float | None,
    pre_aggregate: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """E[Y_u] and Var(Y_u) of each unit's contribution once linf (random) and clipping apply.

    Counts keep exactly min(r, linf) records and a pre-aggregated total is one clipped value:
    both have Var(Y) = 0.
    """
    if statistic == "sum" and pre_aggregate:
        total = clip_values(table.unit_total, lower, upper)
        return total, np.zeros_like(total)
    weight = (
        clip_values(table._values(), lower, upper)
        if statistic == "sum"
        else np.ones(len(table.row_unit))
    )
    return _kept_total_moments(table.row_unit, table.unit_size, weight, max_per_group)


def selection_variance_by_cap(
    table: ContributionTable,
    statistic: Statistic,
    *,
    caps: ArrayLike,
    max_per_group: int = 1,
    lower: float | None = None,
    upper: float | None = None,
    pre_aggregate: bool = False,
    selection: Selection = "random",
) -> np.ndarray:
    """Variance of each group's answer over the random choice of kept records, (groups, caps).

    Var_g(c) = sum over units u of g of pi Var(Y_u) + pi (1 - pi) E[Y_u]^2, pi = min(1, c/k_u)
    (exact: see the module docstring). "First" selection is deterministic: 0.
    """
    statistic = _check_statistic(statistic, lower, upper)
    caps = np.asarray(caps, dtype=np.int64)
    if caps.size == 0 or caps.min() < 1:
        raise ValueError("the cap on groups per person must be at least 1.")
    n_groups = len(table.groups)
    if _check_selection(selection) == "first":
        return np.zeros((n_groups, caps.size))
    check_positive_int(max_per_group, "the cap on records per person per group")
    mean, variance = _unit_mean_and_variance(
        table,
        statistic,
        max_per_group=max_per_group,
        lower=lower,
        upper=upper,
        pre_aggregate=pre_aggregate,
    )
    k = table.unit_groups_of_person
    width = int(k.max()) + 1
    cell = table.unit_group * width + k
    by_k_variance = np.bincount(cell, variance, n_groups * width).reshape(n_groups, width)
    by_k_square = np.bincount(cell, mean**2, n_groups * width).reshape(n_groups, width)
    keep = np.minimum(1.0, caps[None, :] / np.maximum(np.arange(width), 1)[:, None])
    return by_k_variance @ keep + by_k_square @ (keep * (1 - keep))


def selection_variance_by_upper(
    table: ContributionTable,
    *,
    uppers: ArrayLike,
    lower: float,
    max_groups: int,
    max_per_group: int = 1,
    pre_aggregate: bool = False,
    selection: Selection = "random",
) -> np.ndarray:
    """Variance of each group's sum over the random choice of kept records, (groups, uppers).

    The same unit formula as :func:`selection_variance_by_cap` at one cap, for every upper
    clipping bound U. A unit that is one value (one record, or a pre-aggregated total) adds
    pi (1 - pi) min(max(v, L), U)^2: a clipped power sum, every U in one pass. Units of
    several records that vary (pi < 1 or r > linf) are evaluated for every record and U.
    """
    uppers = _check_uppers(uppers, lower)
    groups = check_positive_int(max_groups, "the cap on groups per person")
    n_groups = len(table.groups)
    if _check_selection(selection) == "first":
        return np.zeros((n_groups, uppers.size))
    keep = np.minimum(1.0, groups / table.unit_groups_of_person)
    one_value = keep * (1 - keep)
    if pre_aggregate:
        table._values()  # a readable error without a value column
        return _clipped_power_sums(
            table.unit_total,
            one_value,
            table.unit_group,
            n_groups,
            lower,
            uppers,
            power=2,
        )
    check_positive_int(max_per_group, "the cap on records per person per group")
    single = table.unit_size[table.row_unit] == 1
    variance = _clipped_power_sums(
        table._values(),
        np.where(single, one_value[table.row_unit], 0.0),
        table.row_group,
        n_groups,
        lower,
        uppers,
        power=2,
    )
    several = table.unit_size > 1
    varies = np.flatnonzero(several & ((keep < 1) | (table.unit_size > max_per_group)))
    if varies.size == 0:
        return variance
    unit_code = np.full(len(keep), -1)
    unit_code[varies] = np.arange(varies.size)
    rows = np.flatnonzero(unit_code[table.row_unit] >= 0)
    weight = np.clip(table._values()[rows, None], lower, uppers[None, :])
    mean, kept_variance = _kept_total_moments(
        unit_code[table.row_unit[rows]], table.unit_size[varies], weight, max_per_group
    )
    pi = keep[varies][:, None]
    unit_variance = pi * kept_variance + pi * (1 - pi) * mean**2
    return variance + _sum_by(table.unit_group[varies], unit_variance, n_groups)


# ---------------------------------------------------------------------------------------
# Bias, selection, noise and RMSE
# ---------------------------------------------------------------------------------------


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


def best_setting(summary: pd.DataFrame, settings: ArrayLike) -> tuple[float, float]:
    """The setting with the smallest RMSE (the smallest setting on ties) and that RMSE."""
    index = int(np.argmin(summary["rmse"].to_numpy()))
    return np.asarray(settings)[index].item(), float(summary["rmse"].iloc[index])


@dataclass(frozen=True)
class GroupNoise:
    """The noise added to each group's answer, and what it is calibrated to.

    Day by day: each group's answer alone, its per-group sensitivity, (epsilon, delta) per
    group. One release of all n groups: the vector's L1 (Laplace) or L2 (Gaussian)
    sensitivity over min(l0, n) groups, and the whole budget (n epsilon, n delta).
    """

    mechanism: Mechanism
    sensitivity: float
    epsilon: float
    delta: float  # 0 for Laplace
    scale: float  # Laplace b, or Gaussian sigma
    std: float

    @property
    def half_width(self) -> float:
        """95% of the noise lies within +- this."""
        if self.mechanism == "laplace":
            return laplace_half_width(self.scale)
        return gaussian_half_width(self.scale)


def _check_mechanism(mechanism: str) -> Mechanism:
    if mechanism not in ("laplace", "gaussian"):
        raise ValueError(f"the noise must be 'laplace' or 'gaussian' (got {mechanism!r}).")
    return mechanism  # type: ignore[return-value]


def group_noise(
    sensitivity: Sensitivity,
    *,
    epsilon_per_group: float,
    joint: bool,
    max_groups: int,
    n_groups: int,
    mechanism: Mechanism = "laplace",
    delta: float = 0.0,
) -> GroupNoise:
    """Laplace b = Delta / epsilon (Dwork & Roth 2014, Thm 3.6) or analytic Gaussian sigma.

    Gaussian: the smallest sigma with (epsilon, delta)-DP at L2 sensitivity Delta (Balle &
    Wang 2018, Thm 8). Joint release of n groups, m = min(l0, n): Laplace Delta_1 = m Delta
    at n epsilon; Gaussian Delta_2 = sqrt(m) Delta at (n epsilon, n delta).
    """
    mechanism = _check_mechanism(mechanism)
    n = check_positive_int(n_groups, "the number of groups")
    m = min(check_positive_int(max_groups, "the cap on groups per person"), n)
    epsilon = check_epsilon(epsilon_per_group) * (n if joint else 1)
    if mechanism == "laplace":
        size = sensitivity.per_group * (m if joint else 1)
        scale = laplace_scale(size, epsilon)
        return GroupNoise(mechanism, size, epsilon, 0.0, scale, laplace_std(scale))
    delta = check_delta(delta, allow_zero=False)
    if joint and n * delta >= 1:
        raise ValueError(
            f"one release of all {n} groups gets δ = {n} × {delta:g} = {n * delta:g}, which "
            "must be below 1 (and should be far below 1 / the number of persons): lower δ."
        )
    delta = delta * (n if joint else 1)
    size = sensitivity.per_group * (math.sqrt(m) if joint else 1.0)
    sigma = analytic_gaussian_sigma(1.0, epsilon, delta) * size  # sigma is linear in Delta
    return GroupNoise(mechanism, size, epsilon, delta, sigma, sigma)


def add_group_noise(rng: np.random.Generator, values: ArrayLike, noise: GroupNoise) -> np.ndarray:
    """values + one independent draw of the noise per group."""
    values = np.asarray(values, dtype=float)
    draw = sample_laplace if noise.mechanism == "laplace" else sample_gaussian
    return values + draw(rng, noise.scale, values.shape)


@dataclass(frozen=True)
class _Noise:
    """How the noise is chosen: budget per group, joint or not, mechanism and delta."""

    epsilon_per_group: float
    joint: bool
    mechanism: Mechanism
    delta: float

    def std(self, sensitivity: Sensitivity, cap: int, n_groups: int) -> float:
        return group_noise(
            sensitivity,
            epsilon_per_group=self.epsilon_per_group,
            joint=self.joint,
            max_groups=cap,
            n_groups=n_groups,
            mechanism=self.mechanism,
            delta=self.delta,
        ).std


@dataclass(frozen=True)
class _Bounds:
    """The bounds on a person's contribution to one group: linf, clipping, pre-aggregation."""

    max_per_group: int
    lower: float | None
    upper: float | None
    pre_aggregate: bool


def _answers_and_noise(
    table: ContributionTable,
    statistic: Statistic,
    caps: ArrayLike,
    noise_plan: _Noise,
    selection: Selection,
    bounds: _Bounds,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Expected answers and selection variances (groups x caps), and the noise sd per cap."""
    settings = asdict(bounds)
    bounded = bounded_totals_by_cap(table, statistic, caps=caps, selection=selection, **settings)
    spread = selection_variance_by_cap(table, statistic, caps=caps, selection=selection, **settings)
    noise = np.array(
        [
            noise_plan.std(
                release_sensitivity(statistic, max_groups=int(cap), **settings),
                int(cap),
                len(table.groups),
            )
            for cap in np.asarray(caps)
        ]
    )
    return bounded, spread, noise


def expected_group_errors(
    table: ContributionTable,
    statistic: Statistic,
    *,
    epsilon_per_group: float,
    joint: bool,
    max_groups: int,
    max_per_group: int = 1,
    lower: float | None = None,
    upper: float | None = None,
    pre_aggregate: bool = False,
    selection: Selection = "random",
    mechanism: Mechanism = "laplace",
    delta: float = 0.0,
) -> pd.DataFrame:
    """Per group: truth, expected bounded answer, bias, selection sd, noise sd, RMSE."""
    bounds = _Bounds(max_per_group, lower, upper, pre_aggregate)
    noise_plan = _Noise(epsilon_per_group, joint, mechanism, delta)
    bounded, spread, noise = _answers_and_noise(
        table, statistic, [max_groups], noise_plan, selection, bounds
    )
    return group_errors(
        table.groups,
        table.true_totals(statistic),
        bounded[:, 0],
        noise[0],
        selection_variance=spread[:, 0],
    )


def cap_tradeoff(
    table: ContributionTable,
    statistic: Statistic,
    *,
    caps: ArrayLike,
    epsilon_per_group: float,
    joint: bool,
    max_per_group: int = 1,
    lower: float | None = None,
    upper: float | None = None,
    pre_aggregate: bool = False,
    selection: Selection = "random",
    mechanism: Mechanism = "laplace",
    delta: float = 0.0,
) -> pd.DataFrame:
    """Bias, selection sd, noise sd and RMSE (root mean square over groups) for each cap."""
    bounds = _Bounds(max_per_group, lower, upper, pre_aggregate)
    caps = np.asarray(caps, dtype=np.int64)
    noise_plan = _Noise(epsilon_per_group, joint, mechanism, delta)
    bounded, spread, noise = _answers_and_noise(
        table, statistic, caps, noise_plan, selection, bounds
    )
    summary = error_summary(table.true_totals(statistic), bounded, noise, selection_variance=spread)
    return summary.assign(cap=caps)[["cap", "bias", "selection_std", "noise_std", "rmse"]]


def upper_tradeoff(
    table: ContributionTable,
    *,
    uppers: ArrayLike,
    lower: float,
    max_groups: int,
    epsilon_per_group: float,
    joint: bool,
    max_per_group: int = 1,
    pre_aggregate: bool = False,
    selection: Selection = "random",
    mechanism: Mechanism = "laplace",
    delta: float = 0.0,
) -> pd.DataFrame:
    """Bias, selection sd, noise sd and RMSE of per-group sums for each upper bound U."""
    uppers = np.asarray(uppers, dtype=float)
    settings = {
        "uppers": uppers,
        "lower": lower,
        "max_groups": max_groups,
        "max_per_group": max_per_group,
        "pre_aggregate": pre_aggregate,
        "selection": selection,
    }
    bounded = bounded_totals_by_upper(table, **settings)
    spread = selection_variance_by_upper(table, **settings)
    widest = grouped_sum_sensitivity(
        lower,
        uppers[-1],
        max_groups=max_groups,
        max_per_group=max_per_group,
        pre_aggregated=pre_aggregate,
    )
    # the sensitivity, hence the noise (Laplace or Gaussian), is proportional to max(|L|, |U|)
    per_record = np.maximum(abs(lower), np.abs(uppers))
    noise_plan = _Noise(epsilon_per_group, joint, mechanism, delta)
    noise = noise_plan.std(widest, max_groups, len(table.groups)) * per_record / per_record[-1]
    summary = error_summary(table.true_totals("sum"), bounded, noise, selection_variance=spread)
    return summary.assign(upper=uppers)[["upper", "bias", "selection_std", "noise_std", "rmse"]]


def lower_tradeoff(
    table: ContributionTable,
    *,
    lowers: ArrayLike,
    upper: float,
    max_groups: int,
    epsilon_per_group: float,
    joint: bool,
    max_per_group: int = 1,
    pre_aggregate: bool = False,
    selection: Selection = "random",
    mechanism: Mechanism = "laplace",
    delta: float = 0.0,
) -> pd.DataFrame:
    """Bias, selection sd, noise sd and RMSE of per-group sums for each lower bound L.

    clip(v, L, U) = -clip(-v, -U, -L): the upper-bound sweep on the negated values, with
    upper bounds -L; biases change sign only, selection variances and noise not at all.
    """
    lowers = np.asarray(lowers, dtype=float)
    if lowers.size == 0 or not np.all(np.diff(lowers) > 0):
        raise ValueError("the lower bounds to compare must be increasing.")
    check_bounds(lowers[-1], upper)
    negated = replace(
        table,
        row_value=-table._values(),
        unit_total=None if table.unit_total is None else -table.unit_total,
    )
    mirrored = upper_tradeoff(
        negated,
        uppers=-lowers[::-1],
        lower=-upper,
        max_groups=max_groups,
        epsilon_per_group=epsilon_per_group,
        joint=joint,
        max_per_group=max_per_group,
        pre_aggregate=pre_aggregate,
        selection=selection,
        mechanism=mechanism,
        delta=delta,
    )
    summary = mirrored.iloc[::-1].reset_index(drop=True).drop(columns="upper")
    return summary.assign(lower=lowers)[["lower", "bias", "selection_std", "noise_std", "rmse"]]


def _raised_and_capped(
    values: np.ndarray,
    weight: np.ndarray,
    index: np.ndarray,
    size: int,
    lowers: np.ndarray,
    uppers: np.ndarray,
    power: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Per index: sum w max(v, L)^p for each L (size, L), and sum w min(v, U)^p for each U.

    max(v, L) = -min(-v, -L): the clipped power sums of the negated values, by increasing -L.
    """
    raised = _clipped_power_sums(-values, weight, index, size, -np.inf, -lowers[::-1], power=power)
    capped = _clipped_power_sums(values, weight, index, size, -np.inf, uppers, power=power)
    return raised[:, ::-1] * (-1) ** power, capped


def bounds_rmse_grid(
    table: ContributionTable,
    *,
    lowers: ArrayLike,
    uppers: ArrayLike,
    max_groups: int,
    epsilon_per_group: float,
    joint: bool,
    max_per_group: int = 1,
    pre_aggregate: bool = False,
    selection: Selection = "random",
    mechanism: Mechanism = "laplace",
    delta: float = 0.0,
) -> np.ndarray:
    """Expected RMSE (root mean square over groups) of per-group sums for every (L, U).

    Shape (lowers, uppers); inf where L >= U. Exact, as :func:`upper_tradeoff` for each pair.
    For L <= U, clip(v, L, U) = max(v, L) + min(v, U) - v, and clip^2 = max(v, L)^2 +
    min(v, U)^2 - v^2: every sum of clipped values splits into a part in L and a part in U.
    The bias, a(L) + b(U) per group, has mean square (sum a^2 + sum b^2 + 2 a^T b) / groups.
    A unit's selection variance is alpha S2 + beta S1^2 (module docstring: alpha = pi spread,
    beta = pi (1 - pi) (m / r)^2 - pi spread / r); S1 = P(L) + Q(U) splits too, and
    sum over units of beta P Q is one matrix product per group.
    """
    lowers, uppers = np.asarray(lowers, dtype=float), np.asarray(uppers, dtype=float)
    for name, bounds in (("lower", lowers), ("upper", uppers)):
        if bounds.size == 0 or not np.all(np.diff(bounds) > 0):
            raise ValueError(f"the {name} bounds to compare must be increasing.")
    selection = _check_selection(selection)
    groups = check_positive_int(max_groups, "the cap on groups per person")
    n_groups, n_units = len(table.groups), len(table.unit_group)
    random = selection == "random"
    pi = (
        np.minimum(1.0, groups / table.unit_groups_of_person)
        if random
        else (table.unit_rank < groups) * 1.0
    )
    if pre_aggregate:
        table._values()  # a readable error without a value column
        values, item_unit, r = table.unit_total, np.arange(n_units), np.ones(n_units)
        record_keep = np.ones(n_units)
    else:
        linf = check_positive_int(max_per_group, "the cap on records per person per group")
        values, item_unit = table._values(), table.row_unit
        r = table.unit_size.astype(float)
        record_keep = _record_keep(table, linf, selection)
    item_group = table.unit_group[item_unit]

    def split_sums(weight, index, size, power):
        """(part in L, part in U, constant) with sum w clip^p = L part + U part - constant."""
        raised, capped = _raised_and_capped(values, weight, index, size, lowers, uppers, power)
        return raised, capped, np.bincount(index, weight * values**power, size)

    raised, capped, plain = split_sums(pi[item_unit] * record_keep, item_group, n_groups, 1)
    a = raised - (plain + table.true_totals("sum"))[:, None]  # bias = a(L) + capped(U)
    mean_square = (a**2).sum(axis=0)[:, None] + (capped**2).sum(axis=0)[None, :] + 2 * a.T @ capped
    mean_square /= n_groups
    if random:
        m = r if pre_aggregate else np.minimum(r, max_per_group)
        spread = m * (r - m) / (r * np.maximum(r - 1, 1))
        alpha = pi * spread
        beta = pi * (1 - pi) * (m / r) ** 2 - alpha / r
        raised2, capped2, plain2 = split_sums(alpha[item_unit], item_group, n_groups, 2)
        variance = (raised2 - plain2[:, None]).sum(axis=0)[:, None] + capped2.sum(axis=0)
        varies = np.flatnonzero(beta != 0)
        if varies.size:
            code = np.full(n_units, -1)
            code[varies] = np.arange(varies.size)
            items = np.flatnonzero(code[item_unit] >= 0)
            unit_code = code[item_unit[items]]
            ones = np.ones(items.size)
            p, q = _raised_and_capped(
                values[items], ones, unit_code, varies.size, lowers, uppers, 1
            )
            p -= np.bincount(unit_code, values[items], varies.size)[:, None]  # S1 = p(L) + q(U)
            b = beta[varies][:, None]
            variance = variance + (b * p**2).sum(axis=0)[:, None] + (b * q**2).sum(axis=0)
            order = np.argsort(table.unit_group[varies], kind="stable")
            edges = np.searchsorted(table.unit_group[varies][order], np.arange(n_groups + 1))
            bp, qs = (b * p)[order], q[order]
            for g in range(n_groups):  # one matrix product per group, not per record
                lo, hi = edges[g], edges[g + 1]
                variance = variance + 2 * bp[lo:hi].T @ qs[lo:hi]
        mean_square = mean_square + variance / n_groups
    unit_noise = _Noise(epsilon_per_group, joint, mechanism, delta).std(
        grouped_sum_sensitivity(
            0.0, 1.0, max_groups=groups, max_per_group=max_per_group, pre_aggregated=pre_aggregate
        ),
        groups,
        n_groups,
    )
    noise = unit_noise * np.maximum(np.abs(lowers)[:, None], np.abs(uppers)[None, :])
    rmse = np.sqrt(np.maximum(mean_square, 0.0) + noise**2)
    return np.where(lowers[:, None] < uppers[None, :], rmse, np.inf)


def best_bounds(table: ContributionTable, **settings) -> tuple[float, float, float]:
    """The pair (L, U) with the smallest RMSE on the grid of :func:`bounds_rmse_grid`, and it.

    On a tie, the smallest L, then the smallest U.
    """
    rmse = bounds_rmse_grid(table, **settings)
    i, j = np.unravel_index(int(np.argmin(rmse)), rmse.shape)
    lowers, uppers = np.asarray(settings["lowers"]), np.asarray(settings["uppers"])
    return float(lowers[i]), float(uppers[j]), float(rmse[i, j])
