"""Exports: a page's results as a ZIP of a plain CSV and the settings that reproduce it.

The CSV opens in a spreadsheet and with ``pandas.read_csv`` as it is (no comment lines),
with the units the screen shows; ``settings.json`` beside it names the page, the dataset,
every setting, the noise, the seed and draw, and the address that opens the same view.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Callable
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from ui.common.data_picker import DataChoice


def file_stem(page: str, data: DataChoice, settings: dict[str, object]) -> str:
    """e.g. laplace_census_epsilon-1: the page, the dataset and the leading settings."""
    parts = [page, data.dataset.key.removeprefix("user_")]
    for name in ("epsilon", "delta"):
        if name in settings:
            parts.append(f"{name}-{settings[name]}")
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", "_".join(parts)).strip("-")


def address() -> str:
    """The address of the current view: the page's URL with every setting in it."""
    url = st.context.url or ""
    base = url.split("?", 1)[0]
    query = urlencode({key: st.query_params[key] for key in st.query_params})
    return f"{base}?{query}" if query else base


def results_zip(table: pd.DataFrame, settings: dict[str, object], stem: str) -> bytes:
    """A ZIP holding ``<stem>.csv`` (the table) and ``<stem>.json`` (the settings)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{stem}.csv", table.to_csv(index=False))
        archive.writestr(f"{stem}.json", json.dumps(settings, indent=2, ensure_ascii=False))
    return buffer.getvalue()


def download_results(
    table: Callable[[], pd.DataFrame],
    *,
    page: str,
    data: DataChoice,
    settings: dict[str, object],
    secure: bool,
) -> None:
    """A download button for the table and its settings (with seed, draw and the address).

    The ZIP is built when the button is pressed (``table`` is called then), not on every rerun.
    """
    state = st.session_state
    everything = {
        "page": page,
        "dataset": data.dataset.title,
        **settings,
        "seed": state.get("seed"),
        "draw": state.get("draw"),
        "address": address(),
    }
    stem = file_stem(page, data, settings)
    label = (
        "Download the release (CSV + settings)"
        if secure
        else "Download these results (CSV + settings)"
    )
    st.download_button(
        label,
        data=lambda: results_zip(table(), everything, stem),
        file_name=f"{stem}.zip",
        mime="application/zip",
        icon=":material/download:",
        key=f"{page}_download",
        help="A ZIP of the table as CSV and the settings that reproduce it as JSON."
        + ("" if secure else " The noisy values are teaching draws from the seed, not a release."),
    )
