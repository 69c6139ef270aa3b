"""Workshop: every exercise of the app in teaching order, each linked to where it is answered."""

import streamlit as st

from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.shell import page_header
from ui.workshop.listing import listing

page_header(entry("workshop").title, entry("workshop").question, _("workshop.try_this"))
st.markdown(_("workshop.how"))
listing()
