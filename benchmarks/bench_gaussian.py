"""Benchmark the Gaussian mechanism's maths: sigma calibration, the inverse, sampling.

Run from the project root: python3 benchmarks/bench_gaussian.py
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dp_core.gaussian import (
    analytic_gaussian_sigma,
    analytic_gaussian_sigmas,
    classic_gaussian_sigma,
    gaussian_epsilon_for,
    gaussian_mechanism,
    laplace_gaussian_crossover,
    sample_gaussian,
)


def median_ms(function: Callable[[], object], repeats: int) -> float:
    """Median wall time of one call, in milliseconds, after one warm-up call."""
    function()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)


def main() -> None:
    rng = np.random.default_rng(2026)
    deltas = np.logspace(-12, -2, 41)
    values = np.full(1_000_000, 882.0)
    uncached = analytic_gaussian_sigma.__wrapped__  # time the bisection, not the cache
    cases: list[tuple[str, Callable[[], object], int]] = [
        ("analytic sigma, eps 1, delta 1e-5", lambda: uncached(1, 1, 1e-5), 200),
        ("analytic sigma, eps 10, delta 1e-9", lambda: uncached(1, 10, 1e-9), 200),
        ("analytic sigma, eps 0.01, delta 1e-12", lambda: uncached(1, 0.01, 1e-12), 200),
        ("analytic sigma, cached repeat", lambda: analytic_gaussian_sigma(1, 1, 1e-5), 2000),
        ("analytic sigma, 41 deltas at once", lambda: analytic_gaussian_sigmas(1, 1, deltas), 200),
        ("classic sigma, eps 0.5, delta 1e-5", lambda: classic_gaussian_sigma(1, 0.5, 1e-5), 2000),
        ("exact epsilon for sigma 3.73, delta 1e-5", lambda: gaussian_epsilon_for(3.73, 1e-5), 200),
        (
            "Laplace/Gaussian crossover k (sigma cached)",
            lambda: laplace_gaussian_crossover(1, 1e-5),
            200,
        ),
        ("sample 10^6 Gaussian draws", lambda: sample_gaussian(rng, 3.73, 1_000_000), 30),
        (
            "Gaussian mechanism on 10^6 values",
            lambda: gaussian_mechanism(rng, values, sensitivity=1, epsilon=1, delta=1e-5),
            30,
        ),
    ]
    print(f"{'benchmark':<45} {'median':>12}")
    for name, function, repeats in cases:
        print(f"{name:<45} {median_ms(function, repeats):>9.3f} ms")


if __name__ == "__main__":
    main()
