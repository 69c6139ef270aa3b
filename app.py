"""DP Explorer: the entry point. The pages from ui.common.catalog and the shared sidebar."""

import streamlit as st

from ui.common.catalog import available_pages
from ui.common.i18n import start_language
from ui.common.shell import sidebar, use_app_navigation
from ui.workshop.room import enter, room_bar, url_path

st.set_page_config(page_icon=":material/shield:", layout="wide")
use_app_navigation()
start_language()

pages = [
    st.Page(entry.path, title=entry.title, icon=entry.icon, url_path=entry.url_path)
    for entry in available_pages()
]
# The home page also answers at "/" (Streamlit ignores a default page's url_path, so it is a
# second entry: /home keeps working for links and bookmarks).
home = next(entry for entry in available_pages() if entry.url_path == "home")
pages.insert(
    0, st.Page(home.path, title=home.title, icon=home.icon, url_path="start", default=True)
)
page = st.navigation(pages, position="hidden")
sidebar()
enter()
room_bar(url_path(page.url_path))
page.run()
