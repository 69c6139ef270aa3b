"""The Arrow tables Streamlit sends for a chart's datasets, made once for each frame."""

from __future__ import annotations

import threading
import weakref
from typing import Any

import pandas as pd
import pyarrow as pa

_ARROW: dict[int, tuple[weakref.ref, pa.Table]] = {}  # id(frame) -> (the frame, its table)
_ARROW_LOCK = threading.Lock()


def arrow_table(frame: Any) -> Any:
    """A dataset as the Arrow table Streamlit sends (pyarrow's own conversion, as Streamlit
    makes it), kept while the frame lives: a live chart's stacked frames, kept across runs and
    sessions (ui.common.live), are converted once, not on every run of every session."""
    if not isinstance(frame, pd.DataFrame):
        return frame
    key = id(frame)
    with _ARROW_LOCK:
        found = _ARROW.get(key)
    if found is not None and found[0]() is frame:
        return found[1]
    table = pa.Table.from_pandas(frame)
    forget = weakref.ref(frame, lambda _gone, key=key: _ARROW.pop(key, None))
    with _ARROW_LOCK:
        _ARROW[key] = (forget, table)
    return table
