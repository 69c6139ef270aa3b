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
from ui.common.formatting import count
from ui.common.i18n import _
from ui.common.labels import contribution_rule


@st.cache_data(show_spinner=False, max_entries=32)
def _capped(source: str, person: str, cap: int, _frame: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The rows named ``source`` with each person's rows cut to ``cap``; how many were dropped."""
    kept = cap_contributions(_frame, person, cap)
    return kept, len(_frame) - len(kept)


def _cap_input(page: str, data: DataChoice, person: str, start: int) -> int:
    """The cap's number box, kept in the address (``?<page>_cap_<data>_<person>=3``)."""
    return int(
        st.number_input(
            _("common.cap.label"),
            min_value=1,
            max_value=10_000,
            value=start,
            step=1,
            key=f"{page}_cap_{data.link_key}_{person}",
            help=_("common.cap.help"),
            bind="query-params",
        )
    )


def contribution_cap(page: str, data: DataChoice) -> tuple[pd.DataFrame | None, int]:
    """The cap widget, the rows kept under it, and the cap (1 without a person column).

    For a data path the rows stay where they are (None): the pages ask data.sources for
    totals under the cap. ValueError when the engine cannot profile the table.
    """
    if data.path:
        return None, _path_cap(page, data)
    dataset = data.dataset
    if dataset.person_id is None or dataset.max_rows_per_person == 1:
        rule = contribution_rule(dataset) or _("common.cap.each_row")
        st.caption(_("common.cap.rule", rule=rule))
        return data.frame, 1
    person = dataset.person_id
    public = dataset.max_rows_per_person
    cap = _cap_input(page, data, person, public or most_rows_per_person(data.frame[person]))
    frame, dropped = _capped(data.source, person, cap, data.frame)
    values = {"cap": count(cap), "dropped": count(dropped), "person": person}
    if public:
        st.caption(_("common.cap.public", rule=contribution_rule(dataset), **values))
    else:
        st.caption(_("common.cap.from_file", **values))
    return frame, cap


def _path_cap(page: str, data: DataChoice) -> int:
    """The cap for a data path: it starts at the table's largest rows per person (a leak the
    caption states); the engine's contribution histogram tells how many rows it drops."""
    person = data.person
    if person is None:
        st.caption(_("common.cap.rule", rule=_("common.cap.each_row")))
        return 1
    profile = sources.profile(data.origin, person)
    most = profile.max_rows_per_person
    cap = _cap_input(page, data, person, min(most, 10_000))
    k = profile.histogram.index.to_numpy(dtype=np.int64)
    dropped = int(profile.histogram.to_numpy() @ np.maximum(k - cap, 0))
    st.caption(
        _(
            "common.cap.from_path",
            most=count(most),
            cap=count(cap),
            dropped=count(dropped),
            person=person,
        )
    )
    return cap
