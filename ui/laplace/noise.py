"""Section 2 of the Laplace page: the noise itself, its density over 100,000 fresh draws."""

from __future__ import annotations

import numpy as np

from dp_core import laplace
from ui.common import charts, formatting, live
from ui.common.i18n import _
from ui.common.shell import page_rng
from ui.laplace import charts as laplace_charts
from ui.laplace.settings import Settings

DRAWS = 100_000
BINS = 80
SPAN = 6  # the chart shows ± 6 scales


def noise_itself(s: Settings) -> None:
    """Section 2: the Laplace density over 100,000 fresh draws, following the ε thumb.

    The draws are b × Z for standard Laplace draws Z (numpy draws Laplace(0, b) as b × Z), so
    the histogram at every ε is the standard draws' histogram with its edges × b and heights
    / b, and the share within the 95% half-width (b ln 20) is the same at every ε.
    """
    unit = laplace.sample_laplace(page_rng("laplace", "noise"), 1.0, DRAWS)
    counts, unit_edges = np.histogram(unit, bins=BINS, range=(-SPAN, SPAN))
    unit_heights = counts / (DRAWS * (unit_edges[1] - unit_edges[0]))
    unit_half = laplace.laplace_half_width(1.0)

    def chart(epsilon: float) -> charts.Spec:
        scale = s.at(epsilon).scale
        x = np.linspace(-SPAN * scale, SPAN * scale, 201)
        density = laplace.laplace_pdf(scale, x)
        edges, heights = unit_edges * scale, unit_heights / scale
        return laplace_charts.density_with_draws(
            x, density, edges, heights, laplace.laplace_half_width(scale)
        )

    share = formatting.fixed(100 * np.mean(np.abs(unit) <= unit_half), 1)

    def caption(epsilon: float) -> str:
        scale = s.at(epsilon).scale
        values = {
            "scale": formatting.significant(scale),
            "share": share,
            "draws": formatting.count(DRAWS),
            "half": formatting.significant(laplace.laplace_half_width(scale)),
        }
        if s.choice.query.kind == "mean":
            return _("laplace.noise.caption_mean", **values)
        return _("laplace.noise.caption", **values)

    depends = (s.choice.query.kind, s.choice.query.sensitivity)
    live.chart([s.stops], chart, key="laplace_noise", depends=depends)
    live.text([s.stops], caption, key="laplace_noise_caption", depends=depends, style="caption")
