"""dp_core.queries.answer: true answers over released labels, and one person's effect on them."""

import numpy as np
import pandas as pd
import pytest

from dp_core.queries import QuerySpec, answer
from dp_core.sensitivity import capped_contribution_norms

FRAME = pd.DataFrame(
    {
        "person": ["a", "a", "b", "c", "d", "e"],
        "disease": ["Flu", "Flu", "Cold", "Flu", "Rare", None],
        "cost": [10.0, 70.0, 5.0, -20.0, 40.0, 3.0],
    }
)


def test_counts_answer_exactly_the_declared_labels_absent_ones_as_zero() -> None:
    spec = QuerySpec(kind="count", category="disease", cap=2)
    query = answer(FRAME, spec, ["Flu", "Cold", "Measles"], person="person")
    assert query.labels == ["Flu", "Cold", "Measles"]
    np.testing.assert_array_equal(query.true_values, [3, 1, 0])
    assert (query.rows_outside, query.missing) == (1, 1)  # "Rare" dropped, one row without
    # A person with up to 2 rows moves the count vector by L1 2 and L2 2 (both rows in one
    # category when no per-category rule limits them): Wilson et al. 2020.
    assert (query.sensitivity, query.l2_sensitivity) == (2, 2)
    assert query.n_persons == 5


def test_removing_any_person_never_changes_the_released_labels() -> None:
    spec = QuerySpec(kind="count", category="disease", cap=2)
    labels = ["Flu", "Cold", "Rare"]
    for person in FRAME["person"].unique():
        without = answer(FRAME[FRAME["person"] != person], spec, labels, person="person")
        assert without.labels == labels


def test_a_per_category_rule_lowers_the_l2_sensitivity() -> None:
    # The restaurant rule: 7 visits a week, at most 1 a day: L1 7, L2 sqrt(7).
    spec = QuerySpec(kind="count", category="disease", cap=7, max_rows_per_category=1)
    query = answer(FRAME, spec, ["Flu"], person="person")
    assert query.sensitivity == 7
    assert query.l2_sensitivity == pytest.approx(np.sqrt(7))
    assert (query.records_per_person, query.rows_l2) == capped_contribution_norms(7, 1)


def test_clipped_sums_and_means_over_the_labels() -> None:
    spec = QuerySpec(kind="sum", category="disease", value="cost", lower=0, upper=50, cap=2)
    query = answer(FRAME, spec, ["Flu", "Cold", "None of them"], person="person")
    # Flu: clip(10) + clip(70) + clip(-20) = 10 + 50 + 0.
    np.testing.assert_array_equal(query.true_values, [60, 5, 0])
    np.testing.assert_array_equal(query.raw_values, [60, 5, 0])
    np.testing.assert_array_equal(query.counts, [3, 1, 0])
    assert query.sensitivity == 2 * 50  # cap times max(|L|, |U|)
    mean = answer(FRAME, QuerySpec(**{**spec.__dict__, "kind": "mean"}), ["Flu", "Cold"])
    np.testing.assert_allclose(mean.true_values, [20, 5])


def test_a_predicate_counts_rows_and_its_sensitivity_is_the_cap() -> None:
    spec = QuerySpec(kind="predicate", predicate=("cost", "≥", 10.0), cap=2)
    query = answer(FRAME, spec, person="person")
    assert query.labels == ["cost ≥ 10"]
    assert query.true_values.tolist() == [3]
    assert query.sensitivity == 2
    equal = QuerySpec(
        kind="predicate", predicate=("disease", "=", "Flu"), cap=3, max_rows_per_category=1
    )
    assert answer(FRAME, equal).sensitivity == 1  # at most one row per category per person


@pytest.mark.parametrize(
    ("spec", "labels", "message"),
    [
        (QuerySpec(kind="count", category="nope", cap=1), ["x"], "no column"),
        (QuerySpec(kind="sum", category="disease", cap=1), ["Flu"], "needs a value column"),
        (QuerySpec(kind="count", category="disease", cap=1), None, "needs a category"),
        (QuerySpec(kind="predicate", cap=1), None, "needs a column"),
        (
            QuerySpec(kind="sum", category="disease", value="person", lower=0, upper=1, cap=1),
            ["Flu"],
            "not numeric",
        ),
        (
            QuerySpec(kind="sum", category="disease", value="cost", lower=5, upper=1, cap=1),
            ["Flu"],
            "lower bound must be below",
        ),
    ],
)
def test_bad_queries_raise_readable_errors(spec, labels, message) -> None:
    with pytest.raises(ValueError, match=message):
        answer(FRAME, spec, labels)
