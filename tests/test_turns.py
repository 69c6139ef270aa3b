"""A room's followers take turns (ui.common.turns): first come, first served, bounded waits,
one turn for a page and its fragments, and no wait for anyone not following."""

from __future__ import annotations

import threading
import time
from unittest import mock

import pytest

from ui.common import turns
from ui.common.turns import _Turns, follower_turn

SETTLE = 10.0  # seconds a thread may take to get where the test waits for it


def _until(condition, what: str) -> None:
    deadline = time.monotonic() + SETTLE
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.001)


def test_turns_pass_in_the_order_asked():
    gate = _Turns()
    assert gate.take(1.0)
    order: list[int] = []
    threads = []
    for n in range(4):
        thread = threading.Thread(target=lambda n=n: (gate.take(SETTLE), order.append(n)))
        thread.start()
        threads.append(thread)
        _until(lambda n=n: len(gate._waiting) == n + 1, f"thread {n} waits")
    for n in range(4):
        gate.give()
        _until(lambda n=n: len(order) == n + 1, f"thread {n} has its turn")
    gate.give()
    for thread in threads:
        thread.join(SETTLE)
    assert order == [0, 1, 2, 3]
    assert gate.take(0.0), "free again once the last turn is given back"


def test_a_wait_ends_after_its_timeout_and_leaves_the_queue():
    gate = _Turns()
    assert gate.take(1.0)
    started = time.monotonic()
    assert not gate.take(0.05)
    assert time.monotonic() - started >= 0.05
    assert not gate._waiting
    gate.give()
    assert gate.take(0.0)


@pytest.fixture
def fresh_turns():
    with mock.patch.object(turns, "_TURNS", _Turns()) as gate:
        yield gate


def test_a_follower_waits_its_turn_and_a_fragment_inside_its_run_does_not(fresh_turns):
    with (
        mock.patch.object(turns, "following", return_value=True),
        mock.patch.object(turns, "WAIT", 6 * SETTLE),  # a fragment waiting would time out
    ):
        assert fresh_turns.take(1.0)  # another follower's run
        done = threading.Event()

        def run() -> None:
            with follower_turn(), follower_turn():  # the page, then a fragment in it
                done.set()

        thread = threading.Thread(target=run)
        thread.start()
        _until(lambda: len(fresh_turns._waiting) == 1, "the run waits")
        assert not done.is_set()
        fresh_turns.give()
        thread.join(SETTLE)
        assert done.is_set()
        assert fresh_turns.take(0.0), "the run gave its turn back once"


def test_anyone_not_following_never_waits(fresh_turns):
    with mock.patch.object(turns, "following", return_value=False):
        assert fresh_turns.take(1.0)
        started = time.monotonic()
        with follower_turn():
            pass
        assert time.monotonic() - started < turns.WAIT
        assert not fresh_turns._waiting


def test_a_follower_that_waited_too_long_runs_anyway(fresh_turns):
    with (
        mock.patch.object(turns, "following", return_value=True),
        mock.patch.object(turns, "WAIT", 0.05),
    ):
        assert fresh_turns.take(1.0)  # a slow run holds the turn
        with follower_turn():
            assert not fresh_turns._waiting
        fresh_turns.give()
        assert fresh_turns.take(0.0), "a run that never had the turn gives none back"
