"""A session in a workshop room: the trainer leads, the attendees' pages follow.

    enter()              # app.py, every full run: the room links in the address
    room_bar(url_path)   # app.py, above the page: the room's strip (a fragment)

The trainer's browser publishes its view the moment its address, or a live slider's thumb,
changes (``dp_room_lead``: a POST to ui.workshop.push, no page run). Each attendee's browser
holds the room's push open (``dp_room_watch``: server-sent events from ui.workshop.push,
falling back to asking ui.workshop.versions every half second): a move of a live slider it
shows itself at once (ui.common.live holds the stop), and later, once, at a moment spread over
the room, moves the page's own thumb there as a key would, so that the page's ordinary step
catches the rest up; anything else (another page or section, a setting without stops, a
question) reruns the strip at once. The strip then opens what the trainer shows: the settings
the attendee's session holds are dropped, so the page takes every value from the trainer's
address as a fresh link would (ui.common.address).
An attendee may explore alone, and follow again in one click. The secret of the trainer's
link leaves the address as soon as it is read, so a projected screen never shows it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import streamlit as st

from ui.common.address import drop, forget_contexts, parameters, take, written
from ui.common.catalog import available_pages, entry
from ui.common.i18n import N_, _, language
from ui.common.i18n import STATE_KEY as LANGUAGE_KEY
from ui.common.setting import DECLARED
from ui.common.shell import ROOM_ALONE, ROOM_FOLLOWING
from ui.common.turns import fragment
from ui.workshop.push import served
from ui.workshop.rooms import (
    HOURS,
    LEAD_KEY,
    OWN,
    ROOM_KEY,
    Room,
    RoomError,
    Survey,
    View,
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
# The browser keeps its room, so that a reload or a lost worker (a new session) is back in it:
# the trainer's "CODE.SECRET", an attendee's "CODE".
LEAD_COOKIE, ROOM_COOKIE = "dpx_lead", "dpx_room"
ASKED, QUESTION = "room__asked", "room__question"  # the question's version seen, and it
FAILED = "room__failed"  # session state: why the last click on the room did nothing
OPEN = "room__open"  # session state: the strip is asked to open the room's view itself
NOTICE = "room__notice"  # session state: (a sentence for the strip, until when it shows it)
NOTICE_SECONDS = 10.0
LEAD_EVERY = 0.25  # seconds between two looks at the answers to the room's question
WATCH_EVERY = 0.5  # seconds between two looks at the room without its push (the fallback)
CATCH_UP_AFTER = 1.0  # seconds of quiet before a follower runs the page for a move it showed
ERRORS = {  # RoomError's code -> its sentence
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
        room = store().room(code) if code else None
    except RoomError as error:
        st.toast(said(error), icon=":material/error:")
        return
    if room is None or not room.open_at(time.time()):
        if linked:  # a link says so; an old cookie's closed room is passed over in silence
            drop(ROOM_KEY)
            st.toast(_("workshop.room.unknown", code=typed), icon=":material/meeting_room:")
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


def _beside(name: str) -> str:
    """A script or stylesheet kept beside this module."""
    return Path(__file__).with_name(name).read_text(encoding="utf-8")


# What every room page's one component does first (the trainer's ``dp_room_lead``, an
# attendee's ``dp_room_watch``: one element a run, not one per task).
# - The browser keeps the room's cookie for the room's hours (same site only; a projected
#   screen never shows a cookie): the trainer's "CODE.SECRET", an attendee's code.
# - A page whose worker died reconnects to another worker, as a new session that knows none of
#   the strip's timed fragments: their next runs are refused and the strip is gone for good.
#   So once a room's page has lost its server and is connected again, it loads itself afresh:
#   a whole run, where the address and the room cookies bring it back into the room.
_ROOM_JS = _beside("room.js")
_FORGET_JS = _ROOM_JS + _beside("room_forget.js")
# A room left or closed: the browser forgets its cookie.
_FORGET = st.components.v2.component("dp_room_forget", js=_FORGET_JS)


def _cookie(name: str, value: str | None) -> dict[str, Any]:
    """What the browser keeps: the room cookie ``name`` at ``value`` for the room's hours."""
    return {"name": name, "value": value, "seconds": int(HOURS * 3600)}


# Every page in a room has one of the room's components, which carry the room's styles. The room's
# scripts draw nothing: their places take no room above the page (a phone's first screen is
# the trainer's view). A question put to the room stays in sight wherever the page is
# scrolled: the projector's count at the bottom right, the attendee's box at the bottom.
_CSS = _beside("room.css")


# An attendee's browser holds the room's push (ui.workshop.push) open: a move of one live slider
# on the page it shows is shown at once (ui.common.live's ``__dpPush``) and the thumb moved
# there later (``__dpMove``: the page's own step), once the room has been quiet for ``quiet``
# seconds and at a moment spread over ``spread`` (this worker's followers would otherwise all
# run at once); a later move overtakes it. Another section is opened by its tab, anything else
# by opening the room's address (one run of that page), and a question or a closed room reruns
# the strip at once. Without the push (``streamlit run app.py``, or a proxy that refuses it) it
# asks the room's versions (ui.workshop.versions) every half second, as before, or a run of
# the strip at each look where that route is missing too: the strip then opens the view.
_WATCH_JS = _ROOM_JS + _beside("room_watch.js")
_WATCH = st.components.v2.component("dp_room_watch", js=_WATCH_JS, css=_CSS, isolate_styles=False)

# The trainer's browser publishes its view (ui.workshop.push) whenever its page or address
# changes, and as soon as a live slider's thumb is on a new stop (before the page's own run
# has written it to the address): looked at every ``every`` seconds, here, not by a run.
# Without the push routes (no ``url``) the strip publishes instead (``_leading``).
_LEAD_JS = _ROOM_JS + _beside("room_lead.js")
_LEAD = st.components.v2.component("dp_room_lead", js=_LEAD_JS, css=_CSS, isolate_styles=False)


def room_bar(page: str) -> None:
    """The room's strip above the page, for a session that leads or follows one."""
    state = st.session_state
    forget = state.pop(FORGET, None)
    if forget:
        _FORGET(key="room_forget", data=_cookie(forget, None), height=0)
    if LEADING in state:
        _leader(state[LEADING], page)
    elif FOLLOWING in state:
        _follower(state[FOLLOWING], page)


def _leader(code: str, page: str) -> None:
    """The trainer's strip: its browser publishes the view (``dp_room_lead``), the question's
    answers are counted live below."""
    state = st.session_state
    try:
        open_now = store().poll(code, time.time()) is not None
    except RoomError as error:
        st.warning(said(error), icon=":material/meeting_room:")
        return
    if not open_now:
        stop_leading()
        st.warning(said(RoomError("closed")), icon=":material/meeting_room:")
        return
    failed = failure()
    if failed:
        st.error(failed, icon=":material/error:")
    with st.container(horizontal=True, vertical_alignment="center", key="room_bar"):
        st.markdown(_("workshop.room.leading", code=code))
    data = {
        "url": f"_room/{code}/view" if served() else None,
        "cookie": _cookie(LEAD_COOKIE, f"{code}.{state[SECRET]}"),
    }
    _LEAD(key="room_lead", data=data, on_closed_change=lambda: None, height=0)
    _leading(code, page)


@fragment(run_every=LEAD_EVERY)
def _leading(code: str, page: str) -> None:
    """Four times a second: the question put to the room and its answers so far; and where no
    browser publishes the view (no push routes), the trainer's address made the room's."""
    state = st.session_state
    view = View.of(page, parameters())
    if not served() and state.get(SHOWN) != view:
        try:
            store().show(code, view, time.time())
        except RoomError as error:
            st.warning(said(error), icon=":material/meeting_room:")
            return
        state[SHOWN] = view
    question = _question(code, state.get(ASKED))
    if question is not None:
        from ui.workshop import asking, survey  # they draw in this strip

        (survey if isinstance(question, Survey) else asking).results(code, question)


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


@fragment
def _follower(code: str, page: str) -> None:
    state = st.session_state
    asked_to_open = state.pop(OPEN, False)  # by this run's trigger, or a join
    try:
        polled = store().poll(code, time.time())
        moved = polled is not None and polled[0] != state.get(SEEN) and not state.get(ALONE)
        room = store().room(code) if moved else None
    except RoomError as error:  # the store out of reach: say so, and look again
        _watch(code, None)
        st.warning(said(error), icon=":material/error:")
        return
    if polled is None:
        state.pop(FOLLOWING, None)
        state[FORGET] = ROOM_COOKIE
        st.warning(_("workshop.room.closed"), icon=":material/meeting_room:")
        return
    if room is not None and room.view is not None:
        _catch_up(code, room, page, asked_to_open)
    _watch(code, polled)
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
        from ui.workshop import asking, survey  # they draw in this strip

        (survey if isinstance(question, Survey) else asking).answer_box(code, question)


def _catch_up(code: str, room: Room, page: str, asked_to_open: bool) -> None:
    """The room's view moved since this session last took it on. Where the browser has
    opened it (this run's page and address are the view's: ``dp_room_watch`` navigated), the
    page's own settings are dropped before it runs, so that it takes every value from the
    address; where the strip is asked to (a join, the fallback without the push), it opens
    the view; else the browser shows the move itself and catches the page up with its own
    step (a live stop, a tab), and nothing is done here."""
    state = st.session_state
    if room.view == View.of(page, parameters()):
        _drop_settings()
    elif asked_to_open:
        state[SEEN] = room.version
        _open(code, room.view)
    else:
        return
    state[SEEN] = room.version


def _watch(code: str, polled: tuple[int, int] | None) -> None:
    """The browser's watch on the room: the view this session took on last, the question
    it knows (this run's ``polled`` versions)."""
    _view, asked = polled or (None, None)
    state = st.session_state
    data = {
        "code": code,
        "events": f"_room/{code}/events",
        "url": f"_room/{code}",
        "view": state.get(SEEN) if not state.get(ALONE) else None,
        "asked": asked,
        "alone": bool(state.get(ALONE)),
        "every": WATCH_EVERY,
        "quiet": CATCH_UP_AFTER,
        "cookie": _cookie(ROOM_COOKIE, code),
    }
    _WATCH(key="room_watch", data=data, on_moved_change=_asked_to_open, height=0)


def _explore_alone() -> None:
    st.session_state[ALONE] = True


def _follow_again() -> None:
    state = st.session_state
    state[ALONE], state[SEEN], state[OPEN] = False, 0, True


def _asked_to_open() -> None:
    """The browser's watch asks the strip to open the room's view (it cannot itself), or
    only to show the room's new question (then the view stays the browser's to catch up)."""
    told = getattr(st.session_state.get("room_watch"), "get", lambda _name: None)("moved")
    if not str(told or "").startswith("asked"):
        st.session_state[OPEN] = True


def _drop_settings() -> None:
    """Drop every setting this session holds (a setting the trainer left at its default is
    not in the address), so that the page takes each from the address."""
    state = st.session_state
    # one look at the whole state (list(state) would take two: its length, then its keys)
    dropped = [
        key for key in state if (key in DECLARED and key not in OWN) or key.endswith("__section")
    ]
    for key in dropped:
        del state[key]
    forget_contexts(key for key in DECLARED if key not in OWN)


def _open(code: str, view: View) -> None:
    """Open the trainer's view: the session's settings dropped, the page at that address."""
    _drop_settings()
    query = view.query()
    query[ROOM_KEY] = [code]
    query[LANGUAGE_KEY] = [language()]
    st.switch_page(entry(view.page).path, query_params=query)
