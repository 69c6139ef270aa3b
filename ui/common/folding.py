"""Settings folded away: a closed box's settings are read, not drawn.

A page that follows a trainer's, or is shown on a projector, keeps its data and query controls
in a closed box (ui.common.shell.settings_area). While the box is closed its controls are
used but draw nothing: ``linked`` gives each setting's value from its state or the address with
no widget, a row of controls is the box itself, and a caption about them is left out. Each
element costs a run about a millisecond and a wake-up of the server's event loop, and a room
of followers pays it once per follower on every page change. Opening the box reruns the page
with every control drawn, at the same values.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

# The closed box being filled, or None while controls are drawn. A context variable: one per
# script thread, so one per session's run.
_BOX: ContextVar[DeltaGenerator | None] = ContextVar("folded_box", default=None)


@contextmanager
def folded_into(box: DeltaGenerator) -> Iterator[None]:
    """Within: controls are read into the closed ``box``, not drawn."""
    token = _BOX.set(box)
    try:
        yield
    finally:
        _BOX.reset(token)


def folded() -> DeltaGenerator | None:
    """The closed box the controls being read belong to; None while they are drawn."""
    return _BOX.get()


def note(text: str) -> None:
    """A caption about a setting (what the cap drops, where the rows come from): left out
    while the setting is folded away."""
    if folded() is None:
        st.caption(text)


def columns(spec: int | Sequence[float]) -> list[DeltaGenerator]:
    """``st.columns(spec)`` for controls; folded away, the closed box once for each column."""
    box = folded()
    if box is None:
        return list(st.columns(spec))
    return [box] * (spec if isinstance(spec, int) else len(spec))
