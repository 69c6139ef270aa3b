"""The room cookies set by the server (ui.workshop.room_cookies): HttpOnly and SameSite=Strict,
for the app's own pages only, for an open room only, and the trainer's with its secret only."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from starlette.applications import Starlette
from test_room_push import _call

from ui.workshop import room_cookies
from ui.workshop.rooms import HOURS, LEAD_COOKIE, ROOM_COOKIE, Room, secret_hash
from ui.workshop.store import SqliteStore

CODE, SECRET, HOST = "ABC234", "s3cret", "room.example:8500"
OWN_PAGE = {"host": HOST, "origin": f"http://{HOST}"}


@pytest.fixture
def app(tmp_path, monkeypatch) -> Starlette:
    kept = SqliteStore(tmp_path / "rooms.sqlite")
    monkeypatch.setattr(room_cookies, "store", lambda: kept)
    kept.open_room(Room(CODE, secret_hash(SECRET), time.time() + 3600))
    kept.open_room(Room("XYZ789", secret_hash("other"), time.time() - 1))  # closed: its hours
    return Starlette(routes=[room_cookies.ROUTE])


def _keep(app: Starlette, body: object, **headers: str) -> dict:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return asyncio.run(_call(app, "POST", room_cookies.PATH, raw, **headers))


def test_the_trainers_and_an_attendees_cookies_are_set_httponly_for_the_rooms_hours(app):
    for name, value in ((LEAD_COOKIE, f"{CODE}.{SECRET}"), (ROOM_COOKIE, CODE)):
        answer = _keep(app, {"name": name, "value": value}, **OWN_PAGE)
        assert answer["status"] == 204
        cookie = answer["headers"]["set-cookie"]
        parts = [part.strip().lower() for part in cookie.split(";")]
        assert parts[0] == f"{name}={value}".lower()
        assert {"httponly", "samesite=strict", "path=/", f"max-age={int(HOURS * 3600)}"} <= set(
            parts
        )
        assert "secure" not in parts  # plain http (a hall's own network): else also Secure
        forgotten = _keep(app, {"name": name, "value": None}, **OWN_PAGE)
        assert forgotten["status"] == 204
        assert "max-age=0" in forgotten["headers"]["set-cookie"].lower()
    # behind a proxy that writes its own Host, the browser's Sec-Fetch-Site still says so
    proxied = {
        "host": "10.0.0.5:8501",
        "origin": f"https://{HOST}",
        "sec_fetch_site": "same-origin",
    }
    assert _keep(app, {"name": ROOM_COOKIE, "value": CODE}, **proxied)["status"] == 204


@pytest.mark.parametrize(
    ("headers", "body", "status"),
    [
        # another site's page (a form or a script there): no cookie of this host is set
        ({"host": HOST, "origin": "https://elsewhere.example"}, (ROOM_COOKIE, CODE), 403),
        ({"host": HOST}, (ROOM_COOKIE, CODE), 403),  # no Origin: not a page's request
        ({"host": HOST, "origin": "null"}, (ROOM_COOKIE, CODE), 403),  # a sandboxed frame
        # the browser's own word, where it gives it, over Origin and Host
        ({**OWN_PAGE, "sec_fetch_site": "cross-site"}, (ROOM_COOKIE, CODE), 403),
        ({**OWN_PAGE, "sec_fetch_site": "same-site"}, (ROOM_COOKIE, CODE), 403),
        # the trainer's cookie only with the room's secret
        (OWN_PAGE, (LEAD_COOKIE, f"{CODE}.wrong"), 403),
        (OWN_PAGE, (LEAD_COOKIE, f"{CODE}."), 400),
        (OWN_PAGE, (LEAD_COOKIE, CODE), 400),
        # only an open room, its code as the app writes it
        (OWN_PAGE, (ROOM_COOKIE, "XYZ789"), 410),
        (OWN_PAGE, (ROOM_COOKIE, "ZZZZZZ"), 410),
        (OWN_PAGE, (ROOM_COOKIE, "abc234"), 400),
        (OWN_PAGE, (ROOM_COOKIE, "ABC234; domain=.example"), 400),
        (OWN_PAGE, (ROOM_COOKIE, 7), 400),
        (OWN_PAGE, ("dpx_worker", "w2"), 400),  # HAProxy's own cookie is not ours to set
        (OWN_PAGE, ("session", CODE), 400),
    ],
)
def test_a_cookie_is_refused_to_another_site_a_wrong_secret_and_anything_not_a_room(
    app, headers, body, status
):
    answer = _keep(app, {"name": body[0], "value": body[1]}, **headers)
    assert answer["status"] == status, answer
    assert "set-cookie" not in answer["headers"]


@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b'"dpx_room"', b" " * 600])
def test_a_body_that_is_not_a_cookie_is_refused(app, raw):
    answer = _keep(app, raw, **OWN_PAGE)
    assert answer["status"] == 400 and "set-cookie" not in answer["headers"]
