"""What epsilon means to an attacker: posterior bound, best membership test, composition, and
the floating-point attack on the app's own noise."""

from ui.attacker import floating_point, sections
from ui.common.sections import Section
from ui.common.shell import page_header

page_header(
    "What ε means to an attacker",
    "If an attacker sees a differentially private answer, how sure can they become that Alice "
    "is in the data, and how does that change when the data are released many times?",
    "Keep the prior at 50% and move ε from 0.1 to 10: watch how sure the attacker can become. "
    "Then, under “Many releases”, move k to 1,000 and see which accounting keeps the total "
    "smallest.",
)
sections.explore(
    [
        Section("guess", "The attacker's guess", sections.attackers_guess),
        Section("test", "The best membership test", sections.membership_test),
        Section("releases", "Many releases", sections.many_releases),
        Section("floating-point", "The floating-point attack", floating_point.floating_point),
    ]
)
sections.closing()
