"""Where the workers of a workshop keep what the room shares: rooms and the trainer's view.

Each Streamlit worker is its own process, so a room lives in a store they all reach, chosen by
``DP_EXPLORER_STORE`` (scripts/workshop.py sets it):

- ``sqlite:///path/rooms.sqlite`` (the default, in the system's temporary folder): one file on
  this machine, in WAL mode, so readers (every follower's poll) never wait for the writer;
- ``redis://host:6379/0``: a Redis server, for workers on several machines. Unless it appends
  every change to its file before it answers (``appendonly yes``, ``appendfsync always``), a
  restart of it loses answers: the workshop command says so at its start.

A follower polls ``poll`` about once a second: one indexed read (SQLite) or one HMGET (Redis).
Answers to a question are kept per (room, question, session token), the first one counting:
one answer per session per question, stored without identity.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable
from functools import cache, wraps
from pathlib import Path
from typing import Protocol, TypeVar

from ui.workshop.rooms import Question, Room, RoomError, Survey, View, loads_asked

ENV = "DP_EXPLORER_STORE"
F = TypeVar("F", bound=Callable)


def _unreachable_errors() -> tuple[type[Exception], ...]:
    try:
        from redis.exceptions import RedisError
    except ImportError:
        return (sqlite3.Error, OSError)
    return (sqlite3.Error, OSError, RedisError)


def guarded(method: F) -> F:
    """A store method whose failure to reach the store (a locked or unwritable file, Redis
    down) raises ``RoomError("unreachable")``, which the page says in a sentence."""

    @wraps(method)
    def call(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except _unreachable_errors():
            raise RoomError("unreachable") from None

    return call  # type: ignore[return-value]


class Store(Protocol):
    def open_room(self, room: Room) -> None:
        """Keep a new room; ``RoomError("taken")`` when an open room has its code."""

    def room(self, code: str) -> Room | None:
        """The room with ``code``, open or closed; None when there is none."""

    def show(self, code: str, view: View, now: float) -> int:
        """Make ``view`` the room's and return its new version; ``RoomError("closed")`` when
        the room is closed or unknown."""

    def poll(self, code: str, now: float) -> tuple[int, int] | None:
        """The versions of the room's view and of its question (cheap: what followers read
        every second); None when the room is closed or unknown."""

    def ask(self, code: str, question: Question | Survey | None, now: float) -> int:
        """Put ``question`` to the room (None: no question) and return the question's new
        version; ``RoomError("closed")`` when the room is closed or unknown."""

    def answer(self, code: str, question: str, voter: str, value: str) -> bool:
        """Keep one attendee's answer (``voter``: a token of their session, never shown);
        False when that session had answered this question already."""

    def answers(self, code: str, question: str) -> list[str]:
        """Every answer to the question, without who gave it."""

    def close(self, code: str, now: float) -> None:
        """Close the room now: followers are told, its links no longer open it."""

    def miss(self, now: float) -> None:
        """Count a code of no open room, named by any session of any worker at ``now``."""

    def misses(self, now: float) -> int:
        """The codes of no open room named in ``now``'s minute and the one before it."""


class SqliteStore:
    """Rooms in one SQLite file (WAL mode), a connection per thread."""

    SCHEMA = (
        """CREATE TABLE IF NOT EXISTS rooms (
        code TEXT PRIMARY KEY, lead_hash TEXT NOT NULL, closes REAL NOT NULL,
        version INTEGER NOT NULL DEFAULT 0, view TEXT,
        asked INTEGER NOT NULL DEFAULT 0, question TEXT)""",
        """CREATE TABLE IF NOT EXISTS answers (
        code TEXT NOT NULL, question TEXT NOT NULL, voter TEXT NOT NULL, value TEXT NOT NULL,
        PRIMARY KEY (code, question, voter)) WITHOUT ROWID""",
        "CREATE TABLE IF NOT EXISTS misses (minute INTEGER PRIMARY KEY, n INTEGER NOT NULL)",
    )

    @guarded
    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        path.parent.mkdir(parents=True, exist_ok=True)
        db = self._db()
        for statement in self.SCHEMA:
            db.execute(statement)
        columns = {row[1] for row in db.execute("PRAGMA table_info(rooms)")}
        for column, kind in (("asked", "INTEGER NOT NULL DEFAULT 0"), ("question", "TEXT")):
            if column not in columns:  # a store written before questions could be asked
                db.execute(f"ALTER TABLE rooms ADD COLUMN {column} {kind}")

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            self._local.db = db
        return db

    @guarded
    def open_room(self, room: Room) -> None:
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("DELETE FROM answers WHERE code IN "
                       "(SELECT code FROM rooms WHERE closes <= ?)", (time.time(),))  # fmt: skip
            db.execute("DELETE FROM rooms WHERE closes <= ?", (time.time(),))
            db.execute(
                "INSERT INTO rooms (code, lead_hash, closes) VALUES (?, ?, ?)",
                (room.code, room.lead_hash, room.closes),
            )
        except sqlite3.IntegrityError:
            db.execute("ROLLBACK")
            raise RoomError("taken") from None
        db.execute("COMMIT")

    @guarded
    def room(self, code: str) -> Room | None:
        row = (
            self._db()
            .execute(
                "SELECT lead_hash, closes, version, view, asked, question FROM rooms "
                "WHERE code = ?",
                (code,),
            )
            .fetchone()
        )
        if row is None:
            return None
        lead_hash, closes, version, view, asked, question = row
        shown = View.loads(view) if view else None
        return Room(code, lead_hash, closes, version, shown, asked, loads_asked(question))

    @guarded
    def show(self, code: str, view: View, now: float) -> int:
        row = (
            self._db()
            .execute(
                "UPDATE rooms SET version = version + 1, view = ? WHERE code = ? AND closes > ? "
                "RETURNING version",
                (view.dumps(), code, now),
            )
            .fetchone()
        )
        if row is None:
            raise RoomError("closed")
        return int(row[0])

    @guarded
    def poll(self, code: str, now: float) -> tuple[int, int] | None:
        row = (
            self._db()
            .execute("SELECT version, asked FROM rooms WHERE code = ? AND closes > ?", (code, now))
            .fetchone()
        )
        return None if row is None else (int(row[0]), int(row[1]))

    @guarded
    def ask(self, code: str, question: Question | Survey | None, now: float) -> int:
        row = (
            self._db()
            .execute(
                "UPDATE rooms SET asked = asked + 1, question = ? WHERE code = ? AND closes > ? "
                "RETURNING asked",
                (question.dumps() if question else None, code, now),
            )
            .fetchone()
        )
        if row is None:
            raise RoomError("closed")
        return int(row[0])

    @guarded
    def answer(self, code: str, question: str, voter: str, value: str) -> bool:
        cursor = self._db().execute(
            "INSERT OR IGNORE INTO answers (code, question, voter, value) VALUES (?, ?, ?, ?)",
            (code, question, voter, value),
        )
        return cursor.rowcount == 1

    @guarded
    def answers(self, code: str, question: str) -> list[str]:
        rows = self._db().execute(
            "SELECT value FROM answers WHERE code = ? AND question = ?", (code, question)
        )
        return [value for (value,) in rows]

    @guarded
    def close(self, code: str, now: float) -> None:
        self._db().execute("UPDATE rooms SET closes = ? WHERE code = ?", (now, code))

    @guarded
    def miss(self, now: float) -> None:
        minute, db = int(now // 60), self._db()
        db.execute("INSERT INTO misses (minute, n) VALUES (?, 1) "
                   "ON CONFLICT (minute) DO UPDATE SET n = n + 1", (minute,))  # fmt: skip
        db.execute("DELETE FROM misses WHERE minute < ?", (minute - 1,))

    @guarded
    def misses(self, now: float) -> int:
        minute = int(now // 60)
        row = self._db().execute(
            "SELECT COALESCE(SUM(n), 0) FROM misses WHERE minute BETWEEN ? AND ?",
            (minute - 1, minute),
        )
        return int(row.fetchone()[0])


# Set the view and bump its version in one step, only while the room exists (Redis expires it).
_SHOW = """if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('HSET', KEYS[1], 'view', ARGV[1])
return redis.call('HINCRBY', KEYS[1], 'version', 1)"""
# The same for the question put to the room ("" for none).
_ASK = """if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('HSET', KEYS[1], 'question', ARGV[1])
return redis.call('HINCRBY', KEYS[1], 'asked', 1)"""


class RedisStore:
    """Rooms as Redis hashes (``dpx:room:<code>``) that expire when the room closes."""

    def __init__(self, url: str) -> None:
        try:
            import redis
        except ImportError:  # requirements.txt has it; a trimmed install may not
            raise RoomError("no_redis") from None
        self._redis = redis.Redis.from_url(url, decode_responses=True)
        self._show = self._redis.register_script(_SHOW)
        self._ask = self._redis.register_script(_ASK)

    @staticmethod
    def _key(code: str) -> str:
        return f"dpx:room:{code}"

    @guarded
    def writes_every_change(self) -> bool | None:
        """Whether the server appends every change to its file before it answers (``appendonly
        yes``, ``appendfsync always``): then even a kill loses nothing stored (``everysec``
        loses up to a second, no file all since the last save). None: it does not say."""
        from redis.exceptions import ResponseError

        try:
            found = self._redis.config_get("append*")
        except ResponseError:  # an unknown or forbidden command
            return None
        return found.get("appendonly") == "yes" and found.get("appendfsync") == "always"

    @guarded
    def open_room(self, room: Room) -> None:
        key = self._key(room.code)
        if not self._redis.hsetnx(key, "lead_hash", room.lead_hash):
            raise RoomError("taken")
        with self._redis.pipeline() as pipe:
            pipe.hset(key, mapping={"closes": repr(room.closes), "version": 0, "asked": 0})
            pipe.expireat(key, int(room.closes) + 1)
            pipe.execute()

    @guarded
    def room(self, code: str) -> Room | None:
        found = self._redis.hgetall(self._key(code))
        if not found or "closes" not in found:
            return None
        view = View.loads(found["view"]) if "view" in found else None
        closes, version = float(found["closes"]), int(found.get("version", 0))
        question = loads_asked(found.get("question"))
        asked = int(found.get("asked", 0))
        return Room(code, found["lead_hash"], closes, version, view, asked, question)

    @guarded
    def show(self, code: str, view: View, now: float) -> int:
        room = self.room(code)
        if room is None or not room.open_at(now):
            raise RoomError("closed")
        version = int(self._show(keys=[self._key(code)], args=[view.dumps()]))
        if version < 0:
            raise RoomError("closed")
        return version

    @guarded
    def poll(self, code: str, now: float) -> tuple[int, int] | None:
        version, asked = self._redis.hmget(self._key(code), "version", "asked")
        return None if version is None else (int(version), int(asked or 0))  # gone once closed

    @guarded
    def ask(self, code: str, question: Question | Survey | None, now: float) -> int:
        room = self.room(code)
        if room is None or not room.open_at(now):
            raise RoomError("closed")
        asked = int(self._ask(keys=[self._key(code)], args=[question.dumps() if question else ""]))
        if asked < 0:
            raise RoomError("closed")
        return asked

    def _answers_key(self, code: str, question: str) -> str:
        return f"dpx:answers:{code}:{question}"

    @guarded
    def answer(self, code: str, question: str, voter: str, value: str) -> bool:
        key = self._answers_key(code, question)
        counted = bool(self._redis.hsetnx(key, voter, value))
        closes = self._redis.hget(self._key(code), "closes")
        if counted and closes is not None:
            self._redis.expireat(key, int(float(closes)) + 1)
        return counted

    @guarded
    def answers(self, code: str, question: str) -> list[str]:
        return list(self._redis.hvals(self._answers_key(code, question)))

    @guarded
    def close(self, code: str, now: float) -> None:
        self._redis.delete(self._key(code))

    @guarded
    def miss(self, now: float) -> None:
        key = f"dpx:misses:{int(now // 60)}"
        with self._redis.pipeline() as pipe:
            pipe.incr(key)
            pipe.expire(key, 180)  # kept while a window (this minute and the next) holds it
            pipe.execute()

    @guarded
    def misses(self, now: float) -> int:
        minute = int(now // 60)
        found = self._redis.mget(f"dpx:misses:{minute - 1}", f"dpx:misses:{minute}")
        return sum(int(n) for n in found if n)


def durability_warning(url: str | None) -> str | None:
    """What scripts/workshop.py says at its start of a Redis store that may lose answers
    when it restarts (``RedisStore.writes_every_change``); None for SQLite, where what is
    stored is on disk (WAL: a killed process loses nothing committed)."""
    if not url or not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    try:
        durable = RedisStore(url).writes_every_change()
    except RoomError as error:
        if error.code == "no_redis":
            return "The redis package is missing: pip install -r requirements.txt installs it."
        return f"The Redis at {url} cannot be reached: no room can open until it can."
    if durable:
        return None
    if durable is None:
        return (f"The Redis at {url} does not say how it keeps what it stores (CONFIG GET is "
                "refused): unless it has 'appendonly yes' and 'appendfsync always', a restart "
                "of it may lose the rooms' answers.")  # fmt: skip
    return (f"The Redis at {url} does not write every change to disk before it answers: if "
            "it restarts, the rooms' answers since its last save are lost. Set "
            "'appendonly yes' and 'appendfsync always' in its redis.conf.")  # fmt: skip


def default_path() -> Path:
    return Path(tempfile.gettempdir()) / "dp-explorer" / "rooms.sqlite"


def open_store(url: str | None) -> Store:
    """The store at ``url`` (see the module); SQLite in the temporary folder without one."""
    if not url:
        return SqliteStore(default_path())
    if url.startswith("sqlite:///"):
        return SqliteStore(Path(url.removeprefix("sqlite://")))
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisStore(url)
    raise RoomError("bad_store")


@cache
def store() -> Store:
    """This process's store (``DP_EXPLORER_STORE``)."""
    return open_store(os.environ.get(ENV))
