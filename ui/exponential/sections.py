"""The exponential-mechanism page's story: its five sections in order, each in a module of its
own (table, epsilons, curves, pitfall, hours); ui.exponential.controls.explore tabs them.

The address keeps the open section under the page's catalogue prefix (ui.common.catalog),
?exponential_section=hours.
"""

from __future__ import annotations

from ui.common.i18n import _
from ui.common.sections import Section
from ui.exponential.curves import how_often_right
from ui.exponential.epsilons import several_epsilons
from ui.exponential.hours import average_hours
from ui.exponential.pitfall import sensitivity_pitfall
from ui.exponential.table import probability_table


def story_sections() -> list[Section]:
    """The sections ui.exponential.controls.explore tabs, titled in the reader's language."""
    return [
        Section("table", _("exponential.section.table"), probability_table),
        Section("epsilons", _("exponential.section.epsilons"), several_epsilons),
        Section("right", _("exponential.section.right"), how_often_right),
        Section("pitfall", _("exponential.section.pitfall"), sensitivity_pitfall),
        Section("hours", _("exponential.section.hours"), average_hours),
    ]
