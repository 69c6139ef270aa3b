"""A Spark cluster on this machine, from the pyspark wheel alone: a standalone master, two
workers and a Spark Connect server, each on a free local port.

    python3 scripts/spark_cluster.py           # prints spark://... and sc://..., Ctrl-C stops

Data by path can then be pointed at either address (the engine picker's Spark address), as
at a real cluster. The tests start it (tests/test_engines.py, through ``running_cluster``)
to check that both give the statistics DuckDB gives. The wheel holds what this needs:
``bin/spark-class`` runs the master and the workers, ``bin/spark-submit`` the Connect server
from ``jars/spark-connect_*.jar``; the Connect client needs ``pyspark[connect]``'s packages
(grpcio, zstandard: requirements-test.txt). Java 17 runs them (scripts/test.sh installs it).

The Connect server, a long-running application, takes ``spark.cores.max`` = CORES_PER_APP
cores, and leaves the other worker's core to an application a test or the app starts (with
DP_EXPLORER_SPARK_CORES, data.sources.spark_engine). Every process runs in a process group
of its own and is stopped when the block ends, whatever ended it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

WORKERS = 2
CORES_PER_APP = 1  # spark.cores.max of each application: one worker's core
WORKER_MEMORY = "1g"
START_TIMEOUT = 120.0  # seconds for every port to open on a busy machine
# Small data, short lives: the client compiler only (starts in half the CPU) and one GC thread.
JAVA_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"


def spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen, log: Path, deadline: float) -> None:
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"a Spark process ended at its start: {log.read_text()[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.2)
    raise RuntimeError(f"port {port} did not open within {START_TIMEOUT:.0f} s: {log}")


@contextlib.contextmanager
def running_cluster(folder: Path | None = None) -> Iterator[tuple[str, str]]:
    """(the master's spark:// URL, the Connect server's sc:// address), while the block
    runs; its logs and the workers' folders in ``folder`` (a temporary one by default)."""
    home = spark_home()
    with contextlib.ExitStack() as stack:
        if folder is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="dp_spark_")))
        env = {
            **os.environ,
            "SPARK_HOME": str(home),
            "SPARK_LOCAL_IP": "127.0.0.1",
            "SPARK_LOG_DIR": str(folder / "logs"),
            "SPARK_WORKER_DIR": str(folder / "work"),
            "SPARK_DAEMON_JAVA_OPTS": JAVA_OPTIONS,
        }
        processes: list[subprocess.Popen] = []
        stack.callback(_stop, processes)
        deadline = time.monotonic() + START_TIMEOUT

        def start(name: str, args: list[str], port: int) -> None:
            log = folder / f"{name}.log"
            with log.open("w") as out:
                process = subprocess.Popen(
                    args, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
                )
            processes.append(process)
            _wait_for_port(port, process, log, deadline)

        master_port, connect_port = _free_port(), _free_port()
        master = f"spark://127.0.0.1:{master_port}"
        spark_class = str(home / "bin" / "spark-class")
        deploy = "org.apache.spark.deploy"
        start("master", [spark_class, f"{deploy}.master.Master", "--host", "127.0.0.1",
                         "--port", str(master_port), "--webui-port", "0"], master_port)  # fmt: skip
        for i in range(WORKERS):
            port = _free_port()
            start(f"worker{i}", [spark_class, f"{deploy}.worker.Worker", "--host", "127.0.0.1",
                                 "--port", str(port), "--webui-port", "0", "--cores", "1",
                                 "--memory", WORKER_MEMORY, master], port)  # fmt: skip
        config = {  # the Connect server's application: one core, small data
            "spark.cores.max": str(CORES_PER_APP),
            "spark.executor.memory": "512m",
            "spark.sql.shuffle.partitions": "2",
            "spark.executor.extraJavaOptions": JAVA_OPTIONS,
            "spark.driver.extraJavaOptions": JAVA_OPTIONS,
            "spark.driver.memory": "1g",
            "spark.ui.enabled": "false",
            "spark.connect.grpc.binding.address": "127.0.0.1",
            "spark.connect.grpc.binding.port": str(connect_port),
        }
        (jar,) = (home / "jars").glob("spark-connect_*.jar")
        submit = [str(home / "bin" / "spark-submit"), "--master", master,
                  "--class", "org.apache.spark.sql.connect.service.SparkConnectServer"]  # fmt: skip
        for key, value in config.items():
            submit += ["--conf", f"{key}={value}"]
        start("connect", [*submit, str(jar)], connect_port)
        yield master, f"sc://127.0.0.1:{connect_port}"


def _stop(processes: list[subprocess.Popen]) -> None:
    """Each process group asked to end, then killed after 10 s (executors included)."""
    for process in reversed(processes):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
    for process in reversed(processes):
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def main() -> None:
    with running_cluster() as (master, connect):
        print(f"master: {master}\nSpark Connect: {connect}\nCtrl-C stops them.", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            signal.pause()


if __name__ == "__main__":
    sys.exit(main())
