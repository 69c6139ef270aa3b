"""Median server time of a page rerun after a slider change, for every page (AppTest).

Run from the project root: python3 benchmarks/bench_pages.py [--reruns 20] [page ...]
Each rerun moves the page's first slider to another position, as a presenter would, and times
AppTest.run() (the whole script: app.py's navigation and sidebar, then the page), and the CPU
time of the script's own thread (what a worker spends on the run, less of it lost to a busy
machine). AppTest runs as a served app after its first visit (tests/apptest_helpers). Also
times 10^6 Laplace draws. Figures are printed, not asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import numpy as np  # noqa: E402
from apptest_helpers import open_page  # noqa: E402
from streamlit.runtime.scriptrunner.script_runner import ScriptRunner  # noqa: E402

from benchmarks.timing import reference_loop  # noqa: E402
from dp_core import laplace_scale, sample_laplace  # noqa: E402
from ui.common.catalog import available_pages  # noqa: E402


def _label_value(label: str) -> float | int:
    """The number a select_slider label such as "0.01" or "1,000" stands for."""
    number = float(label.replace(",", ""))
    return int(number) if number.is_integer() and "." not in label else number


_CPU: list[float] = []  # the script thread's CPU seconds, one per run


def _timed_script(run):
    def timed(self, *args, **kwargs):
        start = time.thread_time()
        try:
            return run(self, *args, **kwargs)
        finally:
            _CPU.append(time.thread_time() - start)

    return timed


ScriptRunner._run_script = _timed_script(ScriptRunner._run_script)


def time_page(url_path: str, reruns: int) -> tuple[float, float, float, str] | None:
    """Median and max seconds per rerun, the median CPU seconds of its script thread, and
    which slider was moved (None: no slider)."""
    at = open_page(url_path)
    sliders = [*at.main.select_slider, *at.main.slider]
    if not sliders:
        return None
    slider = sliders[0]
    if hasattr(slider, "options"):  # select_slider: AppTest shows formatted labels
        values = [_label_value(label) for label in slider.options]
        positions = [values[0], values[-1], values[len(values) // 2]]
    else:
        positions = [slider.min, slider.max, (slider.min + slider.max) / 2]
    times, _CPU[:] = [], []
    for i in range(reruns):
        slider = [*at.main.select_slider, *at.main.slider][0]
        slider.set_value(positions[i % len(positions)])
        start = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - start)
        if at.exception:
            raise SystemExit(f"page {url_path} raised: {at.exception}")
    return statistics.median(times), max(times), statistics.median(_CPU), slider.label


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reruns", type=int, default=20)
    parser.add_argument("pages", nargs="*", help="url paths; all pages by default")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    entries = [p for p in available_pages() if not args.pages or p.url_path in args.pages]
    print(f"Median server time per rerun after a slider change ({args.reruns} reruns, AppTest)")
    print(f"  machine: load {os.getloadavg()[0]:.2f}, reference loop {reference_loop():.0f} ms")
    for entry in entries:
        timed = time_page(entry.url_path, args.reruns)
        if timed is None:
            print(f"  {entry.url_path:<22} (no slider)")
            continue
        median, worst, cpu, label = timed
        print(
            f"  {entry.url_path:<22} median {median * 1000:7.1f} ms   max {worst * 1000:7.1f} ms"
            f"   script CPU {cpu * 1000:6.1f} ms   (slider: {label})"
        )
    rng = np.random.default_rng(0)
    scale = laplace_scale(1, 1)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        sample_laplace(rng, scale, 1_000_000)
        times.append(time.perf_counter() - start)
    print(f"10^6 Laplace draws: median {statistics.median(times) * 1000:.1f} ms (5 runs)")
    print(f"  machine: load {os.getloadavg()[0]:.2f}, reference loop {reference_loop():.0f} ms")


if __name__ == "__main__":
    main()
