"""The Gaussian page's story: its five sections in order, each in a module of its own.

The address keeps the open section under the page's catalogue prefix (ui.common.catalog),
?gaussian_section=sigma.
"""

from __future__ import annotations

from ui.common.i18n import _
from ui.common.sections import Section
from ui.gaussian.answers import noisy_vs_true
from ui.gaussian.calibration import classic_vs_analytic
from ui.gaussian.delta import what_delta_means
from ui.gaussian.densities import noise_densities
from ui.gaussian.k_statistics import k_statistics


def story_sections() -> list[Section]:
    """The sections ui.gaussian.controls.explore tabs, titled in the reader's language."""
    return [
        Section("answers", _("gaussian.section.answers"), noisy_vs_true),
        Section("sigma", _("gaussian.section.sigma"), classic_vs_analytic),
        Section("noise", _("gaussian.section.noise"), noise_densities),
        Section("k", _("gaussian.section.k"), k_statistics),
        Section("delta", _("gaussian.section.delta"), what_delta_means),
    ]
