"""A room's followers take turns: one follower's run at a time in each worker.

    with follower_turn():   # app.py, around the whole run
        ...
    @fragment               # st.fragment, whose runs of its own take their turn too
    def section(): ...

A trainer's change of page or section sets every follower on a worker running the same page
(or the same section's fragment) at the same moment. Fifty runs at once in one process share
its one interpreter lock, and each then costs about 46 ms of CPU instead of 34 (bench_room,
100 followers on two workers: a section change took 50 ms of the workers' CPU per follower and
p95 3.4 s, all runs ending together; in turns 33 ms and p95 2.2 s). Turns are first come,
first served. A run that has waited ``WAIT`` seconds runs anyway, so that a slow one (a first
read of a large table) holds the others back no longer than that. Anyone not following (the
trainer, a person alone) never waits.
"""

from __future__ import annotations

import functools
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import streamlit as st

from ui.common.shell import following

WAIT = 8.0  # seconds a follower's run waits for its turn at most


class _Turns:
    """A first-come, first-served lock whose waits end after a timeout."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: deque[threading.Event] = deque()
        self._busy = False

    def take(self, timeout: float) -> bool:
        """Whether the turn was taken (False: ``timeout`` seconds passed first)."""
        with self._lock:
            if not self._busy:
                self._busy = True
                return True
            mine = threading.Event()
            self._waiting.append(mine)
        if mine.wait(timeout):
            return True
        with self._lock:
            if mine.is_set():  # handed over as the wait ended
                return True
            self._waiting.remove(mine)
            return False

    def give(self) -> None:
        """The turn passes to the first one waiting, if any."""
        with self._lock:
            if self._waiting:
                self._waiting.popleft().set()
            else:
                self._busy = False


_TURNS = _Turns()
_HELD = threading.local()  # a run's thread holds the turn already (a fragment in its page)


@contextmanager
def follower_turn() -> Iterator[None]:
    """This run, for a session following a room, in its turn among the worker's followers."""
    if getattr(_HELD, "turn", False) or not following():
        yield
        return
    taken = _TURNS.take(WAIT)
    _HELD.turn = True
    try:
        yield
    finally:
        _HELD.turn = False
        if taken:
            _TURNS.give()


def fragment(func: Callable[..., Any] | None = None, /, **options: Any) -> Any:
    """``st.fragment`` (the same options), whose runs for a follower take their turn."""

    def decorate(body: Callable[..., Any]) -> Any:
        @functools.wraps(body)
        def in_turn(*args: Any, **kwargs: Any) -> Any:
            with follower_turn():
                return body(*args, **kwargs)

        return st.fragment(in_turn, **options)

    return decorate(func) if func is not None else decorate
