"""Inputs shared by the local-DP pages: a person-level dataset and one of its category columns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import pandas as pd
import streamlit as st

from data.registry import DATASETS, category_counts, frame_category_counts, load_dataset
from dp_core import cap_contributions
from ui.own_data import own_dataset

PERSON_DATASETS = ("census", "tips", "diseases")  # one row per person (tips: assumed)
OWN_CSV = "own_csv"
TIPS_ASSUMPTION = (
    "The tips data are bills: this page treats each bill as one person answering. That is an "
    "assumption, not a fact: a bill is a party, and customers come back."
)


class Respondents(NamedTuple):
    """One answer per person: the rows, the question's column and its counts per category."""

    key: str  # dataset key, to keep widget keys apart per dataset
    column: str
    counts: pd.Series  # persons per category, missing values left out, largest first
    frame: pd.DataFrame  # one row per respondent


def pick_category_column(
    prefix: str, column_label: str, columns_area: Sequence[Any]
) -> Respondents:
    """Dataset and category column (occupation by default), or the user's own CSV file.

    ``columns_area`` is a list of at least two Streamlit containers: dataset, then column.
    Stops the page (after the upload widget's message) while an uploaded file cannot be used.
    """
    dataset_key = columns_area[0].selectbox(
        "Data",
        [*PERSON_DATASETS, OWN_CSV],
        key=f"{prefix}_dataset",
        format_func=lambda k: "Your own CSV file…" if k == OWN_CSV else DATASETS[k].title,
    )
    if dataset_key == OWN_CSV:
        return _own_respondents(prefix, column_label, columns_area)
    if dataset_key == "tips":
        columns_area[0].caption(TIPS_ASSUMPTION)
    columns = DATASETS[dataset_key].categorical
    column = columns_area[1].selectbox(
        column_label,
        columns,
        key=f"{prefix}_column_{dataset_key}",
        index=columns.index("occupation") if "occupation" in columns else 0,
    )
    counts = category_counts(dataset_key, column)
    return Respondents(dataset_key, column, counts, load_dataset(dataset_key))


def _own_respondents(prefix: str, column_label: str, columns_area: Sequence[Any]) -> Respondents:
    """The uploaded table, one row per person (each person's first row), and a column of it."""
    with st.container(border=True):
        own = own_dataset(prefix)
        if own is None:
            st.stop()
        dataset, frame = own
        if not dataset.categorical:
            st.error(
                "Your file has no category column to ask about: a column needs text values, "
                "or whole numbers with at most 200 distinct values."
            )
            st.stop()
        person = dataset.person_id
        if person is None:
            st.caption(
                f"Each of the {len(frame):,} rows is taken as one person answering once. If "
                "a person can have several rows, choose the column that identifies them."
            )
        else:
            kept = cap_contributions(frame, person, 1)
            st.caption(
                f"`{person}` identifies a person: each of the {len(kept):,} persons answers "
                f"once, with their first row in the file ({len(frame) - len(kept):,} later "
                "rows are left out). Randomized response protects one answer per person: "
                "a person answering several times could lose up to the sum of their ε's."
            )
            frame = kept
    column = columns_area[1].selectbox(
        column_label, dataset.categorical, key=f"{prefix}_column_{dataset.key}"
    )
    return Respondents(dataset.key, column, frame_category_counts(frame, column), frame)
