"""Contribution bounding: what one person may add to a release, and what bounding costs.

To release per-group counts or sums (e.g. visits per day) with differential privacy, each
person's influence is bounded. The package's modules, one concept each:

- ``caps``: the caps l0 and linf, clipping to [L, U], pre-aggregation, the sensitivities
  (``Bounding``, ``cap_contributions``; re-exported here);
- ``table``: the contribution table every cost below is computed from, without the rows;
- ``bias``: what the caps and bounds remove from the true answers;
- ``spread``: the variance of a uniformly random choice of the records kept;
- ``noise``: the noise for a budget, group by group or all groups at once;
- ``budget``: what a week (the groups) costs by every accountant;
- ``error``: bias, spread and noise together, per group;
- ``search``: the cap and bounds with the smallest error.
"""

from dp_core.bounding.caps import *  # noqa: F403
from dp_core.bounding.caps import __all__  # noqa: F401
