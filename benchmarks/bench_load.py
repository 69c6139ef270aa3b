"""Workshop load on one app server: simulated attendees stepping a page's main slider.

Run from the project root:

    python3 benchmarks/bench_load.py            # laplace, bounding; N = 1 5 10 20 40; ~17 min
    python3 benchmarks/bench_load.py --quick    # smoke run (N = 1 3, 6 s, bursts of 5), ~1 min
    python3 benchmarks/bench_load.py --pages all --attendees 1 10 --seconds 30
    python3 benchmarks/bench_load.py --profile /tmp/load-prof   # then py-spy the server
    python3 benchmarks/bench_load.py --root /tmp/snapshot       # serve another copy of the app

The script starts ONE server itself (``python3 -m streamlit run app.py --server.port <free>
--server.headless true`` in the project root, so .streamlit/config.toml applies; ``--root``
serves another copy, e.g. a snapshot of the working tree while it is being edited) and talks
to it the way the browser's frontend does, over Streamlit's own websocket protocol
(/_stcore/stream, protobuf BackMsg / ForwardMsg), with no browser: the browser's CPU stays out
of the figures. The client is ``websockets``, which Streamlit itself depends on. Each
simulated attendee

- asks for /_stcore/health and /_stcore/host-config, opens the websocket and requests the page
  (``rerun_script`` with the page's url path as ``page_name``, as a first visit does);
- keeps what the frontend keeps: the element tree (delta paths; stale nodes dropped when a
  run or fragment run finishes), every widget's state (initial value from its proto, value the
  server sets with ``set_value``), the query string (``page_info_changed``), the page's script
  hash (``navigation``) and the forward-message cache (``ref_hash``, cached hashes sent back);
- steps the page's first slider in the main area to a neighbouring value (alternately up and
  down) every ``--interval`` seconds, sending all widget states and, when the slider lives in
  an ``st.fragment``, that fragment's id, so the server reruns only the fragment, as it does
  for a browser.

Checked against chromium (Playwright, frames captured on both sides) for a step of the
laplace ε slider (a fragment run) and the bounding ε slider (a full rerun): the same
``rerun_script`` (query string, page hash, fragment id, every widget state, cached hashes)
and byte-identical deltas, but for the download button's per-session deferred file id.

Figures per page and N attendees: step latency (sending the widget change to the server's
``script_finished`` for that run) p50 / p95 / max; unanswered steps (no finish within 10 s);
late steps (sent more than 0.25 s behind the attendee's schedule: each attendee sends its next
step only once the previous one finished, so late steps mean the server could not keep up);
steps whose run showed an exception; server CPU per step (utime + stime of the server process
from /proc over the stepping phase, divided by the steps) and the server's CPU use over that
phase (100 % = one core); the server's resident memory (peak VmRSS sampled every 0.25 s during
the run; VmHWM since start). Then "everyone opens the page at once": N sessions connect and
request the page in the same instant; the time from that instant to each session's first
message and to its ``script_finished``, and whether all finished within 3 s. Each row carries
the machine's 1-minute load average and CPU pressure (PSI "some avg60": the share of time some
task waited for a CPU), since other work on the machine shows in the latencies. Figures are
printed, not asserted.

Before measuring, a check: one attendee steps each page once and the script prints what the
step's run sent and changed (for laplace the "Noise scale" metric must follow ε), so a client
that no longer speaks the protocol, or a page that raises, shows in the check lines rather
than as fast numbers.

``--profile DIR``: after the tables, one more 20 s run per page at the largest N with
``py-spy record --gil`` on the server (samples only the thread holding the GIL, i.e. what the
server's Python spends, not threads waiting for a CPU); the raw files go to DIR and a summary
(script runs vs event loop, the project's frames, the library calls they make) is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import streamlit
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.Slider_pb2 import Slider
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import connect
from websockets.typing import Origin, Subprotocol

ROOT = Path(__file__).resolve().parent.parent

DEFAULT_PAGES = ["laplace", "bounding"]  # the two heaviest pages
STEP_TIMEOUT = 10.0  # a step without a finish within this is "unanswered"
DRAIN_TIMEOUT = 60.0  # how long an unanswered step may still take before the attendee gives up
SERVED_WITHIN = 3.0  # the "everyone opens the page at once" target
LATE = 0.25  # a step sent this long after its scheduled time is "late"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

SUCCESS = ForwardMsg.FINISHED_SUCCESSFULLY
FRAGMENT_SUCCESS = ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
EARLY_FOR_RERUN = ForwardMsg.FINISHED_EARLY_FOR_RERUN


# --- The server --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def process_cpu_seconds(pid: int | str) -> float:
    """utime + stime of process ``pid`` (all its threads; "P/task/T": thread T alone), in
    seconds; 0 once it is gone."""
    with contextlib.suppress(OSError):
        stat = Path(f"/proc/{pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return 0.0


def process_memory_mb(pid: int) -> tuple[float, float]:
    """VmRSS and VmHWM (peak since start) of process ``pid``, in MB; 0 once it is gone."""
    values = {"VmRSS": 0.0, "VmHWM": 0.0}
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            name, _, rest = line.partition(":")
            if name in values:
                values[name] = int(rest.split()[0]) / 1024
    return values["VmRSS"], values["VmHWM"]


class Server:
    """``python3 -m streamlit run app.py`` in the project root, and its /proc figures."""

    def __init__(self, port: int, root: Path) -> None:
        self.port = port
        self.root = root
        handle, name = tempfile.mkstemp(prefix="bench_load_server_", suffix=".log")
        os.close(handle)
        self.log_path = Path(name)
        self.log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                "app.py",
                "--server.port",
                str(port),
                "--server.headless",
                "true",
            ],
            cwd=root,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.pid = self.process.pid

    async def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the server exited: {self.log_path.read_text()}")
            with contextlib.suppress(OSError):
                if (await http_get(self.port, "/_stcore/health")).endswith(b"ok"):
                    return
            await asyncio.sleep(0.2)
        raise SystemExit("the server did not answer /_stcore/health within 60 s")

    def cpu_seconds(self) -> float:
        """utime + stime of the server process (all its threads), in seconds."""
        return process_cpu_seconds(self.pid)

    def memory_mb(self) -> tuple[float, float]:
        """VmRSS and VmHWM (peak since start), in MB."""
        return process_memory_mb(self.pid)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        self.log_path.unlink(missing_ok=True)


async def http_get(port: int, path: str, cookie: str = "") -> bytes:
    """A minimal HTTP/1.1 GET (what the frontend fetches before opening the websocket), with
    the browser's cookies when it has some (a proxy that keeps a session on one worker by a
    cookie needs them)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    sent = f"Cookie: {cookie}\r\n" if cookie else ""
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{sent}Connection: close\r\n\r\n".encode()
    )
    await writer.drain()
    data = await reader.read()
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return data


def set_cookies(response: bytes) -> dict[str, str]:
    """The cookies an HTTP response sets (name -> value), as a browser keeps them."""
    head = response.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    kept = {}
    for line in head.split("\r\n")[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "set-cookie":
            pair = value.strip().split(";", 1)[0]
            key, _, kept_value = pair.partition("=")
            kept[key.strip()] = kept_value.strip()
    return kept


# --- One attendee: the frontend's side of the protocol -----------------------------------------


@dataclass
class Node:
    """One node of the frontend's element tree."""

    kind: str  # "element" or "block"
    type: str  # e.g. "slider", "metric", "column", "tab_container"
    proto: object  # the Element or Block message
    fragment_id: str
    run_id: str


def _future() -> asyncio.Future:
    return asyncio.get_running_loop().create_future()


@dataclass
class Run:
    """The run a request is waiting for."""

    sent: float
    finished: asyncio.Future = field(default_factory=_future)
    started: float | None = None  # when its new_session (the run's start) arrived
    run_id: str | None = None
    status: int | None = None
    errors: list[str] = field(default_factory=list)  # exceptions the page showed
    deltas: list[tuple[tuple[int, ...], Node]] = field(default_factory=list)


def _widget_values(element_type: str, widget) -> tuple[str, object, object] | None:
    """(value field, value the server set or None, default or None), as the frontend reads them.

    The frontend stores a widget's value when it mounts: the widget manager's value when it has
    one, else the value the server set (``set_value``), else the proto's default; a later
    ``set_value`` overwrites it. Widgets without a value of their own until the user acts
    (buttons, tabs, expanders, charts) are left out, as the frontend leaves them out.
    """
    if element_type == "slider":
        if widget.type == Slider.SELECT_SLIDER or widget.options:
            options = list(widget.options)
            default = [options[int(i)] for i in widget.default]
            current = list(widget.raw_value) if widget.raw_value else default
            return "string_array_value", current if widget.set_value else None, default
        current = list(widget.value) if widget.value else list(widget.default)
        return "double_array_value", current if widget.set_value else None, list(widget.default)
    if element_type == "checkbox":
        return "bool_value", widget.value if widget.set_value else None, widget.default
    if element_type in ("selectbox", "radio"):
        options = list(widget.options)
        default = options[widget.default] if widget.HasField("default") and options else None
        current = widget.raw_value if widget.HasField("raw_value") else None
        return "string_value", current if widget.set_value else None, default
    if element_type in ("text_input", "text_area"):
        default = widget.default if widget.HasField("default") else None
        current = widget.value if widget.HasField("value") else None
        return "string_value", current if widget.set_value else None, default
    if element_type == "number_input":
        kind = "int_value" if widget.data_type == widget.INT else "double_value"
        cast = int if kind == "int_value" else float
        default = cast(widget.default) if widget.HasField("default") else None
        current = cast(widget.value) if widget.HasField("value") else None
        return kind, current if widget.set_value else None, default
    return None


def _set_state(state: WidgetState, kind: str, value: object) -> None:
    if kind == "string_array_value":
        state.string_array_value.data[:] = value
    elif kind == "double_array_value":
        state.double_array_value.data[:] = value
    else:
        setattr(state, kind, value)


class Attendee:
    """A browser tab without the browser: one websocket session on one page."""

    def __init__(
        self, port: int, page: str, query: str = "", cookies: dict[str, str] | None = None
    ) -> None:
        self.port = port
        self.page = page
        self.cookies = dict(cookies or {})  # what the browser sends with each request
        self.auto: dict[str, tuple[float, asyncio.Task]] = {}  # the frontend's autoReruns
        self.watch: Callable[[Attendee, float], None] | None = None  # called after each delta
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.nodes: dict[tuple[int, ...], Node] = {}
        self.widgets: dict[str, WidgetState] = {}
        self.query_string = query
        self.page_script_hash = ""
        self.cache: dict[str, list] = {}  # hash -> [bytes, run count, fragment id]
        self.run_count = 0
        self.max_cached_age = 2
        self.run_id = ""
        self.run_fragments: list[str] = []
        self.new_session_seen = False
        self.waiting: Run | None = None
        self.first_message = asyncio.get_running_loop().create_future()
        self.direction = 1
        self.app_pages: list[str] = []
        self.errors: list[str] = []  # exceptions shown by any run of this session
        self.session_id = ""  # the server's id of this session (its first new_session)
        self.operations: dict[str, asyncio.Future] = {}  # backend operations awaited, by id

    # -- connection ---------------------------------------------------------------------------

    async def open(self) -> float:
        """Fetch what the frontend fetches, connect, request the page; seconds to its finish."""
        # One after the other, as a browser that loaded the page first: behind a proxy the
        # first answer's cookie names the worker, and every later request goes there.
        for path in ("/_stcore/health", "/_stcore/host-config"):
            self.cookies.update(set_cookies(await http_get(self.port, path, self.cookie_header())))
        self.ws = await connect(
            f"ws://127.0.0.1:{self.port}/_stcore/stream",
            subprotocols=[Subprotocol("streamlit")],
            origin=Origin(f"http://127.0.0.1:{self.port}"),
            additional_headers={"Cookie": self.cookie_header()} if self.cookies else None,
            max_size=None,
            open_timeout=60,
            ping_interval=None,
        )
        self.reader = asyncio.create_task(self._read())
        run = await self.rerun(page_name=self.page)
        await asyncio.wait_for(asyncio.shield(run.finished), DRAIN_TIMEOUT)
        self.errors += run.errors
        return run.finished.result() - run.sent

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    async def close(self) -> None:
        self._stop_auto(list(self.auto))
        # What no one waits for any more (a run a page switch replaced) ends here, quietly.
        for pending in (self.first_message, self.waiting and self.waiting.finished):
            if pending is not None and not pending.done():
                pending.cancel()
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await self.reader

    # -- requests -----------------------------------------------------------------------------

    async def rerun(
        self, fragment_id: str = "", page_name: str = "", events: Sequence[WidgetState] = ()
    ) -> Run:
        """Send ``rerun_script`` as the frontend's sendRerunBackMsg does (``events``: the
        trigger states of this run, a button's click); return its Run."""
        self.new_session_seen = False  # the frontend's hasReceivedNewSession
        self.waiting = Run(sent=time.perf_counter())
        await self.ws.send(self.rerun_message(fragment_id, page_name, events))
        return self.waiting

    def rerun_message(
        self,
        fragment_id: str,
        page_name: str = "",
        events: Sequence[WidgetState] = (),
        auto: bool = False,
    ) -> bytes:
        """The ``rerun_script`` BackMsg, serialized."""
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string = self.query_string
        rerun.widget_states.widgets.extend(self.widgets.values())
        rerun.widget_states.widgets.extend(events)
        rerun.is_auto_rerun = auto
        if self.page_script_hash:
            rerun.page_script_hash = self.page_script_hash
        else:
            rerun.page_name = page_name
        rerun.fragment_id = fragment_id
        rerun.cached_message_hashes.extend(self.cache)
        context = rerun.context_info
        context.timezone = "UTC"
        context.timezone_offset = 0
        context.locale = "en-US"
        query = f"?{self.query_string}" if self.query_string else ""
        context.url = f"http://127.0.0.1:{self.port}/{self.page}{query}"
        context.is_embedded = False
        context.color_scheme = "light"
        return msg.SerializeToString()

    async def deferred_file(self, file_id: str) -> str:
        """Where to fetch a download whose data is built on the click (a download button's
        ``deferred_file_id``), asked as the frontend asks: a backend operation, no script
        run; the server builds the file and answers its media URL."""
        msg = BackMsg()
        request = msg.backend_operation_request
        request.request_id, request.session_id = os.urandom(8).hex(), self.session_id
        request.deferred_file.file_id = file_id
        answer = self.operations[request.request_id] = _future()
        await self.ws.send(msg.SerializeToString())
        found = await asyncio.wait_for(answer, DRAIN_TIMEOUT)
        if found.error_msg:
            raise RuntimeError(found.error_msg)
        return found.deferred_file.url

    async def _auto_rerun(self, fragment_id: str, interval: float) -> None:
        """The frontend's setInterval for a fragment's run_every: a fragment rerun each
        ``interval`` seconds, whatever else the session is doing."""
        with contextlib.suppress(Exception):
            while True:
                await asyncio.sleep(interval)
                await self.ws.send(self.rerun_message(fragment_id, auto=True))

    def _stop_auto(self, fragment_ids: list[str]) -> None:
        for fragment_id in fragment_ids:
            found = self.auto.pop(fragment_id, None)
            if found is not None:
                found[1].cancel()

    def main_slider(self) -> tuple[tuple[int, ...], Node] | None:
        """The first slider of the main area (delta path root 0), in page order."""
        sliders = [
            (path, node)
            for path, node in self.nodes.items()
            if path[0] == 0 and node.kind == "element" and node.type == "slider"
        ]
        return min(sliders, key=lambda item: item[0]) if sliders else None

    def step_slider(self) -> tuple[str, str, str, str]:
        """Move the main slider to a neighbouring value; (label, old, new, fragment id)."""
        found = self.main_slider()
        if found is None:
            raise RuntimeError(f"page {self.page} shows no slider in its main area")
        _, node = found
        slider = node.proto.slider
        state = self.widgets[slider.id]
        if state.WhichOneof("value") == "string_array_value":
            options = list(slider.options)
            values = list(state.string_array_value.data)
            index = options.index(values[0])
            if not 0 <= index + self.direction < len(options):
                self.direction = -self.direction
            new = options[index + self.direction]
            old, values[0] = values[0], new
            state.string_array_value.data[:] = values
        else:
            values = list(state.double_array_value.data)
            if not slider.min <= values[0] + self.direction * slider.step <= slider.max:
                self.direction = -self.direction
            old = values[0]
            values[0] += self.direction * slider.step
            new = values[0]
            state.double_array_value.data[:] = values
        self.direction = -self.direction
        return slider.label, str(old), str(new), node.fragment_id

    async def step(self) -> Run:
        """Step the main slider and send the rerun the browser would send."""
        _, _, _, fragment_id = self.step_slider()
        return await self.rerun(fragment_id=fragment_id)

    # -- what the server sends ----------------------------------------------------------------

    async def _read(self) -> None:
        try:
            async for data in self.ws:
                now = time.perf_counter()
                if not self.first_message.done():
                    self.first_message.set_result(now)
                msg = ForwardMsg()
                msg.ParseFromString(data)
                self._handle(msg, data, now)
        except Exception as error:  # a protocol error: the waiting request gets it
            if self.waiting is not None and not self.waiting.finished.done():
                self.waiting.finished.set_exception(error)
        finally:
            if not self.first_message.done():
                self.first_message.set_exception(ConnectionError("closed before any message"))
            if self.waiting is not None and not self.waiting.finished.done():
                self.waiting.finished.set_exception(ConnectionError("websocket closed"))

    def _handle(self, msg: ForwardMsg, data: bytes, now: float) -> None:
        kind = msg.WhichOneof("type")
        if kind == "ref_hash":
            cached = self.cache.get(msg.ref_hash)
            if cached is None:
                raise RuntimeError(f"cached ForwardMsg miss {msg.ref_hash}")
            cached[1] = self.run_count
            full = ForwardMsg()
            full.ParseFromString(cached[0])
            full.metadata.CopyFrom(msg.metadata)
            msg, kind = full, full.WhichOneof("type")
        elif msg.metadata.cacheable and msg.hash and msg.hash not in self.cache:
            fragment = msg.delta.fragment_id if kind == "delta" else ""
            self.cache[msg.hash] = [data, self.run_count, fragment]
        elif msg.metadata.cacheable and msg.hash in self.cache:
            self.cache[msg.hash][1] = self.run_count

        if kind == "new_session":
            self.session_id = msg.new_session.initialize.session_id or self.session_id
            self.run_id = msg.metadata.run.script_run_id
            self.run_fragments = list(msg.metadata.run.fragment_ids)
            if not self.run_fragments:  # a whole run: the frontend's cleanupAutoReruns
                self._stop_auto(list(self.auto))
            self.new_session_seen = True
            config = msg.new_session.config
            if config.max_cached_message_age:
                self.max_cached_age = config.max_cached_message_age
            waiting = self.waiting
            if waiting is not None and waiting.run_id is None:
                waiting.run_id = self.run_id
                waiting.started = now
        elif kind == "navigation":
            self.page_script_hash = msg.navigation.page_script_hash
            self.app_pages = [page.url_pathname for page in msg.navigation.app_pages]
        elif kind == "page_info_changed":
            self.query_string = msg.page_info_changed.query_string
        elif kind == "delta":
            self._apply_delta(msg)
            if self.watch is not None:
                self.watch(self, now)
        elif kind == "auto_rerun":  # the frontend's handleAutoRerun
            fragment_id, interval = msg.auto_rerun.fragment_id, msg.auto_rerun.interval
            if fragment_id and self.auto.get(fragment_id, (None,))[0] != interval:
                self._stop_auto([fragment_id])
                task = asyncio.create_task(self._auto_rerun(fragment_id, interval))
                self.auto[fragment_id] = (interval, task)
        elif kind == "stop_auto_rerun":
            self._stop_auto(list(msg.stop_auto_rerun.fragment_ids))
        elif kind == "script_finished":
            self._finished(msg, now)
        elif kind == "backend_operation_response":
            answer = msg.backend_operation_response
            awaited = self.operations.pop(answer.request_id, None)
            if awaited is not None and not awaited.done():
                awaited.set_result(answer)

    def _apply_delta(self, msg: ForwardMsg) -> None:
        delta = msg.delta
        path = tuple(msg.metadata.delta_path)
        kind = delta.WhichOneof("type")
        if kind == "new_element":
            element_type = delta.new_element.WhichOneof("type")
            node = Node("element", element_type, delta.new_element, delta.fragment_id, self.run_id)
            self._drop_below(path)
            self._update_widget(element_type, delta.new_element)
            if element_type == "exception" and self.waiting is not None:
                error = delta.new_element.exception
                self.waiting.errors.append(f"{error.type}: {error.message}")
        elif kind == "add_block":
            block_type = delta.add_block.WhichOneof("type") or "vertical"
            node = Node("block", block_type, delta.add_block, delta.fragment_id, self.run_id)
            old = self.nodes.get(path)
            if old is None or old.kind != "block" or old.type != block_type:
                self._drop_below(path)
        else:  # new_transient: toasts and spinners, nothing a step needs
            return
        self.nodes[path] = node
        if self.waiting is not None and self.waiting.run_id == self.run_id:
            self.waiting.deltas.append((path, node))

    def _drop_below(self, path: tuple[int, ...]) -> None:
        depth = len(path)
        for other in [p for p in self.nodes if len(p) > depth and p[:depth] == path]:
            del self.nodes[other]

    def _update_widget(self, element_type: str, element) -> None:
        widget = getattr(element, element_type)
        found = _widget_values(element_type, widget)
        if found is None or not widget.id:
            return
        kind, current, default = found
        if current is not None:
            value = current
        elif widget.id not in self.widgets and default is not None:
            value = default
        else:
            return
        state = WidgetState(id=widget.id)
        _set_state(state, kind, value)
        self.widgets[widget.id] = state

    def _finished(self, msg: ForwardMsg, now: float) -> None:
        status = msg.script_finished
        run = msg.metadata.run
        if status in (SUCCESS, FRAGMENT_SUCCESS) and run.script_run_id:
            fragments = set(run.fragment_ids)
            # clearStaleNodes: what this run (or fragment run) did not draw is gone ...
            self.nodes = {
                path: node
                for path, node in self.nodes.items()
                if node.run_id == run.script_run_id
                or (fragments and node.fragment_id not in fragments)
            }
            # ... and so are the states of widgets no longer on the page (removeInactive).
            active = {
                getattr(node.proto, node.type).id
                for node in self.nodes.values()
                if node.kind == "element" and hasattr(getattr(node.proto, node.type), "id")
            }
            self.widgets = {wid: state for wid, state in self.widgets.items() if wid in active}
        if status != EARLY_FOR_RERUN and run.script_run_id and self.new_session_seen:
            self._age_cache(list(run.fragment_ids))
        waiting = self.waiting
        if waiting is None or waiting.run_id != run.script_run_id:
            return
        if status == EARLY_FOR_RERUN:  # st.rerun(): the answer is the run that follows
            waiting.run_id = None
            return
        waiting.status = status
        if not waiting.finished.done():
            waiting.finished.set_result(now)

    def _age_cache(self, fragment_ids: list[str]) -> None:
        """The frontend's ForwardMsgCache.incrementRunCount."""
        self.run_count += 1
        for digest, (_, count, fragment) in list(self.cache.items()):
            if fragment_ids and (not fragment or fragment not in fragment_ids):
                continue
            if self.run_count - count > self.max_cached_age:
                del self.cache[digest]

    def element_summary(self) -> dict[tuple[int, ...], tuple[str, str, bytes]]:
        """path -> (type, label, what it shows): the page as the frontend draws it now.

        A widget shows its state, not the proto's one-shot ``set_value`` fields, so those are
        replaced by the widget's state before comparing.
        """
        summary = {}
        for path, node in self.nodes.items():
            proto = type(node.proto)()
            proto.CopyFrom(node.proto)
            inner = getattr(proto, node.type, None)
            label = getattr(inner, "label", "") if inner is not None else ""
            shown = b""
            if node.kind == "element":
                proto.ClearField("has_one_shot_effect")
                state = self.widgets.get(getattr(inner, "id", None))
                if state is not None:
                    for name in ("set_value", "value", "raw_value"):
                        if name in inner.DESCRIPTOR.fields_by_name:
                            inner.ClearField(name)
                    shown = state.SerializeToString(deterministic=True)
            summary[path] = (node.type, label, proto.SerializeToString(deterministic=True) + shown)
        return summary


# --- Measurements ------------------------------------------------------------------------------


def machine_busy() -> tuple[float, float]:
    """1-minute load average, and the share of the last minute in which some task waited for a
    CPU (/proc/pressure/cpu "some avg60", %; NaN where the kernel has no PSI)."""
    pressure = float("nan")
    with contextlib.suppress(OSError, ValueError, IndexError):
        line = Path("/proc/pressure/cpu").read_text().splitlines()[0]
        pressure = float(dict(item.split("=") for item in line.split()[1:])["avg60"])
    return os.getloadavg()[0], pressure


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def ms(value: float) -> str:
    return "-" if value != value else f"{value * 1000:.0f}"


async def check_step(port: int, page: str) -> str:
    """Open the page, step its main slider once, and say what the step's run sent and changed."""
    attendee = Attendee(port, page)
    try:
        await attendee.open()
        before = attendee.element_summary()
        label, old, new, fragment = attendee.step_slider()
        run = await attendee.rerun(fragment_id=fragment)
        await asyncio.wait_for(asyncio.shield(run.finished), STEP_TIMEOUT)
        after = attendee.element_summary()
    finally:
        await attendee.close()
    changed = [
        (path, kind, name)
        for path, (kind, name, proto) in sorted(after.items())
        if before.get(path, (None, None, b""))[2] != proto
    ]
    kinds = Counter(kind for _, kind, _ in changed)
    if fragment:
        inside = sum(node.fragment_id == fragment for _, node in run.deltas)
        ran = (
            f"in fragment {fragment[:8]}…; the step ran "
            + ("that fragment" if run.status == FRAGMENT_SUCCESS else f"status {run.status}")
            + f": {len(run.deltas)} deltas, {inside} of them in the fragment"
        )
    else:
        ran = (
            "not in a fragment; the step reran the page"
            + ("" if run.status == SUCCESS else f" (status {run.status})")
            + f": {len(run.deltas)} deltas"
        )
    lines = [
        f"  {page}: slider '{label}' {old} -> {new} {ran}, "
        f"{(run.finished.result() - run.sent) * 1000:.0f} ms; elements changed: "
        + (", ".join(f"{n} {kind}" for kind, n in kinds.most_common()) or "none")
    ]
    from streamlit.proto.Element_pb2 import Element

    for path, kind, name in changed:
        if kind != "metric":
            continue
        old_metric = Element()
        old_metric.ParseFromString(before[path][2])
        new_metric = Element()
        new_metric.ParseFromString(after[path][2])
        lines.append(f"    metric '{name}': {old_metric.metric.body} -> {new_metric.metric.body}")
    for error in dict.fromkeys(run.errors):
        lines.append(f"    THE PAGE SHOWS AN EXCEPTION: {error}")
    if page == "laplace" and not any(
        kind == "metric" and name.startswith("Noise scale") for _, kind, name in changed
    ):
        lines.append("    MISMATCH: the 'Noise scale' metric did not change with ε")
    return "\n".join(lines)


async def open_sessions(port: int, page: str, count: int, concurrency: int = 2) -> list[Attendee]:
    """``count`` attendees on ``page``, opened a few at a time (not a burst)."""
    gate = asyncio.Semaphore(concurrency)
    attendees = [Attendee(port, page) for _ in range(count)]

    async def one(attendee: Attendee) -> None:
        async with gate:
            await attendee.open()

    await asyncio.gather(*(one(a) for a in attendees))
    return attendees


async def sample_memory(server: Server, peaks: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        peaks.append(server.memory_mb()[0])
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.25)


@dataclass
class StepResult:
    page: str
    attendees: int
    latencies: list[float]
    to_start: list[float]  # request sent -> the run's new_session received
    running: list[float]  # new_session -> script_finished received
    unanswered: int
    late: int
    steps: int
    cpu_per_step: float
    rss_peak: float
    hwm: float
    load: float
    pressure: float
    client_cpu: float
    errors: int
    server_share: float  # server CPU seconds per wall second of the stepping phase


async def load_run(
    server: Server, page: str, count: int, seconds: float, interval: float, seed: int
) -> StepResult:
    """``count`` attendees step ``page``'s slider every ``interval`` s for ``seconds`` s."""
    attendees = await open_sessions(server.port, page, count)
    await asyncio.sleep(1.0)
    rng = random.Random(seed)
    steps_each = max(1, int(seconds / interval))
    latencies: list[float] = []
    to_start: list[float] = []
    running: list[float] = []
    unanswered = late = sent = errors = 0
    stop = asyncio.Event()
    peaks: list[float] = []
    sampler = asyncio.create_task(sample_memory(server, peaks, stop))
    cpu_start, client_start = server.cpu_seconds(), time.process_time()
    start = time.perf_counter() + 0.1
    wall_start = time.perf_counter()

    async def attend(attendee: Attendee, offset: float) -> None:
        nonlocal unanswered, late, sent, errors
        for k in range(steps_each):
            scheduled = start + offset + k * interval
            delay = scheduled - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            elif -delay > LATE:
                late += 1
            run = await attendee.step()
            sent += 1
            try:
                await asyncio.wait_for(asyncio.shield(run.finished), STEP_TIMEOUT)
                latencies.append(run.finished.result() - run.sent)
                if run.started is not None:
                    to_start.append(run.started - run.sent)
                    running.append(run.finished.result() - run.started)
            except TimeoutError:
                unanswered += 1
                # The browser would wait too: the next step goes out once this run is done.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(run.finished), DRAIN_TIMEOUT)
            errors += bool(run.errors)

    await asyncio.gather(*(attend(a, rng.uniform(0, interval)) for a in attendees))
    cpu = server.cpu_seconds() - cpu_start
    wall = time.perf_counter() - wall_start
    client_cpu = time.process_time() - client_start
    stop.set()
    await sampler
    hwm = server.memory_mb()[1]
    load, pressure = machine_busy()
    await asyncio.gather(*(a.close() for a in attendees))
    await asyncio.sleep(2.0)
    return StepResult(
        page,
        count,
        latencies,
        to_start,
        running,
        unanswered,
        late,
        sent,
        cpu / max(sent, 1),
        max(peaks) if peaks else float("nan"),
        hwm,
        load,
        pressure,
        client_cpu,
        errors,
        cpu / wall,
    )


@dataclass
class BurstResult:
    page: str
    sessions: int
    first: list[float]
    finished: list[float]
    failed: int
    load: float
    pressure: float
    cpu: float


async def burst_run(server: Server, page: str, count: int) -> BurstResult:
    """``count`` sessions connect and request ``page`` in the same instant."""
    attendees = [Attendee(server.port, page) for _ in range(count)]
    cpu_start = server.cpu_seconds()
    start = time.perf_counter()
    outcomes = await asyncio.gather(*(a.open() for a in attendees), return_exceptions=True)
    cpu = server.cpu_seconds() - cpu_start
    first, finished, failed = [], [], 0
    for attendee, outcome in zip(attendees, outcomes, strict=True):
        if isinstance(outcome, BaseException):
            failed += 1
            continue
        first.append(attendee.first_message.result() - start)
        finished.append(attendee.waiting.finished.result() - start)
    load, pressure = machine_busy()
    await asyncio.gather(*(a.close() for a in attendees))
    await asyncio.sleep(2.0)
    return BurstResult(page, count, first, finished, failed, load, pressure, cpu)


# --- py-spy ------------------------------------------------------------------------------------


# Decorators between a page and the st.* call it makes: the call is the frame below them.
_WRAPPERS = ("gather_metrics.<locals>.wrapped_func",)


def summarise_profile(path: Path, root: Path, top: int = 10) -> str:
    """What a py-spy raw file (collapsed stacks, GIL holder only) says the server spends on.

    Samples are split into script runs, the server's event loop (websocket I/O, message
    queues) and other threads; within script runs, the project's own frames (inclusive) and
    the library calls they make (the first frame below the deepest project frame).
    """
    prefix = str(root) + "/"
    own: Counter[str] = Counter()
    where: Counter[str] = Counter()
    project: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [f for f in stack.split(";") if f and not f.startswith(("process ", "thread "))]
        if not frames:
            continue
        total += count
        names = [_short(frame, root) for frame in frames]
        own[names[-1]] += count
        if any(n.startswith("ScriptRunner._run_script_thread") for n in names):
            where["script runs"] += count
        elif any(n.startswith(("_run_server_loop", "BaseEventLoop._run_once")) for n in names):
            where["event loop (websocket, queues)"] += count
        else:
            where["other threads"] += count
        mine = [i for i, frame in enumerate(frames) if prefix in frame]
        for name in {names[i] for i in mine}:
            project[name] += count
        callees = [n for n in names[mine[-1] + 1 :] if not n.startswith(_WRAPPERS)] if mine else []
        if callees:
            calls[f"{callees[0]}  <- {names[mine[-1]].split(' (')[0]}"] += count
    if not total:
        return "    (no samples)"

    def share(counter: Counter[str], n: int) -> list[str]:
        return [f"      {100 * c / total:5.1f}%  {name}" for name, c in counter.most_common(n)]

    lines = [
        f"    {total} samples holding the GIL: "
        + ", ".join(f"{100 * c / total:.0f}% {name}" for name, c in where.most_common())
    ]
    lines += ["    project frames (inclusive):", *share(project, top)]
    lines += ["    library calls made by project code (inclusive):", *share(calls, top)]
    lines += ["    self time:", *share(own, top)]
    return "\n".join(lines)


def _short(frame: str, root: Path) -> str:
    """'function (path/to/file.py:12)' with the path cut to the project or site-packages."""
    name, _, where = frame.partition(" (")
    where = where.rstrip(")")
    where = re.sub(rf"^.*?({re.escape(str(root))}/|site-packages/|lib/python3\.\d+/)", "", where)
    where = where.rsplit(":", 1)[0]
    return f"{name} ({where})"


async def profile_run(server: Server, page: str, count: int, interval: float, out: Path) -> None:
    """``count`` attendees step ``page`` while py-spy records the server for 20 s."""
    out.mkdir(parents=True, exist_ok=True)
    raw = out / f"{page}_{count}.txt"
    seconds = 20
    spy = await asyncio.create_subprocess_exec(
        "py-spy",
        "record",
        "-p",
        str(server.pid),
        "-f",
        "raw",
        "-o",
        str(raw),
        "-d",
        str(seconds),
        "--gil",  # only the thread holding the GIL: what the server's Python spends
        "--full-filenames",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    result = await load_run(server, page, count, seconds, interval, seed=99)
    await spy.wait()
    print(
        f"  py-spy on {page} with {count} attendees (p95 {ms(percentile(result.latencies, 0.95))}"
        f" ms while sampled): {raw}"
    )
    print(summarise_profile(raw, server.root) if raw.exists() else "    py-spy wrote nothing")


# --- Main --------------------------------------------------------------------------------------


def print_steps_header(seconds: float, interval: float) -> None:
    print(
        f"\nSlider steps: each attendee steps the page's main slider every {interval:g} s "
        f"for {seconds:g} s (latency: widget change sent -> script_finished received)"
    )
    print(
        "  start p95: sent -> the run's new_session received; run p95: new_session -> "
        "script_finished;\n  srv CPU %: the server's CPU time over the stepping phase's wall "
        "time (100 = one core);\n  cpu wait %: share of the last minute in which some task on "
        "the machine waited for a CPU (PSI)"
    )
    print(
        f"  {'page':<19} {'N':>3} {'steps':>5} {'p50 ms':>6} {'p95 ms':>6} {'max ms':>6} "
        f"{'start p95':>9} {'run p95':>7} {'unanswered':>10} {'late':>4} {'errors':>6} "
        f"{'CPU/step ms':>11} {'srv CPU %':>9} {'RSS peak MB':>11} {'HWM MB':>6} {'load1':>5} "
        f"{'cpu wait %':>10} {'client CPU s':>12}"
    )


def print_step(result: StepResult) -> None:
    latencies = result.latencies
    print(
        f"  {result.page:<19} {result.attendees:>3} {result.steps:>5} "
        f"{ms(percentile(latencies, 0.5)):>6} {ms(percentile(latencies, 0.95)):>6} "
        f"{ms(max(latencies) if latencies else float('nan')):>6} "
        f"{ms(percentile(result.to_start, 0.95)):>9} {ms(percentile(result.running, 0.95)):>7} "
        f"{result.unanswered:>10} {result.late:>4} {result.errors:>6} "
        f"{result.cpu_per_step * 1000:>11.1f} {result.server_share * 100:>9.0f} "
        f"{result.rss_peak:>11.0f} {result.hwm:>6.0f} {result.load:>5.2f} "
        f"{result.pressure:>10.0f} {result.client_cpu:>12.1f}",
        flush=True,
    )


def print_burst_header() -> None:
    print(
        "\nEveryone opens the page at once: N sessions fetch /_stcore/health and host-config, "
        "connect and request the page in the same instant (ms from that instant)"
    )
    print(
        f"  {'page':<19} {'N':>3} {'first msg p50/p95/max':>21} {'finished p50/p95/max':>21} "
        f"{'all <= 3 s':>10} {'failed':>6} {'srv CPU s':>9} {'load1':>5} {'cpu wait %':>10}"
    )


def print_burst(result: BurstResult) -> None:
    def trio(values: list[float]) -> str:
        return "/".join(
            ms(v) for v in (percentile(values, 0.5), percentile(values, 0.95), max(values or [0]))
        )

    served = (
        result.failed == 0
        and len(result.finished) == result.sessions
        and max(result.finished) <= SERVED_WITHIN
    )
    print(
        f"  {result.page:<19} {result.sessions:>3} {trio(result.first):>21} "
        f"{trio(result.finished):>21} {'yes' if served else 'NO':>10} {result.failed:>6} "
        f"{result.cpu:>9.1f} {result.load:>5.2f} {result.pressure:>10.0f}",
        flush=True,
    )


async def main_async(args: argparse.Namespace) -> None:
    root = Path(args.root).resolve()
    if not (root / "app.py").is_file():
        raise SystemExit(f"no app.py in {root}")
    port = args.port or free_port()
    server = Server(port, root)
    try:
        await server.wait_ready()
        print(
            f"Workshop load on one server: {root}, streamlit {streamlit.__version__}, "
            f"pid {server.pid}, port {port}, {os.cpu_count()} CPUs, load average "
            + " ".join(f"{v:.2f}" for v in os.getloadavg())
        )
        # Warm up: the first visit on a fresh server switches it to st.navigation and reruns,
        # and fills st.cache_data; none of that is what an attendee's step costs. The
        # navigation it receives names the app's pages.
        first = Attendee(port, "home")
        await first.open()
        await first.close()
        known = [page for page in first.app_pages if page]
        pages = (
            [p for p in known if p not in ("home", "start")]
            if args.pages == ["all"]
            else args.pages
        )
        unknown = [p for p in pages if p not in known]
        if unknown:
            raise SystemExit(f"unknown page(s) {unknown}; the app has {known}")
        for page in pages:
            warm = Attendee(port, page)
            took = await warm.open()
            await warm.close()
            shown = f"; the page shows {warm.errors[0]}" if warm.errors else ""
            print(f"  warm-up visit to {page}: {took * 1000:.0f} ms{shown}")
        print("Check: one attendee steps each page's main slider once")
        for page in pages:
            print(await check_step(port, page), flush=True)

        idle_start, wall_start = server.cpu_seconds(), time.perf_counter()
        await asyncio.sleep(5.0)
        idle = (server.cpu_seconds() - idle_start) / (time.perf_counter() - wall_start)
        print(
            f"Idle server (no session connected): {idle * 1000:.1f} ms of CPU per second; it is "
            f"inside CPU/step too, about {idle * args.interval * 1000:.1f} ms / N per step"
        )
        print_steps_header(args.seconds, args.interval)
        for page in pages:
            for count in args.attendees:
                print_step(
                    await load_run(server, page, count, args.seconds, args.interval, seed=count)
                )

        print_burst_header()
        for page in pages:
            for count in args.burst:
                print_burst(await burst_run(server, page, count))

        rss, hwm = server.memory_mb()
        print(f"\nServer memory at the end: VmRSS {rss:.0f} MB, VmHWM {hwm:.0f} MB")
        if args.profile:
            if shutil.which("py-spy") is None:
                print("py-spy is not installed: no profile")
            else:
                print("\nProfiles (extra runs, not in the tables above)")
                for page in pages:
                    await profile_run(
                        server, page, max(args.attendees), args.interval, Path(args.profile)
                    )
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--pages", nargs="+", default=DEFAULT_PAGES, help="url paths, or all (default: %(default)s)"
    )
    parser.add_argument(
        "--attendees", nargs="+", type=int, help="attendee counts N (default: 1 5 10 20 40)"
    )
    parser.add_argument("--seconds", type=float, help="stepping time per run (default: 60)")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between steps")
    parser.add_argument(
        "--burst", nargs="+", type=int, help="sessions opening at once (default: 10 20 40)"
    )
    parser.add_argument("--port", type=int, default=0, help="server port (default: a free one)")
    parser.add_argument(
        "--root",
        default=str(ROOT),
        help="the app to serve (default: this checkout); e.g. a `git archive HEAD` export",
    )
    parser.add_argument(
        "--profile", metavar="DIR", help="after the runs, py-spy the server under the largest N"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: defaults N = 1 3, 6 s of steps, bursts of 5",
    )
    args = parser.parse_args()
    defaults = ([1, 3], 6.0, [5]) if args.quick else ([1, 5, 10, 20, 40], 60.0, [10, 20, 40])
    args.attendees = args.attendees or defaults[0]
    args.seconds = args.seconds or defaults[1]
    args.burst = args.burst or defaults[2]
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
