"""Privacy budgets of per-group releases (e.g. one per day of a week): group by group or capped.

Two exact accountings of n Laplace releases, each with noise for epsilon_g at its own
per-group sensitivity:
- sequential composition: the epsilons add up, sum_g epsilon_g (Dwork & Roth 2014, Thm 3.16);
- with a cap of l0 groups per person, the n answers form one vector whose L1 sensitivity
  is l0 times the per-group sensitivity, so the same noise costs min(l0, n) * epsilon_g
  (Laplace mechanism on the vector, Dwork & Roth 2014, Thm 3.6).
Turned around: a total budget spent on one release of all groups buys per-group noise as if
each group had total / min(l0, n).
For (epsilon, delta) releases (the Gaussian mechanism) both epsilon and delta add up by basic
composition (Dwork & Roth 2014, Thm 3.16): n * delta day by day, min(l0, n) * delta with the
cap (a person's data reaches at most min(l0, n) of the n releases).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dp_core.composition import basic_composition
from dp_core.errors import CodedError
from dp_core.validation import check_delta, check_epsilon, check_positive_int

__all__ = [
    "BudgetComparison",
    "capped_epsilon",
    "compare_budgets",
    "joint_epsilon_per_group",
    "sequential_epsilon",
]


def sequential_epsilon(epsilons: Sequence[float]) -> float:
    """Total epsilon of releases run one after another: the sum (Dwork & Roth, Thm 3.16)."""
    if len(epsilons) == 0:
        raise CodedError("group_budget_releases")
    return float(sum(check_epsilon(eps) for eps in epsilons))


def _groups_touched(max_groups: int, n_groups: int) -> int:
    """A person is in at most min(l0, n) of n groups."""
    groups = check_positive_int(max_groups, "the cap on groups per person")
    return min(groups, check_positive_int(n_groups, "the number of groups"))


def capped_epsilon(epsilon_per_group: float, *, max_groups: int, n_groups: int) -> float:
    """Total epsilon of n per-group Laplace releases when a person is in at most l0 groups.

    min(l0, n) * epsilon_per_group (Dwork & Roth, Thm 3.6 with L1 sensitivity l0 * Delta).
    """
    return _groups_touched(max_groups, n_groups) * check_epsilon(epsilon_per_group)


def joint_epsilon_per_group(total_epsilon: float, *, max_groups: int, n_groups: int) -> float:
    """Per-group epsilon equivalent when ``total_epsilon`` buys one release of all groups.

    total / min(l0, n): the noise scale is min(l0, n) * Delta / total in every group.
    """
    return check_epsilon(total_epsilon) / _groups_touched(max_groups, n_groups)


@dataclass(frozen=True)
class BudgetComparison:
    """The budget of one statistic released for each of n groups, three ways."""

    epsilon_per_group: float
    n_groups: int
    max_groups: int
    sequential_total: float  # n * epsilon: each group composed in turn
    capped_total: float  # min(l0, n) * epsilon: the same noise, accounted with the cap
    joint_epsilon_per_group: float  # sequential_total spent once: n * eps / min(l0, n)
    delta_per_group: float = 0.0  # 0: pure epsilon-DP (Laplace)
    sequential_delta: float = 0.0  # n * delta
    capped_delta: float = 0.0  # min(l0, n) * delta


def compare_budgets(
    epsilon_per_group: float, *, n_groups: int, max_groups: int, delta_per_group: float = 0.0
) -> BudgetComparison:
    """Sequential composition against the accounting that uses the cap on groups.

    delta adds up like epsilon (basic composition, Dwork & Roth 2014, Thm 3.16).
    """
    eps = check_epsilon(epsilon_per_group)
    n = check_positive_int(n_groups, "the number of groups")
    delta = check_delta(delta_per_group)
    sequential_eps, sequential_delta = basic_composition(eps, delta, n)
    total = float(sequential_eps)
    return BudgetComparison(
        epsilon_per_group=eps,
        n_groups=n,
        max_groups=check_positive_int(max_groups, "the cap on groups per person"),
        sequential_total=total,
        capped_total=capped_epsilon(eps, max_groups=max_groups, n_groups=n),
        joint_epsilon_per_group=joint_epsilon_per_group(total, max_groups=max_groups, n_groups=n),
        delta_per_group=delta,
        sequential_delta=float(sequential_delta),
        capped_delta=_groups_touched(max_groups, n) * delta,
    )
