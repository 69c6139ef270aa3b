"""A workshop room under load: N attendees on the workshop command (workers behind HAProxy).

Run from the project root (HAProxy must be installed: bash scripts/workshop.sh installs it):

    python3 benchmarks/bench_room.py                   # N = 100, 2 workers, ~6 min
    python3 benchmarks/bench_room.py --workers 3 --attendees 150
    python3 benchmarks/bench_room.py --quick           # N = 10, 10 s of steps, ~1 min
    python3 benchmarks/bench_room.py --room-only       # phases 1-3 only

The script starts ``scripts/workshop.py`` itself (a free port, a SQLite store in a temporary
folder) and plays every attendee with bench_load's client: Streamlit's own websocket protocol,
the cookies a browser keeps (HAProxy's ``dpx_worker`` puts each session on one worker), the
timers a fragment's ``run_every`` sets in the frontend, and, for a follower, the room watcher
its browser runs (``Follower``). It measures, in one run each, in this order (the room first,
on workers that served no one yet, so their memory grows by what the room's sessions hold):

1. **A room**: a trainer (the trainer cookie, as the trainer link leaves it) and N followers
   (``?room=CODE``) on laplace. First what following costs while nothing changes (the
   workers' CPU per follower and second, each follower's browser asking the room's versions
   twice a second); then the trainer steps ε ``--moves`` times, and for each move the time
   from the trainer's step to each follower's page showing the new ε (target: p95 within
   1.5 s), and how much of it went to noticing the move.
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_load import (
    Attendee,
    Node,
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
from streamlit.proto.WidgetStates_pb2 import WidgetState

from ui.workshop.rooms import HOURS, Question, Room, new_code, new_secret, secret_hash
from ui.workshop.store import SqliteStore

ROOT = Path(__file__).resolve().parent.parent
PAGE = "laplace"
FOLLOWED_WITHIN = 1.5  # target: p95 of the time a follower takes to show the trainer's move
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

    def __init__(self, workers: int, folder: Path) -> None:
        self.port = _free_run(workers + 1)
        self.store_path = folder / "rooms.sqlite"
        self.log_path = folder / "workshop.log"
        self.log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "scripts/workshop.py", "--workers", str(workers),
             "--port", str(self.port), "--host", "127.0.0.1",
             "--store", f"sqlite:///{self.store_path}"],
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


class Follower(Attendee):
    """An attendee whose page follows a room: its browser runs the strip's watcher
    (``dp_room_watch`` in ui.workshop.room), played here as its script does: every ``every``
    seconds a GET of the room's versions (ui.workshop.versions, through the proxy with the
    session's cookie), and the watcher's "moved" trigger (a fragment rerun of the strip) when
    they differ from those the strip last drew, once per state."""

    def __init__(self, port: int, page: str, code: str) -> None:
        super().__init__(port, page, query=f"room={code}")
        self.watcher: Node | None = None
        self.watching: asyncio.Task | None = None
        self.sent: str | None = None
        self.polls = 0
        self.triggered = 0.0  # when the watcher last asked for a run of the strip

    def _apply_delta(self, msg) -> None:
        super()._apply_delta(msg)
        element = msg.delta.new_element
        if (
            msg.delta.WhichOneof("type") == "new_element"
            and element.WhichOneof("type") == "bidi_component"
            and element.bidi_component.component_name.endswith("dp_room_watch")
        ):
            self.watcher = self.nodes[tuple(msg.metadata.delta_path)]
            if self.watching is None:
                self.watching = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        seen = None
        with contextlib.suppress(asyncio.CancelledError, ConnectionError, OSError):
            while True:
                node = self.watcher
                data = json.loads(node.proto.bidi_component.json)
                drawn = json.dumps([data["view"], data["asked"]])
                if drawn != seen:
                    seen, self.sent = drawn, None
                await asyncio.sleep(data["every"])
                answer = await http_get(self.port, "/" + data["url"], self.cookie_header())
                self.polls += 1
                room = json.loads(answer.split(b"\r\n\r\n", 1)[1])
                now = json.dumps([room["view"], room["asked"]]) if room.get("open") else "closed"
                if now in (seen, self.sent):
                    continue
                self.sent = now
                trigger = WidgetState(
                    id=_make_trigger_id(node.proto.bidi_component.id, "events"),
                    json_trigger_value=json.dumps([{"event": "moved", "value": now}]),
                )
                self.triggered = time.perf_counter()
                await self.ws.send(self.rerun_message(node.fragment_id, events=[trigger]))

    async def close(self) -> None:
        if self.watching is not None:
            self.watching.cancel()
        await super().close()


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


def shown(value: str) -> str:
    """A slider value as compared: numbers to six significant digits."""
    try:
        return f"{float(value):.6g}"
    except ValueError:
        return value


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


async def room_run(room: Workshop, count: int, moves: int, seed: int) -> None:
    store = SqliteStore(room.store_path)
    code, secret = new_code(), new_secret()
    store.open_room(Room(code, secret_hash(secret), time.time() + HOURS * 3600))
    rss_before, _ = room.memory_mb()
    trainer = Attendee(room.port, PAGE, cookies={"dpx_lead": f"{code}.{secret}"})
    await trainer.open()
    if not await until(lambda: (store.poll(code, time.time()) or (0, 0))[0] > 0, 10):
        raise SystemExit("the trainer's strip did not publish a view within 10 s")
    await asyncio.sleep(2.0)
    trainer_only = await cpu_share(room, 5.0)  # the idle workers and the trainer's strip
    followers = [Follower(room.port, PAGE, code) for _ in range(count)]
    started = time.perf_counter()
    await open_slowly(followers)
    target = shown(slider_value(trainer) or "")
    settled = await until(lambda: all(slider_value(f) == target for f in followers))
    print(
        f"\nA room: 1 trainer and {count} followers on {PAGE}, opened 4 at a time in "
        f"{time.perf_counter() - started:.1f} s; all show the trainer's view: "
        + ("yes" if settled else f"NO ({sum(slider_value(f) == target for f in followers)})")
    )
    rss_with, _ = room.memory_mb()

    # What following costs while nothing changes: each browser asks the room's versions.
    await asyncio.sleep(3.0)
    polls0, proxy0, client0 = (
        sum(f.polls for f in followers),
        room.proxy_cpu_seconds(),
        time.process_time(),
    )
    wall0 = time.perf_counter()
    with_followers = await cpu_share(room, 10.0)
    wall = time.perf_counter() - wall0
    load, pressure = machine_busy()
    per = (with_followers - trainer_only) / count
    asked = (sum(f.polls for f in followers) - polls0) / wall
    proxy = (room.proxy_cpu_seconds() - proxy0) / wall
    print(
        f"  following while nothing changes (10 s): workers {with_followers * 100:.0f}% of one "
        f"core in all ({trainer_only * 100:.0f}% with the trainer alone): {per * 1000:.2f} ms "
        f"of CPU per follower and second, for {asked:.0f} version requests a second; HAProxy "
        f"{proxy * 100:.1f}%; client {(time.process_time() - client0) / wall * 100:.0f}%; "
        f"load {load:.2f}, cpu wait {pressure:.0f}%"
    )

    # The trainer moves ε; each follower's page shows it.
    delays: list[float] = []
    noticed: list[float] = []  # the trainer's step -> the follower's watcher asked for a run
    missed = 0
    rng = random.Random(seed)
    cpu0, wall0, client0 = room.cpu_seconds(), time.perf_counter(), time.process_time()
    versions0 = store.poll(code, time.time())[0]
    for _move in range(moves):
        await asyncio.sleep(rng.uniform(3.0, 5.0))
        seen: dict[int, float] = {}
        trainer.direction = 1  # always up: a follower's old value is never the new one
        _label, _old, new, fragment = trainer.step_slider()
        target = shown(new)

        def watch(follower: Attendee, now: float, target: str = target, seen=seen) -> None:
            if id(follower) not in seen and slider_value(follower) == target:
                seen[id(follower)] = now

        for follower in followers:
            follower.watch = watch
        step = await trainer.rerun(fragment_id=fragment)
        await until(lambda seen=seen: len(seen) == count, WAIT)
        delays += [at - step.sent for at in seen.values()]
        noticed += [f.triggered - step.sent for f in followers if f.triggered > step.sent]
        missed += count - len(seen)
    for follower in followers:
        follower.watch = None
    wall = time.perf_counter() - wall0
    moving = (room.cpu_seconds() - cpu0) / wall
    client = (time.process_time() - client0) / wall
    per_follow = (moving - with_followers) * wall / (count * moves)
    load, pressure = machine_busy()
    within = sum(d <= FOLLOWED_WITHIN for d in delays)
    print(
        f"  the trainer moved ε {moves} times: followers showed it after p50 "
        f"{ms(percentile(delays, 0.5))} ms, p95 {ms(percentile(delays, 0.95))} ms, max "
        f"{ms(max(delays, default=float('nan')))} ms; {within} of {count * moves} within "
        f"{FOLLOWED_WITHIN:g} s, {missed} missed ({WAIT:g} s); p95 within target: "
        f"{'yes' if percentile(delays, 0.95) <= FOLLOWED_WITHIN and not missed else 'NO'}; "
        f"workers {moving * 100:.0f}% of one core, {per_follow * 1000:.0f} ms of CPU per "
        f"follow; client {client * 100:.0f}%; load {load:.2f}, cpu wait {pressure:.0f}%"
    )
    print(
        f"  the room's view moved {store.poll(code, time.time())[0] - versions0} times; "
        f"the trainer's strip publishing and each watcher noticing (its last look): p50 "
        f"{ms(percentile(noticed, 0.5))} ms, p95 {ms(percentile(noticed, 0.95))} ms"
    )

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
