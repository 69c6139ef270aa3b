"""Wall-clock timing shared by the benchmark scripts."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(function: Callable[[], object], repeats: int = 3) -> float:
    """Best wall time of ``repeats`` calls of ``function``, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def reference_loop() -> float:
    """Milliseconds of CPU for a fixed pure-Python loop (2·10^6 additions), best of 3.

    A shared virtual machine's speed drifts with no change in its load average (10^7 additions
    at module level took 1.7 s and 2.8 s within ten minutes here, at load 1.2); printed beside
    a figure, it tells a slow minute from a slower program.
    """

    def loop() -> None:
        total = 0
        for i in range(2_000_000):
            total += i

    times = []
    for _ in range(3):
        start = time.process_time()
        loop()
        times.append(time.process_time() - start)
    return min(times) * 1000
