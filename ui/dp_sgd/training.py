"""The DP-SGD page's computations: the table made ready, the noise an ε needs, training runs
and the accuracy-against-ε curve. No Streamlit: the page and scripts/precompute_dp_sgd.py
call the same functions (cached here, by value).

    problem = prepare(frame, encoding, person="person_id", rows=32_561, seed=(2026, 0), key=...)
    training = Training(batch_size=256, epochs=5, clip=1.0, learning_rate=2.0, delta=1e-5)
    sigma = sigma_for(1.0, training, problem.train_rows)       # dp-accounting calibrates
    run(problem, training, sigma, seed=(2026, 0, 0)).test_accuracy
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from dp_core import attacks, dp_sgd
from dp_core.dp_sgd import Accountant, SgdSchedule
from dp_core.model_table import Encoding, design_matrix, feature_names, held_out, one_per_person

HELD_OUT = 0.2  # share of the rows (of the persons) held out to measure accuracy
EPSILONS = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)  # the accuracy-against-ε curve's points
SEEDS = 3  # trainings per point of the curve (their spread is drawn)
PRECOMPUTED = Path(__file__).resolve().parents[2] / "data" / "precomputed" / "dp_sgd_census.csv"
SIGMAS = PRECOMPUTED.with_name("dp_sgd_sigmas.csv")  # σ at the defaults, each ε stop and accountant
Seed = tuple[int, ...]


@dataclass(frozen=True, eq=False)
class Problem:
    """Training and held-out rows as numbers (dp_core.model_table), and the public row count
    the sampling rate is set from. Equal (and cached) by ``key``: what it was made from."""

    key: tuple
    names: tuple[str, ...]
    rows: int  # the rows kept: a public figure (the sampling rate q = B / train_rows)
    train_x: np.ndarray
    train_y: np.ndarray
    test_x: np.ndarray
    test_y: np.ndarray

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Problem) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def train_rows(self) -> int:
        """n of the accounting: the public share of the public row count that trains."""
        return max(2, round((1 - HELD_OUT) * self.rows))

    @property
    def majority(self) -> float:
        """The accuracy of always answering the training rows' commoner label (NaN without
        held-out rows)."""
        if not len(self.test_y):
            return float("nan")
        guess = float(self.train_y.mean() >= 0.5) if len(self.train_y) else 0.0
        return float(np.mean(self.test_y == guess))


def prepare(
    frame: pd.DataFrame,
    encoding: Encoding,
    *,
    person: str | None,
    rows: int,
    share: float = 1.0,
    seed: Seed,
    key: tuple,
) -> Problem:
    """The table as a training problem: one row per person (a seeded choice), a ``share`` of
    the persons kept (to see what a smaller table costs), a held-out fifth of them (each by a
    seeded hash of the person), the declared encoding. ``rows`` is the table's public row
    count; the sampling rate is set from ``share`` of it. Nothing about the rows decides
    whether a model is trained: one label only, or no row on one side, still trains (the noise
    alone, where no row does); only the measurements beside it may have nothing to measure."""
    number, kept = (int(n) for n in np.random.SeedSequence(list(seed)).generate_state(2))
    if person is not None and frame[person].duplicated().any():
        frame = one_per_person(frame, person, number)
    if share < 1:
        frame = frame[held_out(frame, share, kept, by=person)]
    test = held_out(frame, HELD_OUT, number, by=person)
    features, labels = design_matrix(frame, encoding)
    return Problem(
        key=(key, encoding, person, rows, share, seed),
        names=tuple(feature_names(encoding)),
        rows=max(2, round(share * rows)),
        train_x=features[~test],
        train_y=labels[~test],
        test_x=features[test],
        test_y=labels[test],
    )


@dataclass(frozen=True)
class Training:
    """The settings of a training besides ε: expected batch B, epochs E, clipping norm C,
    learning rate, δ, and the accountant that calibrates σ."""

    batch_size: int
    epochs: int
    clip: float
    learning_rate: float
    delta: float
    accountant: Accountant = "rdp"

    def schedule(self, rows: int, sigma: float) -> SgdSchedule:
        return SgdSchedule(rows, self.batch_size, self.epochs, sigma, self.clip)


def calibrated_sigma(epsilon: float, training: Training, rows: int) -> float:
    """The smallest noise multiplier within (ε, δ) by the training's accountant
    (dp_core.dp_sgd.noise_multiplier_for: dp-accounting's calibration; PLD takes 2-10 s)."""
    schedule = training.schedule(rows, 1.0)
    return dp_sgd.noise_multiplier_for(epsilon, training.delta, schedule, training.accountant)


def _sigma_key(epsilon: float, training: Training, rows: int) -> tuple:
    """What σ depends on: the accountant, δ, n, B, E and ε (not C, not the learning rate)."""
    return (training.accountant, training.delta, rows, training.batch_size, training.epochs,
            epsilon)  # fmt: skip


def sigma_table(epsilons: tuple[float, ...], training: Training, rows: int) -> pd.DataFrame:
    """``calibrated_sigma`` at each ε, by each accountant: what SIGMAS holds."""
    found = []
    for accountant in ("rdp", "pld"):
        by = replace(training, accountant=accountant)
        for epsilon in epsilons:
            key = _sigma_key(epsilon, by, rows)
            found.append({**dict(zip(_SIGMA_COLUMNS, key, strict=True)),
                          "sigma": calibrated_sigma(epsilon, by, rows)})  # fmt: skip
    return pd.DataFrame(found)


_SIGMA_COLUMNS = ("accountant", "delta", "rows", "batch_size", "epochs", "epsilon")


@functools.cache
def stored_sigmas() -> dict[tuple, float]:
    """SIGMAS as written by scripts/precompute_dp_sgd.py, by ``_sigma_key`` (empty if missing)."""
    try:
        table = pd.read_csv(SIGMAS)
    except (OSError, pd.errors.ParserError):
        return {}
    keys = zip(*(table[column].tolist() for column in _SIGMA_COLUMNS), strict=True)
    return dict(zip(keys, table["sigma"].tolist(), strict=True))


@functools.lru_cache(maxsize=512)
def sigma_for(epsilon: float, training: Training, rows: int) -> float:
    """``calibrated_sigma``, read from SIGMAS where it holds these settings (the page's
    defaults at every stop of its ε slider, by both accountants), so no one waits for it."""
    stored = stored_sigmas().get(_sigma_key(epsilon, training, rows))
    return stored if stored is not None else calibrated_sigma(epsilon, training, rows)


@functools.lru_cache(maxsize=1024)
def epsilon_of(sigma: float, training: Training, rows: int, accountant: Accountant) -> float:
    """ε at the training's δ of its schedule at σ, by ``accountant`` (dp-accounting)."""
    return dp_sgd.sgd_epsilon(training.schedule(rows, sigma), training.delta, accountant)


@dataclass(frozen=True)
class Run:
    """One training: its accuracy on held-out rows (after each epoch, the last is the model's),
    on its own training rows, the share of gradients clipped, and the loss-threshold attack's
    advantage (training rows' losses against held-out rows'). A figure with no rows to
    measure on is NaN."""

    by_epoch: tuple[float, ...]  # held-out accuracy at the start and after each epoch
    train_accuracy: float
    clipped_share: float
    advantage: float
    weights: tuple[float, ...]

    @property
    def test_accuracy(self) -> float:
        return self.by_epoch[-1]


@functools.lru_cache(maxsize=256)
def run(problem: Problem, training: Training, sigma: float | None, seed: Seed) -> Run:
    """Train once (``sigma`` None: the same SGD without clipping or noise) and measure."""
    schedule = training.schedule(problem.train_rows, sigma or 1.0)
    model = dp_sgd.logistic_dp_sgd(
        problem.train_x,
        problem.train_y,
        schedule,
        learning_rate=training.learning_rate,
        rng=np.random.default_rng(list(seed)),
        private=sigma is not None,
    )
    final = model.final
    advantage = float("nan")  # nothing to tell apart without rows on both sides
    if len(problem.train_y) and len(problem.test_y):
        advantage = attacks.loss_threshold_attack(
            dp_sgd.logistic_losses(final, problem.train_x, problem.train_y),
            dp_sgd.logistic_losses(final, problem.test_x, problem.test_y),
        ).best_advantage
    return Run(
        by_epoch=tuple(dp_sgd.accuracy(w, problem.test_x, problem.test_y) for w in model.weights),
        train_accuracy=dp_sgd.accuracy(final, problem.train_x, problem.train_y),
        clipped_share=model.clipped_share,
        advantage=advantage,
        weights=tuple(float(w) for w in final),
    )


def curve_steps() -> int:
    """Trainings a curve takes (for a progress bar): SEEDS per ε, and SEEDS without DP."""
    return SEEDS * (len(EPSILONS) + 1)


def curve(
    problem: Problem,
    training: Training,
    seed: Seed,
    progress: Callable[[int], None] = lambda _done: None,
) -> pd.DataFrame:
    """Accuracy and attack advantage against ε: SEEDS trainings at each of EPSILONS (σ by
    ``sigma_for``) and SEEDS without DP (ε = inf). One row per training."""
    rows, done = [], 0
    for epsilon in (*EPSILONS, float("inf")):
        sigma = None if np.isinf(epsilon) else sigma_for(epsilon, training, problem.train_rows)
        for index in range(SEEDS):
            found = run(problem, training, sigma, (*seed, index))
            rows.append(
                {
                    "epsilon": epsilon,
                    "sigma": np.nan if sigma is None else sigma,
                    "seed": index,
                    "accuracy": found.test_accuracy,
                    "advantage": found.advantage,
                    "clipped": found.clipped_share,
                }
            )
            done += 1
            progress(done)
    return pd.DataFrame(rows)


def clip_curve(
    problem: Problem,
    training: Training,
    sigma: float,
    seed: Seed,
    clips: tuple[float, ...],
    progress: Callable[[int], None] = lambda _done: None,
) -> pd.DataFrame:
    """One training per clipping norm at the same σ (so the same guarantee): held-out accuracy
    and the share of gradients clipped."""
    rows = []
    for done, clip in enumerate(clips, start=1):
        found = run(problem, replace(training, clip=clip), sigma, seed)
        rows.append({"clip": clip, "accuracy": found.test_accuracy, "clipped": found.clipped_share})
        progress(done)
    return pd.DataFrame(rows)


def precomputed() -> pd.DataFrame | None:
    """The default curve as scripts/precompute_dp_sgd.py wrote it (None when missing)."""
    try:
        return pd.read_csv(PRECOMPUTED)
    except (OSError, pd.errors.ParserError):
        return None
