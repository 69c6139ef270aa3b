"""Benchmark: private selection (exponential mechanism, permute-and-flip, report-noisy-max).

Run from the project root: python3 benchmarks/bench_exponential.py
Prints medians of repeated timings: sampling 10^6 runs, exact permute-and-flip and
report-noisy-max-with-Laplace probabilities for the 119 industry groups (with their error
against a sum of 1), the P(best) curves the page draws, and the page's median rerun with
100,000 sampled runs through AppTest (server-side script time, no browser).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from apptest_helpers import open_page, rerun, widget  # noqa: E402

from data.registry import category_counts  # noqa: E402
from dp_core import (  # noqa: E402
    exponential_mechanism,
    exponential_probabilities,
    permute_and_flip,
    permute_and_flip_probabilities,
    permute_and_flip_probabilities_by_epsilon,
    probability_of_best,
    report_noisy_max_laplace_probabilities,
    report_noisy_max_laplace_probabilities_by_epsilon,
    sample_counts,
)

INDUSTRY = category_counts("industry_groups", "industry_group").to_numpy(float)
CURVE = np.concatenate([[0.0], np.geomspace(1e-3, 20, 90)])  # the page's grid


def median_ms(action: Callable[[], object], repeats: int = 7) -> float:
    """Median wall time of ``repeats`` calls, in milliseconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    rng = np.random.default_rng(0)
    p = exponential_probabilities(INDUSTRY, 0.1, 1)
    print("Private selection over the 119 industry groups (epsilon 0.1, sensitivity 1)")
    print(f"  P(best), exponential mechanism: {probability_of_best(p, INDUSTRY):.4f}")
    rows = [
        ("10^6 runs as counts (multinomial)", lambda: sample_counts(rng, p, 10**6)),
        (
            "10^6 runs, one index each (inverse CDF)",
            lambda: exponential_mechanism(rng, INDUSTRY, 0.1, 1, size=10**6),
        ),
        (
            "10^5 runs of permute-and-flip itself",
            lambda: permute_and_flip(rng, INDUSTRY, 0.1, 1, size=10**5),
        ),
        (
            "exact permute-and-flip probabilities",
            lambda: permute_and_flip_probabilities(INDUSTRY, 0.1, 1),
        ),
        (
            "exact report-noisy-max (Laplace) probabilities",
            lambda: report_noisy_max_laplace_probabilities(INDUSTRY, 0.1, 1),
        ),
        (
            f"permute-and-flip curve, {CURVE.size} epsilons",
            lambda: permute_and_flip_probabilities_by_epsilon(INDUSTRY, CURVE, 1),
        ),
        (
            f"report-noisy-max (Laplace) curve, {CURVE.size} epsilons",
            lambda: report_noisy_max_laplace_probabilities_by_epsilon(INDUSTRY, CURVE, 1),
        ),
    ]
    for label, action in rows:
        print(f"  {label:<52} {median_ms(action):9.2f} ms")
    pf = permute_and_flip_probabilities(INDUSTRY, 0.1, 1)
    lap = report_noisy_max_laplace_probabilities(INDUSTRY, 0.1, 1)
    print(f"  P(best), permute-and-flip: {probability_of_best(pf, INDUSTRY):.4f}")
    print(
        f"  P(best), report-noisy-max with Laplace noise: {probability_of_best(lap, INDUSTRY):.4f}"
    )
    print(
        f"  |sum - 1|: permute-and-flip {abs(pf.sum() - 1):.1e}, Laplace {abs(lap.sum() - 1):.1e}"
    )

    print("Page rerun (AppTest, 100,000 sampled runs, the probability table open)")
    for key in ("diseases", "industry_groups"):
        at = open_page("exponential")
        widget(at.selectbox, "exponential_dataset").set_value(key)
        widget(at.select_slider, "exponential_draws").set_value(100_000)
        rerun(at)
        print(f"  {key:<52} {median_ms(lambda at=at: rerun(at), 15):9.2f} ms")


if __name__ == "__main__":
    main()
