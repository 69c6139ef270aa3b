"""Charts of the Gaussian page (Vega-Lite specs, see ui.common.charts).

Numbers that move with a slider (δ, ε, k, the break-even k) live in the datasets, and so do the
series' names: a legend lists the series in the data, in the order of their ``order`` column,
so the classic σ appearing below ε = 1 or the Gaussian's name changing there (the classic one
withheld) changes the data only. The specs change with the language alone, so every chart can
follow the sliders' thumbs (ui.common.live).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ui.common.charts import (
    NOISY_COLOR,
    SECOND_COLOR,
    TRUE_COLOR,
    Spec,
    bars,
    chart,
    foot_label,
    layer,
    lines,
    quantitative,
    rule_x,
)
from ui.common.formatting import count
from ui.common.i18n import N_, _

# The k chart's curves (message ids), by mechanism.
K_CURVES = {
    "laplace": N_("gaussian.chart.k_laplace"),
    "analytic": N_("gaussian.chart.k_analytic"),
    "classic": N_("gaussian.chart.k_classic"),
}
LAPLACE_COLOR = SECOND_COLOR
ANALYTIC_COLOR = NOISY_COLOR
CLASSIC_COLOR = TRUE_COLOR
SOLID, DASHED, DOTTED = [1, 0], [6, 4], [2, 3]
# A δ axis labelled 10⁻¹² … 10⁻², as the page writes δ (decades only).
_EXPONENT = "round(log(datum.value) / log(10))"
_SUPERSCRIPT = "['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹']"
POWER_OF_TEN_LABEL = (
    f"abs(log(datum.value) / log(10) - {_EXPONENT}) < 1e-6 ? '10' + "
    f"({_EXPONENT} < 0 ? '⁻' : '') + "
    f"(abs({_EXPONENT}) >= 10 ? {_SUPERSCRIPT}[floor(abs({_EXPONENT}) / 10)] : '') + "
    f"{_SUPERSCRIPT}[abs({_EXPONENT}) % 10] : ''"
)


def _ordered(field: str, scale_range: list, **legend: Any) -> dict:
    """A nominal channel whose domain is the series in the data, in their ``order``: the
    range's i-th value goes to the i-th series present, so a series that can be missing
    comes last in ``scale_range``."""
    return {
        "field": field,
        "type": "nominal",
        "sort": {"field": "order", "op": "min"},
        "scale": {"range": scale_range},
        "legend": legend,
    }


def _styled_lines(data: str, x: dict, y: dict, styles: Sequence[tuple[str, list]]) -> dict:
    """A line per series, each with its own colour and dash (``styles``, in the series'
    ``order``), one legend for both."""
    legend = {"orient": "top", "title": None, "symbolStrokeWidth": 3, "symbolSize": 500}
    return lines(
        data,
        x=x,
        y=y,
        color=_ordered("series", [color for color, _ in styles], **legend),
        strokeDash=_ordered("series", [dash for _, dash in styles], **legend),
    )


Columns = Mapping[str, np.ndarray]


def _series_frame(parts: Sequence[tuple[int, Columns]], names: Sequence[str]) -> pd.DataFrame:
    """The rows of several series in one frame, built from numpy arrays: each part is (the
    series' index in ``names``, its columns). ``series`` is a categorical over ``names`` (every
    series the chart can show) and ``order`` (the legend's) that index in one byte: a chart sent
    at every stop of two sliders (ui.common.live) carries each name once, not on every row."""
    lengths = [len(next(iter(columns.values()))) for _, columns in parts]
    codes = np.repeat(np.array([index for index, _ in parts], dtype=np.int8), lengths)
    frame = {
        field: np.concatenate([columns[field] for _, columns in parts]) for field in parts[0][1]
    }
    frame["series"] = pd.Categorical.from_codes(codes, categories=list(names))
    frame["order"] = codes
    return pd.DataFrame(frame)


def sigma_vs_delta(
    deltas: np.ndarray,
    analytic: np.ndarray,
    classic: np.ndarray | None,
    laplace_std: float,
    now: pd.DataFrame,
) -> Spec:
    """σ against δ (log x) for both calibrations, Laplace's std flat (it needs no δ), δ marked.

    ``classic`` is None where its proof does not hold (ε ≥ 1): its curve and legend go.
    ``now`` is a marker dataset (ui.common.charts.marker) at the current δ.
    """
    names = [
        _("gaussian.chart.analytic_sigma"),
        _("gaussian.chart.laplace_std"),
        _("gaussian.chart.classic_sigma"),
    ]
    parts = [
        (0, {"delta": deltas, "sigma": analytic}),
        (1, {"delta": deltas[[0, -1]], "sigma": np.full(2, laplace_std)}),
    ]
    if classic is not None:
        parts.append((2, {"delta": deltas, "sigma": classic}))
    frame = _series_frame(parts, names)
    styles = [(ANALYTIC_COLOR, SOLID), (LAPLACE_COLOR, DOTTED), (CLASSIC_COLOR, DASHED)]
    return chart(
        _styled_lines(
            "curves",
            quantitative(
                "delta",
                _("gaussian.chart.delta_axis"),
                log=True,
                axis={"labelExpr": POWER_OF_TEN_LABEL},
            ),
            quantitative("sigma", _("gaussian.chart.std_axis")),
            styles,
        ),
        rule_x("now", "x", "label"),
        datasets={"curves": frame, "now": now},
        height=380,
    )


def histogram(sorted_draws: np.ndarray, low: float, high: float, bins: int = 80) -> Columns:
    """A density histogram of sorted draws over [low, high] (its bars' x, x2 and height y): the
    browser receives the bars only.

    Binned by searching the sorted draws, so a rescaled draw is binned in microseconds.
    """
    edges = np.linspace(low, high, bins + 1)
    counts = np.diff(np.searchsorted(sorted_draws, edges, side="left"))
    width = edges[1] - edges[0]
    return {"x": edges[:-1], "x2": edges[1:], "y": counts / (len(sorted_draws) * width)}


def noise_densities(
    x: np.ndarray,
    densities: Mapping[str, np.ndarray],
    histograms: Mapping[str, Columns],
    draws: int,
) -> Spec:
    """Laplace and Gaussian noise: exact densities over histograms of ``draws`` fresh draws.

    ``densities`` and ``histograms`` (see ``histogram``) are keyed by the noise's name,
    Laplace first.
    """
    names = list(densities)
    drawn = [_("gaussian.chart.drawn", name=name, draws=count(draws)) for name in names]
    exact = [_("gaussian.chart.exact", name=name) for name in names]
    bars_frame = _series_frame(list(enumerate(histograms[name] for name in names)), drawn)
    curve = _series_frame(
        [(i, {"x": x, "y": densities[name]}) for i, name in enumerate(names)], exact
    )
    colors = [LAPLACE_COLOR, ANALYTIC_COLOR]
    legend = {"orient": "top", "title": None, "direction": "vertical"}
    noise_axis = quantitative("x", _("gaussian.chart.noise_axis"))
    return chart(
        bars(
            "histogram",
            x=noise_axis,
            x2={"field": "x2"},
            y=quantitative("y", _("gaussian.chart.density_axis")),
            color=_ordered("series", colors, **legend),
            opacity={"value": 0.35},
        ),
        lines(
            "curve",
            x=noise_axis,
            y=quantitative("y"),
            color=_ordered("series", colors, **legend),
        ),
        datasets={"histogram": bars_frame, "curve": curve},
        resolve={"scale": {"color": "independent"}},
        height=400,
    )


def noise_per_statistic(
    ks: np.ndarray,
    curves: Mapping[str, np.ndarray],
    crossover: pd.DataFrame,
    chosen: pd.DataFrame,
) -> Spec:
    """Noise std on each statistic against k, the break-even k and the chosen k marked.

    ``curves`` is keyed "laplace", "analytic" and optionally "classic"; the markers are
    one-row datasets (empty when the break-even k is off the chart).
    """
    palette = {  # in the legend's order; "classic", which can be missing, last
        "laplace": (LAPLACE_COLOR, SOLID),
        "analytic": (ANALYTIC_COLOR, SOLID),
        "classic": (CLASSIC_COLOR, DASHED),
    }
    order = list(palette)
    frame = _series_frame(
        [(order.index(kind), {"k": ks, "noise": values}) for kind, values in curves.items()],
        [_(K_CURVES[kind]) for kind in palette],
    )
    k_axis = quantitative("k", _("gaussian.chart.k_axis"), scale={"zero": False, "nice": False})
    x = {"field": "x", "type": "quantitative"}
    return chart(
        _styled_lines(
            "curves",
            k_axis,
            quantitative("noise", _("gaussian.chart.k_noise_axis")),
            list(palette.values()),
        ),
        rule_x("crossover", "x", "label"),
        layer(
            "chosen",
            {"type": "rule", "strokeDash": DOTTED, "strokeWidth": 2, "color": TRUE_COLOR},
            x=x,
        ),
        foot_label("chosen", x),
        datasets={
            "curves": frame,
            "crossover": crossover,
            "chosen": chosen,
        },
        height=400,
    )
