"""The exponential-mechanism page's examples from the Swiss teaching notebooks, chosen in one
click (ui.common.presets): the disease table at ε = 0.1 with the notebook's 10 draws
(probabilities 0.327 / 0.147 / 0.399 / 0.126, weights 3.320 / 1.492 / 4.055 / 1.284), and the
industry groups at ε = 0.1 with 1,000 runs (the true most common group with chance 0.9501).
/work/shared/README.md has the figures."""

from __future__ import annotations

from ui.common.i18n import N_
from ui.common.presets import Preset
from ui.exponential.declared import COLUMN, DATASET, EPSILON, MONOTONIC, SAMPLED, SOURCE

PRESETS = (
    Preset(
        "diseases",
        N_("exponential.preset.diseases"),
        {
            SOURCE: "data",
            DATASET: "diseases",
            COLUMN: "disease",
            EPSILON: 0.1,
            MONOTONIC: False,
            SAMPLED: 10,
        },
        section="table",
    ),
    Preset(
        "industry_groups",
        N_("exponential.preset.industry_groups"),
        {
            SOURCE: "data",
            DATASET: "industry_groups",
            COLUMN: "industry_group",
            EPSILON: 0.1,
            MONOTONIC: False,
            SAMPLED: 1_000,
        },
        section="right",
    ),
)
