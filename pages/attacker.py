"""What epsilon means to an attacker: posterior bound, best membership test, composition, and
the floating-point attack on the app's own noise."""

from ui.attacker import closing, controls, sections
from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.shell import page_header

page_header(entry("attacker").title, entry("attacker").question, _("attacker.try_this"))
controls.explore(sections.story_sections())
closing.closing()
