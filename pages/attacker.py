"""What epsilon means to an attacker: posterior bound, best membership test, composition, and
the floating-point attack on the app's own noise."""

from ui.attacker import floating_point, releases, sections
from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.sections import Section
from ui.common.shell import page_header

page_header(entry("attacker").title, entry("attacker").question, _("attacker.try_this"))
sections.explore(
    [
        Section("guess", _("attacker.section.guess"), sections.attackers_guess),
        Section("test", _("attacker.section.test"), sections.membership_test),
        Section("releases", _("attacker.section.releases"), releases.many_releases),
        Section("floating-point", _("attacker.section.floating"), floating_point.floating_point),
    ]
)
sections.closing()
