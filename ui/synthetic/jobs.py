"""Syntheses run in the background, one at a time per process, kept by what they were made
from: a slider step never waits for one, a second session asking for the same table gets the
first one's, and a page that reloads finds it done.

    job = submit(key, lambda: synthesize(...), expected=15.0)
    job.done, job.result, job.error, job.progress()   # progress: elapsed / expected, below 1

A synthesis holds the GIL in parts (polars and JAX release it while they compute), so the
app's other sessions go on answering while it runs.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

KEPT = 24  # finished syntheses kept per process (each about 2 MB for the census)
_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="synthesis")
_JOBS: OrderedDict[Hashable, Job] = OrderedDict()
_LOCK = threading.Lock()


@dataclass
class Job:
    """One synthesis: when it started, what it is expected to take, and its future."""

    future: Future
    expected: float  # seconds
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None

    @property
    def done(self) -> bool:
        return self.future.done()

    @property
    def result(self) -> Any:
        return self.future.result() if self.done and self.error is None else None

    @property
    def error(self) -> BaseException | None:
        return self.future.exception() if self.done else None

    @property
    def elapsed(self) -> float:
        return (self.finished or time.monotonic()) - self.started

    def progress(self) -> float:
        """Elapsed over expected time, kept below 1 until the job is done."""
        if self.done:
            return 1.0
        return min(0.95, self.elapsed / max(self.expected, 1e-9))


def find(key: Hashable) -> Job | None:
    """The job made for ``key``, if any (a failed one is forgotten once seen)."""
    with _LOCK:
        job = _JOBS.get(key)
        if job is not None:
            _JOBS.move_to_end(key)
        return job


def forget(key: Hashable) -> None:
    with _LOCK:
        _JOBS.pop(key, None)


def submit(key: Hashable, make: Callable[[], Any], *, expected: float) -> Job:
    """The job for ``key``: the one under way or done, else a new one queued."""
    with _LOCK:
        job = _JOBS.get(key)
        if job is not None:
            return job
        job = Job(_POOL.submit(make), expected)
        job.future.add_done_callback(lambda _f: setattr(job, "finished", time.monotonic()))
        _JOBS[key] = job
        while len(_JOBS) > KEPT:
            _JOBS.popitem(last=False)
        return job
