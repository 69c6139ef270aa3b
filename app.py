"""DP Explorer: the entry point. Builds the navigation from ui.catalog and the shared sidebar."""

import streamlit as st

from ui.catalog import available_pages
from ui.shell import sidebar, use_app_navigation

st.set_page_config(page_icon=":material/shield:", layout="wide")
use_app_navigation()

sections: dict[str, list[st.Page]] = {}
for entry in available_pages():
    sections.setdefault(entry.section, []).append(
        st.Page(
            entry.path,
            title=entry.title,
            icon=entry.icon,
            url_path=entry.url_path,
            default=entry.url_path == "home",
        )
    )

page = st.navigation(sections)
sidebar()
page.run()
