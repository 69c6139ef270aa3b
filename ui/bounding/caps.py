"""The bounding page's caps and bounds, asked in the page's fragment (an ε step reruns them):
the caps l0 and linf and the clipping bounds, from sliders or chosen with DP quantiles
(ui.bounding.private), and what of them was read from the data without noise."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import streamlit as st

from dp_core.bounding import Bounding
from ui.bounding.choices import Choices
from ui.bounding.data import BoundingData
from ui.bounding.declared import BOUNDS, MAX_GROUPS, MAX_PER_GROUP
from ui.bounding.private import PrivateChoice, private_choice
from ui.common import folding, formatting
from ui.common.address import linked
from ui.common.errors import show_error, translated
from ui.common.i18n import _
from ui.common.shell import presenter_mode


def _step(low: float, high: float) -> float:
    """1 for ranges of 20 and more, else a power of ten giving about 20 to 200 steps."""
    return min(1.0, 10.0 ** np.floor(np.log10((high - low) / 20)))


def _cap_sliders(data: BoundingData, private: bool):
    """l0 (None when it is chosen with DP) and linf, from sliders; 1 and 1 without persons;
    and whether l0 is an own file's largest groups per person (its start: read from the data)."""
    words, n = data.words, len(data.labels)
    nouns = words.nouns()
    if data.person is None:
        return 1, 1, False
    link = data.data.link_key
    controls = link if not data.data.own else (link, data.group, n)  # what the caps are for
    cols = folding.columns(2)
    max_groups = None
    most = data.max_groups_per_person
    if private:
        cols[0].caption(_("bounding.caps.l0_private", n=formatting.count(n), **nouns))
    else:
        max_groups = linked(
            replace(MAX_GROUPS, default=min(most, n) if data.data.own else min(4, n), maximum=n),
            cols[0].slider,
            _("bounding.caps.l0", **nouns),
            min_value=1,
            max_value=n,
            context=controls,
            help=_("bounding.caps.l0.help", n=formatting.count(n), **nouns),
        )
        if data.data.own:
            cols[0].caption(_("bounding.caps.l0_own", most=formatting.count(most), **nouns))
    most_records = max(data.max_records_per_unit, 5)
    max_per_group = linked(
        replace(MAX_PER_GROUP, maximum=most_records),
        cols[1].slider,
        _("bounding.caps.linf", **nouns),
        min_value=1,
        max_value=most_records,
        context=controls,
    )
    if data.max_records_per_unit == 1 and not presenter_mode():  # said aloud on a projector
        cols[1].caption(_("bounding.caps.linf_one", **nouns))
    # l0 = n (every released group) is public; l0 = the file's own largest below n is not
    read = data.data.own and max_groups is not None and max_groups == most < n
    return max_groups, max_per_group, read


def _bounds_slider(data: BoundingData) -> tuple[float, float, bool]:
    """The clipping bounds, and whether they are an own file's smallest and largest values
    (the slider's start: read from the data until moved)."""
    low, high = data.natural
    high = max(high, low + 1)
    start, end = data.bound_range
    lower, upper = linked(
        replace(BOUNDS, default=(float(low), float(high)), minimum=start, maximum=end),
        st.slider,
        _("bounding.caps.bounds", column=data.value),
        min_value=start,
        max_value=end,
        step=_step(low, high),
        context=(data.data.link_key, data.value),
    )
    if data.data.own:
        st.caption(
            _(
                "bounding.caps.bounds_own",
                low=formatting.number(low),
                high=formatting.number(high),
            )
        )
    read = data.data.own and (lower, upper) == (float(low), float(high))
    return lower, upper, read


def bounds_controls(
    data: BoundingData, choices: Choices
) -> tuple[Bounding | None, PrivateChoice | None, tuple[str, ...]]:
    """The caps and clipping bounds in use (None after a message), the DP choice if any, and
    what of them was read from the data without noise (dp_core.guarantee)."""
    max_groups, max_per_group, cap_read = _cap_sliders(data, choices.private)
    reads = ("cap",) if cap_read else ()
    private = None
    lower = upper = None
    if choices.private and data.person is None and data.value is None:
        st.caption(_("bounding.private.nothing"))
    elif choices.private:
        private = private_choice(data, choices, max_per_group)
        if private is None:
            return None, None, reads
        if private.cap is not None:
            max_groups = private.cap.cap
        if private.bounds is not None:
            lower, upper = private.bounds.lower, private.bounds.upper
            # an own file's DP bounds are searched on a grid over its own range (read)
            reads += ("bounds",) if data.data.own else ()
        elif data.value is not None:  # a data path too large for DP bounds
            lower, upper, bounds_read = _bounds_slider(data)
            reads += ("bounds",) if bounds_read else ()
    elif data.value is not None:
        lower, upper, bounds_read = _bounds_slider(data)
        reads += ("bounds",) if bounds_read else ()
    if data.value_error:
        sentence = translated(data.value_error)
        show_error(
            _("bounding.caps.cannot_sum", column=data.summed, error=sentence), data.value_error
        )
    try:
        return (
            Bounding(
                max_groups, max_per_group, lower, upper, choices.pre_aggregate, choices.selection
            ),
            private,
            reads,
        )
    except ValueError as error:
        st.error(_("bounding.caps.cannot_clip", error=translated(error)))
        return Bounding(max_groups, max_per_group, selection=choices.selection), private, reads
