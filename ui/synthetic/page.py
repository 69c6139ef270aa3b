"""The synthetic-data page's shape (ui.common.page): the data and its declared domain, then
ε, δ and the algorithm, and four sections: fidelity, a cross-tab, a downstream task, and what
synthetic data gets wrong."""

from ui.common.i18n import _
from ui.common.page import Page
from ui.synthetic import closing, controls, inputs, sections

PAGE = Page(
    "synthetic",
    controls=inputs.data_controls,
    explore=controls.explore,
    sections=lambda _chosen: sections.story_sections(),
    closing=lambda _chosen: closing.closing(),
    try_this=lambda _chosen: _("synthetic.try_this"),
)
