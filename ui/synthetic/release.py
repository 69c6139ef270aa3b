"""The synthetic-data page's computations, without Streamlit: the rows the synthesizer sees
(a seeded four fifths of the persons; the other fifth is held out to test a classifier), a
release and its fidelity, the downstream task, and the census releases
scripts/precompute_synthetic.py stores so that the page opens at once.

    train, test = split(frame, person="person_id", seed=(2026, 0))
    found = make_release(train, domain, rho=0.03, algorithm="mst")
    found.distances                      # TVD of every one- and two-way marginal, and measured
    downstream(found, test, domain, "income", ">50K")   # accuracy trained on real vs synthetic
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from dp_core import dp_sgd
from dp_core.model_table import Encoding, design_matrix, held_out
from dp_core.synthetic import Algorithm, SynthDomain, Synthesis, binned, marginal_distances
from dp_core.synthetic import synthesize as release_table

HELD_OUT = 0.2  # share of persons held out to test the downstream classifier
STORE = Path(__file__).resolve().parents[2] / "data" / "precomputed" / "synthetic_census"
Seed = tuple[int, ...]


def split(frame: pd.DataFrame, *, person: str | None, seed: Seed) -> tuple[pd.DataFrame, ...]:
    """(train, test): a seeded hash of each person (or row) holds a fifth out."""
    number = int(np.random.SeedSequence(list(seed)).generate_state(1)[0])
    test = held_out(frame, HELD_OUT, number, by=person)
    return frame[~test], frame[test]


@dataclass(frozen=True)
class Release:
    """A synthetic table, what it was fitted to, its fidelity to the rows it was made from,
    and how long OpenDP took."""

    synthesis: Synthesis
    real: pd.DataFrame  # the training rows, binned
    synthetic: pd.DataFrame  # the synthetic rows, binned
    distances: pd.DataFrame  # columns, ways, tvd, measured
    seconds: float

    @property
    def oneway(self) -> float:
        return float(self.distances.loc[self.distances["ways"] == 1, "tvd"].mean())

    def twoway(self, measured: bool | None = None) -> float:
        """The mean two-way TVD (of the measured pairs, or of the others)."""
        pairs = self.distances[self.distances["ways"] == 2]
        if measured is not None:
            pairs = pairs[pairs["measured"] == measured]
        return float(pairs["tvd"].mean()) if len(pairs) else float("nan")


def _release(synthesis: Synthesis, train: pd.DataFrame, domain: SynthDomain, seconds: float):
    real, synthetic = binned(train, domain), binned(synthesis.synthetic, domain)
    distances = marginal_distances(real, synthetic, domain)
    measured = {frozenset(pair) for pair in synthesis.measured}
    distances["measured"] = [
        ways == 1 or frozenset(columns) in measured
        for columns, ways in zip(distances["columns"], distances["ways"], strict=True)
    ]
    return Release(synthesis, real, synthetic, distances, seconds)


def make_release(
    train: pd.DataFrame, domain: SynthDomain, rho: float, algorithm: Algorithm
) -> Release:
    """Synthesize with OpenDP (dp_core.synthetic.synthesize) and measure the fidelity."""
    start = time.perf_counter()
    synthesis = release_table(train, domain, rho, algorithm)
    return _release(synthesis, train, domain, time.perf_counter() - start)


def downstream(
    found: Release, test: pd.DataFrame, domain: SynthDomain, label: str, positive: str
) -> dict[str, float]:
    """Held-out accuracy of a logistic regression (every other column one-hot) trained on the
    real training rows and on the synthetic rows, and of the majority guess."""
    others = tuple((c, domain.labels(c)) for c in domain.columns if c != label)
    encoding = Encoding(label, positive, categorical=others)
    test_x, test_y = design_matrix(binned(test, domain), encoding)
    accuracies = {}
    for name, rows in (("real", found.real), ("synthetic", found.synthetic)):
        x, y = design_matrix(rows, encoding)
        schedule = dp_sgd.SgdSchedule(max(len(x), 2), min(256, max(len(x), 1)), 5, 1.0)
        model = dp_sgd.logistic_dp_sgd(
            x, y, schedule, learning_rate=2.0, rng=np.random.default_rng(0), private=False
        )
        accuracies[name] = dp_sgd.accuracy(model.final, test_x, test_y)
    train_y = design_matrix(found.real, encoding)[1]
    accuracies["majority"] = float(np.mean(test_y == float(train_y.mean() >= 0.5)))
    return accuracies


# --- the census releases the page opens with ----------------------------------------------


def store_path(epsilon: float, kind: str) -> Path:
    """A stored census release's file: its synthetic rows or its noisy marginals."""
    return STORE / f"{kind}_epsilon-{epsilon:g}.csv.gz"


def save(found: Release, epsilon: float, meta: dict) -> None:
    """Write a census release (scripts/precompute_synthetic.py)."""
    STORE.mkdir(parents=True, exist_ok=True)
    found.synthesis.synthetic.to_csv(store_path(epsilon, "synthetic"), index=False)
    found.synthesis.marginals.to_csv(
        store_path(epsilon, "marginals"), index=False, float_format="%.6g"
    )
    meta = {**meta, "measured": [list(pair) for pair in found.synthesis.measured]}
    (STORE / f"meta_epsilon-{epsilon:g}.json").write_text(json.dumps(meta, indent=1) + "\n")


def meta(epsilon: float) -> dict | None:
    """What a stored census release was made with (None when there is none)."""
    path = STORE / f"meta_epsilon-{epsilon:g}.json"
    return json.loads(path.read_text()) if path.is_file() else None


_STORED: dict[tuple, Release] = {}


def stored(epsilon: float, domain: SynthDomain, train: pd.DataFrame, key: tuple) -> Release | None:
    """The stored census release at ``epsilon``, measured against ``train`` (the rows it was
    made from, named by ``key``); None when there is none."""
    found = meta(epsilon)
    if found is None:
        return None
    if (epsilon, key) not in _STORED:
        synthetic = pd.read_csv(store_path(epsilon, "synthetic"))
        marginals = pd.read_csv(store_path(epsilon, "marginals"), keep_default_na=False)
        measured = tuple(tuple(pair) for pair in found["measured"])
        synthesis = Synthesis(synthetic, marginals, measured)
        _STORED[epsilon, key] = _release(synthesis, train, domain, float(found["seconds"]))
    return _STORED[epsilon, key]
