"""The planner page's shape (ui.common.page)."""

from ui.common.i18n import _
from ui.common.page import Page
from ui.common.shell import settings_area
from ui.planner import closing, controls, sections
from ui.planner.settings import Controls


def _controls() -> tuple[Controls, str, str] | None:
    """The data and the plan, then how the budget is set (folded away on a projector)."""
    with settings_area():
        chosen = controls.data_controls()
        return None if chosen is None else (chosen, *controls.budget_rule(chosen))


PAGE = Page(
    "planner",
    controls=_controls,
    explore=sections.explore,
    sections=lambda _chosen: sections.story_sections(),
    closing=lambda _chosen: closing.closing(),
    try_this=lambda _chosen: _("planner.try_this"),
)
