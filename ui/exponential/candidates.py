"""Where the exponential mechanism's candidates come from, and what one person moves.

The candidates are part of the release, so they are never read off the data:
- a shipped dataset's category column: its public domain (data.registry Dataset.domains, in
  that order), categories absent from the data being candidates with count 0;
- the user's own CSV: a declared list, or one chosen with DP partition selection, whose
  (ε, δ) is added to the guarantee (ui.common.categories);
- typed counts: the names typed are the list.
Score = count per candidate; its sensitivity Δ is the most one person moves any one count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from dp_core import domains
from ui.common.categories import Categories, pick_categories
from ui.common.contributions import contribution_cap
from ui.common.data_picker import DataChoice, about, pick_data
from ui.common.formatting import counted, number, power_of_ten
from ui.common.shell import page_rng

PAGE = "exponential"
DATASETS = ("diseases", "census", "industry_groups", "restaurant", "tips")
PREFERRED_COLUMN = {"census": "occupation"}  # the teaching material's question
SOURCES = {
    "data": "A category column of a dataset",
    "typed": "Counts I type",
}
TYPED_DEFAULT = "A=10, B=10, C=5"


@dataclass(frozen=True)
class Candidates:
    """Names and true counts of the candidates, what one person moves, and where they came from.

    ``data`` is None for typed counts; ``categories`` says how the list was chosen (public,
    declared or DP-selected, with the budget the choice spent).
    """

    labels: tuple[str, ...]
    scores: tuple[float, ...]
    sensitivity: float
    note: str  # what one person changes, in words
    origin: str  # where the list of candidates comes from, in words
    data: DataChoice | None = None
    categories: Categories | None = None

    @property
    def counts(self) -> np.ndarray:
        return np.array(self.scores, dtype=float)

    @property
    def selected(self) -> Categories | None:
        """The DP category choice, when the candidates were chosen with DP."""
        chosen = self.categories
        return chosen if chosen is not None and chosen.mode == "selected" else None


def parse_typed_counts(text: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """Parse "A=10, B=10, C=5" (or "10, 10, 5"); ValueError with a readable sentence."""
    items = [item.strip() for item in str(text).split(",") if item.strip()]
    if not items:
        raise ValueError("there are no candidates to choose from: type at least one count.")
    labels, counts = [], []
    for position, item in enumerate(items, start=1):
        name, _, value = item.rpartition("=")
        try:
            count = float(value)
        except ValueError:
            raise ValueError(f"“{item}” is not a count: write name=number, e.g. Flu=28.") from None
        if not np.isfinite(count) or count < 0:
            raise ValueError(f"“{item}”: a count must be a finite number of at least 0.")
        labels.append(name.strip() or f"candidate {position}")
        counts.append(count)
    if len(set(labels)) < len(labels):
        raise ValueError("two candidates have the same name; give each a different name.")
    return tuple(labels), tuple(counts)


def pick_candidates() -> Candidates | None:
    """The widgets that choose the candidates (they rerun the page); None after a message."""
    source = st.radio(
        "Where do the candidates come from?",
        list(SOURCES),
        format_func=SOURCES.get,
        key=f"{PAGE}_source",
        horizontal=True,
    )
    if source == "typed":
        return _typed()
    data = pick_data(PAGE, DATASETS)
    if data is None:
        return None
    about(data)
    return _from_data(data)


def _typed() -> Candidates | None:
    text = st.text_input(
        "Counts, as name=count separated by commas", value=TYPED_DEFAULT, key=f"{PAGE}_typed"
    )
    try:
        labels, scores = parse_typed_counts(text)
    except ValueError as error:
        st.error(f"Cannot run the mechanism: {error}")
        return None
    return Candidates(
        labels,
        scores,
        1.0,
        note="Typed counts: adding or removing one person moves one count by 1.",
        origin="the names you typed, a list fixed before the counts",
    )


def _from_data(data: DataChoice) -> Candidates | None:
    dataset = data.dataset
    if not dataset.categorical:
        st.error(
            "Your file has no category column to choose from: a column needs text values, or "
            "whole numbers with at most 200 distinct values."
        )
        return None
    columns = list(dataset.categorical)
    preferred = PREFERRED_COLUMN.get(data.source, columns[0])
    column = st.selectbox(
        "Category column: which of its categories is most common?",
        columns,
        index=columns.index(preferred),
        key=f"{PAGE}_column_{data.source}",
    )
    frame, cap = contribution_cap(PAGE, data)
    categories = pick_categories(
        PAGE, data, column, frame=frame, cap=cap, rng=page_rng(PAGE, "categories")
    )
    if categories is None:
        return None
    weights = frame[dataset.count_column] if dataset.is_count_table else None
    try:
        counts = domains.counts_over_domain(frame[column], categories.labels, weights)
    except ValueError as error:
        st.error(f"Cannot count the candidates: {error}")
        return None
    if counts.rows_outside and categories.mode == "selected":  # declared: said where declared
        st.caption(f"{counts.rows_outside:,} rows fall outside the chosen candidates.")
    per_category = dataset.max_rows_per_category.get(column)
    sensitivity = float(min(cap, per_category) if per_category else cap)
    absent = int(np.sum(counts.counts == 0))
    read_off = categories.mode == "declared" and set(categories.labels) == set(
        domains.category_keys(frame[column]).dropna()
    )
    return Candidates(
        counts.labels,
        tuple(float(c) for c in counts.counts),
        sensitivity,
        note=_note(data, cap, sensitivity),
        origin=_origin(categories, column, absent, read_off=read_off),
        data=data,
        categories=categories,
    )


def _note(data: DataChoice, cap: int, sensitivity: float) -> str:
    """What adding or removing one person (or row) does to the counts, in words."""
    dataset, person = data.dataset, data.person
    if dataset.is_count_table:
        return (
            "Row-level privacy, not person-level: the table counts rows, and adding or removing "
            "one row moves one count by 1. A person could be behind several rows; protecting "
            "people would need a cap on rows per person and a larger Δ."
        )
    if person is None and data.own:
        return (
            "Each row of your file is taken as one person: adding or removing one moves one "
            "count by 1, so Δ = 1. That protects rows, not people with several rows: if a "
            "person can have several, choose the column that identifies them."
        )
    if person is None:
        return "Each record counts once, so adding or removing one moves one count by 1."
    if sensitivity < cap:
        return (
            f"The public rule: {dataset.contribution_rule}. One person moves several counts, "
            f"but each by at most {number(sensitivity)}: Δ = {number(sensitivity)}."
        )
    if cap == 1:
        return "One row per person, so adding or removing a person moves one count by 1."
    return (
        f"`{person}` identifies a person, who keeps at most {cap} rows, possibly all in one "
        f"category: adding or removing one person moves one count by up to {cap}, so "
        f"Δ = {cap}."
    )


def _origin(categories: Categories, column: str, absent: int, *, read_off: bool) -> str:
    """Where the list of candidates comes from, in words (the list is part of the release).

    ``read_off``: the declared list is exactly the values in the file (as "Start from the
    values in my file" fills it), so if it was read off the file, it reveals that each occurs.
    """
    zeros = (
        f"; {counted(absent, 'of them is', 'of them are')} absent from the data, a candidate "
        "with count 0"
        if absent
        else ""
    )
    if categories.mode == "public":
        return (
            f"the public categories of `{column}`, listed on the dataset's card and fixed "
            f"without looking at the data{zeros}"
        )
    if categories.mode == "declared" and read_off:
        return (
            "the categories you declared, exactly the values that occur in your file: if the "
            "list was read off the file, it reveals that each of them occurs, so a real "
            "release must fix the candidate list in advance (a code list, a questionnaire)"
        )
    if categories.mode == "declared":
        return f"the categories you declared, a list fixed before looking at the file{zeros}"
    return (
        f"chosen from your file with DP partition selection (ε = {number(categories.epsilon)}, "
        f"δ = {power_of_ten(categories.delta)}, added to the guarantee): a category held by "
        "too few persons is left out"
    )
