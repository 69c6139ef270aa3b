"""A course day on one workshop command: workshops back to back, faults along the way.

Run from the project root (HAProxy must be installed: bash scripts/workshop.sh installs it):

    python3 benchmarks/bench_soak.py                     # 6 workshops of 100, ~10 min
    python3 benchmarks/bench_soak.py --workshops 6 --attendees 50
    python3 benchmarks/bench_soak.py --quick             # 2 workshops of 10, ~2 min

It starts ``scripts/workshop.py`` once (2 workers behind HAProxy, a SQLite store) with
``--session-ttl``: how long Streamlit keeps a session whose browser has gone
(``server.disconnectedSessionTTL``; 120 s by default, which a page reconnecting after a
network cut needs). Each workshop, played with bench_room's clients (Streamlit's websocket
protocol, the room's push, the browser's scripts):

1. a trainer opens a room; the attendees arrive at random over a few seconds, each in one of
   the five languages, and follow;
2. the trainer moves ε three times (followers show it without a run); a fifth of the
   attendees then explore alone (their own steps), a tenth of those who follow choose
   another language, and a tenth download the page's results (the ZIP archive, built on the
   click and fetched through the proxy); then the trainer changes page;
3. the trainer asks the room an exercise: every attendee answers; then a randomized-response
   survey: every attendee's coins report, as the browser component sends it;
4. the attendees leave at random, the room closes, and the soak waits out the session TTL.

From the second workshop on, each plays faults (``--faults``, soak_faults): a worker
SIGKILLed after the moves, in every other workshop (the workshop command restarts it; its
followers' pages come back as their browsers bring them: a new session at the same address
and cookies), the store's file locked by another process for 5 s while the room answers,
HAProxy reloaded between two moves (SIGHUP), a tenth of the room's network cut for 10 s while
the trainer moves ε, and every page sending its answer 10 more times at once once it is in
(with 100 attendees, a flood from 100 sessions).

Per workshop it prints the p95 of followers showing a move and of a page change, the answers
and survey reports sent and those in the store (lost = sent - stored), the exception boxes the
attendees' pages showed, the workers' resident memory once the workshop's sessions have
expired, the store's size, the languages switched and the downloads made (and their p95),
and what its fault did: the pages that lost their connection and
when the last was back at the trainer's view, how long the answers took to be in, whether a
flood changed any stored answer. At the end: the memory's growth per 1,000 sessions opened
and closed (after the first workshop, which fills the caches; a killed worker starts afresh,
so run ``--faults ""`` for the memory figure) and the p95s' drift from the first workshop to
the last.

Not played (said here so that the figures are read for what they are): the trainer's own
worker killed (tests/test_browser_workshop.py kills it, twice), and Redis restarted
(tests/test_rooms.py restarts a durable Redis under 40 answers).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_load import Attendee, machine_busy, ms, percentile
from bench_room import (
    PAGE,
    WAIT,
    Follower,
    Trainer,
    Workshop,
    _delays,
    _params,
    markdown_bodies,
    until,
    widget_ending,
)
from soak_actions import download, switch_language
from soak_faults import (
    FLOOD,
    Keeper,
    answer_widgets,
    cut,
    flood,
    kill_worker,
    lock_store,
    reload_proxy,
)
from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.proto.WidgetStates_pb2 import WidgetState
from timing import reference_loop

from ui.common.i18n import LANGUAGES
from ui.workshop.rooms import HOURS, Question, Room, Survey, new_code, new_secret, secret_hash
from ui.workshop.store import SqliteStore

MOVES = 3  # the trainer's moves of ε in each workshop
# What goes wrong in the second workshop and each after it (soak_faults): a worker killed
# (in every other workshop: every three or four minutes), the store's file locked, HAProxy
# reloaded, a tenth of the room's network cut, every page flooding the question with answers
# once its own is in.
FAULTS = ("worker", "lock", "reload", "cut", "flood")
DAY = "worker,lock,worker+reload,cut,worker+flood"  # workshops 2-6
ALONE = 0.2  # the share of attendees who explore alone for a while
SWITCH = 0.1  # the share who choose another language while they follow
DOWNLOAD = 0.1  # the share who download the page's results


def exception_boxes(attendee: Attendee) -> int:
    """The exception boxes the page shows now, and those its awaited runs showed."""
    shown = sum(n.kind == "element" and n.type == "exception" for n in attendee.nodes.values())
    return shown + len(attendee.errors)


def _bidi(attendee: Attendee, name: str):
    for node in attendee.nodes.values():
        if (
            node.kind == "element"
            and node.type == "bidi_component"
            and node.proto.bidi_component.component_name.endswith(name)
        ):
            return node
    return None


async def _report(follower: Follower, survey: Survey, answer: str) -> bool:
    """The coins' report as the ``dp_rr_coins`` component sends it (its trigger)."""
    node = _bidi(follower, "dp_rr_coins")
    if node is None:
        return False
    trigger = WidgetState(
        id=_make_trigger_id(node.proto.bidi_component.id, "events"),
        json_trigger_value=json.dumps(
            [{"event": "report", "value": {"survey": survey.id, "answer": answer}}]
        ),
    )
    await follower.rerun(node.fragment_id, events=[trigger])
    return True


async def _answer(follower: Follower, widgets: tuple[str, str, str] | None) -> bool:
    """Type 1 in the answer box and click its send button (``answer_widgets``)."""
    if widgets is None:
        return False
    typed, send, fragment = widgets
    follower.widgets[typed] = WidgetState(id=typed, double_value=1.0)
    await follower.rerun(fragment, events=[WidgetState(id=send, trigger_value=True)])
    return True


async def _explore_alone(attendee: Follower, rng: random.Random) -> None:
    """Leave the trainer's view for a while: the strip's button, then a few steps."""
    button = widget_ending(attendee, "button", "room_explore")
    if button is None:
        return
    click = WidgetState(id=button.proto.button.id, trigger_value=True)
    run = await attendee.rerun(button.fragment_id, events=[click])
    await asyncio.wait_for(asyncio.shield(run.finished), WAIT)
    for _step in range(rng.randint(1, 3)):
        await asyncio.sleep(rng.uniform(0.5, 2.0))
        if attendee.main_slider() is not None:
            run = await attendee.step()
            await asyncio.wait_for(asyncio.shield(run.finished), WAIT)


async def workshop(room: Workshop, store: SqliteStore, n: int, seed: int, fault: str) -> dict:
    """One workshop of ``n`` attendees, from the room's opening to their leaving, with the
    faults ``fault`` names (of FAULTS, joined by "+"; "" for none) played at their moments."""
    faults = set(fault.split("+"))
    rng = random.Random(seed)
    code, secret = new_code(), new_secret()
    store.open_room(Room(code, secret_hash(secret), time.time() + HOURS * 3600))
    trainer = Trainer(room.port, PAGE, code, secret)
    await trainer.open()
    await trainer.publish(*trainer.view())
    followers = []
    for _i in range(n):
        follower = Follower(room.port, PAGE, code, random.Random(rng.random()))
        follower.query_string += f"&lang={rng.choice(list(LANGUAGES))}"
        followers.append(follower)
    gate = asyncio.Semaphore(4)  # arrivals over a few seconds, at most 4 pages opening at once

    async def arrive(follower: Follower) -> None:
        async with gate:
            await asyncio.sleep(rng.uniform(0, 0.2))
            await follower.open()

    await asyncio.gather(*(arrive(f) for f in followers))
    target = trainer.view()
    await until(lambda: all(f.view() == target for f in followers))
    await until(lambda: all(f.pushing is not None for f in followers), 10)
    keeper = Keeper(followers, code)  # pages whose connection ends come back, as browsers do
    if "cut" in faults:  # a tenth of the room loses its network while the trainer moves ε
        await cut(keeper, rng.sample(range(n), max(1, n // 10)))

    # The trainer moves ε: followers show each move without a run (but those coming back).
    delays: list[float] = []
    for move in range(MOVES):
        await asyncio.sleep(rng.uniform(2.0, 3.0))
        if "reload" in faults and move == 1:
            reload_proxy(room)
        trainer.direction = 1
        version, moved, _run = await trainer.move()
        here = [f for i, f in enumerate(followers) if i not in keeper.coming]
        await until(lambda v=version, h=here: all(v in f.shown for f in h), WAIT)
        delays += _delays(here, version, moved)
        target = trainer.view()
        await until(lambda t=target, h=here: all(f.view() == t for f in h), WAIT)
    if "worker" in faults:  # the other worker than the trainer's dies: its followers come back
        kill_worker(room, trainer)
        await until(lambda: bool(keeper.coming), 10)
    seen = await keeper.settled(120) and await until(
        lambda t=target: all(f.view() == t for f in followers), WAIT
    )  # every page back in the room, at the trainer's view

    # Some explore alone for a while, others choose another language as they follow; some
    # download the page's results; then the trainer changes page: a run per follower.
    alone = rng.sample(followers, int(ALONE * n))
    await asyncio.gather(*(_explore_alone(a, rng) for a in alone))
    following = [f for f in followers if f not in alone]
    speakers = rng.sample(following, int(SWITCH * n))
    switched = sum(await asyncio.gather(*(switch_language(f, _another(f, rng)) for f in speakers)))
    asked = rng.sample(followers, int(DOWNLOAD * n))
    downloads = await asyncio.gather(*(download(f) for f in asked))
    fetched = [seconds for seconds in downloads if seconds is not None]
    before = {id(f): f.runs for f in following}
    published = time.perf_counter()
    await trainer.publish("gaussian", {})
    reached: dict[int, float] = {}

    def arrived() -> bool:
        for f in following:
            done = f.runs > before[id(f)] and not f.running and f.view()[0] == "gaussian"
            if done and id(f) not in reached:
                reached[id(f)] = time.perf_counter()
        return len(reached) == len(following)

    await until(arrived, WAIT, 0.01)
    page_change = [at - published for at in reached.values()]

    # Ask the room, then survey it: every attendee answers; the store must hold every one.
    question = Question.ask("gaussian.double_epsilon", 1.0)  # a number, as bench_room's
    store.ask(code, question, time.time())
    key = f"room_answer_{question.id}_send"
    await until(lambda: all(widget_ending(f, "button", key) for f in followers))
    widgets = [answer_widgets(f, question) for f in followers]
    if "lock" in faults:  # the store's file held by another process while they answer
        lock_store(room.store_path)
    sent = time.perf_counter()
    answered = sum(
        await asyncio.gather(*(_answer(f, w) for f, w in zip(followers, widgets, strict=True)))
    )
    await until(lambda: len(store.answers(code, question.id)) >= answered, WAIT, 0.05)
    answers_in, answers_s = len(store.answers(code, question.id)), time.perf_counter() - sent
    flood_held = None
    if "flood" in faults:  # every page, its answer in, sends FLOOD more at once: none counts
        given = sorted(store.answers(code, question.id))
        await asyncio.gather(*(flood(f, w) for f, w in zip(followers, widgets, strict=True)))
        await asyncio.sleep(2.0)
        await until(lambda: not any(f.running for f in followers), WAIT)
        flood_held = sorted(store.answers(code, question.id)) == given
    counted = f"Answered so far: **{answers_in}**"
    on_projector = await until(lambda: any(counted in b for b in markdown_bodies(trainer)), 10)

    survey = Survey.ask("Have you ever reused a password?", 0.5, 0.5)
    store.ask(code, survey, time.time())
    await until(lambda: all(_bidi(f, "dp_rr_coins") for f in followers))
    reported = await asyncio.gather(
        *(_report(f, survey, rng.choice(["yes", "no"])) for f in followers)
    )
    await until(lambda: len(store.answers(code, survey.id)) >= sum(reported), WAIT, 0.05)
    reports_in = len(store.answers(code, survey.id))

    boxes = sum(exception_boxes(a) for a in (trainer, *followers))
    keeper.stop()
    # They leave at random over a few seconds, the trainer last; the room closes.
    for follower in rng.sample(followers, len(followers)):
        await follower.close()
        await asyncio.sleep(rng.uniform(0, 0.02))
    await trainer.close()
    store.close(code, time.time())
    return {
        "attendees": n,
        "move_p95": percentile(delays, 0.95),
        "moves_missed": MOVES * n - len(delays),
        "page_p95": percentile(page_change, 0.95),
        "page_missed": len(following) - len(page_change),
        "answers": (answered, answers_in),
        "projected": on_projector,
        "reports": (sum(reported), reports_in),
        "exceptions": boxes,
        "fault": fault,
        "back": (len(keeper.back), max(keeper.back, default=0.0), seen),
        "flood_held": flood_held,
        "answers_s": answers_s,
        "languages": (len(speakers), switched),
        "downloads": (len(asked), len(fetched), percentile(fetched, 0.95) if fetched else 0.0),
    }


def _another(follower: Follower, rng: random.Random) -> str:
    """A language other than the one the follower's page is in."""
    now = _params(follower.query_string).get("lang", ["en"])[0]
    return rng.choice([lang for lang in LANGUAGES if lang != now])


async def expire(room: Workshop, ttl: float) -> tuple[float, float]:
    """Wait out the session TTL, then open and close two pages per worker (Streamlit drops
    the expired sessions when its cache of disconnected ones is next touched); the workers'
    RSS then, and the machine's load."""
    await asyncio.sleep(ttl + 5)
    for _worker in range(room.workers * 2):
        probe = Attendee(room.port, "home")
        await probe.open()
        await probe.close()
    await asyncio.sleep(2)
    return room.memory_mb()[0], os.getloadavg()[0]


def _store_kb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*")) / 1024


async def main_async(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench_soak_"))
    room = Workshop(args.workers, folder, ["--session-ttl", str(args.session_ttl)])
    try:
        await room.wait_ready()
        print(
            f"A course day: {args.workshops} workshops of {args.attendees} attendees on "
            f"{args.workers} workers behind HAProxy (port {room.port}), session TTL "
            f"{args.session_ttl:g} s, store {room.store_path}; {os.cpu_count()} CPUs, load "
            + " ".join(f"{v:.2f}" for v in os.getloadavg())
            + f", reference loop {reference_loop():.0f} ms (benchmarks.timing)"
        )
        rss0, _load = await expire(room, 0)
        print(f"Workers' RSS before the first workshop: {rss0:.0f} MB")
        print(
            "\n  #  attendees  move p95  page p95  answers sent/stored  reports sent/stored"
            "  exceptions  RSS after expiry  store (and its WAL)  load  languages switched"
            "  downloads (p95)  fault"
        )
        rows: list[dict] = []
        each = args.attendees + 1  # sessions a workshop opens and closes: its attendees, trainer
        started = time.perf_counter()
        for w in range(args.workshops):
            fault = args.faults[w - 1] if 0 < w <= len(args.faults) else ""
            store = SqliteStore(room.store_path)
            row = await workshop(room, store, args.attendees, seed=w, fault=fault)
            row["rss"], row["load"] = await expire(room, args.session_ttl)
            rows.append(row)
            print(
                f"{w + 1:3d}  {row['attendees']:9d}  {ms(row['move_p95']):>6} ms"
                f"  {ms(row['page_p95']):>6} ms  {row['answers'][0]:10d}/{row['answers'][1]:<8d}"
                f"  {row['reports'][0]:10d}/{row['reports'][1]:<8d}  {row['exceptions']:10d}"
                f"  {row['rss']:13.0f} MB  {_store_kb(room.store_path):14.0f} kB"
                f"  {row['load']:.2f}  {row['languages'][1]:9d}/{row['languages'][0]:<8d}"
                f"  {row['downloads'][1]:3d}/{row['downloads'][0]:<3d}"
                f"({row['downloads'][2]:.1f} s)  {_fault(row)}"
                + (f"  (missed: {row['moves_missed']} moves, {row['page_missed']} page changes)"
                   if row["moves_missed"] or row["page_missed"] else "")
            )  # fmt: skip
        first, last, sessions = rows[0], rows[-1], each * len(rows)
        growth = (last["rss"] - first["rss"]) / max(1, sessions - each) * 1000
        h = (len(rows) - 1) // 2  # the second half: caches still fill in the first
        later = (last["rss"] - rows[h]["rss"]) / max(1, each * (len(rows) - 1 - h))
        later *= 1000
        lost = sum(r["answers"][0] - r["answers"][1] + r["reports"][0] - r["reports"][1]
                   for r in rows)  # fmt: skip
        load, pressure = machine_busy()
        print(
            f"\nThe day: {sessions} sessions opened and closed in "
            f"{(time.perf_counter() - started) / 60:.1f} min; the workers' RSS after expiry "
            f"{rss0:.0f} MB before the first workshop, {first['rss']:.0f} MB after it, "
            f"{last['rss']:.0f} MB after the last: {growth:+.1f} MB per 1,000 sessions after "
            f"the first, {later:+.1f} MB over the day's second half (target at most 20); "
            f"p95 drift from the first workshop (cold caches) to the last: "
            f"moves {_drift(first['move_p95'], last['move_p95'])}, page changes "
            f"{_drift(first['page_p95'], last['page_p95'])} (target under 20%); answers and "
            f"reports lost: {lost}; exception boxes: {sum(r['exceptions'] for r in rows)}; "
            f"load {load:.2f}, cpu wait {pressure:.0f}%"
        )
    finally:
        room.stop()


def _fault(row: dict) -> str:
    """What the workshop's fault did to the pages (those that had to come back, and when),
    to the answers (how long they took to be in) and, for a flood, to the stored answers."""
    if not row["fault"]:
        return "none"
    pages, slowest, seen = row["back"]
    said = f"{row['fault']}: " + (
        f"{pages} pages lost their connection, back in the room after {slowest:.1f} s at most"
        if pages
        else "no page lost its connection"
    )
    said += "" if seen else ", NOT ALL BACK AT THE TRAINER'S VIEW"
    said += f"; answers all in {row['answers_s']:.1f} s after they were sent"
    if row["flood_held"] is not None:
        said += f"; then {FLOOD} more sends from each page at once: " + (
            "the stored answers unchanged" if row["flood_held"] else "THE ANSWERS CHANGED"
        )
    return said


def _drift(first: float, last: float) -> str:
    return f"{(last - first) / first * 100:+.0f}%" if first > 0 else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workshops", type=int, help="workshops in the day (default: 6)")
    parser.add_argument("--attendees", type=int, help="attendees each (default: 100)")
    parser.add_argument("--workers", type=int, default=2, help="Streamlit workers")
    parser.add_argument("--session-ttl", type=int, default=60,
                        help="seconds a disconnected session is kept (default: 60)")  # fmt: skip
    parser.add_argument("--quick", action="store_true", help="2 workshops of 10, TTL 10 s")
    parser.add_argument("--faults", default=DAY,
                        help="the faults of workshops 2, 3, ... in order, comma-separated, "
                        f"several in one joined by +, from {', '.join(FAULTS)}; empty for "
                        f"none (default: {DAY})")  # fmt: skip
    args = parser.parse_args()
    args.faults = [f for f in args.faults.split(",") if f]
    unknown = {f for combined in args.faults for f in combined.split("+")} - set(FAULTS)
    if unknown:
        parser.error(f"unknown faults: {', '.join(sorted(unknown))}")
    defaults = (2, 10) if args.quick else (6, 100)
    args.workshops = args.workshops or defaults[0]
    args.attendees = args.attendees or defaults[1]
    if args.quick:
        args.session_ttl = min(args.session_ttl, 10)
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
