"""Home: what differential privacy trades, a tiny live example, and a card per page."""

import streamlit as st

from ui.common.catalog import available_pages
from ui.common.i18n import _
from ui.common.live import relay
from ui.common.shell import page_header
from ui.home import tiny_example

page_header(_("home.title"), _("home.question"), _("home.try_this"))
relay()  # the example's numbers follow the ε thumb (ui.common.live)
st.markdown(_("home.epsilon"))
tiny_example()

st.subheader(_("home.explore"))
topics = [page for page in available_pages() if page.url_path != "home"]
for row_start in range(0, len(topics), 3):
    for column, entry in zip(st.columns(3), topics[row_start : row_start + 3], strict=False):
        with column.container(border=True):
            st.page_link(entry.path, label=entry.title, icon=entry.icon)
            st.caption(f"{entry.section}. {entry.question}")
