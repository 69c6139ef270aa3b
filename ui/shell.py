"""The app shell shared by every page: navigation guard, sidebar, seeded draws, page header.

Reproducible draws: every page draws its noise from
``numpy.random.default_rng([seed, draw, crc32(page)])``, so the same seed, draw number and
settings give the same chart on every machine, and "Draw new noise" moves to the next draw.
"""

from __future__ import annotations

import zlib

import numpy as np
import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

DEFAULT_SEED = 2026


def use_app_navigation() -> None:
    """Make a first-visit deep link run through app.py's own navigation.

    Streamlit 1.67 decides once per server, at the first session, whether the app is a
    legacy "pages/ folder" app; until ``st.navigation`` has run, it serves the file-name
    navigation and runs the page script alone. When that happens we switch the server to
    ``st.navigation`` mode and rerun: the page's url_path equals its file stem, so the rerun
    lands on the same page, now with the app's navigation and shared sidebar.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def _next_draw() -> None:
    st.session_state["draw"] = st.session_state.get("draw", 0) + 1


def sidebar() -> None:
    """Seed and "draw new noise" controls, shown on every page."""
    state = st.session_state
    state.setdefault("draw", 0)
    with st.sidebar:
        st.markdown("**Random draws**")
        st.number_input(
            "Seed",
            min_value=0,
            max_value=2**32 - 1,
            value=DEFAULT_SEED,
            step=1,
            key="seed",
            help="The same seed and settings give the same noisy answers, on any machine.",
        )
        # A callback, not `if st.button(...)`: it runs before the script, so the new draw
        # survives the rerun that use_app_navigation() may trigger.
        st.button(
            "Draw new noise",
            icon=":material/casino:",
            width="stretch",
            key="draw_new",
            on_click=_next_draw,
        )
        st.caption(f"Draw number {state['draw']} with seed {state['seed']}.")


def page_rng(page: str) -> np.random.Generator:
    """The Generator for ``page`` at the current seed and draw number."""
    seed = int(st.session_state.get("seed", DEFAULT_SEED))
    draw = int(st.session_state.get("draw", 0))
    return np.random.default_rng([seed, draw, zlib.crc32(page.encode())])


def page_header(title: str, question: str, try_this: str) -> None:
    """Title, the question the page answers, and a "try this" for a workshop audience."""
    use_app_navigation()
    st.title(title)
    st.markdown(f"#### {question}")
    st.info(f"**Try this.** {try_this}", icon=":material/lightbulb:")


def what_to_notice(points: list[str]) -> None:
    """The closing "what to notice" list of a page."""
    st.subheader("What to notice")
    st.markdown("\n".join(f"- {point}" for point in points))
