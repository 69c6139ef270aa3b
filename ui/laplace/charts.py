"""Charts of the Laplace page (Vega-Lite specs, see ui.common.charts)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ui.common import formatting
from ui.common.charts import (
    NOISY_COLOR,
    SECOND_COLOR,
    TRUE_COLOR,
    Spec,
    band,
    bars,
    chart,
    layer,
    lines,
    marker,
    quantitative,
    rule_x,
    rule_y,
    series,
)
from ui.common.i18n import _


def density_with_draws(
    x: np.ndarray, density: np.ndarray, edges: np.ndarray, heights: np.ndarray, half_width: float
) -> Spec:
    """The exact density over a histogram of fresh draws (bin ``edges``, ``heights`` as a
    density), the central 95% shaded: the browser receives the bars, not the draws."""
    histogram = pd.DataFrame({"x": edges[:-1], "x2": edges[1:], "y": heights})
    curve = pd.DataFrame({"x": x, "y": density})
    shade = pd.DataFrame(
        {"low": [-half_width], "high": [half_width], "label": [_("laplace.chart.draws_95")]}
    )
    noise_axis = quantitative("x", _("laplace.chart.noise_axis"))
    fresh, exact = _("laplace.chart.fresh_draws"), _("laplace.chart.exact_density")
    return chart(
        layer(
            "shade",
            {"type": "rect", "opacity": 0.15, "color": SECOND_COLOR},
            x={"field": "low", "type": "quantitative"},
            x2={"field": "high"},
        ),
        layer(
            "shade",
            {"type": "text", "align": "left", "baseline": "top", "dx": 4, "y": 2},
            x={"field": "low", "type": "quantitative"},
            text={"field": "label"},
        ),
        bars(
            "histogram",
            x=noise_axis,
            x2={"field": "x2"},
            y=quantitative("y", _("laplace.chart.density")),
            y2={"datum": 0},  # from the axis up: with x2 alone, Vega-Lite draws thin floating bars
            color=series("series", [fresh], [NOISY_COLOR]),
            opacity={"value": 0.35},
        ),
        lines(
            "curve",
            x=noise_axis,
            y=quantitative("y"),
            color=series("series", [exact], [NOISY_COLOR]),
        ),
        datasets={
            "shade": shade,
            "histogram": histogram.assign(series=fresh),
            "curve": curve.assign(series=exact),
        },
        resolve={"scale": {"color": "independent"}},
        height=340,
    )


def error_against_epsilon(
    grid: np.ndarray, curves: dict[str, np.ndarray], epsilon: float, *, relative: bool
) -> Spec:
    """Expected error (absolute or relative to the true value) on log-log axes, ε marked."""
    names = list(curves)
    frame = pd.concat(
        [
            pd.DataFrame({"epsilon": grid, "error": values, "series": n})
            for n, values in curves.items()
        ],
        ignore_index=True,
    )
    title = _("laplace.chart.relative_error") if relative else _("laplace.chart.absolute_error")
    y = quantitative("error", title, log=True)
    if relative:
        y["axis"]["format"] = ".1%"
        y["axis"]["labelExpr"] = y["axis"]["labelExpr"].replace("'~g'", "'.1~%'")
    return chart(
        lines(
            "curves",
            x=quantitative("epsilon", _("laplace.chart.epsilon"), log=True),
            y=y,
            color=series("series", names, [NOISY_COLOR, TRUE_COLOR][: len(names)]),
        ),
        rule_x("now", "x", "label"),
        datasets={"curves": frame, "now": marker(epsilon, f"ε = {formatting.number(epsilon)}")},
        height=340,
    )


def averaging_attack(
    steps: np.ndarray, averages: np.ndarray, truth: float, band_half: np.ndarray, *, title: str
) -> Spec:
    """The running average of k noisy answers closing in on the truth, ± 2 sd shaded."""
    frame = pd.DataFrame(
        {"k": steps, "average": averages, "low": truth - band_half, "high": truth + band_half}
    )
    k_axis = quantitative("k", _("laplace.chart.k_axis"), log=True)
    names = [_("laplace.chart.average"), _("laplace.chart.band")]
    return chart(
        band("attack", x=k_axis, low="low", high="high"),
        lines(
            "attack",
            x=k_axis,
            y=quantitative("average", title),
            color=series("series", names, [NOISY_COLOR, SECOND_COLOR]),
            points=True,
        ),
        rule_y("truth", "y", "label"),
        datasets={
            "attack": frame.assign(series=names[0]),
            "truth": marker(truth, _("laplace.chart.truth")),
        },
        height=360,
    )
