"""The local-frequencies page's controls: the data and the question's column (data_controls,
rerunning the whole page), and the protocol with ε or p and q (protocol_choice and
probabilities, drawn inside the page's fragment).

Every setting is in the page's address: the protocol, p and q through Streamlit's binding
(unbound, hence dropped from the address, while another protocol is chosen), ε by the shared
slider and dropped here while p and q set the protocol.
"""

from __future__ import annotations

import streamlit as st

from dp_core import local_estimation, unary_encoding
from dp_core import randomized_response as rr
from ui.common import formatting
from ui.common.address import keep, linked_index
from ui.common.i18n import _, n_
from ui.common.shell import settings_area
from ui.common.widgets import epsilon_input
from ui.local.inputs import Respondents, pick_respondents
from ui.local.lf_settings import EPSILON_KEY, GRR, MANUAL, OUE, PAGE, PROTOCOLS


def data_controls() -> Respondents | None:
    """The data and the question's column: settings that rerun the whole page (folded on a
    projector)."""
    with settings_area():
        return _respondents()


def _respondents() -> Respondents | None:
    respondents = pick_respondents(PAGE, _("local.lf.column"), st.columns(2))
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
    try:
        local_estimation.check_category_counts(respondents.counts)
    except ValueError as error:
        st.error(_("local.lf.unusable", column=column, error=_category_error(error)))
        return None
    return respondents


def _category_error(error: ValueError) -> str:
    """dp_core's reason a column cannot be used, in the reader's language when known."""
    if "at least 2 categories" in str(error):
        return _("local.lf.two_categories")
    return _("local.lf.no_one")


def protocol_choice() -> str:
    """The protocol, its key kept in the address."""
    keys = list(PROTOCOLS)
    protocol = st.radio(
        _("local.lf.protocol.label"),
        keys,
        index=linked_index("lf_protocol", keys, 0),
        format_func={key: _(msgid) for key, msgid in PROTOCOLS.items()}.__getitem__,
        key="lf_protocol",
        horizontal=True,
    )
    keep("lf_protocol", protocol, keys[0])
    return protocol


def probabilities(protocol: str, k: int) -> tuple[float, float, float] | None:
    """ε and the report probabilities (p, q) of the protocol; None after a message."""
    if protocol == MANUAL:
        st.query_params.pop(EPSILON_KEY, None)  # p and q set ε here: the address drops it
        left, right = st.columns(2)
        p = left.slider(
            _("local.lf.p.label"), 0.01, 0.99, 0.75, 0.01, key="lf_p", bind="query-params"
        )
        q = right.slider(
            _("local.lf.q.label"), 0.01, 0.99, 0.25, 0.01, key="lf_q", bind="query-params"
        )
        if p <= q:
            st.error(_("local.lf.p_above_q", p=formatting.number(p), q=formatting.number(q)))
            return None
        return unary_encoding.unary_encoding_epsilon(p, q), p, q
    epsilon = epsilon_input(EPSILON_KEY, default=1.0)
    if protocol == GRR:
        p, q = (float(v) for v in rr.grr_probabilities(epsilon, k))
    elif protocol == OUE:
        p, q = unary_encoding.optimized_unary_encoding(epsilon)
    else:
        p, q = unary_encoding.symmetric_unary_encoding(epsilon)
    return epsilon, p, q
