"""How many rows one person may contribute: the cap widget shared by every page that counts.

The cap multiplies the sensitivity, so it must not come from the data: shipped data states a
public rule; for the user's own table the cap starts at the file's maximum with a warning
that a real release must fix it in advance (or be chosen with DP on the bounding page).
Rows beyond the cap are dropped (each person keeps their first rows), so the bound holds for
the release.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dp_core.bounding import cap_contributions
from dp_core.sensitivity import most_rows_per_person
from ui.common.data_picker import DataChoice


@st.cache_data(show_spinner=False, max_entries=32)
def _capped(source: str, person: str, cap: int, _frame: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The rows named ``source`` with each person's rows cut to ``cap``; how many were dropped."""
    kept = cap_contributions(_frame, person, cap)
    return kept, len(_frame) - len(kept)


def contribution_cap(page: str, data: DataChoice) -> tuple[pd.DataFrame, int]:
    """The cap widget, the rows kept under it, and the cap (1 without a person column)."""
    dataset = data.dataset
    if dataset.person_id is None or dataset.max_rows_per_person == 1:
        rule = dataset.contribution_rule or "each row is taken as one person"
        st.caption(f"Contributions: {rule}.")
        return data.frame, 1
    person = dataset.person_id
    public = dataset.max_rows_per_person
    cap = int(
        st.number_input(
            "At most how many rows may one person contribute? (the cap)",
            min_value=1,
            max_value=10_000,
            value=public or most_rows_per_person(data.frame[person]),
            step=1,
            key=f"{page}_cap_{data.source}_{person}",
            help="Rows beyond the cap are dropped before counting; one person then changes the "
            "answers by at most the cap times one row's effect.",
        )
    )
    frame, dropped = _capped(data.source, person, cap, data.frame)
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
