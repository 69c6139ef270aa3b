"""The Gaussian mechanism: what δ buys, classic vs analytic σ, Gaussian vs Laplace noise."""

from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.sections import Section
from ui.common.shell import page_header
from ui.gaussian import sections

page_header(entry("gaussian").title, entry("gaussian").question, _("gaussian.try_this"))
choice, secure = sections.data_controls()
sections.explore(
    choice,
    secure,
    [
        Section("answers", _("gaussian.section.answers"), sections.noisy_vs_true),
        Section("sigma", _("gaussian.section.sigma"), sections.classic_vs_analytic),
        Section("noise", _("gaussian.section.noise"), sections.noise_densities),
        Section("k", _("gaussian.section.k"), sections.k_statistics),
        Section("delta", _("gaussian.section.delta"), sections.what_delta_means),
    ],
)
sections.closing()
