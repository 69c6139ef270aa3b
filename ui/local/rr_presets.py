"""The randomized-response page's examples from the teaching material, chosen in one click
(ui.common.presets); /work/shared/README.md has the figures.

- The coin game of *Programming Differential Privacy* (local model chapter): everyone in the
  census data asked "are you in Sales?" with two fair coins: P(yes | yes) = 0.75,
  P(yes | no) = 0.25, ε = ln 3 ≈ 1.099, estimate 2 (#yes − n/4) of a true 3,650.
- The Chinese local-DP notebook's fixed group: 200 sales staff, all of whom truly say yes, asked
  through the same fair coins (one run: 153 yes, 47 no).
- The Spanish tutorial's γ form: one answer, the truth with probability ½ + γ, γ = 0.25. The
  page has no γ control; its "set ε" mode is that one-parameter form (the truth with
  probability e^ε/(1 + e^ε) = ½ + γ), at ε = ln((½ + γ)/(½ − γ)) = ln 3. The coins follow
  (fair), and the γ line shows ½ + γ = 0.75.
"""

from __future__ import annotations

from dp_core import randomized_response as rr
from ui.common.i18n import N_
from ui.common.presets import Preset
from ui.local.rr_settings import (
    ANSWERING,
    COINS_MODE,
    COLUMN,
    DATA,
    DATASET,
    EPSILON,
    EPSILON_MODE,
    FAIR,
    GROUP,
    GROUP_N,
    GROUP_YES,
    MODE,
    QUESTION,
    RANDOM_YES,
    SAMPLE,
    TRUTH,
)

CENSUS_PERSONS = 32_561  # UCI Adult: everyone is asked (those with no occupation answer no)
SALES_STAFF = 200  # the Chinese notebook's group, every one of them truly a yes
GAMMA = 0.25  # the Spanish tutorial's: the truth with probability ½ + γ = 0.75

FAIR_COINS = {MODE: COINS_MODE, TRUTH: FAIR, RANDOM_YES: FAIR}

PRESETS = (
    Preset(
        "coin_game",
        N_("local.rr.preset.coin_game"),
        {
            ANSWERING: DATA,
            DATASET: "census",
            COLUMN: "occupation",
            QUESTION: "Sales",
            SAMPLE: CENSUS_PERSONS,
            **FAIR_COINS,
        },
        section="survey",
    ),
    Preset(
        "sales_staff",
        N_("local.rr.preset.sales_staff"),
        {
            ANSWERING: GROUP,
            GROUP_N: SALES_STAFF,
            GROUP_YES: SALES_STAFF,
            **FAIR_COINS,
        },
        section="survey",
    ),
    Preset(
        "gamma",
        N_("local.rr.preset.gamma"),
        {MODE: EPSILON_MODE, EPSILON: rr.gamma_epsilon(GAMMA)},
        section="coins",
    ),
)
