"""Local frequency estimation: unary encoding and k-ary randomized response over a column."""

import streamlit as st

from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.shell import page_header
from ui.local import frequencies as lf

page = entry("local_frequencies")
page_header(page.title, page.question, _("local.lf.try_this"))
respondents = lf.data_controls()
if respondents is None:
    st.stop()
lf.explore(respondents, lf.sections())
lf.closing()
