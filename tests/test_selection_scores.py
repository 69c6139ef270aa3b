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
from dp_core.selection_scores import floored_clipped_mean_sensitivity, floored_clipped_means


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


# --- The clipped mean per group with a floor on the group size -------------------------------
# Small worlds: two groups, each person one value (some outside [L, U], so clipping matters).

LOWER, UPPER = 1.0, 4.0
VALUES = (-2.0, 1.0, 2.5, 4.0, 9.0)  # below, at and between the bounds, above


def small_datasets(max_people: int = 3):
    """Every dataset of up to ``max_people`` persons, each (group, value)."""
    people = [(group, value) for group in ("a", "b") for value in VALUES]
    for size in range(max_people + 1):
        yield from itertools.combinations_with_replacement(people, size)


def add_remove_neighbours(data):
    """Every dataset with one person added (any group, any value) or removed."""
    for person in itertools.product(("a", "b"), VALUES):
        yield (*data, person)
    for i in range(len(data)):
        yield data[:i] + data[i + 1 :]


def scores(data, floor):
    groups = [g for g, _ in data]
    values = [v for _, v in data]
    return floored_clipped_means(
        values, groups, ["a", "b"], lower=LOWER, upper=UPPER, min_group_size=floor
    )


@pytest.mark.parametrize("floor", [1, 2, 3])
def test_floored_clipped_mean_sensitivity_is_the_brute_force_maximum(floor):
    worst = max(
        np.abs(scores(data, floor) - scores(other, floor)).max()
        for data in small_datasets()
        for other in add_remove_neighbours(data)
    )
    stated = floored_clipped_mean_sensitivity(LOWER, UPPER, floor)
    assert stated == (UPPER - LOWER) / floor
    assert worst == pytest.approx(stated)  # never exceeded, and attained


def test_large_groups_score_their_clipped_mean_and_small_ones_are_pulled_to_lower():
    values = [10.0, 50.0, 99.0, 30.0]
    got = floored_clipped_means(
        values, ["x", "x", "x", "y"], ["x", "y", "z"], lower=20, upper=60, min_group_size=3
    )
    assert got[0] == pytest.approx((20 + 50 + 60) / 3)  # 3 persons: the clipped mean
    assert got[1] == pytest.approx(20 + (30 - 20) / 3)  # 1 person, floor 3: towards L
    assert got[2] == 20  # nobody: L


def test_the_unclipped_mean_has_no_sensitivity():
    """The trap: one person's value moves an unclipped mean without limit."""
    base = [40.0, 40.0, 40.0]
    moves = [abs(np.mean([*base, hours]) - np.mean(base)) for hours in (100, 1e4, 1e6)]
    assert moves[0] < moves[1] < moves[2] and moves[2] > 1e5
    clipped = [
        floored_clipped_means([*base, h], [0] * 4, [0], lower=0, upper=100, min_group_size=3)
        for h in (100, 1e4, 1e6)
    ]
    assert max(abs(c[0] - 40) for c in clipped) <= floored_clipped_mean_sensitivity(0, 100, 3)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"lower": 5, "upper": 5, "min_group_size": 1}, "below the upper bound"),
        ({"lower": 0, "upper": 1, "min_group_size": 0}, "at least 1"),
        ({"lower": 0, "upper": 1, "min_group_size": 2.5}, "whole number"),
    ],
)
def test_bad_bounds_or_floor_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        floored_clipped_means([1.0], ["a"], ["a"], **kwargs)
    with pytest.raises(ValueError, match=message):
        floored_clipped_mean_sensitivity(**kwargs)
