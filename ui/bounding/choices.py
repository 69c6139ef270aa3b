"""The bounding page's choices of how to bound and release (Choices), asked below the data:
the noise, the plan (group by group or all at once), which records a cap keeps, pre-aggregation,
and the two switches (DP cap and bounds, secure release: its toggle is ui.common.release's)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import streamlit as st

from ui.bounding.data import PAGE, BoundingData
from ui.bounding.declared import MECHANISM, NOISES, PLAN, PRE_AGGREGATE, PRIVATE, SELECTION
from ui.bounding.words import Words, capitalised
from ui.common.address import linked
from ui.common.i18n import _
from ui.common.shell import control_row


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
    mechanism = linked(
        MECHANISM,
        st.radio,
        _("bounding.controls.noise"),
        labels={key: _(msgid) for key, msgid in NOISES.items()},  # in this run's language
        horizontal=True,
    )
    plans = {
        "day by day": capitalised(_("bounding.controls.plan.sequential", **nouns)),
        "whole week at once": _("bounding.controls.plan.joint", **nouns),
    }
    row = control_row(f"{PAGE}_plan")
    plan = linked(PLAN, row.radio, _("bounding.controls.plan"), labels=plans)
    selections = {
        "random": _("bounding.controls.selection.random"),
        "first": _("bounding.controls.selection.first", order=_first_order(data)),
    }
    selection = linked(SELECTION, row.radio, _("bounding.controls.selection"), labels=selections)
    pre_aggregate, private = _toggles(data, nouns)
    return Choices(
        mechanism, plan == "whole week at once", selection, pre_aggregate, private, secure
    )


def _toggles(data: BoundingData, nouns: dict[str, str]) -> tuple[bool, bool]:
    """Pre-aggregation (only with a value to sum) and the DP choice of the cap and bounds."""
    toggles = control_row(f"{PAGE}_toggles")
    pre_aggregate = False
    if data.value is not None:
        pre_aggregate = linked(
            PRE_AGGREGATE,
            toggles.toggle,
            _("bounding.controls.pre_aggregate", **nouns),
            help=_("bounding.controls.pre_aggregate.help", **nouns),
        )
    private = linked(
        PRIVATE,
        toggles.toggle,
        _("bounding.controls.private.both")
        if data.person is not None
        else _("bounding.controls.private.bounds"),
        help=_("bounding.controls.private.help"),
    )
    return pre_aggregate, private
