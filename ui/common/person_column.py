"""Who a person is in the user's own rows (an upload or a data path): the column proposed
from the data (data.own_csv's hints: a repeating id, or a name such as patient_id), and "each
row is a different person" as an explicit choice whose consequence is stated."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from data.own_csv import PersonColumnHint
from ui.common.address import linked
from ui.common.folding import note
from ui.common.formatting import count
from ui.common.i18n import _
from ui.common.setting import Choice

EACH_ROW = "(each row is a different person)"  # the option's value; shown translated


def _person_label(option: str) -> str:
    return _("common.data.person.each_row") if option == EACH_ROW else option


def person_column(
    page: str,
    slot: str,
    columns: Sequence[str],
    hints: list[PersonColumnHint],
    *,
    sampled: int | None = None,
) -> str | None:
    """Which column identifies a person: proposed from the data, stated either way.

    ``slot``: "own" or "path" (the widget's key, so the address's parameter, names it);
    ``sampled``: the hints come from the first rows of a larger table (how many).
    """
    options = [EACH_ROW, *columns]
    proposed = hints[0].column if hints else None
    person = linked(
        Choice(f"{page}_person_{slot}", proposed or EACH_ROW),
        st.selectbox,
        _("common.data.person.label"),
        labels={option: _person_label(option) for option in options},
        context=tuple(columns),
        help=_("common.data.person.help"),
    )
    if person != EACH_ROW:
        hint = next((h for h in hints if h.column == person), None)
        if person == proposed and hint is not None:
            note(_proposed(hint, sampled))
        return person
    repeating = [h for h in hints if h.max_rows > 1]
    if repeating:
        st.warning(_repeats(repeating[0], sampled), icon=":material/warning:")
    else:
        note(_("common.data.person.each_row_caption"))
    return None


def _proposed(hint: PersonColumnHint, sampled: int | None) -> str:
    """Why a person column was proposed (``sampled``: from the first rows of a table)."""
    if hint.named_like_id:
        why = _("common.data.person.why_named")
    else:
        why = _("common.data.person.why_repeats")
    values = {
        "why": why,
        "rows": count(hint.max_rows),
        "person": hint.column,
        "distinct": count(hint.distinct),
    }
    if hint.max_rows <= 1:  # "up to 1 rows share one" would be wrong twice
        if sampled:
            return _("common.data.person.proposed_unique_sampled", sample=count(sampled), **values)
        return _("common.data.person.proposed_unique", **values)
    if sampled:
        return _("common.data.person.proposed_sampled", sample=count(sampled), **values)
    return _("common.data.person.proposed", **values)


def _repeats(hint: PersonColumnHint, sampled: int | None) -> str:
    """The warning when each row is taken as a person while a column repeats."""
    values = {"column": hint.column, "rows": count(hint.max_rows)}
    if sampled:
        return _("common.data.person.repeats_sampled", sample=count(sampled), **values)
    return _("common.data.person.repeats", **values)
