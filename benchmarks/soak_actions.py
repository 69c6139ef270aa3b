"""What an attendee does in bench_soak besides following: download the page's results, and
choose another language, each as the browser's frontend does it."""

from __future__ import annotations

import time

from bench_load import Attendee, http_get
from bench_room import widget_ending
from streamlit.proto.WidgetStates_pb2 import WidgetState

from ui.common.i18n import LANGUAGES


async def download(attendee: Attendee) -> float | None:
    """Click the page's results download, whose archive is built on the click (no script
    run: the frontend asks for the file, then fetches it through the proxy); the seconds it
    took, or None when the page shows no such button or no ZIP archive came."""
    button = widget_ending(attendee, "download_button", "_download")
    if button is None:
        return None
    started = time.perf_counter()
    try:
        url = await attendee.deferred_file(button.proto.download_button.deferred_file_id)
        answer = await http_get(attendee.port, url, attendee.cookie_header())
    except (RuntimeError, TimeoutError, OSError):  # the server could not build or send it
        return None
    head, _blank, body = answer.partition(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n", 1)[0] or not body.startswith(b"PK"):
        return None
    return time.perf_counter() - started


async def switch_language(attendee: Attendee, lang: str) -> bool:
    """Choose ``lang`` in the sidebar's language box (a whole run, as the browser sends it);
    whether the page's address then says ``lang``."""
    box = widget_ending(attendee, "selectbox", "-lang")
    if box is None:
        return False
    widget = box.proto.selectbox.id
    attendee.widgets[widget] = WidgetState(id=widget, string_value=LANGUAGES[lang])
    run = await attendee.rerun()
    await run.finished
    return f"lang={lang}" in attendee.query_string.split("&")
