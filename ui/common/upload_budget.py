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
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

BUDGET_ENV = "DP_EXPLORER_UPLOAD_BUDGET_MB"
_HELD: dict[str, int] = {}  # session id -> bytes its upload holds
_LOCK = threading.Lock()


def held_size(data: bytes, frame: pd.DataFrame) -> int:
    """What a kept upload costs: its bytes and its table's memory."""
    return len(data) + int(frame.memory_usage(deep=True).sum())


def admit(size: int) -> bool:
    """Whether this session may hold an upload of ``size`` bytes (then it does)."""
    budget = os.environ.get(BUDGET_ENV, "").strip()
    ctx = get_script_run_ctx()
    if not budget or ctx is None:
        return True
    with _LOCK:
        if Runtime.exists():  # free the share of sessions that ended
            runtime = Runtime.instance()
            for session in [s for s in _HELD if not runtime.is_active_session(s)]:
                del _HELD[session]
        others = sum(held for session, held in _HELD.items() if session != ctx.session_id)
        if others + size > float(budget) * 2**20:
            return False
        _HELD[ctx.session_id] = size
        return True
