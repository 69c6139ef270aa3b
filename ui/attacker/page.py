"""The attacker page's shape (ui.common.page): it has no data to choose."""

from ui.attacker import closing, controls, sections
from ui.common.i18n import _
from ui.common.page import Page

PAGE = Page(
    "attacker",
    controls=lambda: (),
    explore=lambda _chosen, story: controls.explore(story),
    sections=lambda _chosen: sections.story_sections(),
    closing=lambda _chosen: closing.closing(),
    try_this=lambda _chosen: _("attacker.try_this"),
)
