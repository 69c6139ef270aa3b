"""The Gaussian page's shape (ui.common.page): what δ buys, classic vs analytic σ, Gaussian vs
Laplace noise, k statistics."""

from ui.common.i18n import _
from ui.common.page import Page
from ui.gaussian import closing, controls, sections

PAGE = Page(
    "gaussian",
    controls=controls.data_controls,
    explore=controls.explore,
    sections=lambda _chosen: sections.story_sections(),
    closing=lambda _chosen: closing.closing(),
    try_this=lambda _chosen: _("gaussian.try_this"),
)
