"""What a follower's browser asks about its room, without running the page.

    GET /_room/ABC234.TOKEN  ->  {"open": true, "view": 7, "asked": 2}   (or {"open": false})

TOKEN is the room's follow token (ui.workshop.rooms.follow_token), which only a session that
joined the room is given: without it the route answers as for a room that is not open, so it
tells a guess of codes nothing (guessing is limited where codes are typed).

A follower's page must learn within a second that the trainer showed something new. A page
run each second to find out costs its worker a script run per attendee and second (about
6 ms: a hundred followers keep half a core busy while the trainer stays put). So the room's
versions are also served by this route (serve.py mounts it beside the app, through
``st.App``): one read of the store (ui.workshop.store.poll) per request, and the browser
(ui.workshop.room_strip's watcher) reruns the strip only when a version moved.
"""

from __future__ import annotations

import time

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ui.workshop.rooms import RoomError, followed
from ui.workshop.store import store

PATH = "/_room/{code}"
NO_STORE = {"Cache-Control": "no-store"}


def versions(code: str, now: float) -> dict[str, object]:
    """The room's versions of its view and of its question, or that it is not open."""
    polled = store().poll(code, now)
    if polled is None:
        return {"open": False}
    return {"open": True, "view": polled[0], "asked": polled[1]}


async def _answer(request: Request) -> JSONResponse:
    code = followed(request.path_params["code"])
    if code is None:
        return JSONResponse({"open": False}, headers=NO_STORE)
    try:
        # A store call may wait on a file lock or the network: off the event loop.
        body = await run_in_threadpool(versions, code, time.time())
    except RoomError:
        return JSONResponse({"error": "unreachable"}, status_code=503, headers=NO_STORE)
    return JSONResponse(body, headers=NO_STORE)


ROUTE = Route(PATH, _answer, methods=["GET"])
