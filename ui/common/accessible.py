"""What every page declares for accessibility (WCAG 2.2 AA), in one component of the sidebar:
the page's language (3.1.1), tables that scroll by keyboard (2.1.1), status messages read out
as they change (4.1.3) and the app's own focus, target size and contrast fixes (2.4.7, 2.5.8,
1.4.3, ``accessible.css``)."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

_HERE = Path(__file__).resolve().parent
_COMPONENT = st.components.v2.component(
    "dp_accessible",
    js=(_HERE / "accessible.js").read_text(encoding="utf-8"),
    css=(_HERE / "accessible.css").read_text(encoding="utf-8"),
    isolate_styles=False,  # the stylesheet applies to the whole page
)


def declare_page(lang: str) -> None:
    """The html element's lang is ``lang``, and the contrast fixes apply (no visible element)."""
    _COMPONENT(key="accessible", data={"lang": lang}, height=0)


def status(text: str, key: str) -> None:
    """A status message (markdown) that a screen reader reads out whenever it changes: its
    container is a polite live region (``accessible.js``), kept by Streamlit across reruns."""
    with st.container(key=f"{key}__status"):
        st.markdown(text)
