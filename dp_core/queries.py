"""The queries the central-mechanism pages offer: their true answers, sensitivity and release.

Queries: count per category, count of a predicate, sum of values clipped to [L, U] per
category, and mean per category released as noisy clipped sum / noisy count.

    spec = QuerySpec(kind="count", category="occupation", cap=1)
    query = answer(frame, spec, labels=domain)   # labels: public, declared or DP-selected
    query.sensitivity, query.l2_sensitivity       # of the whole release, one person's effect

The released labels are never read off the data: they are passed in (a public domain, a
declared one, or one chosen with dp_core.partition_selection), and categories absent from
the data are answered as zeros (Wilson et al. 2020).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from dp_core import validation
from dp_core.domains import clipped_sums_over_domain, counts_over_domain
from dp_core.errors import CodedError
from dp_core.gaussian import gaussian_sigma, sample_gaussian
from dp_core.laplace import laplace_scale, sample_laplace
from dp_core.sensitivity import (
    capped_contribution_norms,
    clipped_sum_sensitivity,
    count_sensitivity,
)

__all__ = [
    "MeanRelease",
    "Query",
    "QuerySpec",
    "answer",
    "count_where",
    "numeric_column",
    "predicate_mask",
    "query_from_totals",
    "release_clipped_mean",
]

QueryKind = Literal["count", "predicate", "sum", "mean"]
PREDICATE_OPS = ("≥", "<", "=")


def numeric_column(frame: pd.DataFrame, column: str) -> pd.Series:
    """The column as floats, or a ValueError saying it is not numeric."""
    if column not in frame.columns:
        raise CodedError("column_missing", column=column)
    values = frame[column]
    if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        raise CodedError("query_column_numeric", column=column)
    return values.astype(float)


def count_where(mask: pd.Series | np.ndarray) -> float:
    """Rows where the predicate holds."""
    return float(np.count_nonzero(np.asarray(mask, dtype=bool)))


@dataclass(frozen=True)
class MeanRelease:
    """A noisy mean per category with the simulated spread of its error."""

    noisy_mean: np.ndarray
    true_mean: np.ndarray  # mean of the clipped values
    half_width: np.ndarray  # |error| <= half_width with the given confidence (simulated)
    expected_abs_error: np.ndarray  # simulated E|error|


def release_clipped_mean(
    rng: np.random.Generator,
    clipped_sums: np.ndarray,
    counts: np.ndarray,
    *,
    lower: float,
    upper: float,
    epsilon: float,
    records_per_person: int = 1,
    mechanism: str = "laplace",
    delta: float = 0.0,
    rows_l2: float = 1.0,
    confidence: float = 0.95,
    simulations: int = 4000,
) -> MeanRelease:
    """Mean = noisy clipped sum / noisy count, each with half the budget, clamped to [L, U].

    Two releases, each (epsilon/2, delta/2)-DP, compose sequentially to (epsilon, delta)-DP
    under add/remove-one (Dwork & Roth 2014, Thm 3.16); dividing and clamping are
    post-processing. ``mechanism`` "laplace" uses the L1 sensitivities (a person with up to
    ``records_per_person`` rows multiplies both); "classic" or "analytic" Gaussian noise uses
    the L2 ones (``rows_l2`` times a row's). The ratio has no closed-form error distribution,
    so its spread comes from ``simulations`` fresh draws.
    """
    lo, hi = validation.check_bounds(lower, upper)
    eps = validation.check_epsilon(epsilon)
    conf = validation.check_probability(confidence, "confidence")
    sums = np.asarray(clipped_sums, dtype=float)
    n = np.asarray(counts, dtype=float)
    row_sum, row_count = clipped_sum_sensitivity(lo, hi), count_sensitivity()
    if mechanism == "laplace":
        m = validation.check_positive_int(records_per_person, "records per person")
        sum_scale = laplace_scale(m * row_sum, eps / 2)
        count_scale = laplace_scale(m * row_count, eps / 2)
        sample = sample_laplace
    else:
        half_delta = validation.check_delta(delta, allow_zero=False) / 2
        l2 = validation.check_sensitivity(rows_l2, "rows per person (L2)")
        sum_scale = gaussian_sigma(l2 * row_sum, eps / 2, half_delta, mechanism)
        count_scale = gaussian_sigma(l2 * row_count, eps / 2, half_delta, mechanism)
        sample = sample_gaussian

    def estimate(sum_noise: np.ndarray, count_noise: np.ndarray) -> np.ndarray:
        return np.clip((sums + sum_noise) / np.maximum(n + count_noise, 1.0), lo, hi)

    true_mean = sums / np.maximum(n, 1.0)
    noisy = estimate(sample(rng, sum_scale, sums.shape), sample(rng, count_scale, sums.shape))
    shape = (simulations, *sums.shape)
    errors = np.abs(
        estimate(sample(rng, sum_scale, shape), sample(rng, count_scale, shape)) - true_mean
    )
    return MeanRelease(
        noisy_mean=noisy,
        true_mean=true_mean,
        half_width=np.quantile(errors, conf, axis=0),
        expected_abs_error=errors.mean(axis=0),
    )


@dataclass(frozen=True)
class QuerySpec:
    """What to compute, chosen without looking at the data's values.

    ``cap``: the most rows one person may contribute (enforced before answering, or a public
    rule); ``max_rows_per_category``: a public rule on rows per person in one category (the
    restaurant's one visit a day), None when unknown. ``predicate``: (column, op, value).
    """

    kind: QueryKind
    category: str | None = None
    value: str | None = None
    lower: float | None = None
    upper: float | None = None
    predicate: tuple[str, str, object] | None = None
    cap: int = 1
    max_rows_per_category: int | None = None

    @property
    def predicate_text(self) -> str:
        """e.g. "age ≥ 40" or "occupation = Sales"."""
        column, op, value = self.predicate or ("", "", "")
        shown = f"{value:g}" if isinstance(value, float) else str(value)
        return f"{column} {op} {shown}"


@dataclass(frozen=True)
class Query:
    """A query's true answers over its released labels and one person's effect on them."""

    spec: QuerySpec
    labels: list[str]
    true_values: np.ndarray
    per_row_sensitivity: float  # one row's effect on one statistic: 1, or max(|L|, |U|)
    records_per_person: int  # L1 norm of one person's rows over the statistics (max)
    rows_l2: float  # L2 norm of one person's rows over the statistics (max)
    n_persons: int  # people in the data: distinct person ids, summed counts, or rows
    counts: np.ndarray | None = None  # rows per category, for the mean
    raw_values: np.ndarray | None = None  # unclipped sums, to show what clipping changed
    rows_outside: int = 0  # rows whose category is not a released label (dropped)
    missing: int = 0  # rows with no category or value (left out)

    @property
    def kind(self) -> QueryKind:
        return self.spec.kind

    @property
    def sensitivity(self) -> float:
        """L1 sensitivity of the release (Laplace)."""
        return self.per_row_sensitivity * self.records_per_person

    @property
    def l2_sensitivity(self) -> float:
        """L2 sensitivity of the release (Gaussian)."""
        return self.per_row_sensitivity * self.rows_l2

    def release_mean(
        self,
        rng: np.random.Generator,
        *,
        epsilon: float,
        mechanism: str = "laplace",
        delta: float = 0.0,
        groups: list[int] | None = None,
        simulations: int = 4000,
    ) -> MeanRelease:
        """A clipped-mean query released as noisy sum / noisy count (release_clipped_mean)."""
        picks = slice(None) if groups is None else groups
        return release_clipped_mean(
            rng,
            self.true_values[picks] * self.counts[picks],
            self.counts[picks],
            lower=self.spec.lower,
            upper=self.spec.upper,
            epsilon=epsilon,
            records_per_person=self.records_per_person,
            mechanism=mechanism,
            delta=delta,
            rows_l2=self.rows_l2,
            simulations=simulations,
        )


def predicate_mask(frame: pd.DataFrame, column: str, op: str, value: object) -> pd.Series:
    """Rows where ``column op value`` holds (missing values never match)."""
    if column not in frame.columns:
        raise CodedError("column_missing", column=column)
    values = frame[column]
    if op in ("≥", "<"):
        numbers = numeric_column(frame, column)
        mask = numbers >= value if op == "≥" else numbers < value
    elif op == "=" and isinstance(value, float):
        mask = values == value
    elif op == "=":
        mask = values.astype(str) == str(value)
    else:
        raise CodedError(
            "choice", name="op", choices=", ".join(map(repr, PREDICATE_OPS)), got=repr(op)
        )
    return mask.fillna(False).astype(bool)


def _persons(frame: pd.DataFrame, person: str | None, count_column: str | None) -> int:
    """How many people the data holds: distinct person ids, summed counts, or rows."""
    if person is not None:
        return int(frame[person].nunique())
    if count_column is not None:
        return int(frame[count_column].sum())
    return len(frame)


def answer(
    frame: pd.DataFrame,
    spec: QuerySpec,
    labels: Sequence[str] | None = None,
    *,
    person: str | None = None,
    count_column: str | None = None,
) -> Query:
    """The true answers of ``spec`` over the released ``labels``, with their sensitivity.

    ``frame`` must already hold at most ``spec.cap`` rows per person. Per-category queries
    answer exactly the given labels, in their order (absent ones as 0, rows outside counted
    as dropped). One person with up to m = cap rows, at most g in one category, changes the
    per-category counts by an L1 norm m and an L2 norm sqrt(q g^2 + r^2), (q, r) = divmod(m,
    g) (dp_core.sensitivity.capped_contribution_norms); a predicate's count by min(m, g).
    """
    n_persons = _persons(frame, person, count_column)
    if spec.kind == "predicate":
        if spec.predicate is None:
            raise CodedError("query_predicate_parts")
        column, op, value = spec.predicate
        count = count_where(predicate_mask(frame, column, op, value))
        return query_from_totals(spec, counts=[count], n_persons=n_persons)
    if spec.category is None or labels is None:
        raise CodedError("query_category_parts")
    if spec.category not in frame.columns:
        raise CodedError("column_missing", column=spec.category)
    if spec.kind == "count":
        weights = frame[count_column] if count_column is not None else None
        counts = counts_over_domain(frame[spec.category], labels, weights)
        return query_from_totals(
            spec,
            labels=counts.labels,
            counts=counts.counts,
            n_persons=n_persons,
            rows_outside=counts.rows_outside,
            missing=counts.missing,
        )
    if spec.value is None or spec.lower is None or spec.upper is None:
        raise CodedError("query_sum_parts")
    numeric_column(frame, spec.value)
    sums = clipped_sums_over_domain(
        frame[spec.category], frame[spec.value], labels, spec.lower, spec.upper
    )
    return query_from_totals(
        spec,
        labels=sums.labels,
        counts=sums.rows,
        clipped_sums=sums.clipped_sums,
        raw_sums=sums.raw_sums,
        n_persons=n_persons,
        rows_outside=sums.rows_outside,
        missing=sums.missing,
    )


def _predicate_query(spec: QuerySpec, counts: np.ndarray, n_persons: int) -> Query:
    """A predicate's one count: a person adds up to ``cap`` rows, or with "=" on a category
    at most ``max_rows_per_category`` of them."""
    records = spec.cap
    if spec.predicate is not None and spec.predicate[1] == "=":
        records = min(spec.cap, spec.max_rows_per_category or spec.cap)
    return Query(
        spec=spec,
        labels=[spec.predicate_text],
        true_values=counts[:1],
        per_row_sensitivity=count_sensitivity(),
        records_per_person=records,
        rows_l2=float(records),
        n_persons=n_persons,
    )


def _clipped_values(
    spec: QuerySpec, counts: np.ndarray, clipped_sums: Sequence[float] | np.ndarray
) -> np.ndarray:
    """A sum's clipped sums, or a mean's clipped sum / max(n, 1) per category."""
    sums = np.asarray(clipped_sums, dtype=float)
    # a mean is sum / max(n, 1), as release_clipped_mean: 0 for a category with no rows
    true_values = sums if spec.kind == "sum" else sums / np.maximum(counts, 1.0)
    return np.asarray(true_values, dtype=float)


def query_from_totals(
    spec: QuerySpec,
    *,
    counts: Sequence[float] | np.ndarray,
    n_persons: int,
    labels: Sequence[str] | None = None,
    clipped_sums: Sequence[float] | np.ndarray | None = None,
    raw_sums: Sequence[float] | np.ndarray | None = None,
    rows_outside: int = 0,
    missing: int = 0,
) -> Query:
    """The Query of ``spec`` from its per-category totals, computed wherever the rows are
    (``answer`` in memory; data.sources in a SQL engine for tables beyond memory).

    ``counts``: rows per released label (the one count of a predicate; summed weights of a
    count table); with a sum or mean, the rows with a value, ``clipped_sums`` (values clipped
    to [L, U]) and ``raw_sums``. The rows must hold at most ``spec.cap`` rows per person.
    Sensitivities as in ``answer``.
    """
    counts = np.asarray(counts, dtype=float)
    if spec.kind == "predicate":
        return _predicate_query(spec, counts, n_persons)
    if labels is None or len(labels) != len(counts):
        raise CodedError("query_counts_length")
    records, rows_l2 = capped_contribution_norms(spec.cap, spec.max_rows_per_category)
    if spec.kind == "count":
        return Query(
            spec=spec,
            labels=list(labels),
            true_values=counts,
            per_row_sensitivity=count_sensitivity(),
            records_per_person=records,
            rows_l2=rows_l2,
            n_persons=n_persons,
            rows_outside=rows_outside,
            missing=missing,
        )
    if spec.lower is None or spec.upper is None or clipped_sums is None:
        raise CodedError("query_sum_parts")
    return Query(
        spec=spec,
        labels=list(labels),
        true_values=_clipped_values(spec, counts, clipped_sums),
        per_row_sensitivity=clipped_sum_sensitivity(spec.lower, spec.upper),
        records_per_person=records,
        rows_l2=rows_l2,
        n_persons=n_persons,
        counts=counts,
        raw_values=None if raw_sums is None else np.asarray(raw_sums, dtype=float),
        rows_outside=rows_outside,
        missing=missing,
    )
