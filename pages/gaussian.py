"""The Gaussian mechanism: what δ buys, classic vs analytic σ, Gaussian vs Laplace noise."""

from ui.common.sections import Section
from ui.common.shell import page_header
from ui.gaussian import sections

page_header(
    "Gaussian mechanism",
    "What does delta buy, and when does Gaussian noise beat Laplace?",
    "Keep δ at 10⁻⁵, open “2. Classic vs analytic σ” and move ε above 1: the classic σ "
    "greys out while the analytic one carries on. Then, in “4. One person affects k "
    "statistics”, set k to 20 and see which noise is smaller.",
)
choice, secure = sections.data_controls()
sections.explore(
    choice,
    secure,
    [
        Section("answers", "Noisy vs true answers", sections.noisy_vs_true),
        Section("sigma", "Classic vs analytic σ", sections.classic_vs_analytic),
        Section("noise", "Laplace vs Gaussian noise", sections.noise_densities),
        Section("k", "One person affects k statistics", sections.k_statistics),
        Section("delta", "What δ means", sections.what_delta_means),
    ],
)
sections.closing()
