"""The exponential mechanism: the live probability table, several ε side by side, how often
the answer is right (three mechanisms), the count ÷ largest-count pitfall, and a score that is
not a count (average hours per occupation)."""

import streamlit as st

from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.shell import page_header
from ui.exponential import closing, controls, sections

page = entry("exponential")
page_header(page.title, page.question, _("exponential.try_this"))
candidates = controls.candidate_controls()
if candidates is None:
    st.stop()
controls.explore(candidates, sections.story_sections())
closing.closing()
