"""The attacker page's story: its four sections in order, each in a module of its own (the
guess, the best membership test, many releases, the floating-point attack).

The address keeps the open section under the page's catalogue prefix (ui.common.catalog),
?attacker_section=guess.
"""

from __future__ import annotations

from ui.attacker.floating_point import floating_point
from ui.attacker.guess import attackers_guess
from ui.attacker.membership import membership_test
from ui.attacker.releases import many_releases
from ui.common.i18n import _
from ui.common.sections import Section


def story_sections() -> list[Section]:
    """The sections ui.attacker.controls.explore tabs, titled in the reader's language."""
    return [
        Section("guess", _("attacker.section.guess"), attackers_guess),
        Section("test", _("attacker.section.test"), membership_test),
        Section("releases", _("attacker.section.releases"), many_releases),
        Section("floating-point", _("attacker.section.floating"), floating_point),
    ]
