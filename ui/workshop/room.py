"""A session in a workshop room: the trainer leads, the attendees' pages follow.

    enter()              # app.py, every full run: the room links in the address
    room_bar(url_path)   # app.py, above the page: the room's strip (a fragment on a timer)

The trainer's strip reads the trainer's address every half second and, when it changed, makes
it the room's view (ui.workshop.store). An attendee's strip reads the room's version every
second (one indexed read: nothing else runs while the trainer stays put) and, when the trainer
showed something new, opens it: the settings the attendee's session holds are dropped, so the
page takes every value from the trainer's address as a fresh link would (ui.common.address).
An attendee may explore alone, and follow again in one click. The secret of the trainer's
link leaves the address as soon as it is read, so a projected screen never shows it.
"""

from __future__ import annotations

import time
from typing import Any

import streamlit as st

from ui.common.address import drop, take
from ui.common.catalog import available_pages, entry
from ui.common.i18n import N_, _, language
from ui.common.i18n import STATE_KEY as LANGUAGE_KEY
from ui.common.setting import DECLARED
from ui.workshop.rooms import (
    HOURS,
    LEAD_KEY,
    OWN,
    ROOM_KEY,
    Room,
    RoomError,
    View,
    clean_code,
    leads,
    new_code,
    new_secret,
    secret_hash,
)
from ui.workshop.store import store

LEADING, FOLLOWING = "room__leading", "room__following"  # session state: the room's code
ALONE, SEEN, SHOWN = "room__alone", "room__seen", "room__shown"
ASKED, QUESTION = "room__asked", "room__question"  # the question's version seen, and it
NOTICE = "room__notice"  # session state: (a sentence for the strip, until when it shows it)
NOTICE_SECONDS = 10.0
LEAD_EVERY, FOLLOW_EVERY = 0.5, 1.0  # seconds between two looks at the address / the store
ERRORS = {  # RoomError's code -> its sentence
    "taken": N_("workshop.room.error.taken"),
    "closed": N_("workshop.room.closed"),
    "unreachable": N_("workshop.room.error.unreachable"),
    "too_big": N_("workshop.room.error.too_big"),
    "no_redis": N_("workshop.room.error.no_redis"),
    "bad_store": N_("workshop.room.error.bad_store"),
}


def said(error: RoomError) -> str:
    """What a room error means, in the reader's language."""
    return _(ERRORS[error.code])


def open_room() -> tuple[str, str]:
    """Open a room led by this session: (its code, the trainer's secret)."""
    secret = new_secret()
    for _attempt in range(5):  # a code already in use: draw another
        code = new_code()
        try:
            store().open_room(Room(code, secret_hash(secret), time.time() + HOURS * 3600))
        except RoomError as error:
            if error.code != "taken":
                raise
            continue
        _lead(code)
        return code, secret
    raise RoomError("taken")


def _lead(code: str) -> None:
    state = st.session_state
    state[LEADING] = code
    state.pop(FOLLOWING, None)
    state.pop(SHOWN, None)


def join(code: str) -> None:
    """Follow the room ``code`` from its current view on."""
    state = st.session_state
    state.pop(LEADING, None)
    state[FOLLOWING], state[ALONE], state[SEEN] = code, False, 0


def enter() -> None:
    """The room links in the address: ``?room=CODE&lead=SECRET`` leads (the secret is taken
    out of the address at once), ``?room=CODE`` follows. A wrong or closed room says so."""
    typed, secret = st.query_params.get(ROOM_KEY), take(LEAD_KEY)
    if typed is None:
        return
    state, code = st.session_state, clean_code(typed)
    if code is not None and code in (state.get(LEADING), state.get(FOLLOWING)):
        return
    try:
        room = store().room(code) if code else None
    except RoomError as error:
        st.toast(said(error), icon=":material/error:")
        return
    if room is None or not room.open_at(time.time()):
        drop(ROOM_KEY)
        st.toast(_("workshop.room.unknown", code=typed), icon=":material/meeting_room:")
    elif secret is not None and leads(secret, room.lead_hash):
        _lead(room.code)
    else:
        join(room.code)
        if secret is not None:
            state[NOTICE] = (_("workshop.room.bad_secret"), time.time() + NOTICE_SECONDS)


def url_path(path: str) -> str:
    """The catalogue's url path of the page in view (the home page also answers at "/")."""
    return path if path in {e.url_path for e in available_pages()} else "home"


def room_bar(page: str) -> None:
    """The room's strip above the page, for a session that leads or follows one."""
    state = st.session_state
    if LEADING in state:
        _leader(state[LEADING], page)
    elif FOLLOWING in state:
        _follower(state[FOLLOWING])


def _address() -> dict[str, list[str]]:
    return {key: st.query_params.get_all(key) for key in st.query_params}


@st.fragment(run_every=LEAD_EVERY)
def _leader(code: str, page: str) -> None:
    view = View.of(page, _address())
    state = st.session_state
    if state.get(SHOWN) != view:
        try:
            store().show(code, view, time.time())
        except RoomError as error:
            if error.code == "closed":
                state.pop(LEADING, None)
            st.warning(said(error), icon=":material/meeting_room:")
            return
        state[SHOWN] = view
    with st.container(horizontal=True, vertical_alignment="center", key="room_bar"):
        st.markdown(_("workshop.room.leading", code=code))
    question = _question(code, state.get(ASKED))
    if question is not None:
        from ui.workshop.asking import results  # it draws in this strip

        results(code, question)


def _question(code: str, asked: int | None, polled: tuple[int, int] | None = None) -> Any:
    """The question put to the room, read again from the store only when its version moved
    (``polled``: the versions just read, else they are read here)."""
    state = st.session_state
    try:
        polled = polled or store().poll(code, time.time())
        if polled is not None and polled[1] != asked:
            room = store().room(code)
            state[ASKED], state[QUESTION] = polled[1], room.question if room else None
    except RoomError as error:
        st.warning(said(error), icon=":material/error:")
    return state.get(QUESTION)


@st.fragment(run_every=FOLLOW_EVERY)
def _follower(code: str) -> None:
    state = st.session_state
    try:
        polled = store().poll(code, time.time())
        moved = polled is not None and polled[0] != state.get(SEEN) and not state.get(ALONE)
        room = store().room(code) if moved else None
    except RoomError as error:  # the store out of reach: say so, and look again
        st.warning(said(error), icon=":material/error:")
        return
    if polled is None:
        state.pop(FOLLOWING, None)
        st.warning(_("workshop.room.closed"), icon=":material/meeting_room:")
        return
    if room is not None and room.view is not None:
        state[SEEN] = room.version
        _open(code, room.view)
    sentence, until = state.get(NOTICE, ("", 0.0))
    if time.time() < until:
        st.warning(sentence, icon=":material/key_off:")
    with st.container(horizontal=True, vertical_alignment="center", key="room_bar"):
        if state.get(ALONE):
            st.markdown(_("workshop.room.alone", code=code))
            st.button(
                _("workshop.room.follow"),
                icon=":material/podium:",
                key="room_follow",
                on_click=_follow_again,
            )
        else:
            st.markdown(_("workshop.room.following", code=code))
            st.button(
                _("workshop.room.explore"),
                icon=":material/explore:",
                key="room_explore",
                on_click=_explore_alone,
            )
    question = _question(code, state.get(ASKED), polled)
    if question is not None:
        from ui.workshop.asking import answer_box  # it draws in this strip

        answer_box(code, question)


def _explore_alone() -> None:
    st.session_state[ALONE] = True


def _follow_again() -> None:
    st.session_state[ALONE], st.session_state[SEEN] = False, 0


def _open(code: str, view: View) -> None:
    """Open the trainer's view: drop every setting this session holds (a setting the trainer
    left at its default is not in the address) and switch to the page at that address."""
    state = st.session_state
    for key in list(state):
        setting = key.removesuffix("__for")
        if (setting in DECLARED and setting not in OWN) or key.endswith("__section"):
            del state[key]
    query = view.query()
    query[ROOM_KEY] = [code]
    query[LANGUAGE_KEY] = [language()]
    st.switch_page(entry(view.page).path, query_params=query)
