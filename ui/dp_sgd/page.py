"""The DP-SGD page's shape (ui.common.page): the data and the model's declared inputs, then
ε, δ and the training, and four sections: accuracy against ε, clipping and noise, the
accounting, membership inference."""

from ui.common.i18n import _
from ui.common.page import Page
from ui.dp_sgd import closing, controls, inputs, sections

PAGE = Page(
    "dp_sgd",
    controls=inputs.data_controls,
    explore=controls.explore,
    sections=lambda _chosen: sections.story_sections(),
    closing=lambda _chosen: closing.closing(),
    try_this=lambda _chosen: _("dp_sgd.try_this"),
)
