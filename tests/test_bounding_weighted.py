"""A contribution table of distinct unit profiles with multiplicities gives the full table's
bias, selection spread and errors: the form data.sources returns for tables beyond memory."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dp_core.bounding import Bounding
from dp_core.bounding import search as bounding_search
from dp_core.bounding.bias import bounded_totals_by_cap, bounded_totals_by_upper
from dp_core.bounding.error import expected_group_errors
from dp_core.bounding.noise import NoisePlan
from dp_core.bounding.spread import selection_variance_by_cap, selection_variance_by_upper
from dp_core.bounding.table import (
    ContributionTable,
    contribution_table,
    weighted_contribution_table,
)


def visits(seed: int = 0) -> pd.DataFrame:
    """Persons in 1-5 of 6 groups with 1-3 records each; few distinct values, so profiles repeat."""
    rng = np.random.default_rng(seed)
    rows = []
    for person in range(400):
        for group in rng.choice(6, rng.integers(1, 6), replace=False):
            for _ in range(int(rng.choice([1, 1, 1, 2, 3]))):
                rows.append((person, str(group), float(rng.choice([2.0, 5.0, 9.0, 30.0]))))
    frame = pd.DataFrame(rows, columns=["person", "group", "value"])
    return frame.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def compressed(table: ContributionTable) -> ContributionTable:
    """The table's units merged into distinct profiles (group, k, rank, values in order)."""
    starts = np.flatnonzero(np.r_[True, np.diff(table.row_unit[np.argsort(table.row_unit)]) != 0])
    order = np.lexsort((table.row_rank, table.row_unit))
    values = table.row_value[order]
    per_unit = np.split(values, starts[1:])
    keys = [
        (int(g), int(k), int(rank), tuple(v))
        for g, k, rank, v in zip(
            table.unit_group, table.unit_groups_of_person, table.unit_rank, per_unit, strict=True
        )
    ]
    counts = pd.Series(keys).value_counts(sort=False)
    profiles = list(counts.index)
    return weighted_contribution_table(
        list(table.groups),
        unit_group=[p[0] for p in profiles],
        unit_groups_of_person=[p[1] for p in profiles],
        unit_rank=[p[2] for p in profiles],
        unit_size=[len(p[3]) for p in profiles],
        unit_weight=counts.to_numpy(),
        row_value=np.concatenate([p[3] for p in profiles]),
        name=table.groups.name,
    )


@pytest.fixture(scope="module")
def tables():
    full = contribution_table(visits(), "person", "group", "value", groups=list("012345"))
    return full, compressed(full)


SETTINGS = [
    Bounding(2, 1, 1.0, 20.0),
    Bounding(3, 2, 0.0, 10.0),
    Bounding(1, 2, 3.0, 25.0, pre_aggregate=True),
    Bounding(2, 1, 1.0, 20.0, selection="first"),
    Bounding(4, 2, 0.0, 12.0, pre_aggregate=True, selection="first"),
]


def test_the_compressed_table_is_smaller(tables):
    full, small = tables
    assert len(small.unit_group) < 0.7 * len(full.unit_group)
    assert small.units == full.units
    assert small.max_groups_per_person == full.max_groups_per_person
    assert small.max_records_per_unit == full.max_records_per_unit
    for statistic in ("count", "sum"):
        np.testing.assert_allclose(small.true_totals(statistic), full.true_totals(statistic))


@pytest.mark.parametrize("bounding", SETTINGS)
def test_every_sweep_equals_the_full_table(tables, bounding):
    full, small = tables
    caps = np.arange(1, 7)
    uppers = np.linspace(bounding.lower + 0.5, 40.0, 17)
    plan = NoisePlan(0.7, joint=True)
    for statistic in ("count", "sum"):
        for function in (bounded_totals_by_cap, selection_variance_by_cap):
            np.testing.assert_allclose(
                function(small, statistic, bounding, caps=caps),
                function(full, statistic, bounding, caps=caps),
                rtol=1e-9,
                atol=1e-9,
            )
        pd.testing.assert_frame_equal(
            expected_group_errors(small, statistic, bounding, plan),
            expected_group_errors(full, statistic, bounding, plan),
            rtol=1e-9,
        )
    for function in (bounded_totals_by_upper, selection_variance_by_upper):
        np.testing.assert_allclose(
            function(small, bounding, uppers=uppers),
            function(full, bounding, uppers=uppers),
            rtol=1e-9,
            atol=1e-9,
        )
    lowers = np.linspace(-5.0, bounding.upper - 0.5, 13)
    pd.testing.assert_frame_equal(
        bounding_search.lower_tradeoff(small, bounding, plan, lowers=lowers),
        bounding_search.lower_tradeoff(full, bounding, plan, lowers=lowers),
        rtol=1e-9,
    )
    grid = np.linspace(-2.0, 35.0, 15)
    np.testing.assert_allclose(
        bounding_search.bounds_rmse_grid(small, bounding, plan, lowers=grid, uppers=grid),
        bounding_search.bounds_rmse_grid(full, bounding, plan, lowers=grid, uppers=grid),
        rtol=1e-9,
    )


def test_profiles_need_one_value_per_record():
    with pytest.raises(ValueError, match="one value per record"):
        weighted_contribution_table(
            ["a"], unit_group=[0], unit_groups_of_person=[1], unit_rank=[0], unit_size=[2],
            unit_weight=[3], row_value=[1.0],
        )  # fmt: skip


def test_weighted_quantiles_equal_the_values_repeated():
    from dp_core import private_quantile

    values, weights = np.array([3.0, 1.0, 7.0, 4.0]), np.array([5, 2, 1, 9])
    repeated = np.repeat(values, weights)
    grid = np.linspace(0.0, 10.0, 21)
    for alpha in (0.1, 0.5, 0.95):
        np.testing.assert_allclose(
            private_quantile.quantile_probabilities(
                values, grid, alpha=alpha, epsilon=0.7, max_rows_per_person=2, weights=weights
            ),
            private_quantile.quantile_probabilities(
                repeated, grid, alpha=alpha, epsilon=0.7, max_rows_per_person=2
            ),
        )
        assert private_quantile.quantile_spread(
            values, grid, alpha=alpha, epsilon=0.7, weights=weights
        ) == private_quantile.quantile_spread(repeated, grid, alpha=alpha, epsilon=0.7)
    histogram = pd.Series([440, 507, 281], index=[1, 2, 3])
    rng = np.random.default_rng
    weighted = private_quantile.private_cap(
        rng(3), histogram.index, alpha=0.9, epsilon=0.1, max_cap=7, weights=histogram
    )
    plain = private_quantile.private_cap(
        rng(3), np.repeat(histogram.index, histogram), alpha=0.9, epsilon=0.1, max_cap=7
    )
    np.testing.assert_allclose(weighted.probabilities, plain.probabilities)
    assert weighted.cap == plain.cap
    bounds = private_quantile.private_bounds(rng(4), values, grid, epsilon=1.0, weights=weights)
    same = private_quantile.private_bounds(rng(4), repeated, grid, epsilon=1.0)
    assert (bounds.lower, bounds.upper) == (same.lower, same.upper)
    with pytest.raises(ValueError, match="one weight per value"):
        private_quantile.quantile_scores(values, grid, alpha=0.5, weights=[1, 2])
