"""A session in a workshop room: the trainer leads, the attendees' pages follow.

    enter()              # app.py, every full run: the room links in the address
    room_bar(url_path)   # app.py, above the page: the room's strip (ui.workshop.room_strip)

Here a session opens, leads, joins or leaves a room, and is brought into it by a link or the
browser's room cookies; the strip drawn above each page, and the scripts with which the
trainer's browser leads and the attendees' follow, are ui.workshop.room_strip.
The secret of the trainer's link leaves the address as soon as it is read, so a projected
screen never shows it.
"""

from __future__ import annotations

import time

import streamlit as st

from ui.common.address import drop, take, written
from ui.common.catalog import available_pages
from ui.common.i18n import N_, _
from ui.common.shell import ROOM_ALONE, ROOM_FOLLOWING
from ui.common.user_text import literal
from ui.workshop.rooms import (
    HOURS,
    LEAD_COOKIE,
    LEAD_KEY,
    ROOM_COOKIE,
    ROOM_KEY,
    Room,
    RoomError,
    clean_code,
    leads,
    new_code,
    new_secret,
    secret_hash,
)
from ui.workshop.store import store

LEADING, FOLLOWING = "room__leading", ROOM_FOLLOWING  # session state: the room's code
ALONE, SEEN, SHOWN = ROOM_ALONE, "room__seen", "room__shown"
SECRET, FORGET = "room__secret", "room__forget"  # the trainer's secret; a cookie to clear
COOKIES_READ = "room__cookies_read"  # this session has looked for a room in its cookies
ASKED, QUESTION = "room__asked", "room__question"  # the question's version seen, and it
FAILED = "room__failed"  # session state: why the last click on the room did nothing
OPEN = "room__open"  # session state: the strip is asked to open the room's view itself
NOTICE = "room__notice"  # session state: (a sentence for the strip, until when it shows it)
NOTICE_SECONDS = 10.0
MISSES = "room__misses"  # session state: when this session named a code of no open room
MOST_MISSES, MISS_SECONDS = 5, 60.0  # codes of no open room a session may name in this time
# ... and all sessions of every worker together, in the store's minute and the one before: a
# guesser opening sessions by the hundred (each under its own limit) is held here.
MOST_ALL_MISSES = 200
ERRORS = {  # RoomError's code -> its sentence
    "too_many_tries": N_("workshop.room.error.too_many_tries"),
    "door_busy": N_("workshop.room.error.door_busy"),
    "taken": N_("workshop.room.error.taken"),
    "closed": N_("workshop.room.closed"),
    "unreachable": N_("workshop.room.error.unreachable"),
    "too_big": N_("workshop.room.error.too_big"),
    "no_redis": N_("workshop.room.error.no_redis"),
    "bad_store": N_("workshop.room.error.bad_store"),
    "survey_text": N_("workshop.survey.error.text"),
    "survey_coins": N_("workshop.survey.error.coins"),
    "survey_no_privacy": N_("workshop.survey.error.no_privacy"),
}


def fail(sentence: str) -> None:
    """Say why a click did nothing, at the strip's runs in the next ``NOTICE_SECONDS``."""
    st.session_state[FAILED] = (sentence, time.time() + NOTICE_SECONDS)


def succeeded() -> None:
    """A click did what it should: no earlier failure is said any more."""
    st.session_state.pop(FAILED, None)


def failure() -> str | None:
    """Why the last click did nothing, while it is still to be said; None otherwise."""
    sentence, until = st.session_state.get(FAILED, ("", 0.0))
    return sentence if time.time() < until else None


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
        _lead(code, secret)
        return code, secret
    raise RoomError("taken")


def open_room_named(code: str | None) -> Room | None:
    """The open room ``code`` names; None when there is none. Guessing codes at speed is
    refused before the store is asked for the room, so a refusal reveals nothing of the
    code: after MOST_MISSES codes of no open room in MISS_SECONDS, this session's next try
    raises RoomError("too_many_tries"); after MOST_ALL_MISSES by all sessions together in
    the store's window, every session's raises RoomError("door_busy"). The limits are the
    session's and the server's, never an IP address's, which a whole room behind one NAT
    shares."""
    state, now = st.session_state, time.monotonic()
    misses = [t for t in state.get(MISSES, []) if now - t < MISS_SECONDS]
    if len(misses) >= MOST_MISSES:
        raise RoomError("too_many_tries")
    if store().misses(time.time()) >= MOST_ALL_MISSES:
        raise RoomError("door_busy")
    room = store().room(code) if code else None
    if room is None or not room.open_at(time.time()):
        state[MISSES] = [*misses, now]
        store().miss(time.time())
        return None
    return room


def _lead(code: str, secret: str) -> None:
    state = st.session_state
    state[LEADING], state[SECRET] = code, secret
    state.pop(FOLLOWING, None)
    state.pop(SHOWN, None)


def stop_leading() -> None:
    """This session leads no more (the room closed): its browser forgets the trainer cookie."""
    state = st.session_state
    state.pop(LEADING, None)
    state.pop(SECRET, None)
    state[FORGET] = LEAD_COOKIE


def join(code: str) -> None:
    """Follow the room ``code`` from its current view on."""
    state = st.session_state
    state.pop(LEADING, None)
    state[FOLLOWING], state[ALONE], state[SEEN], state[OPEN] = code, False, 0, True


def enter() -> None:
    """The room links in the address: ``?room=CODE&lead=SECRET`` leads (the secret is taken
    out of the address at once), ``?room=CODE`` follows; a wrong or closed room says so. A
    session in no room without a link (a reload, a worker lost) takes the browser's room
    cookies: the trainer's, else the attendee's."""
    typed, secret = written(ROOM_KEY), take(LEAD_KEY)
    state, linked = st.session_state, typed is not None
    if not linked:
        if LEADING in state or FOLLOWING in state or COOKIES_READ in state:
            return
        state[COOKIES_READ] = True  # a session's cookies are its connection's: read them once
        typed, secret = _from_cookies()
        if typed is None:
            return
    code = clean_code(typed)
    if code is not None and code in (state.get(LEADING), state.get(FOLLOWING)):
        return
    try:
        room = open_room_named(code)
    except RoomError as error:
        st.toast(said(error), icon=":material/error:")
        return
    if room is None:
        if linked:  # a link says so; an old cookie's closed room is passed over in silence
            drop(ROOM_KEY)
            st.toast(
                _("workshop.room.unknown", code=literal(typed)), icon=":material/meeting_room:"
            )
    elif secret is not None and leads(secret, room.lead_hash):
        _lead(room.code, secret)
    else:
        join(room.code)
        if secret is not None and linked:
            state[NOTICE] = (_("workshop.room.bad_secret"), time.time() + NOTICE_SECONDS)


def _from_cookies() -> tuple[str | None, str | None]:
    """(code, secret) from the trainer cookie, else (code, None) from the attendee's."""
    cookies = st.context.cookies
    lead, room = cookies.get(LEAD_COOKIE), cookies.get(ROOM_COOKIE)
    if isinstance(lead, str) and lead.count(".") == 1:
        code, _dot, secret = lead.partition(".")
        return code, secret
    return (room, None) if isinstance(room, str) and room else (None, None)


def url_path(path: str) -> str:
    """The catalogue's url path of the page in view (the home page also answers at "/")."""
    return path if path in {e.url_path for e in available_pages()} else "home"
