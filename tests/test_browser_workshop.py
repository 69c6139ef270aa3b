"""A workshop room in chromium, through HAProxy and two workers (scripts/workshop.py).

One trainer and several attendees, each in a browser context of their own (their own cookies,
so HAProxy spreads them over both workers): the attendees follow the trainer's page and ε,
answer the exercise the trainer asks the room (the projector counts them and shows the answer
on command) and a survey whose coins are flipped in their browsers, one explores alone and
follows again; then the trainer's worker is killed: the trainer leads again and its attendees
are back in the room through the other worker, while the workshop restarts the dead one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import BrowserContext, Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from streamlit.proto.BackMsg_pb2 import BackMsg
from test_browser import MAIN, ROOT, running_app, settled

from scripts.workshop import CONTROL, COOKIE, MALLOC

FRESH_PAGES = True  # every page a profile of its own: the room's cookies are per host (conftest)
WAIT = 30_000  # ms: what a follow may take on a busy machine (it takes 1-2 s on a quiet one)
SLIDERS = f"{MAIN} [data-testid='stSlider'] input[type='range']"
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive free ports."""
    for _ in range(200):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            first = sock.getsockname()[1]
        if first + count < 65000 and all(_free(first + i) for i in range(count)):
            return first
    pytest.fail("no free ports")


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _answers(url: str) -> bool:
    with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2) as response:
        return response.status == 200
    return False


@pytest.fixture(scope="module")
def workshop() -> Iterator[tuple[str, int]]:
    """scripts/workshop.py with two workers: (the room's address, the proxy's port)."""
    port = free_ports(3)
    env = {**os.environ, "PATH": f"{os.environ.get('PATH', '')}:/usr/sbin"}
    command = [sys.executable, "scripts/workshop.py", "--workers", "2", "--port", str(port),
               "--host", "127.0.0.1", "--max-upload-mb", "1"]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while not _answers(f"{base}/_stcore/health"):
        assert process.poll() is None, f"the workshop stopped: {process.stdout.read()}"
        assert time.monotonic() < deadline, "the workshop did not start in 120 s"
        time.sleep(0.3)
    yield base, port
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)


@pytest.fixture(autouse=True)
def _closing(browser) -> Iterator[None]:
    """Close the browser contexts a test opened, even when it failed: a page left open keeps
    its websocket on the proxy (and an old HAProxy, after a reload, waiting for it)."""
    before = set(browser.contexts)
    yield
    for context in set(browser.contexts) - before:
        context.close()


def worker_of(context: BrowserContext) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == COOKIE)


def room_cookie(page: Page, name: str) -> str:
    """The room cookie ``name`` once the browser keeps it: set by the server's route HttpOnly
    and SameSite=Strict (ui.workshop.room_cookies), so the page's scripts cannot read it."""
    deadline = time.monotonic() + WAIT / 1000
    while not (found := [c for c in page.context.cookies() if c["name"] == name]):
        assert time.monotonic() < deadline, f"no {name} cookie: {page.context.cookies()}"
        page.wait_for_timeout(100)
    assert found[0]["httpOnly"] and found[0]["sameSite"] == "Strict", found
    assert name not in page.evaluate("document.cookie")
    return found[0]["value"]


def _pids(*pattern: str) -> list[int]:
    """The processes pgrep finds for ``pattern``."""
    found = subprocess.run(["pgrep", *pattern], capture_output=True, text=True)
    return [int(pid) for pid in found.stdout.split()]


def worker_pid(port: int) -> int:
    """The process of the workshop's worker on ``port``."""
    return _pids("-f", f"server.port {port} ")[0]


def kill_worker(port: int, context: BrowserContext) -> int:
    """SIGKILL the worker that ``context``'s browser is sent to; its port."""
    dead = port + int(worker_of(context).removeprefix("w"))
    os.kill(worker_pid(dead), signal.SIGKILL)
    return dead


def restarted(port: int) -> None:
    """Wait for the workshop to have restarted the worker on ``port``."""
    deadline = time.monotonic() + 120
    while not _answers(f"http://127.0.0.1:{port}/_stcore/health"):
        assert time.monotonic() < deadline, "the killed worker was not restarted"
        time.sleep(0.5)


def at_address(page: Page, pattern: str, timeout: float = WAIT) -> None:
    """Wait until the page's address matches ``pattern`` (Streamlit changes it in place, with
    no load event for ``wait_for_url`` to wait for)."""
    page.wait_for_function("(p) => new RegExp(p).test(location.href)", arg=pattern,
                           timeout=timeout)  # fmt: skip


def reconnected(page: Page) -> None:
    """Wait for the page to lose its worker and to be connected again (to the other one)."""
    app = "[data-testid='stApp']"
    page.wait_for_selector(f"{app}:not([data-test-connection-state='CONNECTED'])", timeout=WAIT)
    page.wait_for_selector(f"{app}[data-test-connection-state='CONNECTED']", timeout=60_000)


def strip(page: Page) -> str:
    return page.locator(".st-key-room_bar").inner_text()


def epsilon_in(page: Page) -> str | None:
    found = parse_qs(urlsplit(page.url).query).get("laplace_epsilon")
    return found[0] if found else None


def opened(box: Locator, inside: Locator) -> None:
    """Open an expander (``box``) until ``inside`` shows: on a busy machine a click made while
    the page reruns can be lost, and a rerun can draw the box again closed (one CI run)."""
    deadline = time.monotonic() + WAIT / 1000
    while not inside.is_visible():
        is_open = box.evaluate(
            "e => !!(e.matches('details[open]') || e.querySelector('details[open]'))"
        )
        assert time.monotonic() < deadline, f"the box never showed it (box open: {is_open})"
        if not is_open:
            box.locator("summary").click()
        with contextlib.suppress(PlaywrightTimeout):
            inside.wait_for(timeout=3_000)


def test_a_room_follows_its_trainer_across_two_workers(workshop, browser) -> None:
    base, port = workshop
    trainer_context = browser.new_context(viewport={"width": 1400, "height": 1000})
    trainer = trainer_context.new_page()
    trainer.goto(f"{base}/workshop")
    trainer.get_by_role("button", name="Open a room").click()
    trainer.locator(".st-key-room_bar", has_text="you lead").wait_for(timeout=WAIT)
    code = re.search(r"Room ([A-Z0-9]{6})", strip(trainer)).group(1)
    assert "lead=" not in trainer.url  # the secret never reaches the address
    assert room_cookie(trainer, "dpx_lead").startswith(f"{code}.")
    # the bar and the panel are two fragments: wait for the panel's link too (a busy machine)
    trainer.locator(".st-key-room_panel", has_text=f"/workshop?room={code}").wait_for(timeout=WAIT)

    # Attendees on phones, each with their own cookies: HAProxy spreads them over the workers.
    attendees: list[tuple[BrowserContext, Page]] = []
    while len(attendees) < 2 or len({worker_of(c) for c, _ in attendees}) < 2:
        assert len(attendees) < 6, "HAProxy put every attendee on one worker"
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(f"{base}/workshop?room={code.lower()}")  # typed as read off the projector
        page.locator(".st-key-room_bar", has_text="follows the trainer").wait_for(timeout=WAIT)
        attendees.append((context, page))
    assert "lead=" not in attendees[0][1].content()
    assert all(room_cookie(page, "dpx_room") == code for _context, page in attendees)
    # One more types the code on the Workshop page, as read off the projector.
    context = browser.new_context(viewport={"width": 390, "height": 844})
    typist = context.new_page()
    typist.goto(f"{base}/workshop")
    typist.get_by_label("Room code").fill(f"{code[:3]} {code[3:].lower()}")
    typist.get_by_role("button", name="Join").click()
    typist.locator(".st-key-room_bar", has_text="follows the trainer").wait_for(timeout=WAIT)
    attendees.insert(0, (context, typist))

    # The trainer opens a page and moves ε: every attendee's page follows.
    trainer.locator("[data-testid='stSidebar'] a", has_text="Laplace mechanism").click()
    at_address(trainer, r"/laplace\b")
    settled(trainer)  # the page's runs are over: its slider is the one that stays, and focused
    trainer.locator(SLIDERS).first.focus()
    for _ in range(2):
        trainer.keyboard.press("ArrowLeft")
    at_address(trainer, r"laplace_epsilon=0\.6\b", WAIT)
    for _context, page in attendees:
        at_address(page, r"/laplace\?.*laplace_epsilon=0\.6\b", WAIT)
        page.locator(f"{SLIDERS}[aria-valuetext='0.6']").wait_for(timeout=WAIT)
        assert f"room={code}" in page.url and "lang=en" in page.url

    # The trainer asks the room the page's first exercise; every attendee answers on their
    # phone (on either worker); the projector counts them and shows the answer on command.
    box = trainer.locator(f"{MAIN} [data-testid='stExpander']", has_text="Exercise").first
    ask, results = (
        trainer.get_by_role("button", name="Ask the room"),
        trainer.locator(".st-key-room_results"),
    )
    opened(box, ask)
    ask.click()
    for _attempt in range(2):  # on a loaded machine a click made while the leader's strip
        try:  # reruns can be lost (one CI run): ask again while nothing is asked yet
            results.wait_for(timeout=WAIT)
            break
        except PlaywrightTimeout:
            if ask.count():
                ask.click()
    results.wait_for(timeout=WAIT)
    # The count is a polite live region (WCAG 4.1.3), the same element from 0 on: a screen
    # reader reads each new count out (one the page replaced would be read by none).
    counted = "[role='status'][aria-live='polite']"
    results.locator(counted, has_text="Answered so far: 0").evaluate("e => e.dataset.seen = 1")
    for _context, page in attendees:
        question = page.locator(".st-key-room_question")
        question.wait_for(timeout=WAIT)
        if question.locator("input[type='radio']").count():
            question.locator("label").filter(has_text=re.compile(r"\S")).first.click()
        else:
            question.locator("input").first.fill("1")
            question.locator("input").first.press("Enter")
        question.get_by_role("button", name="Send my answer").click()
        question.get_by_text("Your answer is in").wait_for(timeout=WAIT)
    n = len(attendees)
    results.locator(f"{counted}[data-seen]", has_text=f"Answered so far: {n}").wait_for(
        timeout=WAIT
    )
    trainer.get_by_role("button", name="Show the answer").click()
    results.get_by_text("The answer:").wait_for(timeout=WAIT)
    for _context, page in attendees:
        page.locator(".st-key-room_question", has_text="the answer is").wait_for(timeout=WAIT)
    trainer.get_by_role("button", name="End the question").click()
    for _context, page in attendees:
        page.locator(".st-key-room_question").wait_for(state="detached", timeout=WAIT)

    # The room as the data: a survey whose coins always answer "yes" (t = 0, y = 1). Every
    # attendee taps "No", and every report is "yes": what is sent is the coins', never the tap.
    trainer.locator("[data-testid='stSidebar'] a", has_text="Workshop").click()
    trainer.get_by_text("Survey the room with randomized response").click()
    # typed with markup, which the attendees read as typed (ui.common.user_text.literal)
    asked = "Have you ever reused a **password**? [Tell us](https://example.com/track.png)"
    trainer.get_by_label("The yes/no question").fill(asked)
    trainer.get_by_label("The yes/no question").press("Enter")
    for key, press, value in (
        ("survey_truth", "Home", "0.00"),
        ("survey_random_yes", "End", "1.00"),
    ):
        trainer.locator(f".st-key-{key} input[type='range']").focus()
        trainer.keyboard.press(press)
        thumb = trainer.locator(f".st-key-{key} [data-testid='stSliderThumbValue']")
        thumb.filter(has_text=value).wait_for(timeout=WAIT)
    trainer.get_by_text("Each answer is ε = 0-differentially private").wait_for(timeout=WAIT)
    trainer.get_by_role("button", name="Survey the room").click()
    survey = trainer.locator(".st-key-room_survey_results")
    survey.wait_for(timeout=WAIT)
    for _context, page in attendees:
        box = page.locator(".st-key-room_survey")
        box.get_by_text("Have you ever reused a **password**? [Tell us](").wait_for(timeout=WAIT)
        read = box.evaluate("(e) => e.innerText.replace(/[\\u2060\\u2068\\u2069]/g, '')")
        assert asked in read and box.locator("a, img").count() == 0, box.inner_html()[:2000]
        box.get_by_role("button", name="No").click()
        box.get_by_text("Sent: yes.").wait_for(timeout=WAIT)
    survey.locator(counted, has_text=f"Answered so far: {n}").wait_for(timeout=WAIT)
    survey.get_by_text(f"Randomized answers: {n} yes of {n}.").wait_for(timeout=WAIT)
    assert "say nothing about the truth" in survey.inner_text()  # t = 0: no estimate
    trainer.get_by_role("button", name="End the survey").click()
    survey.wait_for(state="detached", timeout=WAIT)
    settled(trainer)  # the end's run is over: a click during it was lost on a busy machine
    trainer.locator("[data-testid='stSidebar'] a", has_text="Laplace mechanism").click()
    at_address(trainer, r"/laplace\b")
    for _context, page in attendees:
        at_address(page, r"/laplace\b")
        page.locator(MAIN).get_by_text("Laplace mechanism").first.wait_for(timeout=WAIT)
        settled(page)  # the follow's run is over: the next click is the attendee's own

    # One attendee explores alone: the trainer's next page reaches the other one only.
    (_, alone), (_, follower) = attendees[0], attendees[-1]
    alone.get_by_role("button", name="Explore alone").click()
    alone.locator(".st-key-room_bar", has_text="on your own").wait_for(timeout=WAIT)
    trainer.locator("[data-testid='stSidebar'] a", has_text="Gaussian mechanism").click()
    at_address(follower, r"/gaussian\b", WAIT)
    alone.locator(".st-key-room_bar", has_text="on your own").wait_for()
    assert "/laplace" in alone.url
    alone.get_by_role("button", name="Follow the trainer").click()
    at_address(alone, r"/gaussian\b", WAIT)

    # The trainer's worker dies, and with it an attendee's (round robin puts one there): both
    # pages reconnect, as new sessions, the trainer leads again and the attendee is back in
    # the room (the browser's room cookies), and the workshop restarts the worker. Then the
    # other worker dies, where the trainer now is: everyone comes back through the one just
    # restarted (a first visit of a fresh process), and the room goes on.
    for title, path in (("Randomized response", "randomized_response"),
                        ("Exponential mechanism", "exponential")):  # fmt: skip
        shared = [page for context, page in attendees
                  if worker_of(context) == worker_of(trainer_context)]  # fmt: skip
        assert shared, "no attendee shares the trainer's worker"
        dead = kill_worker(port, trainer_context)
        reconnected(trainer)
        trainer.locator(".st-key-room_bar", has_text="you lead").wait_for(timeout=WAIT)
        trainer.locator("[data-testid='stSidebar'] a", has_text=title).click()
        at_address(trainer, rf"/{path}\b", WAIT)
        for page in shared:
            at_address(page, rf"/{path}\b", 60_000)
            page.locator(".st-key-room_bar", has_text="follows the trainer").wait_for()
        restarted(dead)


def _reruns(page: Page) -> list[float]:
    """The times at which the page asks its worker for a run (each ``rerun_script`` it sends
    over Streamlit's websocket): a run of the page, whole or a fragment."""
    asked: list[float] = []

    def sent(payload: bytes | str) -> None:
        if isinstance(payload, bytes):
            message = BackMsg()
            message.ParseFromString(payload)
            if message.WhichOneof("type") == "rerun_script":
                asked.append(time.monotonic())

    page.on("websocket", lambda socket: socket.on("framesent", sent))
    return asked


def _trainer_on_laplace(browser, base: str) -> tuple[Page, str]:
    """A trainer's screen that opened a room and the Laplace page; the room's code."""
    trainer = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    trainer.goto(f"{base}/workshop")
    trainer.get_by_role("button", name="Open a room").click()
    trainer.locator(".st-key-room_bar", has_text="you lead").wait_for(timeout=WAIT)
    code = re.search(r"Room ([A-Z0-9]{6})", strip(trainer)).group(1)
    trainer.locator("[data-testid='stSidebar'] a", has_text="Laplace mechanism").click()
    at_address(trainer, r"/laplace\b")
    settled(trainer)  # the page's runs are over: the slider a test focuses is the one that stays
    return trainer, code


def test_followers_show_the_trainers_epsilon_without_a_run(workshop, browser) -> None:
    """The trainer moves ε: four followers (over both workers) show the guarantee and numbers
    at the new ε without asking their worker for a run (the room's push, shown by the live
    layer), then catch up with one run each: the thumb moved as a key would, the page's own
    step."""
    base, _port = workshop
    trainer, code = _trainer_on_laplace(browser, base)
    followers: list[tuple[BrowserContext, Page, list[float]]] = []
    # The worker the last test killed is back, but HAProxy counts it up again only after its
    # next health check, which a busy machine may fail: join until both workers hold some.
    deadline = time.monotonic() + 120
    while len(followers) < 4 or len({worker_of(c) for c, _, _ in followers}) < 2:
        assert time.monotonic() < deadline, "HAProxy put every follower on one worker"
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        asked = _reruns(page)
        page.goto(f"{base}/workshop?room={code}")
        at_address(page, r"/laplace\?.*room=", WAIT)
        page.locator(".dp-live-text", has_text="Guarantee: 1-DP").wait_for(timeout=WAIT)
        followers.append((context, page, asked))
    for _context, page, _asked in followers:  # every page idle at ε = 1
        page.wait_for_selector(IDLE, timeout=WAIT)
    before = [len(asked) for _c, _p, asked in followers]
    trainer.locator(SLIDERS).first.focus()
    for _ in range(2):
        trainer.keyboard.press("ArrowLeft")
    # Each page's runs counted when it first shows the move, all pages watched at once: one
    # by one, a busy machine's wait on the first let the others show it and, a second later,
    # run their catch-up (one CI run counted that run as asked before the move was shown).
    shown: dict[int, int] = {}
    deadline = time.monotonic() + WAIT / 1000
    while len(shown) < len(followers):
        assert time.monotonic() < deadline, f"only {sorted(shown)} showed ε = 0.6"
        for i, (_context, page, asked) in enumerate(followers):
            moved = page.locator(".dp-live-text", has_text="Guarantee: 0.6-DP")
            if i not in shown and moved.count():
                shown[i] = len(asked)
    assert [shown[i] for i in range(len(followers))] == before, "a run before the move showed"
    for _context, page, _asked in followers:
        assert page.locator(".dp-live-text", has_text="With ε = 0.6, each answer").count()
    for (_context, page, asked), count in zip(followers, before, strict=True):
        # then each catches up: its thumb and address move, by one run of its own
        at_address(page, r"laplace_epsilon=0\.6\b", WAIT)
        page.locator(f"{SLIDERS}[aria-valuetext='0.6']").wait_for(timeout=WAIT)
        page.wait_for_selector(IDLE, timeout=WAIT)
        assert len(asked) - count == 1, (len(asked) - count, page.url)
        assert page.locator(".dp-live-text", has_text="Guarantee: 0.6-DP").count()
        # at the room's view by the watch's own measure: nothing left for it to open
        assert page.evaluate("window.__dpElsewhere()") is False, page.url


def test_a_follower_knocked_off_the_view_comes_back_to_it(workshop, browser) -> None:
    """Whatever a busy machine loses on the way (a run cut short by the next move), a
    follower at rest elsewhere than the room's view opens it, with one run."""
    base, _port = workshop
    _trainer, code = _trainer_on_laplace(browser, base)
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    asked = _reruns(page)
    page.goto(f"{base}/workshop?room={code}")
    at_address(page, r"/laplace\?.*room=", WAIT)
    page.wait_for_selector(IDLE, timeout=WAIT)
    # the room's push heard (its first event), and the page at its view
    page.wait_for_function("window.__dpRoom && window.__dpRoom.room", timeout=WAIT)
    page.wait_for_function("!window.__dpElsewhere()", timeout=WAIT)
    before = len(asked)
    # as if a run had been lost: the address says ε = 0.5 while the room's view does not;
    # asked in the same script, before the watch's next look can bring the page back
    elsewhere = page.evaluate(
        """() => {
          const url = new URL(location.href);
          url.searchParams.set("laplace_epsilon", "0.5");
          history.replaceState(history.state, "", url);
          return window.__dpElsewhere();
        }"""
    )
    assert elsewhere is True
    page.wait_for_function("!window.__dpElsewhere()", timeout=WAIT)
    page.wait_for_selector(IDLE, timeout=WAIT)
    assert epsilon_in(page) != "0.5" and len(asked) - before == 1, (page.url, len(asked))
    # the follower's own step is theirs: the watch keeps away from a page touched since
    page.locator(SLIDERS).first.focus()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("window.__dpElsewhere()", timeout=WAIT)
    assert page.evaluate("window.__dpRoom.touched > window.__dpRoom.told")


# Every websocket the page opens, kept where a test can reach it.
KEEP_SOCKETS = """
window.__sockets = [];
const NativeSocket = window.WebSocket;
window.WebSocket = class extends NativeSocket {
  constructor(...args) { super(...args); window.__sockets.push(this); }
};
"""


def test_a_follower_whose_network_drops_for_ten_seconds_comes_back_to_the_room(
    workshop, browser
) -> None:
    """An attendee's network cut for 10 s while the trainer moves ε: the page shows it is
    not connected (Streamlit's own status), then, the network back, connects again and shows
    the trainer's new view by itself, still in the room, with no exception."""
    base, _port = workshop
    trainer, code = _trainer_on_laplace(browser, base)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.add_init_script(KEEP_SOCKETS)
    page.goto(f"{base}/workshop?room={code}")
    at_address(page, r"/laplace\?.*room=", WAIT)
    page.locator(".dp-live-text", has_text="Guarantee: 1-DP").wait_for(timeout=WAIT)
    page.wait_for_selector(IDLE, timeout=WAIT)
    # The network goes: nothing new gets through, and the open connections end (chromium's
    # offline mode alone leaves an open websocket be).
    context.set_offline(True)
    page.evaluate("window.__sockets.forEach((socket) => socket.close())")
    cut = time.monotonic()
    app = "[data-testid='stApp']"
    page.wait_for_selector(f"{app}:not([data-test-connection-state='CONNECTED'])", timeout=WAIT)
    trainer.locator(SLIDERS).first.focus()
    for _ in range(2):
        trainer.keyboard.press("ArrowLeft")
    at_address(trainer, r"laplace_epsilon=0\.6\b")
    page.wait_for_timeout(max(0.0, 10.0 - (time.monotonic() - cut)) * 1000)  # the cut lasts 10 s
    context.set_offline(False)
    page.wait_for_selector(f"{app}[data-test-connection-state='CONNECTED']", timeout=60_000)
    page.locator(".dp-live-text", has_text="Guarantee: 0.6-DP").wait_for(timeout=WAIT)
    at_address(page, r"laplace_epsilon=0\.6\b", WAIT)
    page.wait_for_selector(IDLE, timeout=WAIT)
    assert page.locator("[data-testid='stException']").count() == 0
    assert "your page follows the trainer" in strip(page)


def test_the_workers_run_with_the_workshops_malloc_settings(workshop) -> None:
    """Each worker runs with glibc's two arenas and fixed thresholds (scripts/workshop.py): a
    session's script runs in a thread of its own, and per-thread arenas, and buffers carved
    from them, kept what sessions freed."""
    _base, port = workshop
    for worker in (port + 1, port + 2):
        environ = Path(f"/proc/{worker_pid(worker)}/environ").read_bytes().decode().split("\0")
        assert {f"{name}={value}" for name, value in MALLOC.items()} <= set(environ), worker
    assert MALLOC["MALLOC_ARENA_MAX"] == "2"  # glibc's default is 8 a core


def test_a_workshop_on_a_taken_port_says_so(workshop) -> None:
    _base, port = workshop
    result = subprocess.run(
        [
            sys.executable,
            "scripts/workshop.py",
            "--workers",
            "2",
            "--port",
            str(port),
            "--host",
            "127.0.0.1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PATH": f"{os.environ.get('PATH', '')}:/usr/sbin"},
    )
    assert result.returncode == 2
    assert f"Port(s) {port}, {port + 1}, {port + 2} already in use" in result.stderr
    assert "--port" in result.stderr


def test_every_answer_through_the_proxy_is_hardened(workshop) -> None:
    """The page, one of its scripts and the health check, as HAProxy answers them: no other
    site may frame the room, no type is sniffed, an address (which holds the room's code)
    goes on as a referrer only within the room, and no Server header names the software."""
    base, _port = workshop
    with urllib.request.urlopen(f"{base}/laplace", timeout=30) as answer:
        html = answer.read().decode()
    script = re.search(r'src="\.?/?([^"]+\.js)"', html)
    assert script, html[:500]
    for path in ("laplace", script.group(1), "_stcore/health"):
        with urllib.request.urlopen(f"{base}/{path}", timeout=30) as answer:
            said = answer.headers
        assert said["X-Frame-Options"] == "SAMEORIGIN", (path, dict(said))
        assert said["Content-Security-Policy"] == "frame-ancestors 'self'", path
        assert said["X-Content-Type-Options"] == "nosniff", path
        assert said["Referrer-Policy"] == "same-origin", path
        assert "Server" not in said, (path, said["Server"])


def test_the_workshop_refuses_an_upload_above_its_cap(workshop, browser, tmp_path) -> None:
    """--max-upload-mb 1: a 1.5 MB file is refused by the worker (Streamlit's own limit, which
    the page's uploader states) and the page stays usable."""
    base, _port = workshop
    big = tmp_path / "big.csv"
    big.write_text("person,value\n" + "".join(f"p{i},{i % 97}\n" for i in range(150_000)))
    assert big.stat().st_size > 1.4 * 2**20
    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    page.goto(f"{base}/laplace")
    page.locator(f"{MAIN} [data-testid='stSelectbox']").first.click()
    page.get_by_role("option", name="Your own CSV file…").click()
    uploader = page.locator(f"{MAIN} [data-testid='stFileUploader']").first
    uploader.wait_for(timeout=WAIT)
    assert "1MB per file" in uploader.inner_text()
    uploader.locator("input[type='file']").set_input_files(str(big))
    uploader.get_by_text(re.compile(r"File must be 1(\.0)?MB or smaller")).wait_for(timeout=WAIT)
    assert "Upload a CSV to explore your own data" in page.locator(MAIN).inner_text()


def test_a_room_follows_on_app_py_without_the_versions_route(browser) -> None:
    """`streamlit run app.py` serves no /_room route: the watcher, finding no versions there,
    runs the strip at each look instead, and the attendee still follows; with no route to set
    the room cookies, the page's script keeps them."""
    with running_app("app.py") as base:
        trainer = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        trainer.goto(f"{base}/workshop")
        trainer.get_by_role("button", name="Open a room").click()
        trainer.locator(".st-key-room_bar", has_text="you lead").wait_for(timeout=WAIT)
        code = re.search(r"Room ([A-Z0-9]{6})", strip(trainer)).group(1)
        attendee = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        attendee.goto(f"{base}/workshop?room={code}")
        attendee.locator(".st-key-room_bar", has_text="follows the trainer").wait_for(timeout=WAIT)
        attendee.wait_for_function("document.cookie.includes('dpx_room=')", timeout=WAIT)
        trainer.locator("[data-testid='stSidebar'] a", has_text="Gaussian mechanism").click()
        at_address(trainer, r"/gaussian\b")
        at_address(attendee, r"/gaussian\?.*room=", WAIT)
        attendee.locator(".st-key-room_bar", has_text="follows the trainer").wait_for(timeout=WAIT)


def _command_and_master(port: int) -> tuple[int, int]:
    """The workshop command on ``port`` and its HAProxy master."""
    command = _pids("-f", f"scripts/workshop.py .*--port {port} ")[0]
    return command, _pids("-P", str(command), "haproxy")[0]


def _proxies(port: int) -> tuple[int, set[int]]:
    """The workshop command on ``port``: its pid and its HAProxy master's processes."""
    command, master = _command_and_master(port)
    return command, set(_pids("-P", str(master)))


async def until_answered(answered: list[int], count: int) -> None:
    """Wait until ``count`` requests have been answered (``answered[0]``)."""
    deadline = time.monotonic() + WAIT / 1000
    while answered[0] < count:
        assert time.monotonic() < deadline, f"only {answered[0]} requests answered"
        await asyncio.sleep(0.05)


def _control(port: int) -> Path:
    """The control socket of the workshop's HAProxy on ``port`` (beside its haproxy.cfg)."""
    _command, master = _command_and_master(port)
    args = Path(f"/proc/{master}/cmdline").read_bytes().split(b"\0")
    return Path(args[args.index(b"-f") + 1].decode()).with_name(CONTROL)


def _counted_in(control: Path) -> dict[str, bool]:
    """Whether HAProxy counts each worker in (``show servers state``: srv_op_state 2 is
    running)."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(str(control))
        sock.sendall(b"show servers state workers\n")
        answer = b"".join(iter(lambda: sock.recv(65536), b"")).decode()
    rows = [line.split() for line in answer.splitlines()[2:] if line.strip()]
    return {row[3]: row[5] == "2" for row in rows}


def test_a_worker_too_busy_to_answer_its_health_check_stays_in_the_room(workshop) -> None:
    """A worker that answers nothing for 10 s (stopped, as one whose loop a long run holds)
    is still counted in by HAProxy, and serves again once it answers: its people are not
    sent elsewhere. With the check's default timeout (its 2 s interval) it was taken out."""
    _base, port = workshop
    control, both = _control(port), {"w1": True, "w2": True}
    deadline = time.monotonic() + 30  # a worker an earlier test killed: back in the room
    while _counted_in(control) != both:
        assert time.monotonic() < deadline, _counted_in(control)
        time.sleep(0.25)
    busy = worker_pid(port + 1)
    seen: list[dict[str, bool]] = []
    os.kill(busy, signal.SIGSTOP)
    try:
        until = time.monotonic() + 10
        while time.monotonic() < until:
            seen.append(_counted_in(control))
            time.sleep(0.25)
    finally:
        os.kill(busy, signal.SIGCONT)
    deadline = time.monotonic() + 30  # a busy machine's worker, woken
    while not _answers(f"http://127.0.0.1:{port + 1}/_stcore/health"):
        assert time.monotonic() < deadline, "the worker did not answer again"
        time.sleep(0.2)
    seen.append(_counted_in(control))
    assert [state for state in seen if state != both] == [], seen


def test_a_reload_of_haproxy_drops_no_one(workshop) -> None:
    """SIGHUP to the workshop command reloads HAProxy: a page connected through the old proxy
    keeps its websocket and its runs, every request made meanwhile is answered (by the old
    proxy or the new), and the old proxy leaves once its last connection has closed."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_load import Attendee, http_get

    _base, port = workshop
    command, old = _proxies(port)

    async def scenario() -> tuple[list[int], list[bytes]]:
        page = Attendee(port, "laplace")
        await page.open()
        stop, failed, answered = asyncio.Event(), [], [0]

        async def ask() -> None:  # a browser's requests, on fresh connections, all along
            while not stop.is_set():
                head = (await http_get(port, "/_stcore/health")).split(b"\r\n", 1)[0]
                if b" 200 " in head:
                    answered[0] += 1
                else:
                    failed.append(head)

        asking = asyncio.create_task(ask())
        await until_answered(answered, 1)
        counts = [answered[0]]  # before the reload
        os.kill(command, signal.SIGHUP)
        deadline = time.monotonic() + 30
        while not (_proxies(port)[1] - old):  # the new proxy started beside the old
            assert time.monotonic() < deadline, "HAProxy did not reload"
            await asyncio.sleep(0.2)
        counts.append(answered[0])  # while it reloaded
        await until_answered(answered, counts[-1] + 1)
        counts.append(answered[0])  # by the new proxy
        assert old <= _proxies(port)[1]  # the old proxy still holds the page's websocket
        run = await page.step()
        await asyncio.wait_for(run.finished, WAIT / 1000)
        assert not run.errors and run.status is not None
        stop.set()
        await asking
        await page.close()
        return counts, failed

    # in a thread of its own: the module's Playwright holds this thread's event loop
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        counts, failed = thread.submit(asyncio.run, scenario()).result()
    assert failed == [] and 0 < counts[0] < counts[2], (counts, failed)
    deadline = time.monotonic() + 60
    while old & _proxies(port)[1]:
        assert time.monotonic() < deadline, "the old proxy stayed after its connections ended"
        time.sleep(0.5)
