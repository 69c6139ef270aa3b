"""One address for a whole room: N Streamlit workers behind HAProxy, sticky by cookie.

    python3 scripts/workshop.py --workers 2 --port 8500

Streamlit keeps a session in one process and one process uses one core, so a hall of a
hundred needs several workers. HAProxy (Debian's package; scripts/workshop.sh installs it)
sends each browser to one worker and keeps it there with a cookie of its own, which covers the
page, its websocket, uploads and media alike: a room behind one NAT address still spreads over
every worker (hashing the client's IP would not). HAProxy checks each worker's health every
two seconds; this script restarts a worker that dies, and HAProxy sends its people to another
one meanwhile (their page reconnects; the address, which holds the room and every setting,
brings them back to the view). The workers share rooms through a store (ui.workshop.store):
a SQLite file in this run's folder, or ``--store redis://host:6379/0`` for workers on several
machines. Data by path is off unless ``--allow-data`` names folders (and ``--allow-spark``
Spark addresses); an upload is capped at ``--max-upload-mb`` and a worker's uploaded tables
together at ``--upload-budget-mb``. SIGHUP reloads HAProxy (say, with ``haproxy.cfg`` in the
logs' folder edited) without dropping anyone: the new proxy takes over the listening socket,
and the old one keeps every open connection (a page's websocket, a follower's push) until it
ends.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# What the workers read from their environment, named where it is read.
from data.sources.allowed import DATA_ALLOW_ENV, SHARED_ENV, SPARK_ALLOW_ENV  # noqa: E402
from ui.common.upload_budget import BUDGET_ENV  # noqa: E402
from ui.workshop.redis_store import durability_warning  # noqa: E402
from ui.workshop.rooms import FOLLOW_KEY_ENV  # noqa: E402
from ui.workshop.store import ENV as STORE_ENV  # noqa: E402

COOKIE = "dpx_worker"
CONTROL = "haproxy.sock"  # HAProxy's control socket, beside its haproxy.cfg in the folder
# glibc's malloc, for each worker: at most two arenas; blocks of 128 KiB or more mapped on
# their own and returned when freed, and the heap's top returned past 128 KiB (glibc's
# initial thresholds, which a set value keeps from moving up).
MALLOC = {
    "MALLOC_ARENA_MAX": "2",
    "MALLOC_MMAP_THRESHOLD_": "131072",
    "MALLOC_TRIM_THRESHOLD_": "131072",
}
# HAProxy checks every 2 s and takes a worker out after 2 failed checks: restart after that.
RESTART_AFTER = 6.0
# Streamlit's own default (server.disconnectedSessionTTL), set here so that it is chosen: a
# page whose connection dropped (a phone's locked screen, a network cut, a train's tunnel)
# gets its session back within 2 min; after that the worker frees it, when its cache of
# disconnected sessions is next touched (benchmarks/bench_soak.py measures what is freed).
SESSION_TTL = 120


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=max(2, os.cpu_count() or 2))
    parser.add_argument("--port", type=int, default=8500, help="the room's port (HAProxy)")
    parser.add_argument("--host", default="0.0.0.0", help="the address HAProxy listens on")
    parser.add_argument("--store", default=None, help="sqlite:///path or redis://host:port/db")
    parser.add_argument("--allow-data", action="append", default=[], metavar="FOLDER",
                        help="a folder whose files data by path may read (repeatable)")  # fmt: skip
    parser.add_argument("--allow-spark", action="append", default=[], metavar="URL",
                        help="a Spark address data by path may use (repeatable)")  # fmt: skip
    parser.add_argument("--max-upload-mb", type=int, default=10, help="largest CSV upload")
    parser.add_argument("--upload-budget-mb", type=int, default=512,
                        help="what one worker's uploaded tables may hold together")  # fmt: skip
    parser.add_argument("--session-ttl", type=int, default=SESSION_TTL,
                        help="seconds a worker keeps a session whose browser has gone")  # fmt: skip
    return parser.parse_args(argv)


def port_free(host: str, port: int) -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def haproxy_config(host: str, port: int, workers: list[int], control: Path) -> str:
    """HAProxy's configuration: cookie-sticky HTTP and websockets, health-checked workers; its
    socket ``control`` hands the listening socket to the process a reload starts."""
    servers = "\n".join(
        f"    server w{i} 127.0.0.1:{p} cookie w{i} check inter 2s fall 2 rise 1"
        for i, p in enumerate(workers, start=1)
    )
    return f"""global
    maxconn 4096
    stats socket {control} mode 600 level admin expose-fd listeners

defaults
    mode http
    option redispatch
    retries 3
    timeout connect 5s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    timeout http-request 10s
    # A worker busy for seconds (a hundred followers' runs, a first read) answers its health
    # check late; with the check's default timeout (its 2 s interval) HAProxy took one out of
    # a room with its people connected ("w2 is DOWN, Layer7 timeout, 2001 ms": no server
    # left). A dead worker refuses the check's connection at once: this delays only finding
    # a hung one.
    timeout check 15s

frontend room
    bind {host}:{port}
    default_backend workers
    # On every answer: no other site frames the room (the app's own frames stay), no type
    # sniffing, addresses (which hold the room's code) never leave it as a referrer, and no
    # server names itself or its version.
    http-response set-header X-Frame-Options SAMEORIGIN
    http-response set-header Content-Security-Policy "frame-ancestors 'self'"
    http-response set-header X-Content-Type-Options nosniff
    http-response set-header Referrer-Policy same-origin
    http-response del-header Server

backend workers
    balance roundrobin
    cookie {COOKIE} insert indirect nocache httponly attr "SameSite=Lax"
    option httpchk GET /_stcore/health
    http-check expect status 200
{servers}
"""


class Workshop:
    """The workers and the proxy, started, watched and stopped together."""

    def __init__(self, args: argparse.Namespace, folder: Path) -> None:
        self.args, self.folder = args, folder
        self.ports = [args.port + i for i in range(1, args.workers + 1)]
        self.workers: dict[int, subprocess.Popen] = {}
        self.proxy: subprocess.Popen | None = None
        self.env = dict(os.environ)
        self.env[SHARED_ENV] = "1"
        self.env[STORE_ENV] = args.store or f"sqlite:///{folder / 'rooms.sqlite'}"
        self.env[DATA_ALLOW_ENV] = "\n".join(args.allow_data)  # one per line (allowed.py)
        self.env[SPARK_ALLOW_ENV] = " ".join(args.allow_spark)
        self.env[BUDGET_ENV] = str(args.upload_budget_mb)
        self.env[FOLLOW_KEY_ENV] = secrets.token_hex(32)  # one key, so any worker checks a token
        # Each Streamlit session runs its script in a thread of its own, and glibc gives busy
        # threads malloc arenas of their own (up to 8 a core), whose freed pages it seldom
        # returns; and once a large block is freed it raises the size above which it maps
        # blocks of their own (returned when freed), so an export's buffers were carved from
        # the arenas. Over a course day a worker's memory crept up with the sessions; two
        # arenas and glibc's first threshold, kept, hold it (benchmarks/bench_soak.py). A
        # value the caller set is kept.
        for name, value in MALLOC.items():
            self.env.setdefault(name, value)

    def start_worker(self, port: int) -> None:
        command = [sys.executable, "-m", "streamlit", "run", "serve.py",
                   "--server.port", str(port), "--server.address", "127.0.0.1",
                   "--server.headless", "true", "--browser.gatherUsageStats", "false",
                   "--server.maxUploadSize", str(self.args.max_upload_mb),
                   "--server.disconnectedSessionTTL", str(self.args.session_ttl),
                   "--server.fileWatcherType", "none"]  # fmt: skip
        log = open(self.folder / f"worker-{port}.log", "ab")  # noqa: SIM115 (kept by the child)
        self.workers[port] = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )

    def start(self) -> None:
        for port in self.ports:
            self.start_worker(port)
        config, control = self.folder / "haproxy.cfg", self.folder / CONTROL
        config.write_text(haproxy_config(self.args.host, self.args.port, self.ports, control))
        log = open(self.folder / "haproxy.log", "ab")  # noqa: SIM115 (kept by the child)
        # -W: a master that stays, and on SIGUSR2 starts a new proxy from the configuration
        # and lets the old one finish its connections (HAProxy's management guide, "-W")
        self.proxy = subprocess.Popen(
            ["haproxy", "-W", "-db", "-f", str(config)], stdout=log, stderr=subprocess.STDOUT
        )

    def reload(self, *_args: object) -> None:
        """Reload HAProxy (SIGHUP to this command): a new proxy from ``haproxy.cfg``, and the
        old one serves its open connections until they end."""
        if self.proxy is not None and self.proxy.poll() is None:
            self.proxy.send_signal(signal.SIGUSR2)
            print("HAProxy reloaded", flush=True)

    def healthy(self, port: int) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
                return True
        except OSError:
            return False

    def watch(self) -> None:
        """Restart a worker that died, until the proxy stops or we are told to stop. The
        restart waits until HAProxy has taken the worker out (``RESTART_AFTER``): its people
        reconnect to a worker that is already serving the app, and the new process is then
        first visited like any fresh server (ui.common.shell.use_app_navigation)."""
        died: dict[int, float] = {}
        while self.proxy is not None and self.proxy.poll() is None:
            for port, worker in list(self.workers.items()):
                if worker.poll() is None:
                    continue
                if port not in died:
                    print(f"worker on port {port} stopped ({worker.returncode}): restarting",
                          flush=True)  # fmt: skip
                    died[port] = time.monotonic()
                elif time.monotonic() - died[port] >= RESTART_AFTER:
                    del died[port]
                    self.start_worker(port)
            time.sleep(0.5)
        print(f"HAProxy stopped: see {self.folder / 'haproxy.log'}", flush=True)

    def stop(self, *_args: object) -> None:
        processes = [*self.workers.values(), *([self.proxy] if self.proxy else [])]
        self.proxy = None
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def main(argv: list[str]) -> int:
    args = parse(argv)
    if args.workers < 1:
        print("--workers must be at least 1.", file=sys.stderr)
        return 2
    if shutil.which("haproxy") is None:
        print("HAProxy is missing: bash scripts/workshop.sh installs it (apt-get install "
              "haproxy).", file=sys.stderr)  # fmt: skip
        return 2
    wanted = [(args.host, args.port)] + [("127.0.0.1", args.port + i)
                                          for i in range(1, args.workers + 1)]  # fmt: skip
    taken = [port for host, port in wanted if not port_free(host, port)]
    if taken:
        print(f"Port(s) {', '.join(map(str, taken))} already in use: the workshop needs port "
              f"{args.port} for the room and the {args.workers} after it for its workers. "
              "Choose others with --port.", file=sys.stderr)  # fmt: skip
        return 2
    warning = durability_warning(args.store)
    if warning:
        print(warning, file=sys.stderr, flush=True)
    folder = Path(tempfile.mkdtemp(prefix="dp-explorer-workshop-"))
    workshop = Workshop(args, folder)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    signal.signal(signal.SIGHUP, workshop.reload)
    try:
        workshop.start()
        deadline = time.monotonic() + 120
        while not all(workshop.healthy(p) for p in workshop.ports):
            if time.monotonic() > deadline:
                print(f"The workers did not start: see {folder}/worker-*.log", file=sys.stderr)
                return 1
            time.sleep(0.3)
        if workshop.proxy is None or workshop.proxy.poll() is not None:
            print(f"HAProxy did not start: see {folder / 'haproxy.log'}", file=sys.stderr)
            return 1
        shown = "localhost" if args.host in ("0.0.0.0", "::") else args.host
        print(f"DP Explorer workshop at http://{shown}:{args.port}/workshop "
              f"({args.workers} workers, store {workshop.env[STORE_ENV]}, logs in "
              f"{folder})", flush=True)  # fmt: skip
        workshop.watch()
    except KeyboardInterrupt:
        pass
    finally:
        workshop.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
