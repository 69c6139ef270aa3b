"""The bounding page's examples from the Japanese notebook's restaurant week, chosen in one
click (ui.common.presets); /work/shared/README.md has the figures.

The notebook releases each day's visits and revenue at ε = 0.5 (seven days: 3.5), a visitor
contributing at most 4 visits to a day: the day's count has sensitivity 4 (Laplace scale
4 / 0.5 = 8) and, with each visit's spend bounded to [0, 50], the day's sum 4 × 50 = 200. Here
that is the cap on visits per visitor and day (ℓ∞ = 4; nobody visits twice a day, yet the
sensitivity must hold for any data), with the page's 4 days per visitor (ℓ0 = 4). Pre-aggregated
per visitor and day (each visitor's total of a day clipped to [0, 65]), the day's sum has
sensitivity 65, however many visits went into it.

Not to be confused with ui.bounding.data's PRESETS: the shipped datasets' columns and words.
"""

from __future__ import annotations

from ui.bounding.declared import (
    BOUNDS,
    DATASET,
    EPSILON,
    GROUP,
    MAX_GROUPS,
    MAX_PER_GROUP,
    MECHANISM,
    PLAN,
    PRE_AGGREGATE,
    PRIVATE,
    VALUE,
)
from ui.common.i18n import N_
from ui.common.presets import Preset

EPSILON_PER_DAY = 0.5
CONTRIBUTIONS = 4  # visits a visitor may add to one day (and days a visitor may add to)

RESTAURANT_WEEK = {
    DATASET: "restaurant",
    GROUP: "day",
    VALUE: "money_spent",
    MECHANISM: "laplace",
    PLAN: "day by day",
    PRIVATE: False,  # the caps and bounds as set, not chosen with DP
    EPSILON: EPSILON_PER_DAY,
    MAX_GROUPS: CONTRIBUTIONS,
    MAX_PER_GROUP: CONTRIBUTIONS,
}

PRESETS = (
    Preset(
        "restaurant",
        N_("bounding.preset.restaurant"),
        {**RESTAURANT_WEEK, PRE_AGGREGATE: False, BOUNDS: (0.0, 50.0)},
        section="answers",
    ),
    Preset(
        "pre_aggregated",
        N_("bounding.preset.pre_aggregated"),
        {**RESTAURANT_WEEK, PRE_AGGREGATE: True, BOUNDS: (0.0, 65.0)},
        section="answers",
    ),
)
