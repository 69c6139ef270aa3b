"""How many rows one person may contribute: the cap widget shared by every page that counts.

The cap multiplies the sensitivity, so it must not come from the data: shipped data states a
public rule; for the user's own table the box starts empty and the page uses the file's
own largest rows per person, which is read from the data: the page's guarantee then says
the release is not differentially private (``Capped.read_from_data``) until a cap is typed
(fixed in advance, even if it is the same number) or chosen with DP on the bounding page.
Rows beyond the cap are dropped (each person keeps their first rows), so the bound holds for
the release. A data path (read where it lies) has no row order every engine keeps: each
person keeps cap rows chosen at random with the page's seed (data.sources.capped), and the
cap starts at the largest number of rows per person the engine finds.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
import streamlit as st

from data import sources
from dp_core.bounding import cap_contributions
from dp_core.sensitivity import most_rows_per_person
from ui.common.address import linked
from ui.common.data_picker import DataChoice
from ui.common.folding import note
from ui.common.formatting import count
from ui.common.i18n import _
from ui.common.labels import contribution_rule
from ui.common.setting import Number


class Capped(NamedTuple):
    """The rows kept under the cap (None for a data path), the cap, and whether the cap is
    the data's own largest rows per person (read from the data, not fixed in advance)."""

    frame: pd.DataFrame | None
    cap: int
    read_from_data: bool = False

    @property
    def reads(self) -> tuple[str, ...]:
        """("cap",) when the cap was read from the data, for dp_core.guarantee.Guarantee."""
        return ("cap",) if self.read_from_data else ()


@st.cache_data(show_spinner=False, max_entries=32)
def _capped(source: str, person: str, cap: int, _frame: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The rows named ``source`` with each person's rows cut to ``cap``; how many were dropped."""
    kept = cap_contributions(_frame, person, cap)
    return kept, len(_frame) - len(kept)


def cap_setting(page: str, start: int | None = None) -> Number:
    """The cap on rows per person (``?<page>_cap=3``), from ``start`` (a public rule's; None:
    an empty box)."""
    return Number(f"{page}_cap", start, minimum=1, maximum=10_000, integer=True)


def _cap_input(
    page: str, data: DataChoice, person: str, start: int, *, public: bool
) -> tuple[int, bool]:
    """The cap's number box, kept in the address (``?<page>_cap=3``), afresh for each
    dataset and person column.

    With a public rule the box starts at it. For the user's own rows it starts empty: the
    page then uses ``start``, the data's own largest rows per person, read from the data
    (``Capped.read_from_data``); any number typed is the user's cap, fixed in advance.
    Returns the cap and whether it was read from the data.
    """
    typed = linked(
        cap_setting(page, start if public else None),
        st.number_input,
        _("common.cap.label"),
        min_value=1,
        max_value=10_000,
        value=None,
        step=1,
        placeholder=None if public else _("common.cap.placeholder", most=count(start)),
        context=(data.link_key, person),
        help=_("common.cap.help"),
    )
    return (start, True) if typed is None else (int(typed), False)


def contribution_cap(page: str, data: DataChoice) -> Capped:
    """The cap widget, the rows kept under it, the cap (1 without a person column), and
    whether it is the data's own largest rows per person.

    For a data path the rows stay where they are (None): the pages ask data.sources for
    totals under the cap. ValueError when the engine cannot profile the table.
    """
    if data.path:
        return _path_cap(page, data)
    dataset = data.dataset
    if dataset.person_id is None or dataset.max_rows_per_person == 1:
        rule = contribution_rule(dataset) or _("common.cap.each_row")
        note(_("common.cap.rule", rule=rule))
        return Capped(data.frame, 1)
    person = dataset.person_id
    public = dataset.max_rows_per_person
    start = public or most_rows_per_person(data.frame[person])
    cap, read = _cap_input(page, data, person, start, public=bool(public))
    frame, dropped = _capped(data.source, person, cap, data.frame)
    values = {"cap": count(cap), "dropped": count(dropped), "person": person}
    if public:
        note(_("common.cap.public", rule=contribution_rule(dataset), **values))
    elif read:
        note(_("common.cap.from_file", **values))
    else:
        note(_("common.cap.declared", **values))
    return Capped(frame, cap, read)


def _path_cap(page: str, data: DataChoice) -> Capped:
    """The cap for a data path: the table's largest rows per person while the box is empty
    (read from the data), else the cap typed; the engine's contribution histogram tells how
    many rows it drops."""
    person = data.person
    if person is None:
        note(_("common.cap.rule", rule=_("common.cap.each_row")))
        return Capped(None, 1)
    profile = sources.profile(data.origin, person)
    most = profile.max_rows_per_person
    cap, read = _cap_input(page, data, person, min(most, 10_000), public=False)
    k = profile.histogram.index.to_numpy(dtype=np.int64)
    dropped = int(profile.histogram.to_numpy() @ np.maximum(k - cap, 0))
    values = {"cap": count(cap), "dropped": count(dropped), "person": person}
    if read:
        note(_("common.cap.from_path", **values))
    else:
        note(_("common.cap.path_declared", **values))
    return Capped(None, cap, read)
