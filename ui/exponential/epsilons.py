"""Section 2 of the exponential-mechanism page: several ε side by side, a textbook table with
one column of probabilities per ε typed."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dp_core.exponential import exponential_log_probabilities
from dp_core.validation import check_epsilon
from ui.common import formatting
from ui.common.address import linked
from ui.common.errors import translated
from ui.common.i18n import _
from ui.common.turns import fragment
from ui.exponential.declared import COMPARE
from ui.exponential.settings import Settings
from ui.exponential.tables import candidate_index, count_text, probability_text, show_table


def parse_epsilons(text: str) -> tuple[list[float], list[str]]:
    """Comma-separated epsilons (0 allowed): the good ones, and a message per bad one."""
    good, bad = [], []
    for item in (part.strip() for part in str(text).split(",")):
        if not item:
            continue
        try:
            good.append(check_epsilon(item, allow_zero=True))
        except ValueError as error:
            bad.append(_("exponential.compare.bad_item", item=item, error=translated(error)))
    return list(dict.fromkeys(good)), bad


@fragment
def several_epsilons(s: Settings) -> None:
    """Section 2: a textbook table, one column of probabilities per ε."""
    c = s.candidates
    text = linked(COMPARE, st.text_input, _("exponential.compare.label"))
    epsilons, bad = parse_epsilons(text)
    for message in bad:
        st.error(message)
    if not epsilons:
        st.warning(_("exponential.compare.none"))
        return
    table = pd.DataFrame(
        {_("exponential.column.count"): [count_text(v) for v in c.counts]},
        index=candidate_index(c),
    )
    for e in epsilons:
        log_p = exponential_log_probabilities(c.counts, e, c.sensitivity, monotonic=s.monotonic)
        table[f"ε = {formatting.number(e)}"] = [probability_text(v) for v in log_p]
    show_table(table)
    st.caption(_("exponential.compare.caption"))
