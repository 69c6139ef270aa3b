"""How many rows one person may contribute: the cap widget shared by every page that counts.

The cap multiplies the sensitivity, so it must not come from the data: shipped data states a
public rule; for the user's own table the cap starts at the file's maximum with a warning
that a real release must fix it in advance. Rows beyond the cap are dropped (each person
keeps their first rows), so the bound holds for the release.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from data.registry import DATASETS, Dataset, load_dataset
from dp_core import cap_contributions, most_rows_per_person


@st.cache_data(show_spinner=False, max_entries=64)
def _capped_shipped(key: str, cap: int) -> tuple[pd.DataFrame, int]:
    """A shipped dataset with each person's rows cut to ``cap``, and how many rows that drops."""
    return _capped(DATASETS[key], load_dataset(key), cap)


def _capped(dataset: Dataset, frame: pd.DataFrame, cap: int) -> tuple[pd.DataFrame, int]:
    kept = cap_contributions(frame, dataset.person_id, cap)
    return kept, len(frame) - len(kept)


def contribution_cap(key: str, dataset: Dataset, frame: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The cap widget, the rows kept under it, and the cap (1 without a person column)."""
    if dataset.person_id is None or dataset.max_rows_per_person == 1:
        st.caption(f"Contributions: {dataset.contribution_rule or 'each row is one person'}.")
        return frame, 1
    person = dataset.person_id
    public = dataset.max_rows_per_person
    cap = int(
        st.number_input(
            "At most how many rows may one person contribute? (the cap)",
            min_value=1,
            max_value=10_000,
            value=public or most_rows_per_person(frame[person]),
            step=1,
            key=f"{key}_cap_{dataset.key}_{person}",
            help="Rows beyond the cap are dropped before counting; one person then changes the "
            "answers by at most the cap times one row's effect.",
        )
    )
    if dataset.key in DATASETS:
        frame, dropped = _capped_shipped(dataset.key, cap)
    else:
        frame, dropped = _capped(dataset, frame, cap)
    rule = (
        f"The public rule for this data: {dataset.contribution_rule}."
        if public
        else "The cap started at the most rows anyone has in your file: a real release must "
        "fix it in advance, since the data's own maximum leaks."
    )
    st.caption(
        f"{rule} With a cap of {cap}, {dropped:,} rows beyond it are dropped (each person "
        f"keeps their first rows in the file), so one person (`{person}`) moves the answers "
        f"by at most {cap} rows."
    )
    return frame, cap
