"""The exponential-mechanism page's settings, declared once (ui.common.setting): each is a
widget's key and a parameter of the page's address (the data's upload, path and
person settings are ui.common.data_picker's, the cap and categories' ui.common's)."""

from __future__ import annotations

from data.registry import DATASETS
from ui.common.data_picker import dataset_setting
from ui.common.i18n import N_
from ui.common.setting import Choice, Flag, Number, Span, Text
from ui.common.widgets import epsilon_setting

# ε: a slider from 0 over nice values up to 20 (its stops are among the curves' points).
EPSILON = epsilon_setting("exponential_epsilon", 1.0, maximum=20.0, allow_zero=True)

# Where the candidates come from: a dataset's category column, or counts typed in.
SOURCES = {
    "data": N_("exponential.source.data"),
    "typed": N_("exponential.source.typed"),
}
SOURCE = Choice("exponential_source", "data", options=tuple(SOURCES))
# Where the source is "data": a dataset with a category column, or the user's own file.
DATASET = dataset_setting(
    "exponential", ("diseases", "census", "industry_groups", "restaurant", "tips")
)
TYPED = Text("exponential_typed", "A=10, B=10, C=5")
# The category column: its options and its default (a dataset's preferred column) come from
# the data, and it starts afresh when the data changes (``context``).
COLUMN = Choice("exponential_column")
MONOTONIC = Flag("exponential_monotonic")

# Section 1: N sampled runs (the notebooks sample 10, 200 and 1,000), and k runs' cost.
DRAWS = (10, 100, 200, 1_000, 10_000, 100_000)
DEFAULT_DRAWS = 1_000
SAMPLED = Choice("exponential_draws", DEFAULT_DRAWS, options=DRAWS)
RUNS = Number("exponential_runs", 1, minimum=1, maximum=50, integer=True)

# Section 2: the ε typed side by side.
COMPARE = Text("exponential_compare", "0, 0.1, 1.0")

# Section 3: the curves' ε axis.
AXES = {"log": N_("exponential.curves.axis.log"), "linear": N_("exponential.curves.axis.linear")}
AXIS = Choice("exponential_axis", "log", options=tuple(AXES))

# Section 4: the pitfall shown.
PITFALL = Flag("exponential_pitfall")

# Section 5: the census' hours clipped to [L, U] within a week, over a floor of persons.
WEEK = 168  # hours in a week: no one can report more
BOUNDS = DATASETS["census"].numeric["hours_per_week"]  # public bounds of the card: (0, 100)
FLOOR = 100  # public smallest group size, fixed before looking at the data
HOURS_BOUNDS = Span(  # whole hours: the slider's steps (a link's 20.5 is refused)
    "exponential_hours_bounds", (int(BOUNDS[0]), int(BOUNDS[1])), options=tuple(range(WEEK + 1))
)
HOURS_FLOOR = Number("exponential_hours_floor", FLOOR, minimum=1, maximum=100_000, integer=True)
