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
from ui.common import folding
from ui.common.address import linked
from ui.common.categories import Categories, pick_categories
from ui.common.contributions import Capped, contribution_cap
from ui.common.data_picker import DataChoice, about, dataset_setting, pick_data
from ui.common.errors import show_error, translated
from ui.common.folding import note
from ui.common.formatting import count, number
from ui.common.i18n import N_, _
from ui.common.labels import category_label, column_options
from ui.common.setting import Choice, Number, Text
from ui.common.shell import DEFAULT_SEED, control_row

QUERY_KINDS = {  # message ids
    "count": N_("common.query.kind.count"),
    "predicate": N_("common.query.kind.predicate"),
    "sum": N_("common.query.kind.sum"),
    "mean": N_("common.query.kind.mean"),
}
SHIPPED = [k for k, d in DATASETS.items() if not d.is_count_table] + [
    k for k, d in DATASETS.items() if d.is_count_table
]


def query_dataset(page: str) -> Choice:
    """The page's dataset: a shipped one, the user's own file or a data path."""
    return dataset_setting(page, SHIPPED, paths=True)


def kind_setting(page: str) -> Choice:
    """The query's kind (its options this run: those the data allow, a count first)."""
    return Choice(f"{page}_kind", "count", options=tuple(QUERY_KINDS))


def category_setting(page: str) -> Choice:
    """The category column the query groups by (options: the data's)."""
    return Choice(f"{page}_category")


def predicate_column(page: str) -> Choice:
    """The column a predicate tests (options: the data's)."""
    return Choice(f"{page}_pred_column")


def predicate_op(page: str) -> Choice:
    """A numeric predicate's comparison."""
    return Choice(f"{page}_pred_op", PREDICATE_OPS[0], options=tuple(PREDICATE_OPS))


def predicate_number(page: str, start: float | None = None) -> Number:
    """A numeric predicate's value, from ``start`` (the middle of the column's range)."""
    return Number(f"{page}_pred_number", start)


@dataclass(frozen=True)
class QueryChoice:
    """The data, the query's true answers, and how its categories were chosen."""

    data: DataChoice
    query: Query
    categories: Categories | None  # None for a predicate (one number, no labels)
    description: str  # e.g. "number of rows per occupation", in the reader's language
    value_name: str  # e.g. "count", "sum of money_spent", in the reader's language
    reads: tuple[str, ...] = ()  # what was read from the data without noise (dp_core.guarantee)


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
    column_col, op_col, value_col = folding.columns([2, 1, 2])
    link = data.link_key
    column = linked(
        predicate_column(page),
        column_col.selectbox,
        _("common.query.column"),
        labels=column_options(columns, shipped=not data.own),
        context=link,
    )
    if column in dataset.numeric:
        op = linked(
            predicate_op(page), op_col.selectbox, _("common.query.is"), options=list(PREDICATE_OPS)
        )
        # the middle of a shipped column's public range; an own file's range is its data's,
        # so its box starts at 0, which reads nothing from the file
        lower, upper = (0.0, 0.0) if data.own else dataset.numeric[column]
        value: object = linked(
            predicate_number(page, float((lower + upper) / 2)),
            value_col.number_input,
            _("common.query.value"),
            context=(link, column),
        )
        return column, op, value
    if folding.folded() is None:
        op_col.markdown(_("common.query.is"))
    domain = dataset.domains.get(column)
    if domain is None:  # the user's own column: any value may be typed
        value = linked(
            Text(f"{page}_pred_text"),
            value_col.text_input,
            _("common.query.value"),
            context=(link, column),
        )
    else:
        value = linked(
            Choice(f"{page}_pred_value", domain[0]),
            value_col.selectbox,
            _("common.query.value"),
            labels={category: category_label(column, category) for category in domain},
            context=(link, column),
        )
    return column, "=", value


def declared_bounds(page: str, data: DataChoice, value: str) -> tuple[float, float, bool]:
    """The clipping bounds of column ``value`` (settings ``<page>_lower`` and ``_upper``), and
    whether they were read from the data.

    Shipped data: boxes starting at the column's public range. The user's own rows: empty
    boxes, and while one is empty the page uses the file's own smallest or largest value,
    read from the data (the guarantee says so); typed bounds are fixed in advance.
    """
    natural_lower, natural_upper = (float(bound) for bound in data.dataset.numeric[value])
    row = control_row(f"{page}_bounds")
    own, context = data.own, (data.link_key, value)
    lower, upper = (
        linked(
            Number(f"{page}_{end}", None if own else natural),
            box.number_input,
            label,
            value=None,
            placeholder=_("common.query.bound_placeholder", value=number(natural)) if own else None,
            context=context,
        )
        for end, label, natural, box in (
            ("lower", _("common.query.lower"), natural_lower, row),
            ("upper", _("common.query.upper"), natural_upper, row),
        )
    )
    read = lower is None or upper is None
    if read:
        note(
            _(
                "common.query.bounds_from_file",
                lower=number(natural_lower),
                upper=number(natural_upper),
            )
        )
    lower = natural_lower if lower is None else float(lower)
    upper = natural_upper if upper is None else float(upper)
    return lower, upper, read


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
    dataset_col, kind_col = folding.columns(2)
    with dataset_col:
        data = pick_data(page, query_dataset(page))
    if data is None:
        return None
    kinds = _kinds(data)
    kind = linked(
        kind_setting(page),
        kind_col.radio,
        _("common.query.label"),
        labels={option: _(QUERY_KINDS[option]) for option in kinds},
        horizontal=True,
    )
    about(data)
    try:
        capped = contribution_cap(page, data)
        if kind == "predicate":
            return _predicate_query(page, data, capped)
        return _grouped_query(page, data, kind, capped, rng=rng, secure=secure)
    except ValueError as error:
        show_error(_("common.query.error", error=translated(error)), error)
        return None


@st.cache_data(show_spinner=False, max_entries=64)
def _answer(
    source: str,
    spec: QuerySpec,
    labels: tuple[str, ...] | None,
    person: str | None,
    count_column: str | None,
    _frame: pd.DataFrame,
) -> Query:
    """dp_core.queries.answer over the rows named ``source``, cut to ``spec.cap`` (the frame
    is a function of the two): computed once for every session at these settings, such as a
    room of attendees following their trainer."""
    return answer(_frame, spec, labels, person=person, count_column=count_column)


def _predicate_query(page: str, data: DataChoice, capped: Capped) -> QueryChoice | None:
    """How many rows (persons, under the cap) match a condition: one number, no labels."""
    spec = QuerySpec(
        kind="predicate", predicate=_predicate(page, data, capped.frame), cap=capped.cap
    )
    if not str(spec.predicate[2]).strip():
        st.info(_("common.query.type_value"))
        return None
    if data.path:
        query = _path_answer(data, spec)
    else:
        query = _answer(data.source, spec, None, data.person, None, capped.frame)
    return QueryChoice(
        data,
        query,
        None,
        _("common.query.description.predicate", predicate=spec.predicate_text),
        _("common.query.value_name.count"),
        capped.reads,
    )


def _grouped_query(
    page: str,
    data: DataChoice,
    kind: str,
    capped: Capped,
    *,
    rng: np.random.Generator,
    secure: bool,
) -> QueryChoice | None:
    """A count, sum or mean per category: the columns, the released categories, the bounds."""
    dataset, frame, cap = data.dataset, capped.frame, capped.cap
    row = control_row(f"{page}_query")
    category = linked(
        category_setting(page),
        row.selectbox,
        _("common.query.category"),
        labels=column_options(dataset.categorical, shipped=not data.own),
        context=data.link_key,
    )
    value = None
    if kind != "count":
        value = linked(
            Choice(f"{page}_value"),
            row.selectbox,
            _("common.query.value_column"),
            labels=column_options(dataset.numeric, shipped=not data.own),
            context=data.link_key,
        )
    categories = pick_categories(page, data, category, frame=frame, cap=cap, rng=rng, secure=secure)
    if categories is None:
        return None
    reads = capped.reads + categories.reads
    lower = upper = None
    if value is not None:
        lower, upper, bounds_read = declared_bounds(page, data, value)
        reads += ("bounds",) if bounds_read else ()
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
        labels = tuple(categories.labels)
        query = _answer(data.source, spec, labels, data.person, dataset.count_column, frame)
    if query.rows_outside and categories.mode != "declared":  # declared: said where declared
        note(_("common.query.outside", rows=count(query.rows_outside)))
    description, value_name = _words(spec)
    return QueryChoice(data, query, categories, description, value_name, reads)


def _words(spec: QuerySpec) -> tuple[str, str]:
    """What a count, sum or mean per category is, and what its values are, in words."""
    if spec.kind == "count":
        return (
            _("common.query.description.count", category=spec.category),
            _("common.query.value_name.count"),
        )
    values = {
        "value": spec.value,
        "category": spec.category,
        "lower": number(spec.lower),
        "upper": number(spec.upper),
    }
    if spec.kind == "sum":
        return (
            _("common.query.description.sum", **values),
            _("common.query.value_name.sum", value=spec.value),
        )
    return (
        _("common.query.description.mean", **values),
        _("common.query.value_name.mean", value=spec.value),
    )
