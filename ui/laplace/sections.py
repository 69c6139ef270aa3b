"""The Laplace page's story: its four sections in order, each in a module of its own (noisy
vs true answers, the noise itself, error against ε, the averaging attack).

The address keeps the open section under the page's catalogue prefix (ui.common.catalog),
?laplace_section=averaging.
"""

from __future__ import annotations

from ui.common.i18n import _
from ui.common.sections import Section
from ui.laplace.answers import noisy_vs_true
from ui.laplace.averaging import averaging_attack
from ui.laplace.error import error_against_epsilon
from ui.laplace.noise import noise_itself


def story_sections() -> list[Section]:
    """The sections ui.laplace.controls.explore tabs, titled in the reader's language."""
    return [
        Section("answers", _("laplace.section.answers"), noisy_vs_true),
        Section("noise", _("laplace.section.noise"), noise_itself),
        Section("error", _("laplace.section.error"), error_against_epsilon),
        Section("averaging", _("laplace.section.averaging"), averaging_attack),
    ]
