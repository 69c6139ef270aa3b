"""The Gaussian page's examples from the Swiss teaching notebooks, chosen in one click
(ui.common.presets): the classic calibration of a count at ε = 0.1, δ = 10⁻⁴ (σ = 43.4, mean
absolute error about 35; here on their disease table: the page has not their NLSY79 income
data), and "Laplace or Gauss?" at ε = 1, δ = 10⁻⁵ with one person in 7 statistics, where the
Gaussian starts to win. /work/shared/README.md has the figures."""

from __future__ import annotations

from ui.common.i18n import N_
from ui.common.presets import Preset
from ui.gaussian.settings import CATEGORY, DATASET, DELTA, EPSILON, KIND, MECHANISM, K

PRESETS = (
    Preset(
        "classic",
        N_("gaussian.preset.classic"),
        {
            DATASET: "diseases",
            KIND: "count",
            CATEGORY: "disease",
            EPSILON: 0.1,
            DELTA: 1e-4,
            MECHANISM: "classic",
        },
        section="answers",
    ),
    Preset(
        "laplace_or_gauss",
        N_("gaussian.preset.laplace_or_gauss"),
        {
            EPSILON: 1.0,
            DELTA: 1e-5,
            MECHANISM: "analytic",
            K: 7,
        },
        section="k",
    ),
)
