"""The DP-SGD page's examples, chosen in one click (ui.common.presets): the schedule of TF
Privacy's MNIST tutorial (Abadi et al. 2016: batches of 256, 60 epochs, clipping norm 1) on
the census at ε = 3 (the tutorial's own figures, for 60,000 images at σ = 1.12, are in the
page's sources: ui.dp_sgd.closing), a small
table at the same ε (a thirtieth of the census: DP costs more where there are fewer rows), and
large batches for a strong guarantee (the same ε buys more signal per step)."""

from __future__ import annotations

from ui.common.i18n import N_
from ui.common.presets import Preset

PRESETS = (
    Preset(
        "tf_privacy",
        N_("dp_sgd.preset.tf_privacy"),
        {
            "dp_sgd_dataset": "census",
            "dp_sgd_epsilon": 3.0,
            "dp_sgd_delta": 1e-5,
            "dp_sgd_batch": 256,
            "dp_sgd_epochs": 60,
            "dp_sgd_clip": 1.0,
            "dp_sgd_share": 1.0,
        },
        section="accounting",
    ),
    Preset(
        "small_table",
        N_("dp_sgd.preset.small_table"),
        {
            "dp_sgd_dataset": "census",
            "dp_sgd_epsilon": 1.0,
            "dp_sgd_share": 0.03,
            "dp_sgd_batch": 64,
            "dp_sgd_epochs": 10,
        },
        section="accuracy",
    ),
    Preset(
        "large_batches",
        N_("dp_sgd.preset.large_batches"),
        {
            "dp_sgd_dataset": "census",
            "dp_sgd_epsilon": 0.1,
            "dp_sgd_batch": 2048,
            "dp_sgd_epochs": 20,
            "dp_sgd_share": 1.0,
        },
        section="accuracy",
    ),
)
