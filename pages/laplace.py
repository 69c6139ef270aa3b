"""The Laplace mechanism: noisy vs true answers, the noise itself, error vs ε, averaging."""

import streamlit as st

from ui.common.catalog import entry
from ui.common.shell import page_header
from ui.laplace import closing, controls, sections, words

header = st.container()  # drawn above the controls, once they say which data were chosen
chosen = controls.data_controls()
with header:
    page_header(
        entry("laplace").title,
        entry("laplace").question,
        words.try_this(None if chosen is None else chosen[0]),
    )
if chosen is None:
    st.stop()
controls.explore(*chosen, sections.story_sections())
closing.closing()
