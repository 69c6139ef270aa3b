"""A progress bar for a statistic computed where the data lie (a data path), drawn once the
statistic has taken a second: quick ones show nothing, a scan of 10^8 rows shows how far the
engine has got (data.sources.progress; DuckDB and Spark report it, Spark Connect does not).

    with statistic_progress():
        totals = sources.capped_totals(source, request)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from data import sources
from ui.common.i18n import _

AFTER = 1.0  # seconds a statistic runs before its bar appears


@contextmanager
def statistic_progress(where: DeltaGenerator | None = None) -> Iterator[None]:
    """While in the block, the engine's progress as a bar (after AFTER seconds), placed in
    ``where`` (else where the page has got to). A quick statistic draws nothing at all: a run
    sends no placeholder for a bar it does not show."""
    start = time.monotonic()
    place: DeltaGenerator | None = None

    def report(share: float) -> None:
        nonlocal place
        if time.monotonic() - start >= AFTER:
            if place is None:
                place = (st if where is None else where).empty()
            place.progress(share, text=_("common.progress.reading", percent=f"{share:.0%}"))

    try:
        with sources.reporting(report):
            yield
    finally:
        if place is not None:
            place.empty()
