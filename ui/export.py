"""Exports: a table of results as CSV, headed by the settings that reproduce it."""

from __future__ import annotations

import io

import pandas as pd
import streamlit as st


def results_csv(table: pd.DataFrame, settings: dict[str, object]) -> bytes:
    """CSV text: one '# name: value' line per setting, then the table (read back with
    pandas.read_csv(..., comment="#"))."""
    buffer = io.StringIO()
    for name, value in settings.items():
        buffer.write(f"# {name}: {value}\n")
    table.to_csv(buffer, index=False)
    return buffer.getvalue().encode("utf-8")


def download_results(
    table: pd.DataFrame, *, name: str, settings: dict[str, object], key: str
) -> None:
    """A download button for the table, with the seed, draw number and page settings on top."""
    state = st.session_state
    everything = {
        **settings,
        "seed": state.get("seed"),
        "draw": state.get("draw"),
        "link settings": "&".join(f"{k}={v}" for k, v in st.query_params.items()),
    }
    st.download_button(
        "Download these results (CSV)",
        data=results_csv(table, everything),
        file_name=f"{name}.csv",
        mime="text/csv",
        icon=":material/download:",
        key=key,
        help="The table with the settings that reproduce it (seed, draw, ε, query) on top.",
    )
