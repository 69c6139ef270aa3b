"""The sensitivity of count / largest count, checked by brute force over neighbouring
histograms (add or remove one record)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from dp_core import (
    COUNT_SENSITIVITY,
    SHARE_OF_LARGEST_GLOBAL_SENSITIVITY,
    exponential_probabilities,
    share_of_largest_local_sensitivity,
    share_of_largest_scores,
)


def neighbours(counts):
    """Every histogram one record away (added to or removed from one candidate)."""
    for i in range(len(counts)):
        for step in (-1, 1):
            other = list(counts)
            other[i] += step
            if other[i] >= 0:
                yield other


HISTOGRAMS = [h for k in (1, 2, 3) for h in itertools.product(range(7), repeat=k) if max(h) >= 1]


def test_local_sensitivity_is_one_over_largest_count_and_attained():
    for counts in HISTOGRAMS:
        changes = [
            np.abs(share_of_largest_scores(counts) - share_of_largest_scores(other)).max()
            for other in neighbours(counts)
            if max(other) >= 1
        ]
        if len(counts) == 1:  # one candidate: its score is always 1
            assert max(changes) == 0
            continue
        assert max(changes) == pytest.approx(share_of_largest_local_sensitivity(counts))


def test_pairwise_bound_one_over_smaller_largest_count():
    for counts in HISTOGRAMS:
        for other in neighbours(counts):
            if max(other) >= 1:
                change = np.abs(share_of_largest_scores(counts) - share_of_largest_scores(other))
                assert change.max() <= 1 / min(max(counts), max(other)) + 1e-12


def test_global_sensitivity_is_one_and_counts_move_by_one():
    worst = max(
        np.abs(share_of_largest_scores(c) - share_of_largest_scores(o)).max()
        for c in HISTOGRAMS
        for o in neighbours(c)
        if max(o) >= 1
    )
    assert worst == SHARE_OF_LARGEST_GLOBAL_SENSITIVITY == 1.0
    assert (
        max(np.abs(np.subtract(c, o)).max() for c in HISTOGRAMS for o in neighbours(c))
        == COUNT_SENSITIVITY
    )


def test_pitfall_is_near_uniform_and_local_calibration_equals_count():
    counts = [24, 8, 28, 5]
    share = share_of_largest_scores(counts)
    wrong = exponential_probabilities(share, 1.0, SHARE_OF_LARGEST_GLOBAL_SENSITIVITY)
    assert wrong.max() / wrong.min() <= np.exp(0.5) + 1e-12
    np.testing.assert_allclose(
        exponential_probabilities(share, 1.0, share_of_largest_local_sensitivity(counts)),
        exponential_probabilities(counts, 1.0, COUNT_SENSITIVITY),
        rtol=1e-12,
    )


def test_no_records_is_refused():
    with pytest.raises(ValueError, match="at least one record"):
        share_of_largest_scores([0, 0])
    with pytest.raises(ValueError, match="at least one record"):
        share_of_largest_local_sensitivity([])
