"""Section 2 of the bounding page: the histogram of groups per person, and what each cap drops."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dp_core import bounding
from ui.bounding import charts as bounding_charts
from ui.bounding.data import PAGE
from ui.bounding.settings import Settings
from ui.bounding.words import capitalised
from ui.common import charts, formatting
from ui.common.i18n import _


def contributions(s: Settings) -> None:
    """Section 2: the histogram of groups per person, and what each cap drops."""
    w = s.words
    nouns = w.nouns()
    if s.data.person is None:
        st.info(_("bounding.contributions.none", **nouns))
        return
    st.markdown(_("bounding.contributions.question", **nouns))
    histogram = s.data.histogram
    left, right = st.columns(2)
    with left:
        charts.show(
            bounding_charts.contribution_histogram(
                histogram,
                s.bounding.max_groups,
                x_title=_("bounding.contributions.x", **nouns),
                y_title=capitalised(w.persons),
                cap_label=_(
                    "bounding.contributions.cap", cap=formatting.count(s.bounding.max_groups)
                ),
            ),
            key=f"{PAGE}_histogram",
        )
    caps = bounding.cap_summary(histogram)
    right.dataframe(
        pd.DataFrame(
            {
                _("bounding.contributions.cap_column", **nouns): caps["cap"],
                _("bounding.contributions.dropped", **nouns): caps["records_dropped"],
                _("bounding.contributions.share", **nouns): (
                    100 * caps["share_records_dropped"]
                ).round(2),
                _("bounding.contributions.losing", **nouns): caps["persons_losing_records"],
            }
        ),
        hide_index=True,
    )
    right.caption(_("bounding.contributions.caption", **nouns))
