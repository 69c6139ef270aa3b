"""The DP-SGD page's story: its four sections in order, each in a module of its own.

The address keeps the open section under the page's catalogue prefix (ui.common.catalog),
?dp_sgd_section=membership.
"""

from __future__ import annotations

from ui.common.i18n import _
from ui.common.sections import Section
from ui.dp_sgd.accounting import accounting
from ui.dp_sgd.accuracy import accuracy_against_epsilon
from ui.dp_sgd.clipping import clipping_and_noise
from ui.dp_sgd.membership import membership


def story_sections() -> list[Section]:
    """The sections ui.dp_sgd.controls.explore tabs, titled in the reader's language."""
    return [
        Section("accuracy", _("dp_sgd.section.accuracy"), accuracy_against_epsilon),
        Section("clipping", _("dp_sgd.section.clipping"), clipping_and_noise),
        Section("accounting", _("dp_sgd.section.accounting"), accounting),
        Section("membership", _("dp_sgd.section.membership"), membership),
    ]
