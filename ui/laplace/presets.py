"""The Laplace page's examples from the teaching material, chosen in one click
(ui.common.presets): the Swiss notebooks' count at ε = 0.1 and 0.9 (mean absolute error about
10 and 1.1, here on their disease table: the page has not their NLSY79 income data), their
averaging attack on a count of 3 at ε = 0.1 (3 bills of the tips data have a tip of at least
$7), and the Japanese notebook's restaurant week (4 visits per visitor at ε = 0.5 per day:
scale 4 / 0.5 = 8). /work/shared/README.md has the figures."""

from __future__ import annotations

from ui.common.i18n import N_
from ui.common.presets import Preset
from ui.laplace.settings import (
    CAP,
    CATEGORY,
    DATASET,
    EPSILON,
    KIND,
    PRED_COLUMN,
    PRED_NUMBER,
    PRED_OP,
    REPEATS_SETTING,
)

DISEASES = {DATASET: "diseases", KIND: "count", CATEGORY: "disease"}

PRESETS = (
    Preset(
        "diseases_0_1",
        N_("laplace.preset.diseases_0_1"),
        {**DISEASES, EPSILON: 0.1},
        "answers",
    ),
    Preset(
        "diseases_0_9",
        N_("laplace.preset.diseases_0_9"),
        {**DISEASES, EPSILON: 0.9},
        "answers",
    ),
    Preset(
        "averaging",
        N_("laplace.preset.averaging"),
        {
            DATASET: "tips",
            KIND: "predicate",
            PRED_COLUMN: "tip",
            PRED_OP: "≥",
            PRED_NUMBER: 7.0,
            EPSILON: 0.1,
            REPEATS_SETTING: 100_000,
        },
        section="averaging",
    ),
    Preset(
        "restaurant",
        N_("laplace.preset.restaurant"),
        {
            DATASET: "restaurant",
            KIND: "count",
            CATEGORY: "day",
            CAP: 4,
            EPSILON: 0.5,
        },
        section="answers",
    ),
)
