"""Every use the app makes of Streamlit beyond its public API, in one place.

Streamlit's internals (``streamlit.runtime``, private names, assignments to its objects) may
change in any release. The app uses three, each for a need the public API does not meet, and
``tests/test_streamlit_internals.py`` pins the version they were checked against: on an
upgrade, check each function below, then move the pin.
"""

from __future__ import annotations

from streamlit.runtime import Runtime
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

CHECKED_WITH = "1.67.0"  # the Streamlit version these functions were read against


def leave_pages_directory_mode() -> bool:
    """Switch the server from the legacy ``pages/`` navigation to ``st.navigation``; whether
    it was in the legacy mode (then the caller reruns).

    Streamlit 1.67 decides once per server, at its first session, whether an app with a
    ``pages/`` folder uses file-name navigation: a first visit by a deep link would run the page
    script alone (``PagesManager.uses_pages_directory``, a class attribute).
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        return True
    return False


def session_id() -> str | None:
    """The id of the session whose script is running in this thread; None outside one."""
    ctx = get_script_run_ctx()
    return None if ctx is None else ctx.session_id


def ended(session_ids: list[str]) -> list[str]:
    """Those of ``session_ids`` whose sessions have ended (none when no server runs)."""
    if not Runtime.exists():
        return []
    runtime = Runtime.instance()
    return [session for session in session_ids if not runtime.is_active_session(session)]
