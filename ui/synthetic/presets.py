"""The synthetic-data page's examples, chosen in one click (ui.common.presets), each a table
the precomputed census releases hold (the page opens them at once): a privacy board's usual
budget, the rare combinations a synthetic table smooths away, and a loose budget where the
downstream classifier nearly matches the real one."""

from __future__ import annotations

from ui.common.i18n import N_
from ui.common.presets import Preset

PRESETS = (
    Preset(
        "board",
        N_("synthetic.preset.board"),
        {
            "synthetic_dataset": "census",
            "synthetic_epsilon": 1.0,
            "synthetic_delta": 1e-5,
            "synthetic_algorithm": "mst",
        },
        section="fidelity",
    ),
    Preset(
        "rare",
        N_("synthetic.preset.rare"),
        {
            "synthetic_dataset": "census",
            "synthetic_epsilon": 1.0,
            "synthetic_algorithm": "mst",
            "synthetic_row": "occupation",
            "synthetic_column": "marital_status",
            "synthetic_rare": 5,
        },
        section="pitfalls",
    ),
    Preset(
        "loose",
        N_("synthetic.preset.loose"),
        {"synthetic_dataset": "census", "synthetic_epsilon": 10.0, "synthetic_algorithm": "mst"},
        section="downstream",
    ),
)
