"""The browser's room cookies, kept by the server where no page script can read them.

    POST /_room/cookie   {"name": "dpx_lead", "value": "ABC234.SECRET"}   -> 204, Set-Cookie
    POST /_room/cookie   {"name": "dpx_room", "value": null}               -> 204, forgotten

The trainer's cookie ("CODE.SECRET") leads its room, and an attendee's ("CODE") brings a
reloaded page back into it. A page script could read a cookie it set itself, and so could any
script the page ran; these are set by this route instead, HttpOnly and SameSite=Strict, for
the room's hours: only a request from the app's own pages is answered (``same_origin``), and
only for a room that is open and, for the trainer's, with its secret. serve.py
mounts the route; under ``streamlit run app.py`` there is none, and the page's script keeps
the cookies itself (ui.workshop.room_strip).
"""

from __future__ import annotations

import json
import time
from urllib.parse import urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ui.workshop.rooms import (
    HOURS,
    LEAD_COOKIE,
    ROOM_COOKIE,
    Room,
    RoomError,
    clean_code,
    leads,
)
from ui.workshop.store import store

PATH = "/_room/cookie"
NO_STORE = {"Cache-Control": "no-store"}
MAX_BODY = 512  # bytes: a name and "CODE.SECRET" take under a hundred
STATUS = {"forbidden": 403, "closed": 410, "bad_cookie": 400, "unreachable": 503}


def checked(name: object, value: object, now: float) -> str | None:
    """The value to keep for cookie ``name`` (None: forget it). RoomError "bad_cookie" for
    another name or value, "closed" for a room that is not open, "forbidden" for a trainer's
    cookie whose secret does not lead the room."""
    if name not in (LEAD_COOKIE, ROOM_COOKIE) or not isinstance(value, str | None):
        raise RoomError("bad_cookie")
    if value is None:
        return None
    typed, _dot, secret = value.partition(".") if name == LEAD_COOKIE else (value, "", "")
    code = clean_code(typed)
    if code is None or code != typed or (name == LEAD_COOKIE and not secret):
        raise RoomError("bad_cookie")
    if name == LEAD_COOKIE:
        led_room(value, now)
    else:
        _open_room(code, now)
    return value


def led_room(lead: str, now: float) -> Room:
    """The open room that ``lead`` ("CODE.SECRET", the trainer's cookie) leads. RoomError
    "closed" for a room that is not open, "forbidden" for a secret that does not lead it."""
    code, _dot, secret = lead.partition(".")
    room = _open_room(code, now)
    if not secret or not leads(secret, room.lead_hash):
        raise RoomError("forbidden")
    return room


def _open_room(code: str, now: float) -> Room:
    room = store().room(code)
    if room is None or not room.open_at(now):
        raise RoomError("closed")
    return room


def same_origin(request: Request) -> bool:
    """Whether the request comes from a page of this site: as the browser's Sec-Fetch-Site
    header says (which no page script can set), else where a browser sends none, as its
    Origin header says (the host asked, which a browser sends with every POST). Another
    site's page, a form or a script there, is refused."""
    fetched_from = request.headers.get("sec-fetch-site")
    if fetched_from is not None:
        return fetched_from == "same-origin"
    origin = request.headers.get("origin", "")
    return bool(origin) and urlsplit(origin).netloc == request.headers.get("host")


async def _keep(request: Request) -> Response:
    raw = await request.body()
    if not same_origin(request):
        return JSONResponse({"error": "forbidden"}, status_code=403, headers=NO_STORE)
    try:
        if len(raw) > MAX_BODY:
            raise RoomError("bad_cookie")
        body = json.loads(raw)
        if not isinstance(body, dict):
            raise RoomError("bad_cookie")
        name = body.get("name")
        # A store call may wait on a file lock or the network: off the event loop.
        value = await run_in_threadpool(checked, name, body.get("value"), time.time())
    except ValueError as error:  # RoomError, or a body that is not JSON
        reason = error.code if isinstance(error, RoomError) else "bad_cookie"
        return JSONResponse({"error": reason}, status_code=STATUS.get(reason, 503),
                            headers=NO_STORE)  # fmt: skip
    answer = Response(status_code=204, headers=NO_STORE)
    secure = request.url.scheme == "https"
    if value is None:
        answer.delete_cookie(name, path="/", secure=secure, httponly=True, samesite="strict")
    else:
        answer.set_cookie(name, value, max_age=int(HOURS * 3600), path="/", secure=secure,
                          httponly=True, samesite="strict")  # fmt: skip
    return answer


ROUTE = Route(PATH, _keep, methods=["POST"])
