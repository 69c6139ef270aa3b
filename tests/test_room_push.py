"""The room's push (ui.workshop.push): the trainer's browser publishes the view with its
cookie, and each worker's one poller sends every change to the followers' open streams."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

import pytest
from starlette.applications import Starlette

from ui.workshop import push, room_cookies
from ui.workshop.rooms import Room, RoomError, View, follow_token, secret_hash
from ui.workshop.store import SqliteStore

CODE, SECRET = "ABC234", "s3cret"
LAPLACE = {"page": "laplace", "params": {"laplace_epsilon": ["0.5"], "seed": ["7"]}}


@pytest.fixture
def room_store(tmp_path, monkeypatch) -> SqliteStore:
    kept = SqliteStore(tmp_path / "rooms.sqlite")
    for module in (push, room_cookies):  # the view's store, and the trainer's cookie's
        monkeypatch.setattr(module, "store", lambda: kept)
    kept.open_room(Room(CODE, secret_hash(SECRET), time.time() + 3600))
    return kept


def test_the_trainers_cookie_publishes_the_view_and_nothing_else_does(room_store) -> None:
    now = time.time()
    version = push.publish(CODE, f"{CODE}.{SECRET}", LAPLACE, now)
    assert version == 1
    assert room_store.room(CODE).view == View.of("laplace", LAPLACE["params"])
    # The same view again is no new version (a follower would run for nothing).
    assert push.publish(CODE, f"{CODE}.{SECRET}", LAPLACE, now) == 1
    # What each person keeps never reaches the room: the trainer's language and presenter mode.
    mine = {"page": "laplace", "params": {**LAPLACE["params"], "lang": ["de"], "present": ["1"]}}
    assert push.publish(CODE, f"{CODE}.{SECRET}", mine, now) == 1
    for lead, code in ((f"{CODE}.wrong", "forbidden"), (None, "forbidden"),
                       (f"XYZ789.{SECRET}", "forbidden"), (f"{CODE}.", "forbidden")):  # fmt: skip
        with pytest.raises(RoomError) as refused:
            push.publish(CODE, lead, {"page": "gaussian", "params": {}}, now)
        assert refused.value.code == code
    for body in ({"page": "../etc", "params": {}}, {"page": "laplace", "params": {"x": 1}}, []):
        with pytest.raises(RoomError) as bad:
            push.publish(CODE, f"{CODE}.{SECRET}", body, now)
        assert bad.value.code == "bad_view"
    room_store.close(CODE, now)
    with pytest.raises(RoomError) as closed:
        push.publish(CODE, f"{CODE}.{SECRET}", LAPLACE, now + 1)
    assert closed.value.code == "closed"
    assert room_store.room(CODE).version == 1


def test_one_poller_sends_each_change_to_every_follower_of_the_room(room_store) -> None:
    """Three followers of one room on one worker: the store is read once per look, whatever
    their number; each change reaches all three (the newest only); a closed room too."""

    looked = []
    poll = room_store.poll
    room_store.poll = lambda code, now: looked.append(code) or poll(code, now)

    async def scenario() -> None:
        hub = push.Hub()
        queues = [hub.subscribe(CODE) for _ in range(3)]
        first = [await asyncio.wait_for(q.get(), 5) for q in queues]
        assert all(e == {**first[0]} for e in first)
        assert first[0]["open"] and first[0]["view"] == 0
        assert first[0]["spread"] == pytest.approx(3 * push.RUN_SECONDS)
        room_store.show(CODE, View("gaussian"), time.time())
        room_store.show(CODE, View.of("laplace", LAPLACE["params"]), time.time())
        events = [await asyncio.wait_for(q.get(), 5) for q in queues]
        assert {e["view"] for e in events} == {2}  # the newest view only
        assert events[0]["page"] == "laplace" and events[0]["params"] == LAPLACE["params"]
        polls, reads = hub.polls, len(looked)
        await asyncio.sleep(10 * push.POLL_EVERY)
        assert all(q.empty() for q in queues)  # nothing moved: nothing sent
        assert hub.polls > polls and len(looked) - reads == hub.polls - polls  # one read a look
        room_store.close(CODE, time.time())
        assert [await asyncio.wait_for(q.get(), 5) for q in queues] == [{"open": False}] * 3
        for queue in queues:
            hub.unsubscribe(CODE, queue)
        assert not hub.rooms
        await asyncio.sleep(3 * push.POLL_EVERY)
        assert hub._task.done()  # the poller stops with the room's last follower

    asyncio.run(scenario())


async def _call(
    app, method: str, path: str, body: bytes = b"", cookie: str = "", **more: str
) -> dict:
    """One ASGI request (with the header ``cookie`` and ``more`` headers, ``_`` for ``-``):
    its status, headers and body; for an event stream, the first event."""
    more |= {"cookie": cookie} if cookie else {}
    headers = [(k.replace("_", "-").encode(), v.encode()) for k, v in more.items()]
    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(),
             "query_string": b"", "headers": headers, "http_version": "1.1",
             "scheme": "http", "server": ("test", 80), "client": ("127.0.0.1", 1)}  # fmt: skip
    sent, done = [{"type": "http.request", "body": body, "more_body": False}], asyncio.Event()
    found: dict = {"body": b""}

    async def receive() -> dict:
        if sent:
            return sent.pop()
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            found["status"] = message["status"]
            found["headers"] = {k.decode(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            found["body"] += message.get("body", b"")
            if b"data:" in found["body"] and found["body"].endswith(b"\n\n"):
                done.set()

    task = asyncio.create_task(app(scope, receive, send))
    first = asyncio.create_task(done.wait())  # a stream never ends: its first event will do
    await asyncio.wait([task, first], timeout=5, return_when=asyncio.FIRST_COMPLETED)
    for pending in (task, first):
        pending.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return found


def test_the_routes_publish_and_stream_through_http(room_store, monkeypatch) -> None:
    monkeypatch.setattr(push, "HUB", push.Hub())
    monkeypatch.setattr(push, "_SERVED", [])  # mounting them here says this process serves
    app = Starlette(routes=push.routes())  # them: the page tests run after it would think so
    lead = f"dpx_lead={CODE}.{SECRET}"
    body = json.dumps(LAPLACE).encode()

    async def scenario() -> None:
        refused = await _call(app, "POST", f"/_room/{CODE}/view", body)
        assert refused["status"] == 403 and json.loads(refused["body"]) == {"error": "forbidden"}
        published = await _call(app, "POST", f"/_room/{CODE}/view", body, lead)
        assert published["status"] == 200 and json.loads(published["body"]) == {"view": 1}
        for bad in (b"{not json", b"x" * 20_000):
            assert (await _call(app, "POST", f"/_room/{CODE}/view", bad, lead))["status"] == 400
        # only with the room's follow token, which a session is given when it joins
        wrong = (f"{CODE}.{follow_token('XYZ789')}", f"{CODE}.{follow_token(CODE)[:-1]}")
        for path in (CODE, *wrong, f"{CODE}.é"):
            guessed = await _call(app, "GET", f"/_room/{path}/events")
            assert guessed["status"] == 404 and json.loads(guessed["body"]) == {"open": False}
        stream = await _call(app, "GET", f"/_room/{CODE.lower()}.{follow_token(CODE)}/events")
        assert stream["status"] == 200
        assert stream["headers"]["content-type"].startswith("text/event-stream")
        assert stream["headers"]["cache-control"] == "no-store"
        data = next(line for line in stream["body"].split(b"\n") if line.startswith(b"data:"))
        event = json.loads(data[5:])
        assert event["view"] == 1 and event["page"] == "laplace"
        assert (await _call(app, "GET", "/_room/nope/events"))["status"] == 404

    asyncio.run(scenario())
