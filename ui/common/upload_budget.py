"""On a shared server, the uploaded tables one worker's sessions hold, kept within a budget.

A workshop's worker serves fifty attendees; each may upload a CSV file (Streamlit refuses one
above the server's ``maxUploadSize`` before it is read), and a session keeps its parsed table.
``DP_EXPLORER_UPLOAD_BUDGET_MB`` (scripts/workshop.py sets it) caps what they hold together,
counted as the file's bytes plus the table's memory (pandas, deep): a session past the budget is
told so and holds nothing. A session that ended frees its share. Without the variable (one's
own machine) there is no budget.
"""

from __future__ import annotations

import os
import threading

import pandas as pd

from ui.common.streamlit_internals import ended, session_id

BUDGET_ENV = "DP_EXPLORER_UPLOAD_BUDGET_MB"
_HELD: dict[str, int] = {}  # session id -> bytes its upload holds
_LOCK = threading.Lock()


def held_size(data: bytes, frame: pd.DataFrame) -> int:
    """What a kept upload costs: its bytes and its table's memory."""
    return len(data) + int(frame.memory_usage(deep=True).sum())


def admit(size: int) -> bool:
    """Whether this session may hold an upload of ``size`` bytes (then it does)."""
    budget = os.environ.get(BUDGET_ENV, "").strip()
    this = session_id()
    if not budget or this is None:
        return True
    with _LOCK:
        for session in ended(list(_HELD)):  # free the share of sessions that ended
            del _HELD[session]
        others = sum(held for session, held in _HELD.items() if session != this)
        if others + size > float(budget) * 2**20:
            return False
        _HELD[this] = size
        return True
