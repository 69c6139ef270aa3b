"""The synthetic-data page's examples, chosen in one click (ui.common.presets), each a table
the precomputed census releases hold (the page opens them at once): a privacy board's usual
budget, the rare combinations a synthetic table smooths away, and a loose budget where the
downstream classifier nearly matches the real one."""

from __future__ import annotations

from ui.common.i18n import N_
from ui.common.presets import Preset
from ui.synthetic.declared import ALGORITHM, COLUMN, DATASET, DELTA, EPSILON, RARE, ROW

PRESETS = (
    Preset(
        "board",
        N_("synthetic.preset.board"),
        {
            DATASET: "census",
            EPSILON: 1.0,
            DELTA: 1e-5,
            ALGORITHM: "mst",
        },
        section="fidelity",
    ),
    Preset(
        "rare",
        N_("synthetic.preset.rare"),
        {
            DATASET: "census",
            EPSILON: 1.0,
            ALGORITHM: "mst",
            ROW: "occupation",
            COLUMN: "marital_status",
            RARE: 5,
        },
        section="pitfalls",
    ),
    Preset(
        "loose",
        N_("synthetic.preset.loose"),
        {DATASET: "census", EPSILON: 10.0, ALGORITHM: "mst"},
        section="downstream",
    ),
)
