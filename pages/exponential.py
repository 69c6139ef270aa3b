"""The exponential mechanism: the live probability table, several ε side by side, how often
the answer is right (three mechanisms), the count ÷ largest-count pitfall, and a score that is
not a count (average hours per occupation)."""

import streamlit as st

from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.sections import Section
from ui.common.shell import page_header
from ui.exponential import hours, sections

page = entry("exponential")
page_header(page.title, page.question, _("exponential.try_this"))
candidates = sections.candidate_controls()
if candidates is None:
    st.stop()
sections.explore(
    candidates,
    [
        Section("table", _("exponential.section.table"), sections.probability_table),
        Section("epsilons", _("exponential.section.epsilons"), sections.several_epsilons),
        Section("right", _("exponential.section.right"), sections.how_often_right),
        Section("pitfall", _("exponential.section.pitfall"), sections.sensitivity_pitfall),
        Section("hours", _("exponential.section.hours"), hours.average_hours),
    ],
)
sections.closing()
