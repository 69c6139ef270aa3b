"""Plan a release of several statistics: split a budget, or solve it from the accuracy wanted.

A plan is a list of statistics over one dataset (a count of rows, a clipped sum or mean of a
column, a histogram over a public domain), each released with Laplace or Gaussian noise. Each
gets its share (eps_i, delta_i) of the total; by basic composition the plan is
(sum eps_i, sum delta_i)-DP for one person added or removed with all their rows (Dwork & Roth
2014, Thm 3.16; dp_core.accountants gives tighter totals for the same noise).

The package's modules, one concept each:

- ``statistic``: a statistic as asked for (``StatisticSpec``) and on the data (``Statistic``);
- ``true_values``: a Statistic from a table in memory or from totals computed elsewhere;
- ``accuracy``: the noise and 95% half-width of one statistic at (eps, delta), and back;
- ``row``: one statistic with its share of the budget (``row_plan``, ``epsilon_for_target``);
- ``plans``: whole plans, split from a total (``split_budget``) or from targets;
- ``certified``: the epsilon the generated OpenDP script certifies;
- ``simulation``: simulated releases of a row.

Relative targets and the minimax split read the true values: the eps they choose depends on
the data, so on confidential data that choice itself must be made on public or earlier
figures. The page says so.
"""

from dp_core.planner.accuracy import CONFIDENCE
from dp_core.planner.certified import certified_epsilon, certified_total
from dp_core.planner.plans import Plan, gaussian_deltas, plan_for_targets, split_budget
from dp_core.planner.row import (
    MAX_EPSILON,
    MIN_EPSILON,
    RowPlan,
    TargetUnreachable,
    epsilon_for_target,
    row_plan,
)
from dp_core.planner.simulation import simulate_release, standard_draws
from dp_core.planner.statistic import Statistic, StatisticSpec
from dp_core.planner.true_values import build_statistic, statistic_from_totals

__all__ = [
    "CONFIDENCE",
    "MAX_EPSILON",
    "MIN_EPSILON",
    "Plan",
    "RowPlan",
    "Statistic",
    "StatisticSpec",
    "TargetUnreachable",
    "build_statistic",
    "certified_epsilon",
    "certified_total",
    "epsilon_for_target",
    "gaussian_deltas",
    "plan_for_targets",
    "row_plan",
    "simulate_release",
    "split_budget",
    "standard_draws",
    "statistic_from_totals",
]
