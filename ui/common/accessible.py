"""What every page declares for accessibility (WCAG 2.2 AA), in one component of the sidebar:
the page's language (3.1.1), tables that scroll by keyboard (2.1.1), status messages read out
as they change (4.1.3), the app's own focus, target size and contrast fixes (2.4.7, 2.5.8,
1.4.3) and its phone layout (1.4.10, ``accessible.css``); and whether the screen is a
phone's, which the browser says once a session (``narrow``)."""

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
KEY = "accessible"
# A screen at most this wide (CSS pixels) is a phone's: accessible.css's media query and
# accessible.js's report use the same width.
PHONE_WIDTH = 640


def narrow() -> bool:
    """Whether the browser said its screen is a phone's (at most PHONE_WIDTH wide)."""
    return bool((st.session_state.get(KEY) or {}).get("narrow"))


def declare_page(lang: str) -> None:
    """The html element's lang is ``lang``, and the contrast fixes apply (no visible element).

    The browser reports a phone's screen only when that differs from what the server knows:
    one rerun a session on a phone (and on turning it across the width), none on a desktop.
    """
    _COMPONENT(
        key=KEY,
        data={"lang": lang, "narrow": narrow(), "width": PHONE_WIDTH},
        default={"narrow": False},
        on_narrow_change=lambda: None,
        height=0,
    )


def status(text: str, key: str) -> None:
    """A status message (markdown) that a screen reader reads out whenever it changes: its
    container is a polite live region (``accessible.js``), kept by Streamlit across reruns."""
    with st.container(key=f"{key}__status"):
        st.markdown(text)
