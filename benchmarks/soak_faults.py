"""The faults bench_soak plays during a workshop, and how its pages come back from them.

A page whose connection ends (its worker killed, its network cut) is loaded again by its
browser once it can connect (ui/workshop/room_strip.js reloads a room's page that was
connected again): a new session at the same address (``room=CODE``) with the same cookies,
which HAProxy sends to a worker that lives. ``Keeper`` does that for the soak's followers.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import threading
import time
from pathlib import Path

from bench_room import Follower, Workshop, widget_ending
from streamlit.proto.WidgetStates_pb2 import WidgetState

from ui.workshop.rooms import Question

RECONNECT = 1.0  # s: Streamlit's frontend tries again about a second after a drop
CUT_SECONDS = 10.0  # an attendee's network gone (a train's tunnel, a lift)
LOCK_SECONDS = 5.0  # the store's file held by another process
FLOOD = 10  # the sends each page repeats at once, after its answer is in


class Keeper:
    """Brings back each follower whose connection ended, as its browser does: after
    ``RECONNECT`` s (or once its network is back), a new session at its address, tried
    again each second until a worker takes it. ``back``: the seconds each return took."""

    def __init__(self, followers: list[Follower], code: str) -> None:
        self.followers, self.code = followers, code
        self.coming: set[int] = set()
        self.offline: dict[int, float] = {}  # follower -> when its network is back
        self.back: list[float] = []
        self._tasks = {asyncio.create_task(self._watch())}

    async def _watch(self) -> None:
        while True:
            for i, follower in enumerate(self.followers):
                gone = follower.reader is not None and follower.reader.done()
                if gone and i not in self.coming:
                    self.coming.add(i)
                    task = asyncio.create_task(self._back(i, follower))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
            await asyncio.sleep(0.1)

    async def _back(self, i: int, old: Follower) -> None:
        lost = time.perf_counter()
        await asyncio.sleep(max(RECONNECT, self.offline.pop(i, 0.0) - time.monotonic()))
        await old.close()
        while True:
            page = Follower(old.port, old.url_path(), self.code, old.rng)
            page.query_string, page.cookies = old.query_string, dict(old.cookies)
            try:
                await page.open()
                break
            except Exception:  # no worker yet (both restarting): the browser tries again
                await page.close()
                await asyncio.sleep(1.0)
        self.followers[i] = page
        self.back.append(time.perf_counter() - lost)
        self.coming.discard(i)

    async def settled(self, timeout: float) -> bool:
        """Whether every follower that left is back within ``timeout`` s."""
        deadline = time.perf_counter() + timeout
        while self.coming and time.perf_counter() < deadline:
            await asyncio.sleep(0.1)
        return not self.coming

    def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()


def kill_worker(room: Workshop, spare: Follower) -> int:
    """SIGKILL the worker that does not serve ``spare`` (the trainer's page, whose browser
    the browser suite brings back; here the followers of the other worker come back); the
    workshop command restarts it. Returns its pid."""
    kept = room.port + int(spare.cookies["dpx_worker"].removeprefix("w"))
    pid = next(p for p in room.worker_pids() if _port(p) != kept)
    os.kill(pid, signal.SIGKILL)
    return pid


def _port(pid: int) -> int:
    """The port a worker (``streamlit run ... --server.port N``) listens on."""
    command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    return int(command[command.index(b"--server.port") + 1])


def lock_store(path: Path, seconds: float = LOCK_SECONDS) -> threading.Thread:
    """Another process's hold on the SQLite store: an exclusive transaction for ``seconds``
    (writers wait on it, up to the store's busy timeout)."""
    held = threading.Event()

    def hold() -> None:
        db = sqlite3.connect(path, timeout=30, isolation_level=None)
        db.execute("BEGIN EXCLUSIVE")
        held.set()
        time.sleep(seconds)
        db.execute("COMMIT")
        db.close()

    thread = threading.Thread(target=hold, daemon=True)
    thread.start()
    held.wait(30)
    return thread


def reload_proxy(room: Workshop) -> None:
    """SIGHUP to the workshop command: HAProxy reloads (scripts/workshop.py)."""
    room.process.send_signal(signal.SIGHUP)


async def cut(keeper: Keeper, which: list[int], seconds: float = CUT_SECONDS) -> None:
    """The network of followers ``which`` gone for ``seconds``: their connections end (the
    websocket, the push) and the keeper brings their pages back once it is up again."""
    back = time.monotonic() + seconds
    for i in which:
        keeper.offline[i] = back
        follower = keeper.followers[i]
        if follower.pushing is not None:
            follower.pushing.cancel()
        await follower.ws.close()


async def flood(follower: Follower, widgets: tuple[str, str, str] | None, times: int = FLOOD):
    """A hostile page, its answer in: the question's send clicked ``times`` more at once,
    each with another number (``widgets``: the box's id, the button's id, its fragment)."""
    if widgets is None:
        return
    typed, send, fragment = widgets
    for k in range(times):
        follower.widgets[typed] = WidgetState(id=typed, double_value=2.0 + k)
        click = WidgetState(id=send, trigger_value=True)
        await follower.ws.send(follower.rerun_message(fragment, events=[click]))


def answer_widgets(follower: Follower, question: Question) -> tuple[str, str, str] | None:
    """(the answer box's id, the send button's id, the fragment it runs), while shown."""
    key = f"room_answer_{question.id}"
    box = widget_ending(follower, "number_input", key)
    send = widget_ending(follower, "button", f"{key}_send")
    if box is None or send is None:
        return None
    return box.proto.number_input.id, send.proto.button.id, send.fragment_id
