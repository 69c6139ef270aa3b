"""Every setting the bounding page keeps (its widgets and its address), declared once.

The person column and the released groups are ui.common's (data_picker, categories).

Settings that depend on the data have a stable key and are drawn with a ``context`` (the
data, the column) instead: the columns (the dataset's), the caps (the dataset; for the
user's own file also the group column and the number of released groups) and the clipping
bounds (the dataset and the value column). Their options, range and start come from the data
where they are drawn (``dataclasses.replace`` of the declaration).
"""

from __future__ import annotations

from ui.bounding.data import PRESETS
from ui.common.data_picker import dataset_setting
from ui.common.i18n import N_
from ui.common.setting import Choice, Flag, Number, Span
from ui.common.widgets import delta_setting, epsilon_setting

NOISES = {  # message ids
    "laplace": N_("bounding.noise.laplace"),
    "gaussian": N_("bounding.noise.gaussian"),
}
VIEWS = {  # how the answers chart shows them: the values, or their change from the truth
    "values": N_("bounding.view.values"),
    "difference": N_("bounding.view.difference"),
    "relative": N_("bounding.view.relative"),
}
PLANS = ("day by day", "whole week at once")
SELECTIONS = ("random", "first")
CAP_QUANTILES = (0.5, 0.75, 0.8, 0.9, 0.95, 0.99)
BOUND_QUANTILES = (0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.98, 0.99)

# The budget (ui.bounding.controls) and the DP choice of the caps and bounds (ui.bounding.private).
EPSILON = epsilon_setting("bounding_epsilon", 0.5)
DELTA = delta_setting("bounding_delta", 1e-6)
CAP_EPSILON = epsilon_setting("bounding_cap_epsilon", 0.1)
BOUNDS_EPSILON = epsilon_setting("bounding_bounds_epsilon", 0.2)

# The data (ui.bounding.data_controls): options and start from the dataset.
DATASET = dataset_setting("bounding", tuple(PRESETS), paths=True)
GROUP = Choice("bounding_group")  # the group column
VALUE = Choice("bounding_value")  # the column summed

# How to bound and release (ui.bounding.choices).
MECHANISM = Choice("bounding_mechanism", "laplace", options=tuple(NOISES))
PLAN = Choice("bounding_plan", "day by day", options=PLANS)
SELECTION = Choice("bounding_selection", "random", options=SELECTIONS)
PRE_AGGREGATE = Flag("bounding_pre_aggregate")
PRIVATE = Flag("bounding_private")  # the cap and bounds chosen with DP quantiles

# The caps and bounds (ui.bounding.caps): start and range from the data.
MAX_GROUPS = Number("bounding_max_groups", 4, minimum=1, integer=True)  # l0
MAX_PER_GROUP = Number("bounding_max_per_group", 1, minimum=1, integer=True)  # linf
BOUNDS = Span("bounding_bounds")  # the clipping bounds (L, U)

# The DP choice of the cap and bounds (ui.bounding.private).
CAP_QUANTILE = Choice("bounding_cap_quantile", 0.9, options=CAP_QUANTILES)
BOUNDS_QUANTILES = Span("bounding_bounds_quantiles", (0.05, 0.95), options=BOUND_QUANTILES)

# The sections' own choices.
VIEW = Choice("bounding_view", "values", options=tuple(VIEWS))  # section 1's charts
TRADEOFF_STATISTIC = Choice("bounding_tradeoff_statistic", "sum", options=("count", "sum"))
TRADEOFF_BOUND = Choice("bounding_tradeoff_bound", "upper", options=("upper", "lower"))
