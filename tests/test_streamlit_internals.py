"""Streamlit's internals stay in ui.common.streamlit_internals, checked against one version.

On an upgrade of Streamlit the first test fails: read each function of that module against the
new version (the other tests here say which names it relies on), then move its pin.
"""

from __future__ import annotations

import ast
from pathlib import Path

import streamlit

from ui.common import streamlit_internals

ROOT = Path(__file__).resolve().parent.parent
HOME = ROOT / "ui" / "common" / "streamlit_internals.py"
# Public beyond ``import streamlit as st``: the type of a container, for annotations.
ALLOWED = ("streamlit.delta_generator", {"DeltaGenerator"})


def _app_sources() -> list[Path]:
    folders = ("ui", "pages", "dp_core", "data", "scripts")
    found = sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))
    return [ROOT / "app.py", ROOT / "serve.py", *found]


def test_the_internals_were_checked_against_the_installed_streamlit() -> None:
    assert streamlit.__version__ == streamlit_internals.CHECKED_WITH, (
        f"Streamlit {streamlit.__version__} is installed, the internals were read against "
        f"{streamlit_internals.CHECKED_WITH}: check ui/common/streamlit_internals.py"
    )


def test_no_other_module_reaches_into_streamlit() -> None:
    """Imports from streamlit's modules, and private names of ``st``, only in the one module."""
    found = []
    for path in _app_sources():
        if path == HOME:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("streamlit"):
                if (node.module, {alias.name for alias in node.names}) != ALLOWED:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} from {node.module}")
            elif isinstance(node, ast.Import):
                found += [f"{path.relative_to(ROOT)}:{node.lineno} import {alias.name}"
                          for alias in node.names
                          if alias.name.startswith("streamlit.")]  # fmt: skip
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "st"
                and node.attr.startswith("_")
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} st.{node.attr}")
    assert not found, found


def test_the_names_the_internals_rely_on_are_there() -> None:
    """What each function of the module needs from Streamlit (what an upgrade may move)."""
    from streamlit.runtime import Runtime
    from streamlit.runtime.media_file_manager import MediaFileKind, MediaFileMetadata
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext

    assert isinstance(PagesManager.uses_pages_directory, bool | None)
    assert callable(MediaFileMetadata.mark_for_delete) and MediaFileKind.DOWNLOADABLE
    assert callable(Runtime.exists) and callable(Runtime.is_active_session)
    assert "session_id" in ScriptRunContext.__dataclass_fields__


def test_outside_a_session_there_is_no_session_and_nothing_ended() -> None:
    assert streamlit_internals.session_id() is None
    assert streamlit_internals.ended(["a session"]) == []


def test_leaving_the_pages_directory_mode_happens_once() -> None:
    from streamlit.runtime.pages_manager import PagesManager

    before = PagesManager.uses_pages_directory
    try:
        PagesManager.uses_pages_directory = True
        assert streamlit_internals.leave_pages_directory_mode() is True
        assert PagesManager.uses_pages_directory is False
        assert streamlit_internals.leave_pages_directory_mode() is False
    finally:
        PagesManager.uses_pages_directory = before


def test_a_file_built_on_a_downloads_click_outlives_other_sessions_runs(monkeypatch) -> None:
    """A download built on the click is still there after many orphan sweeps (each session's
    run makes one: Streamlit deleted it at the second), and goes once DOWNLOAD_GRACE has
    passed; a file shown on the page (not a download) goes as before."""
    from streamlit.runtime.media_file_manager import MediaFileManager, MediaFileMetadata
    from streamlit.runtime.media_file_storage import MediaFileKind
    from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

    streamlit_internals.keep_built_downloads()
    streamlit_internals.keep_built_downloads()  # once is enough; twice changes nothing
    storage = MemoryMediaFileStorage("/media")
    files = MediaFileManager(storage)
    deferred = files.add_deferred(lambda: b"PK results", "text/plain", "results.zip")
    url = files.execute_deferred(deferred)
    built = url.removeprefix("/media/").split(".")[0]
    shown = storage.load_and_get_id(b"\x89PNG", "image/png", MediaFileKind.MEDIA, None)
    files._file_metadata[shown] = MediaFileMetadata()
    for _sweep in range(20):  # twenty sessions' runs end before the browser fetches it
        files.remove_orphaned_files()
    assert storage.get_file(built).content == b"PK results"
    assert shown not in files._file_metadata
    monkeypatch.setattr(streamlit_internals, "DOWNLOAD_GRACE", 0.0)
    for _sweep in range(2):
        files.remove_orphaned_files()
    assert built not in files._file_metadata
