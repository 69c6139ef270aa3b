"""Differentially private partition selection: which categories may be released at all.

When the categories are not declared in advance (dp_core.domains), the labels themselves
must be chosen with DP. Each person contributes to at most l0 partitions (categories) and
at most 1 to each partition's count of distinct persons; Laplace noise of scale b = l0 / eps
is added to every count, and a partition is kept iff its noisy count is at least

    tau = 1 + b ln(1 / (2 (1 - (1 - delta)^(1/l0)))).

Why: a partition present only in the larger of two neighbouring datasets has count 1 and
is kept with probability p = P(1 + Lap(b) >= tau) = exp(-(tau - 1) / b) / 2; a new person
can create at most l0 such partitions, and 1 - (1 - p)^l0 = delta. Partitions present in
both datasets change by at most 1 in at most l0 places: eps = l0 / b. Together the kept
labels and their noisy counts are (eps, delta)-DP under add/remove-one-person.
Sources: Wilson et al. 2020, "Differentially private SQL with bounded user contribution"
(Google's LaplacePartitionSelection); Rogers et al. 2023, "A unifying privacy
analysis framework for unknown domain algorithms", which OpenDP's make_laplace_threshold
implements with delta = 1 - (1 - P(Lap(b) >= tau - 1))^l0: the same formula (OpenDP rounds
it outwards in floating point, so its delta is at most ~1e-7 relatively larger).

What pages must say: the kept labels and their noisy counts are the DP release. The number
of candidate categories, how many were suppressed and how many persons they held describe
the data itself (not DP): show them to the data's owner, never publish them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from dp_core.bounding import check_bounding_frame
from dp_core.domains import category_keys
from dp_core.errors import CodedError
from dp_core.validation import check_epsilon, check_positive_int

__all__ = [
    "ExpectedKept",
    "PartitionSelection",
    "distinct_person_counts",
    "expected_kept",
    "laplace_threshold",
    "partition_keep_probability",
    "partition_selection_scale",
    "select_partitions",
    "threshold_delta",
]


def _check_delta(delta: object, max_partitions: int) -> float:
    """Delta in (0, 1 - 2^-l0]: above that the threshold would fall below a count of 1."""
    try:
        d = float(delta)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise CodedError("number", name="delta", got=repr(delta)) from None
    if isinstance(delta, bool) or math.isnan(d):
        raise CodedError("number", name="delta", got=repr(delta))
    if d <= 0:
        raise CodedError("partition_delta_positive")
    top = 1.0 - 2.0**-max_partitions
    if d > top:
        raise CodedError(
            "partition_delta_max", top=f"{top:g}", max_partitions=f"{max_partitions}", got=f"{d:g}"
        )
    return d


def _check(epsilon: object, delta: object, max_partitions: object) -> tuple[float, float, int]:
    l0 = check_positive_int(max_partitions, "the cap on categories per person (l0)")
    return check_epsilon(epsilon), _check_delta(delta, l0), l0


def partition_selection_scale(*, epsilon: float, max_partitions: int) -> float:
    """Laplace scale b = l0 / eps, in persons (Wilson et al. 2020)."""
    l0 = check_positive_int(max_partitions, "the cap on categories per person (l0)")
    return l0 / check_epsilon(epsilon)


def laplace_threshold(*, epsilon: float, delta: float, max_partitions: int) -> float:
    """tau = 1 + b ln(1 / (2 (1 - (1 - delta)^(1/l0)))), b = l0 / eps, in persons.

    Then a partition with one person is kept with probability p = (1 - (1 - delta)^(1/l0))
    and one person's l0 new partitions with probability 1 - (1 - p)^l0 = delta
    (Wilson et al. 2020; Google's LaplacePartitionSelection).
    """
    eps, d, l0 = _check(epsilon, delta, max_partitions)
    b = l0 / eps
    p = -math.expm1(math.log1p(-d) / l0)  # 1 - (1 - delta)^(1/l0), accurate for tiny delta
    return 1.0 - b * math.log(2.0 * p)


def threshold_delta(*, threshold: float, epsilon: float, max_partitions: int) -> float:
    """delta = 1 - (1 - exp(-(tau - 1) / b) / 2)^l0 for a given tau >= 1 (inverse of tau).

    The same formula as OpenDP's make_laplace_threshold privacy map at d_in = (l0, l0, 1).
    """
    eps = check_epsilon(epsilon)
    l0 = check_positive_int(max_partitions, "the cap on categories per person (l0)")
    tau = float(threshold)
    if not math.isfinite(tau) or tau < 1:
        raise CodedError("partition_threshold", got=f"{tau:g}")
    p = 0.5 * math.exp(-(tau - 1.0) * eps / l0)
    return -math.expm1(l0 * math.log1p(-p))


def partition_keep_probability(
    count: ArrayLike, *, epsilon: float, delta: float, max_partitions: int
) -> np.ndarray:
    """P(c + Lap(b) >= tau), exact: exp(-(tau - c) / b) / 2 if c <= tau, else
    1 - exp(-(c - tau) / b) / 2; tau and b as in laplace_threshold.

    Laplace tail P(X >= t) = exp(-t / b) / 2 for t >= 0 (Dwork & Roth 2014, Def 3.2).
    """
    tau = laplace_threshold(epsilon=epsilon, delta=delta, max_partitions=max_partitions)
    b = partition_selection_scale(epsilon=epsilon, max_partitions=max_partitions)
    gap = (tau - np.asarray(count, dtype=float)) / b
    half_tail = 0.5 * np.exp(-np.abs(gap))
    return np.where(gap >= 0, half_tail, 1.0 - half_tail)


def _check_counts(person_counts: ArrayLike) -> np.ndarray:
    try:
        counts = np.asarray(person_counts, dtype=float)
    except (TypeError, ValueError):
        raise CodedError("partition_counts_numbers") from None
    if counts.ndim != 1:
        raise CodedError("partition_counts_flat")
    if not np.all(np.isfinite(counts)) or np.any(counts < 0) or np.any(counts != np.round(counts)):
        raise CodedError("partition_counts_whole")
    return counts


def distinct_person_counts(
    frame: pd.DataFrame,
    category_column: str,
    person_column: str | None = None,
    *,
    max_partitions: int | None = None,
) -> pd.Series:
    """Distinct persons per category (rows when ``person_column`` is None): the selection input.

    Categories are compared as text (dp_core.domains.category_keys); rows with no category
    are left out. The index is sorted, so the order reveals nothing beyond the labels. With
    ``max_partitions``, a person in more categories raises ValueError: cap first with
    dp_core.bounding.cap_contributions(..., max_groups_per_id=l0), or the guarantee fails.
    """
    if category_column not in frame.columns:
        raise CodedError("partition_column_missing", column=category_column)
    check_bounding_frame(frame, person_column)
    keys = category_keys(frame[category_column])
    present = keys.notna().to_numpy()
    if person_column is None:
        counts = keys[present].value_counts()
        most = 1
    else:
        pairs = pd.DataFrame(
            {
                "person": frame[person_column].to_numpy()[present],
                "category": keys[present].to_numpy(),
            }
        ).drop_duplicates()
        counts = pairs["category"].value_counts()
        most = int(pairs["person"].value_counts().max()) if len(pairs) else 0
    if max_partitions is not None:
        l0 = check_positive_int(max_partitions, "the cap on categories per person (l0)")
        if most > l0:
            raise CodedError("partition_persons_over_cap", l0=f"{l0}")
    counts = counts.sort_index().astype(np.int64)
    counts.index.name, counts.name = category_column, "persons"
    return counts


@dataclass(frozen=True)
class PartitionSelection:
    """The categories kept by Laplace-threshold partition selection, and what it cost.

    ``labels`` and ``noisy_counts`` (noisy distinct-person counts of the kept labels, in the
    input order) are the (epsilon, delta)-DP release; the noisy counts are biased upwards
    (all are >= tau), so release counts with fresh noise. The noisy counts of suppressed
    candidates are not kept: they would reveal that those categories exist.
    ``n_candidates``, ``n_suppressed`` and ``persons_suppressed`` (the sum of the suppressed
    categories' distinct-person counts; a person in two of them counts twice) describe the
    data, not a DP release: for the data's owner only.
    """

    labels: tuple
    noisy_counts: np.ndarray
    threshold: float
    scale: float
    epsilon: float
    delta: float
    max_partitions: int
    n_candidates: int
    n_suppressed: int
    persons_suppressed: int

    @property
    def n_kept(self) -> int:
        """How many categories were kept."""
        return len(self.labels)


def select_partitions(
    rng: np.random.Generator,
    labels: ArrayLike,
    person_counts: ArrayLike,
    *,
    epsilon: float,
    delta: float,
    max_partitions: int,
) -> PartitionSelection:
    """Keep label j iff c_j + Lap(b) >= tau, b = l0 / eps: (eps, delta)-DP (Wilson et al. 2020).

    ``person_counts`` are distinct persons per label (distinct_person_counts) from data in
    which no person is in more than ``max_partitions`` (l0) categories. Pass ``labels`` in an
    order that does not depend on the data (e.g. sorted), since kept labels keep it.
    Noise is numpy's floating-point Laplace, fine for teaching; a production release should
    use a discrete or snapping sampler (Mironov 2012).
    """
    eps, d, l0 = _check(epsilon, delta, max_partitions)
    names = labels.tolist() if hasattr(labels, "tolist") else list(labels)
    counts = _check_counts(person_counts)
    if len(names) != counts.size:
        raise CodedError("partition_labels_count", counts=f"{counts.size}", labels=f"{len(names)}")
    if len(set(names)) != len(names):
        raise CodedError("partition_label_twice")
    tau = laplace_threshold(epsilon=eps, delta=d, max_partitions=l0)
    b = l0 / eps
    noisy = counts + rng.laplace(0.0, b, counts.size)
    kept = noisy >= tau
    released = noisy[kept]
    released.setflags(write=False)
    return PartitionSelection(
        labels=tuple(name for name, keep in zip(names, kept, strict=True) if keep),
        noisy_counts=released,
        threshold=tau,
        scale=b,
        epsilon=eps,
        delta=d,
        max_partitions=l0,
        n_candidates=counts.size,
        n_suppressed=int(counts.size - kept.sum()),
        persons_suppressed=int(counts[~kept].sum()),
    )


@dataclass(frozen=True)
class ExpectedKept:
    """Exact expectations of a selection: categories kept, and persons in kept categories.

    ``keep_probabilities`` holds P(kept) per category; ``persons`` = sum_j c_j P(kept_j) (a
    person in two kept categories counts twice). Computed from the true counts: not DP.
    """

    categories: float
    persons: float
    keep_probabilities: np.ndarray
    n_candidates: int
    total_persons: int


def expected_kept(
    person_counts: ArrayLike, *, epsilon: float, delta: float, max_partitions: int
) -> ExpectedKept:
    """E[categories kept] = sum_j P(c_j + Lap(b) >= tau); E[persons kept] = sum_j c_j P(...).

    Linearity of expectation over independent noise (Wilson et al. 2020).
    """
    counts = _check_counts(person_counts)
    p = partition_keep_probability(
        counts, epsilon=epsilon, delta=delta, max_partitions=max_partitions
    )
    p.setflags(write=False)
    return ExpectedKept(
        categories=float(p.sum()),
        persons=float(counts @ p),
        keep_probabilities=p,
        n_candidates=counts.size,
        total_persons=int(counts.sum()),
    )
