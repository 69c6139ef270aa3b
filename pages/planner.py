"""Plan a release: a budget for several statistics, their accuracy, real accounting, and the
OpenDP script that carries the plan out."""

import streamlit as st

from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.sections import Section
from ui.common.shell import page_header, settings_area
from ui.planner import sections

page_header(entry("planner").title, entry("planner").question, _("planner.try_this"))
with settings_area():  # folded away on a projector
    controls = sections.data_controls()
    if controls is None:
        st.stop()
    rule = sections.budget_rule(controls)
sections.explore(
    controls,
    *rule,
    [
        Section("plan", _("planner.section.plan"), sections.the_plan),
        Section("release", _("planner.section.release"), sections.a_simulated_release),
        Section("cost", _("planner.section.cost"), sections.what_it_costs),
        Section("wild", _("planner.section.wild"), sections.in_the_wild),
        Section("board", _("planner.section.board"), sections.for_the_board),
    ],
)
sections.closing()
