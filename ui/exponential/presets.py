"""The exponential-mechanism page's examples from the Swiss teaching notebooks, chosen in one
click (ui.common.presets): the disease table at ε = 0.1 with the notebook's 10 draws
(probabilities 0.327 / 0.147 / 0.399 / 0.126, weights 3.320 / 1.492 / 4.055 / 1.284), and the
industry groups at ε = 0.1 with 1,000 runs (the true most common group with chance 0.9501).
/work/shared/README.md has the figures."""

from __future__ import annotations

from ui.common.i18n import N_
from ui.common.presets import Preset

PRESETS = (
    Preset(
        "diseases",
        N_("exponential.preset.diseases"),
        {
            "exponential_source": "data",
            "exponential_dataset": "diseases",
            "exponential_column": "disease",
            "exponential_epsilon": 0.1,
            "exponential_monotonic": False,
            "exponential_draws": 10,
        },
        section="table",
    ),
    Preset(
        "industry_groups",
        N_("exponential.preset.industry_groups"),
        {
            "exponential_source": "data",
            "exponential_dataset": "industry_groups",
            "exponential_column": "industry_group",
            "exponential_epsilon": 0.1,
            "exponential_monotonic": False,
            "exponential_draws": 1_000,
        },
        section="right",
    ),
)
