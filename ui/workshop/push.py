"""The room's view pushed to each follower's browser, and published by the trainer's browser.

    GET  /_room/ABC234/events   text/event-stream, one event per change of the room:
         data: {"open": true, "view": 7, "asked": 2, "page": "laplace",
                "params": {"laplace_epsilon": ["0.5"]}, "spread": 2.4}
    POST /_room/ABC234/view     {"page": "laplace", "params": {...}}, with the trainer's cookie
         -> {"view": 8}

A follower's page learns of the trainer's move as soon as the store holds it: each worker
looks at the store for all the rooms its browsers follow (one poller a worker, ``POLL_EVERY``)
and pushes what changed to every one of them (server-sent events: the browser keeps the
connection and opens it again when it drops). The browser then shows a move of a live slider
itself (ui.workshop.room_strip) and runs the page later, once per move (``spread``: the window in
which this worker's followers spread those runs, from how many it holds).

The trainer's browser publishes its view the moment its address (or a live slider's thumb)
changes, authenticated by the trainer cookie (``CODE.SECRET``, same site only), instead of a
page run looking at the address on a timer.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ui.workshop.room_cookies import led_room
from ui.workshop.rooms import (
    LEAD_COOKIE,
    MAX_VIEW_BYTES,
    RoomError,
    View,
    clean_code,
    followed,
)
from ui.workshop.store import store

POLL_EVERY = 0.1  # seconds between two looks at the store, for all of a worker's rooms
KEEP_ALIVE = 15.0  # seconds of silence before a comment line keeps the connection open
RUN_SECONDS = 0.05  # a follower's catch-up run (CPU): the spread is this times the followers
NO_STORE = {"Cache-Control": "no-store"}


def room_event(code: str, now: float) -> dict[str, object]:
    """What a follower is told of its room: its versions and the trainer's view, or that it
    is closed."""
    found = store().room(code)
    if found is None or not found.open_at(now):
        return {"open": False}
    view = found.view or View("home")
    return {"open": True, "view": found.version, "asked": found.asked, "page": view.page,
            "params": view.query()}  # fmt: skip


class Hub:
    """One worker's followers by room, and its one poller: the store read once per room and
    ``POLL_EVERY``, what changed sent to each follower's queue (the newest event only)."""

    def __init__(self) -> None:
        self.rooms: dict[str, set[asyncio.Queue]] = {}
        self.versions: dict[str, object] = {}
        self.events: dict[str, dict] = {}
        self.polls = 0
        self._task: asyncio.Task | None = None

    def subscribe(self, code: str) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue(maxsize=1)
        self.rooms.setdefault(code, set()).add(queue)
        if code in self.events:
            queue.put_nowait(self._with_spread(code, self.events[code]))
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._poll())
        return queue

    def unsubscribe(self, code: str, queue: asyncio.Queue) -> None:
        followers = self.rooms.get(code, set())
        followers.discard(queue)
        if not followers:
            self.rooms.pop(code, None)
            self.versions.pop(code, None)
            self.events.pop(code, None)

    def _with_spread(self, code: str, event: dict) -> dict:
        if not event.get("open"):
            return event
        return {**event, "spread": round(RUN_SECONDS * len(self.rooms.get(code, ())), 2)}

    def _read(self, codes: list[str], now: float) -> dict[str, dict]:
        """The events of the rooms whose versions moved since the last look (a thread)."""
        found = {}
        for code in codes:
            try:
                polled = store().poll(code, now)
                if polled is not None and polled == self.versions.get(code):
                    continue
                event = room_event(code, now) if polled is not None else {"open": False}
            except RoomError:
                polled, event = "unreachable", {"error": "unreachable"}
            if polled == self.versions.get(code):
                continue
            self.versions[code] = polled
            found[code] = event
        return found

    async def _poll(self) -> None:
        while self.rooms:
            found = await run_in_threadpool(self._read, list(self.rooms), time.time())
            self.polls += 1
            for code, event in found.items():
                self.events[code] = event
                for queue in self.rooms.get(code, ()):
                    _offer(queue, self._with_spread(code, event))
            await asyncio.sleep(POLL_EVERY)


def _offer(queue: asyncio.Queue, event: dict) -> None:
    """Queue ``event``, replacing one not yet sent: a follower needs the newest view only."""
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(event)


HUB = Hub()


async def _stream(request: Request, code: str) -> AsyncIterator[str]:
    queue = HUB.subscribe(code)
    try:
        yield "retry: 1000\n\n"
        while True:
            try:
                event = await asyncio.wait_for(queue.get(), KEEP_ALIVE)
            except TimeoutError:
                if await request.is_disconnected():
                    return
                yield ": still here\n\n"
                continue
            yield f"data: {json.dumps(event, separators=(',', ':'))}\n\n"
    finally:
        HUB.unsubscribe(code, queue)


async def _events(request: Request) -> Response:
    code = followed(request.path_params["code"])  # CODE.TOKEN, as ui.workshop.versions
    if code is None:
        return JSONResponse({"open": False}, status_code=404, headers=NO_STORE)
    headers = {**NO_STORE, "X-Accel-Buffering": "no"}
    return StreamingResponse(_stream(request, code), media_type="text/event-stream",
                             headers=headers)  # fmt: skip


def publish(code: str, lead: str | None, body: object, now: float) -> int:
    """Make ``body`` ({"page", "params"}) the room's view if ``lead`` ("CODE.SECRET", the
    trainer cookie) leads room ``code``; its new version. RoomError: "forbidden" for anyone
    else, "closed", "too_big", "bad_view"."""
    from ui.common.catalog import available_pages

    if lead is None or lead.partition(".")[0] != code:
        raise RoomError("forbidden")
    room = led_room(lead, now)
    view = View.loads(json.dumps(body)) if isinstance(body, dict) else None
    if view is None or view.page not in {e.url_path for e in available_pages()}:
        raise RoomError("bad_view")
    if view == room.view:
        return room.version
    return store().show(code, view, now)


STATUS = {"forbidden": 403, "closed": 410, "too_big": 413, "bad_view": 400}


async def _publish(request: Request) -> Response:
    code = clean_code(request.path_params["code"])
    raw = await request.body()
    if code is None or len(raw) > MAX_VIEW_BYTES:
        return JSONResponse({"error": "bad_view"}, status_code=400, headers=NO_STORE)
    try:
        body = json.loads(raw)
        lead = request.cookies.get(LEAD_COOKIE)
        version = await run_in_threadpool(publish, code, lead, body, time.time())
    except ValueError as error:  # RoomError, or a body that is not JSON
        reason = error.code if isinstance(error, RoomError) else "bad_view"
        status = STATUS.get(reason, 503)
        return JSONResponse({"error": reason}, status_code=status, headers=NO_STORE)
    return JSONResponse({"view": version}, headers=NO_STORE)


_SERVED = []  # not empty once the routes are mounted in this process (serve.py)


def routes() -> list[Route]:
    """The push and the publishing route, for serve.py to mount."""
    _SERVED.append(True)
    return [
        Route("/_room/{code}/events", _events, methods=["GET"]),
        Route("/_room/{code}/view", _publish, methods=["POST"]),
    ]


def served() -> bool:
    """Whether this process serves the routes: else (``streamlit run app.py``, AppTest) the
    trainer's strip publishes the view itself, from the address, four times a second."""
    return bool(_SERVED)
