"""Inputs of the exponential-mechanism page: where the candidates come from, typed lists."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from data.registry import DATASETS, category_counts, frame_category_counts
from dp_core import COUNT_SENSITIVITY, check_epsilon
from ui.contributions import contribution_cap
from ui.own_data import own_dataset

# Label shown -> (dataset key, categorical column); "typed" is the user's own counts.
CANDIDATE_SOURCES = {
    "Diseases (65 persons): which disease is most common?": ("diseases", "disease"),
    "Census occupations (32,561 persons)": ("census", "occupation"),
    "Industry groups (37,080 rows, 119 groups)": ("industry_groups", "industry_group"),
    "Restaurant week: which day has the most visits?": ("restaurant", "day"),
    "Type your own counts": ("typed", ""),
    "Your own CSV file…": ("own_csv", ""),
}
TYPED_DEFAULT = "A=10, B=10, C=5"


@dataclass(frozen=True)
class Candidates:
    """Names and true counts of the candidates, and a note on what one person changes."""

    labels: list[str]
    counts: np.ndarray
    note: str
    sensitivity: float = COUNT_SENSITIVITY  # the most one person moves any one count


def dataset_candidates(key: str, column: str) -> Candidates:
    """Counts per category of a shipped dataset, largest first."""
    counts = category_counts(key, column)
    dataset = DATASETS[key]
    if key == "restaurant":
        note = (
            "A visitor comes at most once a day, so adding or removing one visitor moves each "
            "day's count by at most 1: sensitivity 1."
        )
    elif dataset.is_count_table:
        note = (
            "Row-level privacy, not person-level: the table counts rows, and adding or removing "
            "one row moves one count by 1. A person could be behind several rows; protecting "
            "people would need a cap on rows per person and a larger Δ."
        )
    else:
        note = "One row per person, so adding or removing a person moves one count by 1."
    return Candidates([str(label) for label in counts.index], counts.to_numpy(float), note)


def typed_candidates(text: str) -> Candidates:
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
    note = "Typed counts: adding or removing one person moves one count by 1."
    return Candidates(labels, np.array(counts), note)


def parse_epsilons(text: str) -> tuple[list[float], list[str]]:
    """Comma-separated epsilons (0 allowed): the good ones, and a message per bad one."""
    good, bad = [], []
    for item in (part.strip() for part in str(text).split(",")):
        if not item:
            continue
        try:
            good.append(check_epsilon(item, allow_zero=True))
        except ValueError as error:
            bad.append(f"“{item}”: {error}")
    return list(dict.fromkeys(good)), bad


def own_csv_candidates(key: str) -> Candidates | None:
    """Upload widgets, a category column and a cap: the user's candidates, or None after a message.

    Score = rows per category. With a person column one person may own several rows, all in
    one category, so the count's sensitivity is the cap on rows per person; rows beyond the
    cap are dropped (each person's first rows in the file are kept).
    """
    own = own_dataset(key)
    if own is None:
        return None
    dataset, frame = own
    if not dataset.categorical:
        st.error(
            "Your file has no category column to choose from: a column needs text values, or "
            "whole numbers with at most 200 distinct values."
        )
        return None
    column = st.selectbox(
        "Category column: its categories are the candidates",
        dataset.categorical,
        key=f"{key}_column_{dataset.key}",
    )
    candidates_note = (
        "The candidates are the categories that occur in your file, so the list itself "
        "reveals that each occurs: a real release must fix the candidate list in advance."
    )
    person = dataset.person_id
    if person is None:
        counts = frame_category_counts(frame, column)
        note = (
            "Each row of your file is taken as one person: adding or removing one moves one "
            "count by 1, so Δ = 1. That protects rows, not people with several rows: if a "
            f"person can have several, choose the column that identifies them. {candidates_note}"
        )
        return Candidates([str(c) for c in counts.index], counts.to_numpy(float), note)
    kept, cap = contribution_cap(key, dataset, frame)
    counts = frame_category_counts(kept, column)
    note = (
        f"`{person}` identifies a person, who keeps at most {cap} rows, possibly all in one "
        f"category: adding or removing one person moves one count by up to {cap}, so "
        f"Δ = {cap}. {candidates_note}"
    )
    return Candidates([str(c) for c in counts.index], counts.to_numpy(float), note, float(cap))
