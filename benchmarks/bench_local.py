"""Benchmark: local-DP perturbation and estimation for 10^6 respondents over 14 categories.

Vectorised dp_core (every person perturbed, no Python loop over people) beside per-person
Python loops written like the teaching notebooks (Near & Abuah, Programming Differential
Privacy, local model chapter: one function call per person, np.random per bit). The loops are
timed on fewer people and extrapolated linearly to 10^6 (they are linear in n); this is said
in the output. Also timed: the exact aggregate draw the pages use instead of per-person noise.

Run from the project root: python3 benchmarks/bench_local.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import best_of
from dp_core import (
    debiased_count,
    estimate_variance,
    grr_perturb,
    grr_probabilities,
    grr_report_counts,
    optimized_unary_encoding,
    unary_perturb,
    unary_report_counts,
)

N, K, EPSILON, SEED = 1_000_000, 14, 1.0, 2026
LOOP_N = 50_000  # people in the per-person loops; extrapolated to N
# shared/README: UCI Adult occupation shares, used as the true distribution.
OCCUPATIONS = np.array(
    [4140, 4099, 4066, 3770, 3650, 3295, 2002, 1597, 1370, 994, 928, 649, 149, 9]
)


# --- Per-person loops in the style of the teaching notebooks ------------------------------------
def notebook_encode(response: int) -> list[int]:
    return [1 if response == d else 0 for d in range(K)]


def notebook_perturb_bit(bit: int, p: float, q: float) -> int:
    sample = np.random.random()
    if bit == 1:
        return 1 if sample <= p else 0
    return 1 if sample <= q else 0


def notebook_unary(values: np.ndarray, p: float, q: float) -> np.ndarray:
    responses = [[notebook_perturb_bit(b, p, q) for b in notebook_encode(v)] for v in values]
    sums = np.sum(responses, axis=0)
    return (sums - len(values) * q) / (p - q)


def notebook_grr_one(value: int, p: float) -> int:
    if np.random.random() < p:
        return value
    return int(np.random.choice([d for d in range(K) if d != value]))


def notebook_grr(values: np.ndarray, p: float, q: float) -> np.ndarray:
    reports = [notebook_grr_one(v, p) for v in values]
    counts = np.bincount(reports, minlength=K)
    return (counts - len(values) * q) / (p - q)


def main() -> None:
    rng = np.random.default_rng(SEED)
    np.random.seed(SEED)
    values = rng.choice(K, size=N, p=OCCUPATIONS / OCCUPATIONS.sum())
    true_counts = np.bincount(values, minlength=K)
    p_ue, q_ue = optimized_unary_encoding(EPSILON)
    p_grr, q_grr = (float(v) for v in grr_probabilities(EPSILON, K))

    def vector_unary():
        return debiased_count(unary_perturb(rng, values, K, p_ue, q_ue).sum(axis=0), N, p_ue, q_ue)

    def vector_grr():
        reports = np.bincount(grr_perturb(rng, values, K, EPSILON), minlength=K)
        return debiased_count(reports, N, p_grr, q_grr)

    def exact_unary():
        return debiased_count(unary_report_counts(rng, true_counts, p_ue, q_ue), N, p_ue, q_ue)

    def exact_grr():
        return debiased_count(grr_report_counts(rng, true_counts, EPSILON), N, p_grr, q_grr)

    print(f"Local DP benchmark: n = {N:,} respondents, k = {K} categories, eps = {EPSILON}")
    rows = []
    for name, vector, loop, exact in (
        (
            "optimised unary encoding",
            vector_unary,
            lambda v: notebook_unary(v, p_ue, q_ue),
            exact_unary,
        ),
        (
            "k-ary randomized response",
            vector_grr,
            lambda v: notebook_grr(v, p_grr, q_grr),
            exact_grr,
        ),
    ):
        vector_time = best_of(vector, repeats=3)
        loop_time = best_of(lambda loop=loop: loop(values[:LOOP_N]), repeats=1) * N / LOOP_N
        exact_time = best_of(exact, repeats=5)
        rows.append((name, vector_time, loop_time, exact_time))
        print(f"\n{name}")
        print(f"  vectorised, every person perturbed:    {vector_time:8.3f} s")
        print(
            f"  per-person Python loop (notebook style): {loop_time:8.1f} s  "
            f"(timed on {LOOP_N:,} people, x {N // LOOP_N} extrapolated)"
        )
        print(f"  speed-up of the vectorised version:    {loop_time / vector_time:8.0f} x")
        print(f"  exact aggregate draw (what pages use): {exact_time * 1e3:8.3f} ms")
    wide = rng.integers(0, 100, N)
    wide_time = best_of(lambda: unary_perturb(rng, wide, 100, p_ue, q_ue).sum(axis=0), repeats=3)
    print(f"\nUnary encoding over 100 categories, every person perturbed: {wide_time:.3f} s")
    estimates = vector_unary()
    z = (estimates - true_counts) / np.sqrt(estimate_variance(true_counts, N, p_ue, q_ue))
    print(
        f"Check (OUE, one run): largest |estimate - truth| over the {K} categories is "
        f"{np.max(np.abs(estimates - true_counts)):,.0f} persons = {np.max(np.abs(z)):.2f} exact "
        "standard errors."
    )


if __name__ == "__main__":
    main()
