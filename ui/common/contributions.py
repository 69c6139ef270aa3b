"""How many rows one person may contribute: the cap widget shared by every page that counts.

The cap multiplies the sensitivity, so it must not come from the data: shipped data states a
public rule; for the user's own table the cap starts at the file's maximum with a warning
that a real release must fix it in advance (or be chosen with DP on the bounding page).
Rows beyond the cap are dropped (each person keeps their first rows), so the bound holds for
the release. A data path (read where it lies) has no row order every engine keeps: each
person keeps cap rows chosen at random with the page's seed (data.sources.capped), and the
cap starts at the largest number of rows per person the engine finds.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from data import sources
from dp_core.bounding import cap_contributions
from dp_core.sensitivity import most_rows_per_person
from ui.common.data_picker import DataChoice


@st.cache_data(show_spinner=False, max_entries=32)
def _capped(source: str, person: str, cap: int, _frame: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The rows named ``source`` with each person's rows cut to ``cap``; how many were dropped."""
    kept = cap_contributions(_frame, person, cap)
    return kept, len(_frame) - len(kept)


def contribution_cap(page: str, data: DataChoice) -> tuple[pd.DataFrame | None, int]:
    """The cap widget, the rows kept under it, and the cap (1 without a person column).

    For a data path the rows stay where they are (None): the pages ask data.sources for
    totals under the cap. ValueError when the engine cannot profile the table.
    """
    if data.path:
        return None, _path_cap(page, data)
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


def _path_cap(page: str, data: DataChoice) -> int:
    """The cap for a data path: it starts at the table's largest rows per person (a leak the
    caption states); the engine's contribution histogram tells how many rows it drops."""
    person = data.person
    if person is None:
        st.caption("Contributions: each row is taken as one person.")
        return 1
    profile = sources.profile(data.origin, person)
    most = profile.max_rows_per_person
    cap = int(
        st.number_input(
            "At most how many rows may one person contribute? (the cap)",
            min_value=1,
            max_value=10_000,
            value=min(most, 10_000),
            step=1,
            key=f"{page}_cap_{data.source}_{person}",
            help="Rows beyond the cap are dropped before counting; one person then changes the "
            "answers by at most the cap times one row's effect.",
        )
    )
    k = profile.histogram.index.to_numpy(dtype=np.int64)
    dropped = int(profile.histogram.to_numpy() @ np.maximum(k - cap, 0))
    st.caption(
        f"The cap started at {most:,}, the most rows anyone has in your table: a real release "
        "must fix it in advance, since the data's own maximum leaks. With a cap of "
        f"{cap}, {dropped:,} rows beyond it are dropped (each person keeps {cap} of their "
        "rows, chosen at random with the seed in the sidebar: a table read where it lies has "
        f"no row order every engine keeps), so one person (`{person}`) moves the answers by "
        f"at most {cap} rows."
    )
    return cap
