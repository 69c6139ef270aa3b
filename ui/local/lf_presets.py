"""The local-frequencies page's example from the teaching material, chosen in one click
(ui.common.presets); /work/shared/README.md has the figures.

*Programming Differential Privacy* (local model chapter), also the Chinese notebook's: unary
encoding of the census occupations with p = 0.75 and q = 0.25, chosen as they are ("choose p
and q"), so ε = ln(p(1 − q)/((1 − p)q)) = ln 9 ≈ 2.197. Every person reports, those with no
occupation an all-zero vector (n = 32,561); each count is (sum of bits − n q)/(p − q).
"""

from __future__ import annotations

from ui.common.i18n import N_
from ui.common.presets import Preset
from ui.local.lf_settings import COLUMN, DATASET, MANUAL, PROTOCOL, P, Q

PRESETS = (
    Preset(
        "unary",
        N_("local.lf.preset.unary"),
        {
            DATASET: "census",
            COLUMN: "occupation",
            PROTOCOL: MANUAL,
            P: 0.75,
            Q: 0.25,
        },
        section="counts",
    ),
)
