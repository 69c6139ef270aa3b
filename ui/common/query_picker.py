"""The dataset-and-query picker of the central-mechanism pages (Laplace, Gaussian).

Widgets in, a ``QueryChoice`` out: the data, the query's true answers over its released
categories (dp_core.queries.answer), and how those categories were chosen. For a data path
(read where it lies) the engine computes the per-category totals under the cap
(data.sources.capped_totals) and dp_core.queries.query_from_totals makes the same Query.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from data import sources
from data.registry import DATASETS
from dp_core.queries import PREDICATE_OPS, Query, QuerySpec, answer, query_from_totals
from ui.common.categories import Categories, pick_categories
from ui.common.contributions import contribution_cap
from ui.common.data_picker import DataChoice, about, pick_data
from ui.common.shell import DEFAULT_SEED

QUERY_KINDS = {
    "count": "Count per category",
    "predicate": "Count of a predicate",
    "sum": "Clipped sum per category",
    "mean": "Clipped mean per category",
}
SHIPPED = [k for k, d in DATASETS.items() if not d.is_count_table] + [
    k for k, d in DATASETS.items() if d.is_count_table
]


@dataclass(frozen=True)
class QueryChoice:
    """The data, the query's true answers, and how its categories were chosen."""

    data: DataChoice
    query: Query
    categories: Categories | None  # None for a predicate (one number, no labels)
    description: str  # e.g. "number of rows per occupation"
    value_name: str  # e.g. "count", "sum of money_spent"


def _kinds(data: DataChoice) -> tuple[str, ...]:
    dataset = data.dataset
    if not dataset.categorical:
        return ("predicate",)
    if dataset.is_count_table:
        return ("count",)
    if not dataset.numeric:
        return ("count", "predicate")
    return tuple(QUERY_KINDS)


def _predicate(page: str, data: DataChoice, frame: pd.DataFrame) -> tuple[str, str, object]:
    dataset = data.dataset
    columns = list(dict.fromkeys([*dataset.numeric, *dataset.categorical]))
    column_col, op_col, value_col = st.columns([2, 1, 2])
    column = column_col.selectbox("Column", columns, key=f"{page}_pred_column_{data.source}")
    if column in dataset.numeric:
        op = op_col.selectbox("is", list(PREDICATE_OPS), key=f"{page}_pred_op")
        lower, upper = dataset.numeric[column]
        value: object = value_col.number_input(
            "value", value=float((lower + upper) / 2), key=f"{page}_pred_value_{column}"
        )
        return column, op, value
    op_col.markdown("is")
    domain = dataset.domains.get(column)
    if domain is None:  # the user's own column: any value may be typed
        value = value_col.text_input("value", key=f"{page}_pred_text_{data.source}_{column}")
    else:
        value = value_col.selectbox("value", domain, key=f"{page}_pred_value_{column}")
    return column, "=", value


def _bounds(page: str, data: DataChoice, value: str) -> tuple[float, float]:
    natural_lower, natural_upper = data.dataset.numeric[value]
    lower_col, upper_col = st.columns(2)
    key = f"{page}_{data.source}_{value}"
    lower = lower_col.number_input(
        "Clip values at lower bound L", value=float(natural_lower), key=f"{key}_lower"
    )
    upper = upper_col.number_input(
        "Clip values at upper bound U", value=float(natural_upper), key=f"{key}_upper"
    )
    if data.own:
        st.caption(
            f"The bounds start at [{natural_lower:g}, {natural_upper:g}], read from your file "
            "(rounded outward): fine for exploring, but a real release must fix them in "
            "advance, since bounds read from the data reveal its smallest and largest values."
        )
    return lower, upper


def _path_answer(data: DataChoice, spec: QuerySpec, labels=None) -> Query:
    """The Query of a data path: the engine's totals under the cap (each person keeps
    ``spec.cap`` rows chosen at random with the sidebar's seed), then dp_core's sensitivities."""
    request = sources.CappedRequest(
        data.person,
        cap=spec.cap if data.person is not None else None,
        category=spec.category if spec.kind != "predicate" else None,
        value=spec.value,
        lower=spec.lower or 0.0,
        upper=spec.upper or 0.0,
        predicate=spec.predicate,
        seed=int(st.session_state.get("seed", DEFAULT_SEED)),
    )
    totals = sources.capped_totals(data.origin, request)
    if spec.kind == "predicate":
        return query_from_totals(spec, counts=[totals.matches], n_persons=totals.persons)
    over = totals.over(tuple(labels), with_value=spec.kind != "count")
    return query_from_totals(
        spec,
        labels=over.labels,
        counts=over.rows,
        clipped_sums=over.clipped_sums,
        raw_sums=over.raw_sums,
        n_persons=totals.persons,
        rows_outside=over.rows_outside,
        missing=over.missing,
    )


def pick_query(page: str, *, rng: np.random.Generator, secure: bool) -> QueryChoice | None:
    """Dataset and query widgets; the QueryChoice, or None after showing why it cannot run."""
    dataset_col, kind_col = st.columns(2)
    with dataset_col:
        data = pick_data(page, SHIPPED, paths=True)
    if data is None:
        return None
    kind = kind_col.radio(
        "Query", _kinds(data), format_func=QUERY_KINDS.get, key=f"{page}_kind", horizontal=True
    )
    about(data)
    dataset = data.dataset
    try:
        frame, cap = contribution_cap(page, data)
        if kind == "predicate":
            spec = QuerySpec(kind="predicate", predicate=_predicate(page, data, frame), cap=cap)
            if not str(spec.predicate[2]).strip():
                st.info("Type the value to count.")
                return None
            if data.path:
                query = _path_answer(data, spec)
            else:
                query = answer(frame, spec, person=data.person)
            return QueryChoice(
                data, query, None, f"number of rows with {spec.predicate_text}", "count"
            )
        columns = st.columns(2 if kind != "count" else 1)
        category = columns[0].selectbox(
            "Category", dataset.categorical, key=f"{page}_category_{data.source}"
        )
        value = None
        if kind != "count":
            value = columns[1].selectbox(
                "Value", list(dataset.numeric), key=f"{page}_value_{data.source}"
            )
        categories = pick_categories(
            page, data, category, frame=frame, cap=cap, rng=rng, secure=secure
        )
        if categories is None:
            return None
        lower = upper = None
        if value is not None:
            lower, upper = _bounds(page, data, value)
        spec = QuerySpec(
            kind=kind,
            category=category,
            value=value,
            lower=lower,
            upper=upper,
            cap=cap,
            max_rows_per_category=dataset.max_rows_per_category.get(category),
        )
        if data.path:
            query = _path_answer(data, spec, categories.labels)
        else:
            query = answer(
                frame,
                spec,
                categories.labels,
                person=data.person,
                count_column=dataset.count_column,
            )
    except ValueError as error:
        st.error(f"Cannot run this query: {error}")
        return None
    if query.rows_outside and categories.mode != "declared":  # declared: said where declared
        st.caption(f"{query.rows_outside:,} rows fall outside the released categories.")
    if kind == "count":
        return QueryChoice(data, query, categories, f"number of rows per {category}", "count")
    name = "sum" if kind == "sum" else "mean"
    description = f"{name} of {value} clipped to [{lower:g}, {upper:g}] per {category}"
    return QueryChoice(data, query, categories, description, f"{name} of {value}")
