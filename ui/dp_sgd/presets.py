"""The DP-SGD page's examples, chosen in one click (ui.common.presets): the schedule of TF
Privacy's MNIST tutorial (Abadi et al. 2016: batches of 256, 60 epochs, clipping norm 1) on
the census at ε = 3 (the tutorial's own figures, for 60,000 images at σ = 1.12, are in the
page's sources: ui.dp_sgd.closing), a small
table at the same ε (a thirtieth of the census: DP costs more where there are fewer rows), and
large batches for a strong guarantee (the same ε buys more signal per step)."""

from __future__ import annotations

from ui.common.i18n import N_
from ui.common.presets import Preset
from ui.dp_sgd.declared import BATCH, CLIP, DATASET, DELTA, EPOCHS, EPSILON, SHARE

PRESETS = (
    Preset(
        "tf_privacy",
        N_("dp_sgd.preset.tf_privacy"),
        {
            DATASET: "census",
            EPSILON: 3.0,
            DELTA: 1e-5,
            BATCH: 256,
            EPOCHS: 60,
            CLIP: 1.0,
            SHARE: 1.0,
        },
        section="accounting",
    ),
    Preset(
        "small_table",
        N_("dp_sgd.preset.small_table"),
        {
            DATASET: "census",
            EPSILON: 1.0,
            SHARE: 0.03,
            BATCH: 64,
            EPOCHS: 10,
        },
        section="accuracy",
    ),
    Preset(
        "large_batches",
        N_("dp_sgd.preset.large_batches"),
        {
            DATASET: "census",
            EPSILON: 0.1,
            BATCH: 2048,
            EPOCHS: 20,
            SHARE: 1.0,
        },
        section="accuracy",
    ),
)
