"""A workshop room under load: N attendees on the workshop command (workers behind HAProxy).

Run from the project root (HAProxy must be installed: bash scripts/workshop.sh installs it):

    python3 benchmarks/bench_room.py                   # N = 100, 2 workers, ~6 min
    python3 benchmarks/bench_room.py --workers 3 --attendees 150
    python3 benchmarks/bench_room.py --quick           # N = 10, 10 s of steps, ~1 min
    python3 benchmarks/bench_room.py --room-only       # phases 1-3 only
    python3 benchmarks/bench_room.py --room-only --attendees 300

The script starts ``scripts/workshop.py`` itself (a free port, a SQLite store in a temporary
folder) and plays every attendee with bench_load's client: Streamlit's own websocket protocol,
the cookies a browser keeps (HAProxy's ``dpx_worker`` puts each session on one worker), the
timers a fragment's ``run_every`` sets in the frontend, and what the room's scripts do in the
browser: the trainer's publishes its view with the trainer cookie the moment its thumb moves
(``Trainer``); a follower's holds the room's push open and shows a move of a live slider
without a run, catching up later, or runs at once for anything else (``Follower``). It
measures, in one run each, in this order (the room first, on workers that served no one yet,
so their memory grows by what the room's sessions hold):

1. **A room**: a trainer and N followers (``?room=CODE``) on laplace. First what following
   costs while nothing changes (the workers' CPU per follower and second, each follower's
   push held open); then the trainer steps ε ``--moves`` times: the time from the trainer's
   step to each follower showing the new ε (targets: p95 within 1.0 s for 100 followers,
   1.5 s for 300), the catch-up runs each follower makes for it (at most one per move) and
   the CPU they cost; then a section change and a page change, each a run per follower
   (target: p95 within 3 s for 100).
2. **Ask the room**: a laplace exercise is put to the room; once every follower shows the
   question, all N send an answer in the same instant; the time until the trainer's projector
   shows "Answered so far: N" (target: within 2 s), and until the store holds N answers.
3. **Memory**: the workers' resident memory with no session, with N followers, and per attendee.
4. **Everyone opens the page at once**: N sessions request the laplace page in the same
   instant through the proxy; time to each one's ``script_finished`` (target: all within 3 s).
5. **Attendees stepping**: N attendees, alone, step the page's main slider every 2 s for
   ``--seconds`` (laplace: a fragment run; bounding: a whole page run); latency p50/p95/max
   (target: p95 under 1 s).

Each figure carries the machine's load and CPU pressure (bench_load.machine_busy) and the
client's own CPU (this script plays every browser on the same cores as the workers).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_load import (
    Attendee,
    Node,
    Run,
    burst_run,
    http_get,
    load_run,
    machine_busy,
    ms,
    percentile,
    print_burst,
    print_burst_header,
    print_step,
    print_steps_header,
    process_cpu_seconds,
    process_memory_mb,
)
from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from timing import reference_loop

from ui.workshop.rooms import HOURS, Question, Room, new_code, new_secret, secret_hash
from ui.workshop.store import SqliteStore

ROOT = Path(__file__).resolve().parent.parent
PAGE = "laplace"
FOLLOWED_WITHIN = 1.0  # target: p95 of the time a follower takes to show the trainer's move
COUNTED_WITHIN = 2.0  # target: every answer on the projector within this
WAIT = 30.0  # how long a follower may take to show a move before it counts as missed


def _children(pid: int) -> list[int]:
    """The process ids whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text()
                if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


class Workshop:
    """``scripts/workshop.py``: its workers and HAProxy, read through /proc like bench_load's
    Server (CPU and memory are the workers' sums; the proxy's CPU is apart)."""

    def __init__(self, workers: int, folder: Path, options: Sequence[str] = ()) -> None:
        self.port = _free_run(workers + 1)
        self.store_path = folder / "rooms.sqlite"
        self.log_path = folder / "workshop.log"
        self.log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "scripts/workshop.py", "--workers", str(workers),
             "--port", str(self.port), "--host", "127.0.0.1",
             "--store", f"sqlite:///{self.store_path}", *options],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        self.workers = workers

    async def wait_ready(self, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the workshop exited: {self.log_path.read_text()}")
            if b"workshop at" in self.log_path.read_bytes():
                with contextlib.suppress(OSError):
                    if (await http_get(self.port, "/_stcore/health")).endswith(b"ok"):
                        return
            await asyncio.sleep(0.3)
        raise SystemExit(f"the workshop did not start: {self.log_path.read_text()}")

    def worker_pids(self) -> list[int]:
        return [p for p in _children(self.process.pid) if b"streamlit" in _cmdline(p)]

    def proxy_pid(self) -> int | None:
        found = [p for p in _children(self.process.pid) if b"haproxy" in _cmdline(p)]
        return found[0] if found else None

    def cpu_seconds(self) -> float:
        return sum(process_cpu_seconds(pid) for pid in self.worker_pids())

    def loop_cpu_seconds(self) -> float:
        """The workers' main threads: Tornado's event loop, which takes the browsers' messages
        and writes every run's messages to them (the runs themselves have threads of their
        own)."""
        return sum(process_cpu_seconds(f"{pid}/task/{pid}") for pid in self.worker_pids())

    def proxy_cpu_seconds(self) -> float:
        pid = self.proxy_pid()
        return process_cpu_seconds(pid) if pid else 0.0

    def memory_mb(self) -> tuple[float, float]:
        both = [process_memory_mb(pid) for pid in self.worker_pids()]
        return sum(r for r, _ in both), sum(h for _, h in both)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


def _cmdline(pid: int) -> bytes:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    return b""


def _free_run(count: int) -> int:
    """A port P such that P .. P + count - 1 are all free."""
    from scripts.workshop import port_free

    rng = random.Random()
    for _attempt in range(200):
        port = rng.randrange(20_000, 40_000)
        if all(port_free("127.0.0.1", port + i) for i in range(count)):
            return port
    raise SystemExit("no run of free ports found")


# --- following ---------------------------------------------------------------------------------

OWN = {"lang", "present", "room", "lead"}  # ui.workshop.rooms.OWN: what each person keeps


def _params(query: str) -> dict[str, list[str]]:
    """An address's parameters, less what each person keeps (as the browsers compare them)."""
    found: dict[str, list[str]] = {}
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key not in OWN:
            found.setdefault(key, []).append(value)
    return found


class Relayed(Attendee):
    """An attendee that keeps what its browser's scripts keep: the stops of the sliders the
    page's charts follow (ui.common.live's relay) and the url path of the page it shows."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.stops: dict[str, dict] = {}
        self.story: dict | None = None
        self.paths: dict[str, str] = {}
        self.runs = 0  # script runs (whole or fragment), as new_session messages count them
        self.running = False  # between a run's new_session and its script_finished

    def _handle(self, msg, data: bytes, now: float) -> None:
        if msg.WhichOneof("type") == "navigation":
            self.paths = {p.page_script_hash: p.url_pathname for p in msg.navigation.app_pages}
        elif msg.WhichOneof("type") == "new_session":
            self.runs += 1
            self.running = True
        elif msg.WhichOneof("type") == "script_finished":
            self.running = False
        super()._handle(msg, data, now)

    def _apply_delta(self, msg) -> None:
        super()._apply_delta(msg)
        element = msg.delta.new_element
        if (
            msg.delta.WhichOneof("type") == "new_element"
            and element.WhichOneof("type") == "bidi_component"
            and element.bidi_component.component_name.endswith("dp_live")
        ):
            data = json.loads(element.bidi_component.json or "null") or {}
            if "stops" in data:
                self.stops, self.story = data["stops"], data.get("story")

    def url_path(self) -> str:
        return self.paths.get(self.page_script_hash, self.page) or "home"

    def view(self) -> tuple[str, dict[str, list[str]]]:
        """(page, parameters) this session shows, as its browser's address has them."""
        return self.url_path(), _params(self.query_string)


class Follower(Relayed):
    """An attendee whose page follows a room, as its browser does (``dp_room_watch`` in
    ui.workshop.room_strip): it holds the room's push open (server-sent events from
    ui.workshop.push, through the proxy with the session's cookies) and applies each event
    as the script does: a move of one live slider whose stops the page holds is shown at
    once, without a run (``shown``), and the strip's "moved" trigger sent once the room has
    been quiet for ``quiet`` s, at a moment spread over the event's ``spread``; anything else
    sends the trigger at once."""

    def __init__(self, port: int, page: str, code: str, rng: random.Random) -> None:
        super().__init__(port, page, query=f"room={code}")
        self.rng = rng
        self.watcher: Node | None = None
        self.pushing: asyncio.Task | None = None
        self.later: asyncio.TimerHandle | None = None
        self.sent: str | None = None
        self.drawn: str | None = None
        self.shown_view: int | None = None
        self.shown: dict[int, float] = {}  # a view's version -> when shown without a run
        self.triggers = 0
        self.events = 0

    def _apply_delta(self, msg) -> None:
        super()._apply_delta(msg)
        element = msg.delta.new_element
        if (
            msg.delta.WhichOneof("type") == "new_element"
            and element.WhichOneof("type") == "bidi_component"
            and element.bidi_component.component_name.endswith("dp_room_watch")
        ):
            self.watcher = self.nodes[tuple(msg.metadata.delta_path)]
            data = self.data()
            drawn = json.dumps([data["view"], data["asked"]])
            if drawn != self.drawn:
                self.drawn, self.sent = drawn, None
            if self.pushing is None:
                self.pushing = asyncio.create_task(self._push(data["events"]))

    def data(self) -> dict:
        return json.loads(self.watcher.proto.bidi_component.json)

    async def _push(self, path: str) -> None:
        with contextlib.suppress(asyncio.CancelledError, ConnectionError, OSError):
            async for event in server_sent_events(self.port, "/" + path, self.cookie_header()):
                self.events += 1
                self._told(event, time.perf_counter())

    def _told(self, room: dict, now: float) -> None:
        data = self.data()
        if room.get("error"):
            return self._send("unreachable")
        if not room.get("open"):
            return self._send("closed")
        if room["asked"] != data["asked"]:
            return self._send(f"asked {room['asked']}")
        if data["alone"] or room["view"] in (data["view"], self.shown_view):
            return None
        moved = self._shown_here(room)
        if moved is None:
            self.shown_view = room["view"]
            return self._navigate(room)
        self.shown_view, self.shown[room["view"]] = room["view"], now
        if self.later is not None:
            self.later.cancel()
        if not moved:
            return None
        wait = data["quiet"] + self.rng.random() * room.get("spread", 0)
        self.later = asyncio.get_running_loop().call_later(wait, self._move, *moved)
        return None

    def _shown_here(self, room: dict) -> tuple[str, int] | tuple[()] | None:
        """(the live slider's key, its stop) of a move shown without a run, () for a view
        shown already, None for one that needs a run."""
        page, params = self.view()
        if room["page"] != page:
            return None
        moved = [
            key for key in {*params, *room["params"]}
            if params.get(key, []) != room["params"].get(key, [])
        ]  # fmt: skip
        if not moved:
            return ()
        if len(moved) == 1 and self.story and moved[0] == self.story["key"]:
            return self._open_tab(room["params"].get(moved[0]))
        if len(moved) != 1 or moved[0] not in self.stops:
            return None
        stops = self.stops[moved[0]]
        code = (room["params"].get(moved[0]) or [stops["default"]])[0]
        return (moved[0], stops["codes"].index(code)) if code in stops["codes"] else None

    def _navigate(self, room: dict) -> None:
        """The page at the room's address, as the script opens it (Streamlit's history
        navigation: one run of that page at that address)."""
        own = [(k, v) for k, v in parse_qsl(self.query_string) if k in OWN]
        shared = [(k, v) for k, values in room["params"].items() for v in values]
        hashes = {path or "home": digest for digest, path in self.paths.items()}
        if room["page"] not in hashes:
            return self._send(f"view {room['view']}")
        self.query_string = urlencode(own + shared)
        self.page_script_hash = hashes[room["page"]]
        self.triggers += 1
        message = BackMsg()
        message.ParseFromString(self.rerun_message(""))
        message.rerun_script.is_history_navigation = True
        asyncio.get_running_loop().create_task(self.ws.send(message.SerializeToString()))
        return None

    def _open_tab(self, value: list[str] | None) -> tuple[()] | None:
        """Another section: its tab clicked (the page's own run), as the script does."""
        sections = self.story["sections"]
        wanted = (value or sections[:1])[0]
        index = sections.index(wanted) if wanted in sections else -1
        for path, node in self.nodes.items():
            tabs = node.proto.tab_container if node.type == "tab_container" else None
            if tabs is None or not tabs.id.endswith(self.story["tabs"]) or index < 0:
                continue
            label = self.nodes[(*path, index)].proto.tab.label
            self.widgets[tabs.id] = WidgetState(id=tabs.id, string_value=label)
            self.triggers += 1
            message = self.rerun_message(node.fragment_id)
            asyncio.get_running_loop().create_task(self.ws.send(message))
            return ()
        return None

    def _move(self, key: str, stop: int) -> None:
        """The page's own thumb moved to the pushed stop (``__dpMove``): the step's run."""
        self.later = None
        for node in self.nodes.values():
            if node.kind == "element" and node.type == "slider":
                slider = node.proto.slider
                if slider.id.endswith(key) and slider.id in self.widgets:
                    self.widgets[slider.id].string_array_value.data[:] = [slider.options[stop]]
                    self.triggers += 1
                    message = self.rerun_message(node.fragment_id)
                    asyncio.get_running_loop().create_task(self.ws.send(message))
                    return

    def _send(self, what: str) -> None:
        if self.later is not None:
            self.later.cancel()
            self.later = None
        if what == self.sent or self.watcher is None:
            return
        self.sent = what
        self.triggers += 1
        node = self.watcher
        trigger = WidgetState(
            id=_make_trigger_id(node.proto.bidi_component.id, "events"),
            json_trigger_value=json.dumps([{"event": "moved", "value": what}]),
        )
        asyncio.get_running_loop().create_task(
            self.ws.send(self.rerun_message(node.fragment_id, events=[trigger]))
        )

    async def close(self) -> None:
        if self.later is not None:
            self.later.cancel()
        if self.pushing is not None:
            self.pushing.cancel()
        await super().close()


async def server_sent_events(port: int, path: str, cookie: str = ""):
    """The events of a ``text/event-stream`` GET (chunked, as uvicorn and HAProxy send it),
    parsed as the browser's EventSource does: each ``data:`` line's JSON."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    sent = f"Cookie: {cookie}\r\n" if cookie else ""
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{sent}Accept: text/event-stream\r\n"
        f"Cache-Control: no-cache\r\n\r\n".encode()
    )
    await writer.drain()
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(head.split(b"\r\n", 1)[0].decode())
        chunked = b"chunked" in head.lower()
        buffer = b""
        while True:
            if chunked:
                size = int((await reader.readuntil(b"\r\n")).strip(), 16)
                if size == 0:
                    return
                buffer += await reader.readexactly(size + 2)
                buffer = buffer[:-2] if buffer.endswith(b"\r\n") else buffer
            else:
                more = await reader.read(65536)
                if not more:
                    return
                buffer += more
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                for line in block.split(b"\n"):
                    if line.startswith(b"data:"):
                        yield json.loads(line[5:])
    finally:
        writer.close()


async def http_post(port: int, path: str, body: bytes, cookie: str = "") -> tuple[int, bytes]:
    """A minimal HTTP/1.1 POST of JSON, with the browser's cookies: (status, body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        f"Connection: close\r\n\r\n".encode()
        + body
    )
    await writer.drain()
    data = await reader.read()
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    status = int(data.split(b" ", 2)[1])
    return status, data.split(b"\r\n\r\n", 1)[1]


def slider_value(attendee: Attendee) -> str | None:
    """What the page's main slider shows, as text (select sliders: the option's label)."""
    found = attendee.main_slider()
    if found is None:
        return None
    state = attendee.widgets.get(found[1].proto.slider.id)
    if state is None:
        return None
    if state.WhichOneof("value") == "string_array_value":
        return state.string_array_value.data[0]
    return f"{state.double_array_value.data[0]:.6g}"


async def until(check, timeout: float = WAIT, every: float = 0.05) -> bool:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if check():
            return True
        await asyncio.sleep(every)
    return check()


async def cpu_share(room: Workshop, seconds: float) -> float:
    """The workers' CPU time over ``seconds`` of wall time (1.0 = one core)."""
    cpu0, wall0 = room.cpu_seconds(), time.perf_counter()
    await asyncio.sleep(seconds)
    return (room.cpu_seconds() - cpu0) / (time.perf_counter() - wall0)


async def open_slowly(attendees: list[Attendee], at_once: int = 4) -> None:
    gate = asyncio.Semaphore(at_once)

    async def one(attendee: Attendee) -> None:
        async with gate:
            await attendee.open()

    await asyncio.gather(*(one(a) for a in attendees))


def markdown_bodies(attendee: Attendee) -> list[str]:
    return [
        node.proto.markdown.body
        for node in attendee.nodes.values()
        if node.kind == "element" and node.type == "markdown"
    ]


def widget_ending(attendee: Attendee, kind: str, ending: str):
    """The node of a ``kind`` widget whose id ends with ``ending`` (its key), or None."""
    for node in attendee.nodes.values():
        if node.kind == "element" and node.type == kind:
            widget = getattr(node.proto, kind)
            if widget.id.endswith(ending):
                return node
    return None


class Trainer(Relayed):
    """The trainer's page, whose browser publishes its view (``dp_room_lead``): the address,
    with a live slider's stop where the thumb is (a POST with the trainer's cookie)."""

    def __init__(self, port: int, page: str, code: str, secret: str) -> None:
        super().__init__(port, page, cookies={"dpx_lead": f"{code}.{secret}"})
        self.code = code

    async def publish(self, page: str, params: dict[str, list[str]]) -> int:
        body = json.dumps({"page": page, "params": params}).encode()
        status, answer = await http_post(
            self.port, f"/_room/{self.code}/view", body, self.cookie_header()
        )
        if status != 200:
            raise SystemExit(f"the trainer's view was refused: {status} {answer[:200]!r}")
        return int(json.loads(answer)["view"])

    async def move(self) -> tuple[int, float, Run]:
        """Step the main slider as the trainer's thumb would: publish the view with its new
        stop at once (the browser's look at the thumb) and send the page's run. (version,
        when it was published, the run)."""
        _label, _old, new, fragment = self.step_slider()
        _path, node = self.main_slider()
        key = next(k for k in self.stops if node.proto.slider.id.endswith(k))
        stops = self.stops[key]
        code = stops["codes"][list(node.proto.slider.options).index(new)]
        page, params = self.view()
        if code == stops["default"]:
            params.pop(key, None)
        else:
            params[key] = [code]
        moved = time.perf_counter()
        run = await self.rerun(fragment_id=fragment)
        version = await self.publish(page, params)
        return version, moved, run


def _delays(followers: list[Follower], version: int, since: float) -> list[float]:
    return [f.shown[version] - since for f in followers if version in f.shown]


async def room_run(room: Workshop, count: int, moves: int, seed: int) -> None:
    store = SqliteStore(room.store_path)
    code, secret = new_code(), new_secret()
    store.open_room(Room(code, secret_hash(secret), time.time() + HOURS * 3600))
    rss_before, _ = room.memory_mb()
    trainer = Trainer(room.port, PAGE, code, secret)
    await trainer.open()
    version = await trainer.publish(*trainer.view())
    await asyncio.sleep(2.0)
    trainer_only = await cpu_share(room, 5.0)  # the idle workers and the trainer's strip
    rng = random.Random(seed)
    followers = [Follower(room.port, PAGE, code, random.Random(rng.random())) for _ in range(count)]
    started = time.perf_counter()
    await open_slowly(followers)
    target = trainer.view()
    settled = await until(lambda: all(f.view() == target for f in followers))
    print(
        f"\nA room: 1 trainer and {count} followers on {PAGE}, opened 4 at a time in "
        f"{time.perf_counter() - started:.1f} s; all show the trainer's view: "
        + ("yes" if settled else f"NO ({sum(f.view() == target for f in followers)})")
    )
    await until(lambda: all(f.pushing is not None for f in followers), 10)
    rss_with, _ = room.memory_mb()

    # What following costs while nothing changes: each browser holds the room's push open.
    await asyncio.sleep(3.0)
    proxy0, client0, wall0 = room.proxy_cpu_seconds(), time.process_time(), time.perf_counter()
    with_followers = await cpu_share(room, 10.0)
    wall = time.perf_counter() - wall0
    load, pressure = machine_busy()
    per = (with_followers - trainer_only) / count
    proxy = (room.proxy_cpu_seconds() - proxy0) / wall
    print(
        f"  following while nothing changes (10 s): workers {with_followers * 100:.1f}% of one "
        f"core in all ({trainer_only * 100:.1f}% with the trainer alone): {per * 1000:.3f} ms "
        f"of CPU per follower and second (each holding the push open); HAProxy "
        f"{proxy * 100:.1f}%; client {(time.process_time() - client0) / wall * 100:.0f}%; "
        f"load {load:.2f}, cpu wait {pressure:.0f}%"
    )

    # The trainer moves ε: each follower's browser shows it without a run, and catches up later.
    delays: list[float] = []
    missed = runs = triggers = 0
    cpu0, wall0 = room.cpu_seconds(), time.perf_counter()
    for _move in range(moves):
        await asyncio.sleep(rng.uniform(3.0, 5.0))
        runs0 = sum(f.runs for f in followers)
        triggers0 = sum(f.triggers for f in followers)
        trainer.direction = 1  # always up: a follower's old value is never the new one
        version, moved, _run = await trainer.move()
        await until(lambda v=version: all(v in f.shown for f in followers), WAIT)
        delays += _delays(followers, version, moved)
        missed += sum(version not in f.shown for f in followers)
        target = trainer.view()
        await until(lambda t=target: all(f.view() == t for f in followers), WAIT)
        runs += sum(f.runs for f in followers) - runs0
        triggers += sum(f.triggers for f in followers) - triggers0
    wall = time.perf_counter() - wall0
    moving = (room.cpu_seconds() - cpu0) / wall
    per_follow = (moving - with_followers) * wall / (count * moves)
    load, pressure = machine_busy()
    print(
        f"  the trainer moved ε {moves} times: followers showed it (no run) after p50 "
        f"{ms(percentile(delays, 0.5))} ms, p95 {ms(percentile(delays, 0.95))} ms, max "
        f"{ms(max(delays, default=float('nan')))} ms; {missed} missed ({WAIT:g} s); within "
        f"{FOLLOWED_WITHIN:g} s: {sum(d <= FOLLOWED_WITHIN for d in delays)} of "
        f"{count * moves}; then caught up with "
        f"{triggers / (count * moves):.2f} catch-ups and {runs / (count * moves):.2f} script "
        f"runs per follower and move (the page's own step); workers "
        f"{moving * 100:.0f}% of one core, {per_follow * 1000:.0f} ms of CPU per follower and "
        f"move; load {load:.2f}, cpu wait {pressure:.0f}%"
    )

    # The trainer opens another section, then another page: runs, at once.
    for what, page, extra in (
        ("a section change", PAGE, {"laplace_section": ["noise"]}),
        ("a page change", "gaussian", None),
    ):
        await asyncio.sleep(3.0)
        _page, params = trainer.view()
        shared = {k: v for k, v in params.items() if k in ("seed", "draw")}  # the sidebar's
        params = {**params, **extra} if extra is not None else shared
        runs0 = sum(f.runs for f in followers)
        before = {id(f): f.runs for f in followers}
        cpu0, loop0, wall0 = room.cpu_seconds(), room.loop_cpu_seconds(), time.perf_counter()
        client0 = time.process_time()
        version = await trainer.publish(page, params)
        published = time.perf_counter()
        reached: dict[int, float] = {}

        def arrived(page=page, params=extra or {}, reached=reached, before=before) -> bool:
            """On the page, with the section's parameter, after a run of its own that has
            finished (the page writes its own settings into the address too)."""
            for f in followers:
                shown_page, shown = f.view()
                if (
                    id(f) not in reached
                    and f.runs > before[id(f)]
                    and not f.running
                    and shown_page == page
                    and all(shown.get(k) == v for k, v in params.items())
                ):
                    reached[id(f)] = time.perf_counter()
            return len(reached) == count

        await until(arrived, WAIT, 0.01)
        took = [at - published for at in reached.values()]
        cpu, loop = room.cpu_seconds() - cpu0, room.loop_cpu_seconds() - loop0
        client = time.process_time() - client0
        load, pressure = machine_busy()
        print(
            f"  {what} (view {version}): followers showed it after p50 "
            f"{ms(percentile(took, 0.5))} ms, p95 {ms(percentile(took, 0.95))} ms, max "
            f"{ms(max(took, default=float('nan')))} ms; {count - len(took)} missed; "
            f"{(sum(f.runs for f in followers) - runs0) / count:.2f} script runs per follower; "
            f"{cpu / count * 1000:.0f} ms of CPU per follower ({loop / count * 1000:.0f} ms of "
            f"it in the event loop); the simulated browsers {client:.1f} s of CPU on the same "
            f"cores; load {load:.2f}, cpu wait {pressure:.0f}%"
        )
    await trainer.publish(*target)
    await until(lambda t=target: all(f.view() == t for f in followers), WAIT)

    await ask_the_room(room, store, code, trainer, followers)
    print(
        f"\nMemory: the workers hold {rss_before:.0f} MB with no one in the room and "
        f"{rss_with:.0f} MB with the trainer and {count} followers: "
        f"{(rss_with - rss_before) / (count + 1):.1f} MB per attendee"
    )
    await asyncio.gather(trainer.close(), *(f.close() for f in followers))


async def ask_the_room(
    room: Workshop, store: SqliteStore, code: str, trainer: Attendee, followers: list[Attendee]
) -> None:
    from ui.workshop.listing import all_exercises

    exercise = next(e for e in all_exercises() if e.page == PAGE and e.kind != "choice")
    question = Question.ask(exercise.key, 1.0)
    asked = time.perf_counter()
    store.ask(code, question, time.time())
    key = f"room_answer_{question.id}"
    boxes_in = await until(
        lambda: all(widget_ending(f, "button", f"{key}_send") for f in followers)
    )
    shown_after = time.perf_counter() - asked
    count = len(followers)
    sends = []
    for follower in followers:
        box = widget_ending(follower, "number_input", key)
        send = widget_ending(follower, "button", f"{key}_send")
        if box is None or send is None:
            continue
        typed = box.proto.number_input.id  # the attendee types 1 into the empty box
        follower.widgets[typed] = WidgetState(id=typed, double_value=1.0)
        sends.append((follower, send))
    counted = f"Answered so far: **{count}**"  # the catalogue's workshop.ask.count
    start = time.perf_counter()
    runs = await asyncio.gather(
        *(
            f.rerun(s.fragment_id, events=[WidgetState(id=s.proto.button.id, trigger_value=True)])
            for f, s in sends
        )
    )
    in_store = await until(lambda: len(store.answers(code, question.id)) >= count, WAIT, 0.02)
    stored_after = time.perf_counter() - start
    on_screen = await until(lambda: any(counted in b for b in markdown_bodies(trainer)), WAIT, 0.02)
    projected_after = time.perf_counter() - start
    answered = [r.finished.result() - r.sent for r in runs if r.finished.done()]
    load, pressure = machine_busy()
    print(
        f"\nAsk the room: the question showed on all {count} devices "
        + (f"{shown_after:.1f} s after it was asked" if boxes_in else "NOT within 30 s")
        + f"; {len(sends)} answers sent in the same instant: each send's run p50 "
        f"{ms(percentile(answered, 0.5))} ms, p95 {ms(percentile(answered, 0.95))} ms; "
        + (f"in the store after {stored_after:.2f} s" if in_store else "NOT all in the store")
        + "; the projector showed all of them "
        + (f"after {projected_after:.2f} s" if on_screen else "NOT within 30 s")
        + f" (target {COUNTED_WITHIN:g} s: "
        + ("yes" if on_screen and projected_after <= COUNTED_WITHIN else "NO")
        + f"); load {load:.2f}, cpu wait {pressure:.0f}%"
    )


async def main_async(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench_room_"))
    room = Workshop(args.workers, folder)
    try:
        await room.wait_ready()
        print(
            f"Workshop room load: {args.workers} workers behind HAProxy on port {room.port}, "
            f"store {room.store_path}, {os.cpu_count()} CPUs, load average "
            + " ".join(f"{v:.2f}" for v in os.getloadavg())
            + f", reference loop {reference_loop():.0f} ms (benchmarks.timing)"
        )
        # Warm every worker (roundrobin): its first visit switches it to st.navigation.
        for page in ("home", PAGE, "bounding"):
            for _ in range(args.workers * 2):
                warm = Attendee(room.port, page)
                await warm.open()
                await warm.close()
        idle0, wall0 = room.cpu_seconds(), time.perf_counter()
        await asyncio.sleep(3.0)
        idle = (room.cpu_seconds() - idle0) / (time.perf_counter() - wall0)
        print(f"Idle workers: {idle * 1000:.0f} ms of CPU per second in all")
        # The room first, on workers that served nobody yet: their memory then grows by what
        # the room's sessions hold, not by what earlier phases left in caches.
        await room_run(room, args.attendees, args.moves, seed=2)
        print(f"Reference loop after the room: {reference_loop():.0f} ms")
        if args.room_only:
            return
        print_burst_header()
        print_burst(await burst_run(room, PAGE, args.attendees))
        print_steps_header(args.seconds, 2.0)
        for page in (PAGE, "bounding"):
            print_step(await load_run(room, page, args.attendees, args.seconds, 2.0, seed=1))
    finally:
        room.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--attendees", type=int, help="N (default: 100)")
    parser.add_argument("--workers", type=int, default=2, help="Streamlit workers")
    parser.add_argument("--seconds", type=float, help="stepping time per page (default: 60)")
    parser.add_argument("--moves", type=int, help="the trainer's moves of ε (default: 6)")
    parser.add_argument("--room-only", action="store_true", help="the room phases alone")
    parser.add_argument("--quick", action="store_true", help="N = 10, 10 s of steps, 2 moves")
    args = parser.parse_args()
    defaults = (10, 10.0, 2) if args.quick else (100, 60.0, 6)
    args.attendees = args.attendees or defaults[0]
    args.seconds = args.seconds or defaults[1]
    args.moves = args.moves or defaults[2]
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
