"""Rooms in a Redis server, for workers on several machines (``DP_EXPLORER_STORE`` set to
``redis://host:6379/0``; see ui.workshop.store), and what the workshop command says at its
start of a Redis that may lose answers when it restarts."""

from __future__ import annotations

from ui.workshop.rooms import Question, Room, RoomError, Survey, View, loads_asked
from ui.workshop.unreachable import guarded

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
