"""Section 2 of the planner page, “A simulated release”: one statistic's simulated release
beside the truth, and every released value."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from dp_core import planner
from ui.common import charts, live
from ui.common.address import linked
from ui.common.i18n import _
from ui.common.labels import category_labels
from ui.common.turns import fragment
from ui.planner import summary
from ui.planner.declared import SHOWN
from ui.planner.settings import PAGE, Settings


@fragment(key=f"{PAGE}_release_section")
def a_simulated_release(s: Settings) -> None:
    """Section 2: a simulated release of one statistic beside the truth (following the ε and δ
    thumbs: the same standard draws times the noise at each stop), and every value."""
    names = [row.name for row in s.plan.rows]
    histograms = [i for i, row in enumerate(s.plan.rows) if row.statistic.spec.kind == "histogram"]
    first = names[histograms[0]] if histograms else names[0]
    chosen = linked(
        replace(SHOWN, default=first),
        st.selectbox,
        _("planner.release.show"),
        options=names,
        context=s.data.link_key,
        help=_("planner.release.show.help"),
    )
    index = names.index(chosen) if chosen in names else 0
    stat = s.plan.rows[index].statistic
    draws = summary.standard_draws(s)
    labels = (
        category_labels(stat.spec.column or "", stat.labels)
        if stat.spec.kind == "histogram"
        else list(stat.labels)
    )
    truth, simulated = _("planner.release.truth"), _("planner.release.simulated")

    def chart(at: Settings) -> charts.Spec:
        """The row's release at these settings: its standard draws times its noise."""
        row = at.plan.rows[index]
        return charts.noisy_vs_true(
            labels,
            {
                truth: list(stat.true_values),
                simulated: planner.simulate_release(row, draws[row.name]),
            },
            noisy=simulated,
            half_width=row.half_width,
            value_title=stat.spec.name,
        )

    live.follow_chart(s, chart, key=f"{PAGE}_release", depends=index)
    st.caption(_("planner.release.note"))
    box = st.expander(_("planner.release.values"), key=f"{PAGE}_values", on_change="rerun")
    if box.open:
        with box:
            released = summary.releases(s, draws)
            st.dataframe(summary.values_table(s, released), hide_index=True, width="stretch")
