"""A store's failure to be reached (a locked or unwritable file, Redis down), raised as the
room's own error, which the page says in a sentence (ui.workshop.store, ui.workshop.redis_store).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from ui.workshop.rooms import RoomError

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
