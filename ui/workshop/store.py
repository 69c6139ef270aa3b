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
import weakref
from functools import cache
from pathlib import Path
from typing import Protocol

from ui.workshop.redis_store import RedisStore
from ui.workshop.rooms import Question, Room, RoomError, Survey, View, loads_asked
from ui.workshop.unreachable import guarded

ENV = "DP_EXPLORER_STORE"


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


class _Lease:
    """A pooled connection held by one thread, given back when the thread ends (its
    ``threading.local`` is cleared then)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db


class SqliteStore:
    """Rooms in one SQLite file (WAL mode). A thread holds a connection of the store's pool
    until it ends: Streamlit runs each script run in a thread of its own, so a connection per
    thread was a connection opened (and its pages read afresh) at every run that touched the
    room, left for the garbage collector (a connection and its statement cache form a cycle):
    10 to 35 of them in each worker at once during a workshop (bench_soak)."""

    IDLE = 8  # connections kept for the next threads; more are closed when given back

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
        self._idle: list[sqlite3.Connection] = []
        self._idle_lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        db = self._db()
        for statement in self.SCHEMA:
            db.execute(statement)
        columns = {row[1] for row in db.execute("PRAGMA table_info(rooms)")}
        for column, kind in (("asked", "INTEGER NOT NULL DEFAULT 0"), ("question", "TEXT")):
            if column not in columns:  # a store written before questions could be asked
                db.execute(f"ALTER TABLE rooms ADD COLUMN {column} {kind}")

    def _db(self) -> sqlite3.Connection:
        """This thread's connection: an idle one of the pool, or a new one, held until the
        thread ends (only one thread uses a connection at a time)."""
        lease = getattr(self._local, "lease", None)
        if lease is None:
            with self._idle_lock:
                db = self._idle.pop() if self._idle else None
            if db is None:
                db = sqlite3.connect(
                    self.path, timeout=10.0, isolation_level=None, check_same_thread=False
                )
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
            lease = self._local.lease = _Lease(db)
            weakref.finalize(lease, self._give_back, db)
        return lease.db

    def _give_back(self, db: sqlite3.Connection) -> None:
        """A connection whose thread has ended, back in the pool (a transaction it left open
        rolled back), or closed when IDLE are waiting already."""
        try:
            if db.in_transaction:
                db.execute("ROLLBACK")
        except sqlite3.Error:
            db.close()
            return
        with self._idle_lock:
            if len(self._idle) < self.IDLE:
                self._idle.append(db)
                return
        db.close()

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
