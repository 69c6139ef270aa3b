"""The contribution-bounding page's shape (ui.common.page)."""

from ui.bounding import closing, controls, sections
from ui.bounding.choices import Choices
from ui.bounding.data import BoundingData
from ui.bounding.data_controls import data_controls
from ui.common.i18n import _
from ui.common.page import Page
from ui.common.shell import settings_area


def _controls() -> tuple[BoundingData, Choices] | None:
    """The examples, the data, the columns and the choices (folded away on a projector)."""
    with settings_area():
        return data_controls()


PAGE = Page(
    "bounding",
    controls=_controls,
    explore=controls.explore,
    sections=lambda chosen: sections.story_sections(chosen[0].words),
    closing=lambda chosen: closing.closing(chosen[0].words),
    try_this=lambda _chosen: _("bounding.try_this"),
)
