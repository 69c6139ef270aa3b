"""A planned statistic's true values and sensitivities, from a table in memory
(``build_statistic``) or from totals computed elsewhere (``statistic_from_totals``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from dp_core.domains import check_domain
from dp_core.errors import CodedError
from dp_core.planner.statistic import Statistic, StatisticSpec
from dp_core.queries import QuerySpec, answer, numeric_column, query_from_totals
from dp_core.sensitivity import clipped_sum_sensitivity
from dp_core.validation import check_bounds, check_positive_int

__all__ = ["build_statistic", "statistic_from_totals"]


def build_statistic(
    frame: pd.DataFrame,
    spec: StatisticSpec,
    *,
    cap: int = 1,
    labels: Sequence[str] | None = None,
    max_rows_per_category: int | None = None,
    count_column: str | None = None,
) -> Statistic:
    """The true values of ``spec`` on ``frame`` and its sensitivities from the caps and bounds.

    ``frame`` must already hold at most ``cap`` rows per person (ui.common.contributions), or
    be a count table (``count_column``: each row one category with its count of units).
    Sensitivities for one person with up to m = cap rows: a count m, a clipped sum
    m max(|L|, |U|), a mean's sum and count the same two; a histogram over the public
    ``labels`` m in L1 and sqrt(q g^2 + r^2), (q, r) = divmod(m, g), in L2 with at most
    g = ``max_rows_per_category`` rows in one category (dp_core.sensitivity). Rows missing
    the value are left out of a sum or mean (they change nothing).
    """
    check_positive_int(cap, "the cap on rows per person")
    name = spec.name
    if spec.kind == "histogram":
        if labels is None:
            raise CodedError("histogram_categories", name=name)
        query = answer(
            frame,
            QuerySpec(kind="count", category=spec.column, cap=cap),
            check_domain(tuple(labels)),
            count_column=count_column,
        )
        return statistic_from_totals(
            spec,
            cap=cap,
            labels=query.labels,
            counts=query.true_values,
            rows_outside=query.rows_outside,
            max_rows_per_category=max_rows_per_category,
        )
    if spec.kind == "count":
        value = float(frame[count_column].sum()) if count_column else float(len(frame))
        return statistic_from_totals(spec, cap=cap, counts=[value])
    if count_column is not None:
        raise CodedError("count_table_values", name=name)
    values = numeric_column(frame, spec.column)
    values = values[values.notna()].to_numpy(dtype=float)
    lower, upper = check_bounds(spec.lower, spec.upper)
    return statistic_from_totals(
        spec,
        cap=cap,
        counts=[float(values.size)],
        clipped_sum=float(np.clip(values, lower, upper).sum()),
        raw_sum=float(values.sum()),
    )


def statistic_from_totals(
    spec: StatisticSpec,
    *,
    cap: int,
    counts: Sequence[float] | np.ndarray,
    labels: Sequence[str] | None = None,
    clipped_sum: float = 0.0,
    raw_sum: float = 0.0,
    rows_outside: int = 0,
    max_rows_per_category: int | None = None,
) -> Statistic:
    """The Statistic of ``spec`` from totals computed wherever the rows are (``build_statistic``
    in memory; data.sources in a SQL engine for tables beyond memory).

    ``counts``: a histogram's rows per public label, or the one count (rows; for a sum or a
    mean, the rows with a value); ``clipped_sum`` and ``raw_sum`` the sum of the values
    clipped to [L, U] and unclipped. Sensitivities as in ``build_statistic``.
    """
    m = check_positive_int(cap, "the cap on rows per person")
    name = spec.name
    counts = np.asarray(counts, dtype=float)
    if spec.kind == "histogram":
        query = query_from_totals(
            QuerySpec(
                kind="count",
                category=spec.column,
                cap=m,
                max_rows_per_category=max_rows_per_category,
            ),
            labels=check_domain(tuple(labels or ())),
            counts=counts,
            n_persons=0,
            rows_outside=rows_outside,
        )
        return Statistic(
            spec,
            tuple(query.labels),
            tuple(float(v) for v in query.true_values),
            float(query.sensitivity),
            float(query.l2_sensitivity),
            rows_outside=query.rows_outside,
        )
    if spec.kind == "count":
        return Statistic(spec, (name,), (float(counts[0]),), float(m), float(m))
    lower, upper = check_bounds(spec.lower, spec.upper)
    row = clipped_sum_sensitivity(lower, upper) * m
    if spec.kind == "sum":
        return Statistic(spec, (name,), (float(clipped_sum),), row, row, raw_values=(raw_sum,))
    n = float(counts[0])
    mean = float(clipped_sum / max(n, 1.0))
    raw = float(raw_sum / n) if n else 0.0
    return Statistic(
        spec, (name,), (mean,), row, row, float(m), float(m), rows=n, raw_values=(raw,)
    )
