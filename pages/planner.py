"""Plan a release: a budget for several statistics, their accuracy, real accounting, and the
OpenDP script that carries the plan out."""

import streamlit as st

from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.shell import page_header, settings_area
from ui.planner import closing, controls, sections

page_header(entry("planner").title, entry("planner").question, _("planner.try_this"))
with settings_area():  # folded away on a projector
    chosen = controls.data_controls()
    if chosen is None:
        st.stop()
    rule = controls.budget_rule(chosen)
sections.explore(chosen, *rule, sections.story_sections())
closing.closing()
