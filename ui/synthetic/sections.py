"""The synthetic-data page's story: its four sections in order, each in a module of its own.

The address keeps the open section under the page's catalogue prefix (ui.common.catalog),
?synthetic_section=pitfalls.
"""

from __future__ import annotations

from ui.common.i18n import _
from ui.common.sections import Section
from ui.synthetic.crosstab import crosstab
from ui.synthetic.downstream import downstream_task
from ui.synthetic.fidelity import fidelity
from ui.synthetic.pitfalls import pitfalls


def story_sections() -> list[Section]:
    """The sections ui.synthetic.controls.explore tabs, titled in the reader's language."""
    return [
        Section("fidelity", _("synthetic.section.fidelity"), fidelity),
        Section("crosstab", _("synthetic.section.crosstab"), crosstab),
        Section("downstream", _("synthetic.section.downstream"), downstream_task),
        Section("pitfalls", _("synthetic.section.pitfalls"), pitfalls),
    ]
