"""DP Explorer: the entry point. The pages from ui.common.catalog and the shared sidebar."""

import streamlit as st

from ui.common.i18n import start_language
from ui.common.shell import navigation_pages, sidebar, use_app_navigation
from ui.workshop.room import enter, room_bar, url_path

st.set_page_config(page_icon=":material/shield:", layout="wide")
use_app_navigation()
start_language()

page = st.navigation(navigation_pages(), position="hidden")
sidebar()
enter()
room_bar(url_path(page.url_path))
page.run()
