"""Home: what differential privacy trades, a tiny live example, and a card per page."""

import streamlit as st

from ui.common.catalog import available_pages
from ui.common.shell import page_header
from ui.home import tiny_example

page_header(
    "DP Explorer",
    "Differential privacy adds random noise to an answer so that it comes out almost the same "
    "whether or not any one person's data was used. The price is accuracy.",
    "Move epsilon below. Small epsilon: strong privacy, noisy answer. "
    "Large epsilon: accurate answer, weak privacy.",
)
st.markdown(
    "**Epsilon (ε)** is the privacy budget: one person's data can make any published answer "
    "at most e^ε times more or less likely. Each page of this explorer shows one part of that "
    "trade, live."
)
tiny_example()

st.subheader("Explore")
topics = [page for page in available_pages() if page.url_path != "home"]
for row_start in range(0, len(topics), 3):
    for column, entry in zip(st.columns(3), topics[row_start : row_start + 3], strict=False):
        with column.container(border=True):
            st.page_link(entry.path, label=entry.title, icon=entry.icon)
            st.caption(f"{entry.section}. {entry.question}")
