"""dp_core.group_budgets against OpenDP's composition and Laplace privacy maps."""

from __future__ import annotations

import opendp.prelude as dp
import pytest

from dp_core.group_budgets import (
    capped_epsilon,
    compare_budgets,
    joint_epsilon_per_group,
    sequential_epsilon,
)

dp.enable_features("contrib")


def laplace_on_vector(scale: float):
    """OpenDP's Laplace mechanism on a vector of group answers, L1 input distance."""
    return dp.m.make_laplace(
        dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float), scale=scale
    )


def test_teaching_week():
    week = compare_budgets(0.5, n_groups=7, max_groups=4)
    assert week.sequential_total == 3.5
    assert week.capped_total == 2.0
    assert week.joint_epsilon_per_group == pytest.approx(0.875)


def test_sequential_matches_opendp_composition():
    epsilons = [0.5, 0.25, 1.0, 0.1]
    scalar = dp.atom_domain(T=float, nan=False)
    releases = [
        dp.m.make_laplace(scalar, dp.absolute_distance(T=float), scale=1.0 / eps)
        for eps in epsilons
    ]
    composed = dp.c.make_composition(releases)
    assert sequential_epsilon(epsilons) == pytest.approx(composed.map(1.0), rel=1e-9)


@pytest.mark.parametrize(("max_groups", "n_groups"), [(1, 7), (3, 7), (4, 7), (9, 7)])
def test_capped_total_matches_opendp_vector_laplace(max_groups, n_groups):
    """Per-group noise for epsilon 0.5 at sensitivity 50; a person moves min(l0, n) groups."""
    mechanism = laplace_on_vector(scale=50 / 0.5)
    touched = min(max_groups, n_groups)
    expected = mechanism.map(touched * 50.0)
    assert capped_epsilon(0.5, max_groups=max_groups, n_groups=n_groups) == pytest.approx(
        expected, rel=1e-9
    )


def test_joint_release_spends_exactly_the_total():
    per_group = joint_epsilon_per_group(3.5, max_groups=4, n_groups=7)
    mechanism = laplace_on_vector(scale=50 / per_group)
    assert mechanism.map(4 * 50.0) == pytest.approx(3.5, rel=1e-9)


def test_sequential_is_never_below_the_capped_total():
    for cap in range(1, 10):
        week = compare_budgets(0.3, n_groups=7, max_groups=cap)
        assert week.capped_total <= week.sequential_total + 1e-12


def test_bad_input():
    with pytest.raises(ValueError, match="greater than 0"):
        compare_budgets(0, n_groups=7, max_groups=4)
    with pytest.raises(ValueError, match="at least 1"):
        capped_epsilon(0.5, max_groups=0, n_groups=7)
    with pytest.raises(ValueError, match="at least one release"):
        sequential_epsilon([])


def test_delta_adds_up_by_basic_composition():
    """Gaussian days: (n epsilon, n delta) in turn; (min(l0, n) epsilon, min(l0, n) delta)."""
    week = compare_budgets(0.5, n_groups=7, max_groups=4, delta_per_group=1e-6)
    assert week.sequential_delta == pytest.approx(7e-6)
    assert week.capped_delta == pytest.approx(4e-6)
    assert compare_budgets(0.5, n_groups=7, max_groups=9, delta_per_group=1e-6).capped_delta == (
        pytest.approx(7e-6)
    )
    assert compare_budgets(0.5, n_groups=7, max_groups=4).sequential_delta == 0.0
    with pytest.raises(ValueError, match="delta"):
        compare_budgets(0.5, n_groups=7, max_groups=4, delta_per_group=1.5)
