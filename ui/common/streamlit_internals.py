"""Every use the app makes of Streamlit beyond its public API, in one place.

Streamlit's internals (``streamlit.runtime``, private names, assignments to its objects) may
change in any release. The app uses four, each for a need the public API does not meet, and
``tests/test_streamlit_internals.py`` pins the version they were checked against: on an
upgrade, check each function below, then move the pin.
"""

from __future__ import annotations

import time

from streamlit.runtime import Runtime
from streamlit.runtime.media_file_manager import MediaFileKind, MediaFileMetadata
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

CHECKED_WITH = "1.67.0"  # the Streamlit version these functions were read against
DOWNLOAD_GRACE = 60.0  # seconds a file built on a download's click is kept for its browser


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


def keep_built_downloads() -> None:
    """Keep a file built on a download's click (``st.download_button`` with a callable) for
    ``DOWNLOAD_GRACE`` seconds, long enough for its browser to fetch it.

    Streamlit 1.67 stores such a file referenced by no session, and deletes it at the second
    orphan sweep after (``MediaFileManager.remove_orphaned_files``: the first marks it, the
    next deletes it). A sweep follows every run of every session of the worker, so in a room
    whose pages run as they catch up with the trainer the file was gone within milliseconds
    and the browser got a 404 (bench_soak: 6 of 10 downloads). Here a downloadable file is
    marked for deletion only once it is that old; each sweep after that may delete it.
    """
    if getattr(MediaFileMetadata, "_dp_keeps_downloads", False):
        return
    born = MediaFileMetadata.__init__
    mark = MediaFileMetadata.mark_for_delete

    def init(self: MediaFileMetadata, *args: object, **kwargs: object) -> None:
        born(self, *args, **kwargs)
        self._dp_born = time.monotonic()

    def mark_when_old(self: MediaFileMetadata) -> None:
        young = time.monotonic() - getattr(self, "_dp_born", 0.0) < DOWNLOAD_GRACE
        if not (self.kind == MediaFileKind.DOWNLOADABLE and young):
            mark(self)

    MediaFileMetadata.__init__ = init
    MediaFileMetadata.mark_for_delete = mark_when_old
    MediaFileMetadata._dp_keeps_downloads = True
