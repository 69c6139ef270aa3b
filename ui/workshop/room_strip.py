"""The room's strip above every page of a session in a workshop room (ui.workshop.room).

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
An attendee may explore alone, and follow again in one click. The browser's scripts and the
strip's stylesheet are the room_*.js and room_strip.css files beside this module.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import streamlit as st

from ui.common.address import forget_settings, parameters
from ui.common.catalog import entry
from ui.common.i18n import STATE_KEY as LANGUAGE_KEY
from ui.common.i18n import _, language
from ui.common.turns import fragment
from ui.workshop.push import served
from ui.workshop.room import (
    ALONE,
    ASKED,
    FOLLOWING,
    FORGET,
    LEADING,
    NOTICE,
    OPEN,
    QUESTION,
    SECRET,
    SEEN,
    SHOWN,
    failure,
    said,
    stop_leading,
)
from ui.workshop.room_cookies import PATH as COOKIE_PATH
from ui.workshop.rooms import (
    HOURS,
    LEAD_COOKIE,
    OWN,
    ROOM_COOKIE,
    ROOM_KEY,
    Room,
    RoomError,
    Survey,
    View,
    followed_path,
)
from ui.workshop.store import store

LEAD_EVERY = 0.25  # seconds between two looks at the answers to the room's question
# Seconds between two looks for a question put from elsewhere (another of the trainer's tabs)
# while none is open: each look is a run, and a trainer's browser drew each of four a second
# (0.15-0.28 of a core, the projector's laptop, for nothing to show).
IDLE_EVERY = 2.0
WATCH_EVERY = 0.5  # seconds between two looks at the room without its push (the fallback)
CATCH_UP_AFTER = 1.0  # seconds of quiet before a follower runs the page for a move it showed


def _beside(name: str) -> str:
    """A script or stylesheet kept beside this module."""
    return Path(__file__).with_name(name).read_text(encoding="utf-8")


# What every room page's one component does first (the trainer's ``dp_room_lead``, an
# attendee's ``dp_room_watch``: one element a run, not one per task).
# - The browser keeps the room's cookie for the room's hours (same site only; a projected
#   screen never shows a cookie): the trainer's "CODE.SECRET", an attendee's code. Where
#   serve.py's routes are, the script asks ui.workshop.room_cookies to set it HttpOnly (no
#   script reads it then); under ``streamlit run app.py`` it keeps the cookie itself.
# - A page whose worker died reconnects to another worker, as a new session that knows none of
#   the strip's timed fragments: their next runs are refused and the strip is gone for good.
#   So once a room's page has lost its server and is connected again, it loads itself afresh:
#   a whole run, where the address and the room cookies bring it back into the room.
_ROOM_JS = _beside("room_strip.js")
_FORGET_JS = _ROOM_JS + _beside("room_forget.js")
# A room left or closed: the browser forgets its cookie.
_FORGET = st.components.v2.component("dp_room_forget", js=_FORGET_JS)


def _cookie(name: str, value: str | None) -> dict[str, Any]:
    """What the browser keeps: the room cookie ``name`` at ``value`` for the room's hours,
    set by the cookie route where it is served (``url``), else by the script."""
    url = COOKIE_PATH.lstrip("/") if served() else None  # relative, as the push's routes
    return {"name": name, "value": value, "seconds": int(HOURS * 3600), "url": url}


# Every page in a room has one of the room's components, which carry the room's styles. The room's
# scripts draw nothing: their places take no room above the page (a phone's first screen is
# the trainer's view). A question put to the room stays in sight wherever the page is
# scrolled: the projector's count at the bottom right, the attendee's box at the bottom.
_CSS = _beside("room_strip.css")


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
        polled = store().poll(code, time.time())
    except RoomError as error:
        st.warning(said(error), icon=":material/meeting_room:")
        return
    if polled is None:  # the room is closed
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
    (_leading if _quick(_question(code, state.get(ASKED), polled)) else _waiting)(code, page)


def _quick(question: Any) -> bool:
    """Whether the strip looks four times a second: while a question is open, or where no
    browser publishes the view (no push routes)."""
    return question is not None or not served()


@fragment(run_every=LEAD_EVERY)
def _leading(code: str, page: str) -> None:
    """Four times a second: the question put to the room and its answers so far; and where no
    browser publishes the view, the trainer's address made the room's."""
    _lead(code, page, looking=True)


@fragment(run_every=IDLE_EVERY)
def _waiting(code: str, page: str) -> None:
    """No question open: a look now and then, for one put from elsewhere."""
    _lead(code, page, looking=False)


def _lead(code: str, page: str, *, looking: bool) -> None:
    """The strip's look; where it looks at the wrong pace (``looking``: four times a second),
    as when a question was put or ended since the page's run chose it, the page runs again
    and chooses again."""
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
    if _quick(question) != looking:
        st.rerun(scope="app")
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
        from ui.workshop import asking  # it draws in this strip

        asking.send_unsent(code)
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
        forget_settings(keep=OWN)
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
        "events": f"_room/{followed_path(code)}/events",
        "url": f"_room/{followed_path(code)}",
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


def _open(code: str, view: View) -> None:
    """Open the trainer's view: the session's settings dropped, the page at that address."""
    forget_settings(keep=OWN)
    query = view.query()
    query[ROOM_KEY] = [code]
    query[LANGUAGE_KEY] = [language()]
    st.switch_page(entry(view.page).path, query_params=query)
