"""The Workshop page's room box: open a room and show the room how to join, or join one."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import streamlit as st

from ui.common.i18n import _
from ui.common.user_text import literal
from ui.workshop.room import (
    FOLLOWING,
    LEADING,
    SECRET,
    fail,
    failure,
    join,
    open_room,
    open_room_named,
    said,
    stop_leading,
)
from ui.workshop.rooms import LEAD_KEY, ROOM_KEY, RoomError, clean_code
from ui.workshop.store import store
from ui.workshop.survey import survey_form

PAGE_PATH = "workshop"


def app_address() -> str:
    """The app's address as the browser reached it (through the workshop's proxy, say)."""
    url = urlsplit(st.context.url or "")
    path = url.path.rstrip("/").removesuffix(PAGE_PATH).rstrip("/")
    return f"{url.scheme}://{url.netloc}{path}"


def room_panel() -> None:
    """Lead a room (its code and links, and a way to close it), or open or join one."""
    state = st.session_state
    with st.container(border=True, key="room_panel"):
        st.subheader(_("workshop.room.title"), anchor=False)
        failed = failure()
        if failed and LEADING not in state and FOLLOWING not in state:  # else the strip says it
            st.error(failed, icon=":material/error:")
        if LEADING in state:
            _leading(state[LEADING])
        else:
            _outside(state.get(FOLLOWING))


def _leading(code: str) -> None:
    base = app_address()
    st.markdown(_("workshop.room.join_at", code=code, link=f"{base}/{PAGE_PATH}?{ROOM_KEY}={code}"))
    secret = st.session_state.get(SECRET)
    if secret:
        with st.expander(_("workshop.room.trainer_link"), icon=":material/key:"):
            st.caption(_("workshop.room.trainer_link.help"))
            st.code(f"{base}/{PAGE_PATH}?{ROOM_KEY}={code}&{LEAD_KEY}={secret}", language=None)
    survey_form(code)
    st.button(
        _("workshop.room.close"), icon=":material/door_front:", key="room_close", on_click=_close
    )


def _outside(following: str | None) -> None:
    if following is not None:
        st.markdown(_("workshop.room.in_room", code=following))
    st.markdown(_("workshop.room.how"))
    st.button(_("workshop.room.open"), icon=":material/podium:", key="room_open", on_click=_open)
    with st.container(horizontal=True, vertical_alignment="bottom", key="room_join"):
        st.text_input(_("workshop.room.code"), key="room_code", max_chars=12)
        st.button(_("workshop.room.join"), icon=":material/login:", key="room_join_button",
                  on_click=_join)  # fmt: skip


def _open() -> None:
    try:
        open_room()
    except RoomError as error:
        fail(said(error))


def _close() -> None:
    state = st.session_state
    try:
        store().close(state[LEADING], time.time())
    except RoomError as error:
        fail(said(error))
        return
    stop_leading()


def _join() -> None:
    state = st.session_state
    typed = state.get("room_code", "")
    code = clean_code(typed)
    try:
        room = open_room_named(code)
    except RoomError as error:
        fail(said(error))
        return
    if room is None:
        fail(_("workshop.room.unknown", code=literal(typed)))
        return
    join(room.code)
