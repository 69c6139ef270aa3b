"""The dataset-and-query picker shared by the central-mechanism pages (Laplace, Gaussian).

Widgets in, a `Query` out: the true answers, their labels, and the L1 and L2 sensitivity of
the whole release when one person (who may own several rows) is added or removed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from data.registry import DATASETS, Dataset, frame_category_counts, load_dataset
from dp_core import (
    capped_contribution_norms,
    clipped_sum_by_category,
    clipped_sum_sensitivity,
    count_sensitivity,
    count_where,
    release_clipped_mean,
)
from dp_core.queries import MeanRelease
from ui.contributions import contribution_cap
from ui.own_data import own_dataset

QUERY_KINDS = {
    "count": "Count per category",
    "predicate": "Count of a predicate",
    "sum": "Clipped sum per category",
    "mean": "Clipped mean per category",
}


@dataclass(frozen=True)
class Query:
    """A query's true answers and what the mechanisms need to know about it."""

    kind: str
    description: str
    labels: list[str]
    true_values: np.ndarray
    per_row_sensitivity: float  # one row's effect on one statistic: 1, or max(|L|, |U|)
    records_per_person: int  # L1 norm of one person's rows over the statistics (max)
    rows_l2: float  # L2 norm of one person's rows over the statistics (max)
    value_name: str
    n_persons: int  # people in the data: distinct person ids, summed counts, or rows
    lower: float | None = None
    upper: float | None = None
    counts: np.ndarray | None = None  # rows per category, for the mean
    raw_values: np.ndarray | None = None  # unclipped sums, to show what clipping changed

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
        """A clipped-mean query released as noisy sum / noisy count (dp_core.queries)."""
        picks = slice(None) if groups is None else groups
        return release_clipped_mean(
            rng,
            self.true_values[picks] * self.counts[picks],
            self.counts[picks],
            lower=self.lower,
            upper=self.upper,
            epsilon=epsilon,
            records_per_person=self.records_per_person,
            mechanism=mechanism,
            delta=delta,
            rows_l2=self.rows_l2,
            simulations=simulations,
        )


def _persons(dataset: Dataset, frame: pd.DataFrame) -> int:
    """How many people the data holds: distinct person ids, summed counts, or rows."""
    if dataset.person_id is not None:
        return int(frame[dataset.person_id].nunique())
    if dataset.count_column is not None:
        return int(frame[dataset.count_column].sum())
    return len(frame)


def _predicate_mask(frame: pd.DataFrame, column: str, op: str, value: object) -> pd.Series:
    values = frame[column]
    if op == "≥":
        mask = values >= value
    elif op == "<":
        mask = values < value
    elif op == "=" and isinstance(value, float):
        mask = values == value
    else:
        mask = values.astype(str) == value
    return mask.fillna(False).astype(bool)


def _count_query(key: str, dataset: Dataset, frame: pd.DataFrame, cap: int) -> Query:
    column = st.selectbox("Category", dataset.categorical, key=f"{key}_category")
    counts = frame_category_counts(frame, column, dataset.count_column)
    records, rows_l2 = capped_contribution_norms(cap, dataset.max_rows_per_category.get(column))
    return Query(
        kind="count",
        description=f"number of rows per {column}",
        labels=[str(label) for label in counts.index],
        true_values=counts.to_numpy(dtype=float),
        per_row_sensitivity=count_sensitivity(),
        records_per_person=records,
        rows_l2=rows_l2,
        value_name="count",
        n_persons=_persons(dataset, frame),
    )


def _predicate_query(key: str, dataset: Dataset, frame: pd.DataFrame, cap: int) -> Query:
    columns = list(dict.fromkeys([*dataset.numeric, *dataset.categorical]))
    column_col, op_col, value_col = st.columns([2, 1, 2])
    column = column_col.selectbox("Column", columns, key=f"{key}_pred_column")
    if column in dataset.numeric:
        op = op_col.selectbox("is", ["≥", "<", "="], key=f"{key}_pred_op")
        lower, upper = dataset.numeric[column]
        value: object = value_col.number_input(
            "value", value=float((lower + upper) / 2), key=f"{key}_pred_value_{column}"
        )
        text = f"{column} {op} {value:g}"
    else:
        op = "="
        op_col.markdown("is")
        options = sorted(frame[column].dropna().astype(str).unique())
        value = value_col.selectbox("value", options, key=f"{key}_pred_value_{column}")
        text = f"{column} = {value}"
    true_count = count_where(_predicate_mask(frame, column, op, value))
    if true_count == 0:
        st.warning(
            f"No row has {text}: the true count is 0, so the noisy count is pure noise. That is "
            "the point: a noisy answer is at most e^ε times more likely when 0 people match "
            "than when 1 does, so it gives little away about whether anyone matches."
        )
    # All of a person's rows may match; with "=" on a column with a per-category rule, at
    # most that many do.
    per_value = dataset.max_rows_per_category.get(column) if op == "=" else None
    records = min(cap, per_value or cap)
    rows_l2 = float(records)
    return Query(
        kind="predicate",
        description=f"number of rows with {text}",
        labels=[text],
        true_values=np.array([true_count]),
        per_row_sensitivity=count_sensitivity(),
        records_per_person=records,
        rows_l2=rows_l2,
        value_name="count",
        n_persons=_persons(dataset, frame),
    )


def _clipped_query(
    key: str, kind: str, dataset: Dataset, frame: pd.DataFrame, cap: int
) -> Query | None:
    category_col, value_col = st.columns(2)
    category = category_col.selectbox("Category", dataset.categorical, key=f"{key}_category")
    value = value_col.selectbox("Value", list(dataset.numeric), key=f"{key}_value")
    natural_lower, natural_upper = dataset.numeric[value]
    lower_col, upper_col = st.columns(2)
    lower = lower_col.number_input(
        "Clip values at lower bound L", value=float(natural_lower), key=f"{key}_lower_{value}"
    )
    upper = upper_col.number_input(
        "Clip values at upper bound U", value=float(natural_upper), key=f"{key}_upper_{value}"
    )
    try:
        table = clipped_sum_by_category(frame, category, value, lower, upper)
        per_row = clipped_sum_sensitivity(lower, upper)
    except ValueError as error:
        st.error(f"Cannot run this query: {error}")
        return None
    records, rows_l2 = capped_contribution_norms(cap, dataset.max_rows_per_category.get(category))
    clipped = table["clipped_sum"].to_numpy(dtype=float)
    rows = table["rows"].to_numpy(dtype=float)
    name = "sum" if kind == "sum" else "mean"
    return Query(
        kind=kind,
        description=f"{name} of {value} clipped to [{lower:g}, {upper:g}] per {category}",
        labels=[str(label) for label in table.index],
        true_values=clipped if kind == "sum" else clipped / rows,
        per_row_sensitivity=per_row,
        records_per_person=records,
        rows_l2=rows_l2,
        value_name=f"{name} of {value}",
        n_persons=_persons(dataset, frame),
        lower=lower,
        upper=upper,
        counts=rows,
        raw_values=table["raw_sum"].to_numpy(dtype=float),
    )


OWN_CSV = "own_csv"


def pick_query(key: str, *, kinds: tuple[str, ...] = tuple(QUERY_KINDS)) -> Query | None:
    """Dataset and query widgets; the Query, or None after showing why it cannot run."""
    person_level = [k for k, d in DATASETS.items() if d.count_column is None]
    count_tables = [k for k in DATASETS if k not in person_level]
    dataset_col, kind_col = st.columns(2)
    choice = dataset_col.selectbox(
        "Dataset",
        [*person_level, *count_tables, OWN_CSV],
        format_func=lambda k: "Your own CSV file…" if k == OWN_CSV else DATASETS[k].title,
        key=f"{key}_dataset",
    )
    if choice == OWN_CSV:
        with st.container(border=True):
            own = own_dataset(key)
        if own is None:
            return None
        dataset, frame = own
    else:
        dataset, frame = DATASETS[choice], load_dataset(choice)
    allowed = kinds if dataset.count_column is None else ("count",)
    if not dataset.numeric:
        allowed = tuple(k for k in allowed if k not in ("sum", "mean"))
    if not dataset.categorical:
        allowed = ("predicate",)
    kind = kind_col.radio(
        "Query", allowed, format_func=QUERY_KINDS.get, key=f"{key}_kind", horizontal=True
    )
    with st.expander(f"About the {dataset.title} data"):
        st.markdown(dataset.card)
    try:
        frame, cap = contribution_cap(key, dataset, frame)
        if kind == "count":
            return _count_query(key, dataset, frame, cap)
        if kind == "predicate":
            return _predicate_query(key, dataset, frame, cap)
        return _clipped_query(key, kind, dataset, frame, cap)
    except ValueError as error:
        st.error(f"Cannot run this query: {error}")
        return None
