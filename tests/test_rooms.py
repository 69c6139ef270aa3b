"""Workshop rooms: codes, secrets and views (ui.workshop.rooms), and the two stores that keep
them for every worker (ui.workshop.store): SQLite in WAL mode and a real redis-server."""

from __future__ import annotations

import json
import multiprocessing
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ui.workshop.redis_store import RedisStore, durability_warning
from ui.workshop.rooms import (
    ALPHABET,
    CODE_LENGTH,
    MAX_VIEW_BYTES,
    Room,
    RoomError,
    View,
    clean_code,
    leads,
    new_code,
    new_secret,
    secret_hash,
)
from ui.workshop.store import SqliteStore, Store, open_store

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_redis(port: int, folder: Path, *options: str) -> subprocess.Popen:
    """Debian's redis-server (scripts/test.sh installs it) on ``port``, keeping its files in
    ``folder``, once it answers."""
    server = subprocess.Popen(
        [REDIS, "--port", str(port), "--dir", str(folder), *options], stdout=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.1)


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory) -> Iterator[str]:
    """A Redis that keeps nothing on disk, on a free port, for this module."""
    port, folder = free_port(), tmp_path_factory.mktemp("redis")
    server = start_redis(port, folder, "--save", "", "--appendonly", "no")
    yield f"redis://127.0.0.1:{port}/0"
    server.terminate()
    server.wait(timeout=10)


@pytest.fixture(params=["sqlite", "redis"])
def store(request, tmp_path) -> Store:
    if request.param == "sqlite":
        return SqliteStore(tmp_path / "rooms.sqlite")
    return RedisStore(request.getfixturevalue("redis_url"))


def a_room(hours: float = 1.0) -> tuple[Room, str]:
    secret = new_secret()
    return Room(new_code(), secret_hash(secret), time.time() + hours * 3600), secret


def test_codes_are_short_unambiguous_and_read_back_however_typed() -> None:
    codes = {new_code() for _ in range(2000)}
    assert len(codes) == 2000  # 31^6 codes: a repeat in 2000 draws has chance ~2e-3
    for code in codes:
        assert len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)
        assert not set(code) & set("0O1IL")
        assert clean_code(code.lower()) == code
        assert clean_code(f" {code[:3]}-{code[3:]} ") == code
    assert clean_code("ABC12") is None  # too short
    assert clean_code("ABCDE0") is None  # 0 is never in a code
    assert clean_code("") is None


def test_a_secret_leads_only_its_own_room() -> None:
    secret = new_secret()
    assert len(secret) >= 43  # 32 random bytes
    kept = secret_hash(secret)
    assert secret not in kept and leads(secret, kept)
    assert not leads(new_secret(), kept)
    assert not leads(secret[:-1], kept)


def test_a_view_keeps_the_address_less_what_each_person_keeps() -> None:
    params = {"laplace_epsilon": ["0.5"], "lang": ["de"], "present": ["1"], "room": ["ABCDEF"],
              "lead": ["secret"], "bounding_groups": ["a", "b"], "empty": []}  # fmt: skip
    view = View.of("laplace", params)
    assert view.query() == {"bounding_groups": ["a", "b"], "laplace_epsilon": ["0.5"]}
    assert View.loads(view.dumps()) == view
    assert View.of("laplace", dict(reversed(params.items()))) == view  # order does not matter


UNREADABLE = ["", "[]", "{}", '{"page": 3, "params": {}}', '{"page": "x", "params": {"a": "b"}}',
              '{"page": "x", "params": {"a": [1]}}', "not json"]  # fmt: skip


@pytest.mark.parametrize("kept", UNREADABLE)
def test_a_view_the_store_cannot_read_is_none(kept: str) -> None:
    assert View.loads(kept) is None


def test_a_view_too_large_to_share_is_refused() -> None:
    view = View.of("bounding", {"bounding_groups": ["x" * 100] * (MAX_VIEW_BYTES // 100)})
    with pytest.raises(RoomError) as error:
        view.dumps()
    assert error.value.code == "too_big"


def test_a_room_opens_once_shows_views_in_order_and_closes(store: Store) -> None:
    room, _secret = a_room()
    store.open_room(room)
    with pytest.raises(RoomError) as taken:
        store.open_room(room)
    assert taken.value.code == "taken"
    kept = store.room(room.code)
    assert kept is not None and kept.lead_hash == room.lead_hash and kept.view is None
    assert kept.closes == pytest.approx(room.closes)
    now = time.time()
    assert store.poll(room.code, now) == (0, 0)
    first, second = View.of("laplace", {"laplace_epsilon": ["0.5"]}), View.of("gaussian", {})
    assert store.show(room.code, first, now) == 1
    assert store.show(room.code, second, now) == 2
    kept = store.room(room.code)
    assert kept is not None and (kept.version, kept.view) == (2, second)
    store.close(room.code, time.time())
    assert store.poll(room.code, time.time()) is None
    with pytest.raises(RoomError) as closed:
        store.show(room.code, first, time.time())
    assert closed.value.code == "closed"


def test_an_unknown_or_expired_room_cannot_be_shown_to(store: Store) -> None:
    assert store.room("ZZZZZZ") is None
    assert store.poll("ZZZZZZ", time.time()) is None
    with pytest.raises(RoomError):
        store.show("ZZZZZZ", View.of("home", {}), time.time())
    room, _secret = a_room(hours=-1 / 3600)  # closed a second ago
    if isinstance(store, SqliteStore):  # Redis would not even keep it: expired on arrival
        store.open_room(room)
        assert store.poll(room.code, time.time()) is None
        with pytest.raises(RoomError):
            store.show(room.code, View.of("home", {}), time.time())


def _show_many(url: str, code: str, times: int) -> None:
    store = open_store(url)
    for i in range(times):
        store.show(code, View.of("laplace", {"laplace_epsilon": [str(i)]}), time.time())


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_workers_showing_at_once_lose_no_version(kind: str, tmp_path, request) -> None:
    """Three processes (workers) each show 40 views: the version counts all 120."""
    url = f"sqlite:///{tmp_path / 'rooms.sqlite'}" if kind == "sqlite" else None
    url = url or request.getfixturevalue("redis_url")
    room, _secret = a_room()
    open_store(url).open_room(room)
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_show_many, args=(url, room.code, 40)) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    assert open_store(url).poll(room.code, time.time()) == (120, 0)


def test_each_run_of_a_page_reuses_a_connection_of_the_pool(tmp_path: Path) -> None:
    """Streamlit runs every script run in a new thread: 30 runs one after another, each
    polling the room, open one connection between them (a connection per thread opened 30);
    a run that ends inside a transaction leaves none open for the next."""
    store = SqliteStore(tmp_path / "rooms.sqlite")
    room = a_room()[0]
    store.open_room(room)
    used: list[int] = []
    in_transaction: list[bool] = []
    polled: list[tuple[int, int] | None] = []

    def run(transaction: bool = False) -> None:
        in_transaction.append(store._db().in_transaction)
        polled.append(store.poll(room.code, time.time()))
        used.append(id(store._db()))
        if transaction:
            store._db().execute("BEGIN IMMEDIATE")

    for index in range(30):
        thread = threading.Thread(target=run, args=(index == 10,))
        thread.start()
        thread.join()
    assert polled == [(0, 0)] * 30
    assert len(set(used)) == 1  # this thread holds its own since the store was opened
    assert not any(in_transaction)
    barrier = threading.Barrier(3, timeout=30)

    def held() -> None:  # three runs at once each hold a connection of their own
        used.append(id(store._db()))
        barrier.wait()

    together = [threading.Thread(target=held) for _ in range(3)]
    for thread in together:
        thread.start()
    for thread in together:
        thread.join()
    assert len(set(used[-3:])) == 3


def test_sqlite_keeps_rooms_in_wal_mode(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "rooms.sqlite")
    store.open_room(a_room()[0])
    mode = store._db().execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_a_store_out_of_reach_is_a_room_error_not_a_traceback(tmp_path: Path) -> None:
    with pytest.raises(RoomError) as error:
        SqliteStore(Path("/proc/no-such-place/rooms.sqlite"))
    assert error.value.code == "unreachable"
    down = RedisStore(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    with pytest.raises(RoomError) as error:
        down.poll("ABCDEF", time.time())
    assert error.value.code == "unreachable"
    with pytest.raises(RoomError) as error:
        open_store("mysql://somewhere")
    assert error.value.code == "bad_store"


def test_the_store_keeps_the_secrets_hash_not_the_secret(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "rooms.sqlite")
    room, secret = a_room()
    store.open_room(room)
    store.show(room.code, View.of("home", {"seed": ["1"]}), time.time())
    dump = "\n".join(store._db().iterdump())
    assert secret not in dump and room.lead_hash in dump
    assert json.loads(store._db().execute("SELECT view FROM rooms").fetchone()[0])["page"] == "home"


# Another process holds the SQLite file's write lock (a backup tool, a second workshop
# command on the same file) until it reads a line, then commits.
HOLD_LOCK = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
db.execute("UPDATE rooms SET version = version")
print("locked", flush=True)
sys.stdin.readline()
db.execute("COMMIT")
"""


def _lock_sqlite(path: Path) -> subprocess.Popen:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "locked"
    return holder


def test_a_sqlite_file_locked_for_5_s_delays_answers_and_loses_none(tmp_path: Path) -> None:
    """The file locked by another process for 5 s: followers' polls go on answering (WAL
    readers never wait for a writer), and an answer sent meanwhile waits for the lock and
    is stored (the store's busy timeout is 10 s), not refused."""
    path = tmp_path / "rooms.sqlite"
    store = SqliteStore(path)
    room, _secret = a_room()
    store.open_room(room)
    holder = _lock_sqlite(path)
    threading.Timer(5.0, lambda: (holder.stdin.write("go\n"), holder.stdin.flush())).start()
    began = time.monotonic()
    assert store.poll(room.code, time.time()) == (0, 0)
    assert time.monotonic() - began < 3.0, "a poll waited for the writer's lock"
    assert store.answer(room.code, "q1", "voter", "yes") is True
    assert time.monotonic() - began >= 4.5  # it waited for the lock, and was stored after it
    assert holder.wait(timeout=10) == 0
    assert SqliteStore(path).answers(room.code, "q1") == ["yes"]


def test_a_sqlite_file_locked_past_the_timeout_is_said_not_raised(tmp_path: Path) -> None:
    """Past the busy timeout the answer is refused with the store's sentence (the attendee's
    box stays, to send again), and the next one after the lock is stored."""
    path = tmp_path / "rooms.sqlite"
    store = SqliteStore(path)
    room, _secret = a_room()
    store.open_room(room)
    store._db().execute("PRAGMA busy_timeout = 300")  # the 10 s timeout, shortened for the test
    holder = _lock_sqlite(path)
    with pytest.raises(RoomError) as error:
        store.answer(room.code, "q1", "voter", "yes")
    assert error.value.code == "unreachable"
    holder.stdin.write("go\n")
    holder.stdin.flush()
    assert holder.wait(timeout=10) == 0
    assert store.answer(room.code, "q1", "voter", "yes") is True
    assert store.answers(room.code, "q1") == ["yes"]


DURABLE = ("--save", "", "--appendonly", "yes", "--appendfsync", "always")


def test_a_killed_redis_that_writes_every_change_loses_no_stored_answer(tmp_path) -> None:
    """Redis killed (SIGKILL) in the middle of a survey and started again: while it is down
    an answer is refused with the store's sentence (the attendee's session keeps it to send
    again); once it is back, the same store, without a restart of the app, has every answer
    it had stored and takes the next."""
    port, folder = free_port(), tmp_path / "redis"
    folder.mkdir()
    server = start_redis(port, folder, *DURABLE)
    try:
        url = f"redis://127.0.0.1:{port}/0"
        store = RedisStore(url)
        assert store.writes_every_change() is True and durability_warning(url) is None
        room, _secret = a_room()
        store.open_room(room)
        sent = {f"voter{i}": "yes" if i % 3 else "no" for i in range(40)}
        for voter, value in sent.items():
            assert store.answer(room.code, "survey1", voter, value)
        server.kill()
        server.wait(timeout=10)
        for call in (lambda: store.answer(room.code, "survey1", "late", "yes"),
                     lambda: store.poll(room.code, time.time())):  # fmt: skip
            with pytest.raises(RoomError) as error:
                call()
            assert error.value.code == "unreachable"
        server = start_redis(port, folder, *DURABLE)
        assert sorted(store.answers(room.code, "survey1")) == sorted(sent.values())
        assert store.poll(room.code, time.time()) == (0, 0)
        assert store.answer(room.code, "survey1", "late", "yes")
        assert len(store.answers(room.code, "survey1")) == len(sent) + 1
    finally:
        server.kill()
        server.wait(timeout=10)


def test_the_workshop_command_names_a_redis_that_may_lose_answers(tmp_path) -> None:
    """A Redis that keeps nothing on disk: the workshop command says so at its start, and
    what it says is true (killed and started again, it has lost every answer). SQLite needs
    no such word; a Redis out of reach is named as such."""
    port, folder = free_port(), tmp_path / "redis"
    folder.mkdir()
    server = start_redis(port, folder, "--save", "", "--appendonly", "no")
    try:
        url = f"redis://127.0.0.1:{port}/0"
        warning = durability_warning(url)
        assert warning and "'appendonly yes' and 'appendfsync always'" in warning
        store = RedisStore(url)
        room, _secret = a_room()
        store.open_room(room)
        assert store.answer(room.code, "survey1", "voter", "yes")
        server.kill()
        server.wait(timeout=10)
        server = start_redis(port, folder, "--save", "", "--appendonly", "no")
        assert store.answers(room.code, "survey1") == [] and store.room(room.code) is None
    finally:
        server.kill()
        server.wait(timeout=10)
    gone = f"redis://127.0.0.1:{free_port()}/0"
    assert durability_warning(gone) == (
        f"The Redis at {gone} cannot be reached: no room can open until it can."
    )
    assert durability_warning(None) is None
    assert durability_warning(f"sqlite:///{tmp_path / 'rooms.sqlite'}") is None


def test_codes_of_no_room_are_counted_for_every_worker_in_a_window(store: Store) -> None:
    """What every session of every worker named in vain, counted in the store: this minute
    and the one before, then forgotten."""
    now = 60 * 1_000_000 + 30.0  # half past a minute
    assert store.misses(now) == 0
    for _ in range(3):
        store.miss(now)
    store.miss(now + 60)
    assert store.misses(now) == 3 and store.misses(now + 60) == 4
    assert store.misses(now + 120) == 1 and store.misses(now + 180) == 0
