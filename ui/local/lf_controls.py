"""The local-frequencies page's controls: the data and the question's column (data_controls,
rerunning the whole page), and the protocol with ε or p and q (protocol_choice and
probabilities, drawn inside the page's fragment). ε's slider is returned with its stops: the
charts that follow its thumb are drawn at each.

Every setting is declared in lf_settings and kept in the page's address by
ui.common.address: p and q only while they set the protocol ("choose p and q"), ε only while
it does.
"""

from __future__ import annotations

import streamlit as st

from dp_core import unary_encoding
from ui.common import formatting
from ui.common.address import linked, publish
from ui.common.i18n import _, n_
from ui.common.live import Stops
from ui.common.presets import preset_buttons
from ui.common.shell import settings_area
from ui.common.widgets import epsilon_slider
from ui.local.inputs import Respondents, pick_respondents
from ui.local.lf_presets import PRESETS
from ui.local.lf_settings import (
    COLUMN,
    EPSILON,
    EPSILON_FROM_PQ,
    MANUAL,
    PAGE,
    PROTOCOL,
    PROTOCOLS,
    P,
    Q,
    report_probabilities,
)


def data_controls() -> Respondents | None:
    """The examples, the data and the question's column: settings that rerun the whole page
    (folded on a projector). An example sets the protocol and p and q too, drawn in the page's
    fragment below."""
    with settings_area():
        preset_buttons(PAGE, PRESETS)
        return _respondents()


def _respondents() -> Respondents | None:
    respondents = pick_respondents(PAGE, COLUMN, _("local.lf.column"), st.columns(2))
    if respondents is None:
        return None
    column = respondents.column
    if respondents.missing:
        st.caption(
            n_(
                "local.lf.missing.zeros.one",
                "local.lf.missing.zeros.other",
                respondents.missing,
                count=formatting.count(respondents.missing),
                column=column,
            )
        )
    if len(respondents.labels) < 2:  # declared or public: nothing to estimate from one
        st.error(_("local.lf.unusable", column=column, error=_("local.lf.two_categories")))
        return None
    return respondents


def protocol_choice() -> str:
    """The protocol, its key kept in the address."""
    return linked(
        PROTOCOL,
        st.radio,
        _("local.lf.protocol.label"),
        labels={key: _(msgid) for key, msgid in PROTOCOLS.items()},
        horizontal=True,
    )


def probabilities(protocol: str, k: int) -> tuple[float, float, float, tuple[Stops, ...]] | None:
    """ε, the report probabilities (p, q) of the protocol and the slider that sets them (ε's,
    none while p and q are chosen); None after a message."""
    if protocol == MANUAL:
        publish(EPSILON_FROM_PQ, None)  # p and q set ε here: it leaves the address
        left, right = st.columns(2)
        p = linked(P, left.slider, _("local.lf.p.label"), min_value=0.01, max_value=0.99, step=0.01)
        q = linked(
            Q, right.slider, _("local.lf.q.label"), min_value=0.01, max_value=0.99, step=0.01
        )
        if p <= q:
            st.error(_("local.lf.p_above_q", p=formatting.number(p), q=formatting.number(q)))
            return None
        return unary_encoding.unary_encoding_epsilon(p, q), p, q, ()
    for chosen in (P, Q):  # ε sets them here: they leave the address
        publish(chosen, chosen.default)
    stops = epsilon_slider(EPSILON)
    return stops.value, *report_probabilities(protocol, stops.value, k), (stops,)
