"""The exponential mechanism page's shape (ui.common.page)."""

from ui.common.i18n import _
from ui.common.page import Page
from ui.exponential import closing, controls, sections

PAGE = Page(
    "exponential",
    controls=controls.candidate_controls,
    explore=controls.explore,
    sections=lambda _chosen: sections.story_sections(),
    closing=lambda _chosen: closing.closing(),
    try_this=lambda _chosen: _("exponential.try_this"),
)
