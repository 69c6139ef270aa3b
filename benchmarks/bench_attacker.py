"""Benchmark the attacker page's maths: ROC curves, the simulated attack, composition over k.

Run from the project root: python3 benchmarks/bench_attacker.py
Also compares the vectorised exact Gaussian composition with a loop of gaussian_epsilon_for.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import best_of
from dp_core import (
    analytic_gaussian_sigma,
    compose_releases,
    gaussian_composed_epsilons,
    gaussian_epsilon_for,
    gaussian_roc,
    laplace_roc,
    roc_ceiling,
    simulate_threshold_attack,
)

KS = np.unique(np.round(np.geomspace(1, 1000, 61)))
ALPHAS = np.unique(np.concatenate([np.linspace(0, 1, 401), np.geomspace(1e-6, 1, 200)]))


def main() -> None:
    sigma = analytic_gaussian_sigma(1.0, 1.0, 1e-5)
    deltas = KS * 1e-5 + 1e-6
    rng = np.random.default_rng(0)
    rows = {
        f"ROC ceiling + Laplace + Gaussian ROC ({len(ALPHAS)} points)": lambda: (
            roc_ceiling(ALPHAS, 1.0, 1e-5),
            laplace_roc(ALPHAS, 1.0),
            gaussian_roc(ALPHAS, 1 / sigma),
        ),
        "simulated attack, 2 x 2,000 Laplace answers, 11 thresholds": lambda: (
            simulate_threshold_attack(
                rng, noise="laplace", scale=1.0, thresholds=np.linspace(-2, 3, 11), trials=2000
            )
        ),
        f"compose_releases over {len(KS)} values of k (eps 1, delta 1e-5)": lambda: (
            compose_releases(1.0, 1e-5, KS, 1e-6)
        ),
        f"exact Gaussian totals, vectorised ({len(KS)} k)": lambda: gaussian_composed_epsilons(
            sigma, KS, deltas
        ),
        f"exact Gaussian totals, loop of gaussian_epsilon_for ({len(KS)} k)": lambda: [
            gaussian_epsilon_for(sigma / np.sqrt(k), d) for k, d in zip(KS, deltas, strict=True)
        ],
    }
    print("Attacker page maths (best of 5, milliseconds)")
    for name, function in rows.items():
        print(f"  {name:<68} {best_of(function, 5) * 1e3:8.2f} ms")
    vectorised = gaussian_composed_epsilons(sigma, KS, deltas)
    looped = np.array(
        [gaussian_epsilon_for(sigma / np.sqrt(k), d) for k, d in zip(KS, deltas, strict=True)]
    )
    print(
        f"  largest relative gap vectorised vs loop: {np.max(np.abs(vectorised / looped - 1)):.1e}"
    )


if __name__ == "__main__":
    main()
