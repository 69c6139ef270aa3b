"""The bounding page's choices of how to bound and release (Choices), asked below the data:
the noise, the plan (group by group or all at once), which records a cap keeps, pre-aggregation,
and the two switches (DP cap and bounds, secure release: its toggle is ui.common.release's)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import streamlit as st

from ui.bounding.data import PAGE, BoundingData
from ui.bounding.words import Words, capitalised
from ui.common.address import linked_choice
from ui.common.i18n import N_, _

NOISES = {
    "laplace": N_("bounding.noise.laplace"),
    "gaussian": N_("bounding.noise.gaussian"),
}


@dataclass(frozen=True)
class Choices:
    """The page-level choices of how to bound and release."""

    mechanism: Literal["laplace", "gaussian"]
    joint: bool
    selection: Literal["random", "first"]
    pre_aggregate: bool
    private: bool  # choose the cap and bounds with DP quantiles
    secure: bool  # release through OpenDP


def _first_order(data: BoundingData) -> str:
    """The order "first" keeps the earliest records in: days, the table's, or the group's."""
    if data.data.path:
        return _("bounding.controls.order_column", column=data.order)  # no row order of its own
    return _("bounding.controls.order_day") if data.order else _("bounding.controls.order_table")


def page_choices(data: BoundingData, words: Words, secure: bool) -> Choices:
    """The noise, the plan, the records a cap keeps, and the two toggles below them."""
    nouns = words.nouns()
    noises = {key: _(msgid) for key, msgid in NOISES.items()}  # shown in this run's language
    mechanism = linked_choice(
        st.radio,
        _("bounding.controls.noise"),
        noises,
        key=f"{PAGE}_mechanism",
        default=next(iter(noises)),
        horizontal=True,
    )
    plans = {
        "day by day": capitalised(_("bounding.controls.plan.sequential", **nouns)),
        "whole week at once": _("bounding.controls.plan.joint", **nouns),
    }
    cols = st.columns(2)
    plan = linked_choice(
        cols[0].radio, _("bounding.controls.plan"), plans, key=f"{PAGE}_plan", default="day by day"
    )
    selections = {
        "random": _("bounding.controls.selection.random"),
        "first": _("bounding.controls.selection.first", order=_first_order(data)),
    }
    selection = linked_choice(
        cols[1].radio,
        _("bounding.controls.selection"),
        selections,
        key=f"{PAGE}_selection",
        default="random",
    )
    pre_aggregate, private = _toggles(data, nouns)
    return Choices(
        mechanism, plan == "whole week at once", selection, pre_aggregate, private, secure
    )


def _toggles(data: BoundingData, nouns: dict[str, str]) -> tuple[bool, bool]:
    """Pre-aggregation (only with a value to sum) and the DP choice of the cap and bounds."""
    toggles = st.columns(2)
    pre_aggregate = False
    if data.value is not None:
        pre_aggregate = toggles[0].toggle(
            _("bounding.controls.pre_aggregate", **nouns),
            key=f"{PAGE}_pre_aggregate",
            help=_("bounding.controls.pre_aggregate.help", **nouns),
            bind="query-params",
        )
    private = toggles[1].toggle(
        _("bounding.controls.private.both")
        if data.person is not None
        else _("bounding.controls.private.bounds"),
        key=f"{PAGE}_private",
        help=_("bounding.controls.private.help"),
        bind="query-params",
    )
    return pre_aggregate, private
