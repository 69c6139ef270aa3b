"""Contribution bounding: caps per person, clipping, pre-aggregation, and what the week costs."""

import streamlit as st

from ui.bounding import closing, sections
from ui.bounding.controls import explore
from ui.bounding.data_controls import data_controls
from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.shell import page_header, settings_area

page_header(entry("bounding").title, entry("bounding").question, _("bounding.try_this"))
with settings_area():  # folded away on a projector
    controls = data_controls()
if controls is None:
    st.stop()
data, choices = controls
explore(data, choices, sections.story_sections(data.words))
closing.closing(data.words)
