"""The room's versions route (ui.workshop.versions) that a follower's browser asks each half
second, and serve.py, which mounts it beside the app through st.App."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from starlette.requests import Request

from ui.workshop import versions
from ui.workshop.rooms import (
    FOLLOW_KEY_ENV,
    Question,
    Room,
    RoomError,
    View,
    clean_code,
    follow_token,
    secret_hash,
)
from ui.workshop.store import SqliteStore

ROOT = Path(__file__).resolve().parent.parent


def ask(path: str) -> tuple[int, dict, str]:
    """GET /_room/<path> through the route's own endpoint: (status, body, Cache-Control)."""
    request = Request({"type": "http", "method": "GET", "path_params": {"code": path},
                       "headers": [], "query_string": b""})  # fmt: skip
    response = asyncio.run(versions.ROUTE.endpoint(request))
    return response.status_code, json.loads(response.body), response.headers["cache-control"]


def joined(typed: str) -> str:
    """What a session that joined the room ``typed`` names asks: CODE.TOKEN."""
    return f"{typed}.{follow_token(clean_code(typed) or '')}"


@pytest.fixture
def room_store(tmp_path, monkeypatch) -> SqliteStore:
    kept = SqliteStore(tmp_path / "rooms.sqlite")
    monkeypatch.setattr(versions, "store", lambda: kept)
    return kept


def test_the_route_follows_the_rooms_versions(room_store) -> None:
    now = time.time()
    room_store.open_room(Room("ABC234", secret_hash("s"), now + 3600))
    assert ask(joined("ABC234")) == (200, {"open": True, "view": 0, "asked": 0}, "no-store")
    room_store.show("ABC234", View("laplace", (("laplace_epsilon", ("2",)),)), now)
    room_store.show("ABC234", View("gaussian"), now)
    room_store.ask("ABC234", Question.ask("laplace_scale", 1.0), now)
    # A code as typed on a phone is the same room.
    assert ask(joined("abc-234"))[1] == {"open": True, "view": 2, "asked": 1}
    room_store.close("ABC234", now)
    assert ask(joined("ABC234")) == (200, {"open": False}, "no-store")


def test_without_the_rooms_follow_token_an_open_room_is_not_open(room_store) -> None:
    """Codes guessed at speed against the route, where no join limits them: an open room
    with no token, another room's or a wrong one answers as an unknown code does."""
    room_store.open_room(Room("ABC234", secret_hash("s"), time.time() + 3600))
    wrong = follow_token("ABC234")[:-1] + ("1" if follow_token("ABC234")[-1] == "0" else "0")
    for path in ("ABC234", "ABC234.", f"ABC234.{follow_token('XYZ789')}", f"ABC234.{wrong}",
                 "ABC234." + "x" * 5000, "ABC234.é", "ABC234.\u202e" + "a" * 31):  # fmt: skip
        assert ask(path) == (200, {"open": False}, "no-store")
    assert ask(joined("ABC234"))[1]["open"] is True


@pytest.mark.parametrize("typed", ["ZZZZZZ", "abc", "ABC23O", "../../etc", "x" * 500])
def test_an_unknown_or_malformed_code_is_a_closed_room(room_store, typed) -> None:
    assert ask(joined(typed)) == (200, {"open": False}, "no-store")


def test_a_store_out_of_reach_is_a_503(monkeypatch) -> None:
    class Down:
        def poll(self, code: str, now: float) -> None:
            raise RoomError("unreachable")

    monkeypatch.setattr(versions, "store", lambda: Down())
    assert ask(joined("ABC234")) == (503, {"error": "unreachable"}, "no-store")


def test_serve_py_answers_the_route_and_the_app(tmp_path) -> None:
    """`streamlit run serve.py` (the README's command) serves the pages and the route."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    key = secrets.token_hex(32)  # as the workshop command gives its workers
    env = {**os.environ, "DP_EXPLORER_STORE": f"sqlite:///{tmp_path / 'rooms.sqlite'}",
           FOLLOW_KEY_ENV: key}  # fmt: skip
    token = hmac.new(bytes.fromhex(key), b"XYZ789", hashlib.sha256).hexdigest()[:32]
    SqliteStore(tmp_path / "rooms.sqlite").open_room(
        Room("XYZ789", secret_hash("s"), time.time() + 3600)
    )
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "serve.py", "--server.port", str(port),
         "--server.headless", "true", "--server.address", "127.0.0.1"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        base, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=5) as answer:
                    assert answer.read() == b"ok"
                    break
            except OSError:  # not listening yet, or slow on a busy machine: ask again
                assert server.poll() is None and time.monotonic() < deadline
                time.sleep(0.3)
        with urllib.request.urlopen(f"{base}/_room/XYZ789.{token}", timeout=60) as answer:
            assert json.loads(answer.read()) == {"open": True, "view": 0, "asked": 0}
        with urllib.request.urlopen(f"{base}/_room/XYZ789", timeout=60) as answer:
            assert json.loads(answer.read()) == {"open": False}  # a guess, without the token
        with urllib.request.urlopen(f"{base}/laplace", timeout=60) as answer:
            assert b'<div id="root">' in answer.read()
    finally:
        server.terminate()
        server.wait(timeout=20)
