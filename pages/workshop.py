"""Workshop: a room the trainer leads, and every exercise of the app in teaching order."""

import streamlit as st

from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.shell import page_header
from ui.workshop.listing import listing
from ui.workshop.room_panel import room_panel

page_header(entry("workshop").title, entry("workshop").question, _("workshop.try_this"))
room_panel()
st.markdown(_("workshop.how"))
listing()
