"""Charts of the Gaussian page (Vega-Lite specs, see ui.common.charts).

Numbers that move with a slider (δ, ε, k, the break-even k) live in the datasets; the specs
change only with the mechanism (the Gaussian's name), the language, and when the classic σ
appears or goes.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from ui.common.charts import (
    NOISY_COLOR,
    SECOND_COLOR,
    TRUE_COLOR,
    Spec,
    bars,
    chart,
    layer,
    lines,
    quantitative,
    rule_x,
    series,
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


def _styled_lines(data: str, x: dict, y: dict, styles: Mapping[str, tuple[str, list]]) -> dict:
    """A line per series, each with its own colour and dash, one legend for both."""
    names = list(styles)
    legend = {"orient": "top", "title": None, "symbolStrokeWidth": 3, "symbolSize": 500}
    return lines(
        data,
        x=x,
        y=y,
        color=series("series", names, [color for color, _ in styles.values()], **legend),
        strokeDash={
            "field": "series",
            "type": "nominal",
            "scale": {"domain": names, "range": [dash for _, dash in styles.values()]},
            "legend": legend,
        },
    )


def _long(
    x_name: str, x: np.ndarray, y_name: str, curves: Mapping[str, np.ndarray]
) -> pd.DataFrame:
    return pd.concat(
        [pd.DataFrame({x_name: x, y_name: values, "series": n}) for n, values in curves.items()],
        ignore_index=True,
    )


def sigma_vs_delta(
    deltas: np.ndarray,
    analytic: np.ndarray,
    classic: np.ndarray | None,
    laplace_std: float,
    now: pd.DataFrame,
) -> Spec:
    """σ against δ (log x) for both calibrations, Laplace's std flat (it needs no δ), δ marked.

    ``now`` is a marker dataset (ui.common.charts.marker) at the current δ.
    """
    analytic_name, laplace_name = (
        _("gaussian.chart.analytic_sigma"),
        _("gaussian.chart.laplace_std"),
    )
    styles = {analytic_name: (ANALYTIC_COLOR, SOLID)}
    curves = {analytic_name: analytic}
    if classic is not None:
        classic_name = _("gaussian.chart.classic_sigma")
        styles[classic_name] = (CLASSIC_COLOR, DASHED)
        curves[classic_name] = classic
    styles[laplace_name] = (LAPLACE_COLOR, DOTTED)
    frame = pd.concat(
        [
            _long("delta", deltas, "sigma", curves),
            pd.DataFrame(
                {
                    "delta": [deltas[0], deltas[-1]],
                    "sigma": [laplace_std, laplace_std],
                    "series": laplace_name,
                }
            ),
        ],
        ignore_index=True,
    )
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


def histogram(sorted_draws: np.ndarray, low: float, high: float, bins: int = 80) -> pd.DataFrame:
    """A density histogram of sorted draws over [low, high]: the browser receives the bars only.

    Binned by searching the sorted draws, so a rescaled draw is binned in microseconds.
    """
    edges = np.linspace(low, high, bins + 1)
    counts = np.diff(np.searchsorted(sorted_draws, edges, side="left"))
    width = edges[1] - edges[0]
    return pd.DataFrame(
        {"x": edges[:-1], "x2": edges[1:], "y": counts / (len(sorted_draws) * width)}
    )


def noise_densities(
    x: np.ndarray,
    densities: Mapping[str, np.ndarray],
    histograms: Mapping[str, pd.DataFrame],
    draws: int,
) -> Spec:
    """Laplace and Gaussian noise: exact densities over histograms of ``draws`` fresh draws.

    ``densities`` and ``histograms`` (see ``histogram``) are keyed by the noise's name,
    Laplace first.
    """
    names = list(densities)
    colors = [LAPLACE_COLOR, ANALYTIC_COLOR][: len(names)]
    drawn = [_("gaussian.chart.drawn", name=name, draws=count(draws)) for name in names]
    exact = [_("gaussian.chart.exact", name=name) for name in names]
    bars_frame = pd.concat(
        [histograms[name].assign(series=label) for name, label in zip(names, drawn, strict=True)],
        ignore_index=True,
    )
    curve = pd.concat(
        [
            pd.DataFrame({"x": x, "y": densities[name], "series": label})
            for name, label in zip(names, exact, strict=True)
        ],
        ignore_index=True,
    )
    noise_axis = quantitative("x", _("gaussian.chart.noise_axis"))
    return chart(
        bars(
            "histogram",
            x=noise_axis,
            x2={"field": "x2"},
            y=quantitative("y", _("gaussian.chart.density_axis")),
            color=series("series", drawn, colors, direction="vertical"),
            opacity={"value": 0.35},
        ),
        lines(
            "curve",
            x=noise_axis,
            y=quantitative("y"),
            color=series("series", exact, colors, direction="vertical"),
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
    palette = {
        "laplace": (LAPLACE_COLOR, SOLID),
        "analytic": (ANALYTIC_COLOR, SOLID),
        "classic": (CLASSIC_COLOR, DASHED),
    }
    names = {kind: _(K_CURVES[kind]) for kind in curves}
    styles = {names[kind]: palette[kind] for kind in curves}
    k_axis = quantitative("k", _("gaussian.chart.k_axis"), scale={"zero": False, "nice": False})
    x = {"field": "x", "type": "quantitative"}
    return chart(
        _styled_lines(
            "curves", k_axis, quantitative("noise", _("gaussian.chart.k_noise_axis")), styles
        ),
        rule_x("crossover", "x", "label"),
        layer(
            "chosen",
            {"type": "rule", "strokeDash": DOTTED, "strokeWidth": 2, "color": TRUE_COLOR},
            x=x,
        ),
        layer(
            "chosen",
            {
                "type": "text",
                "align": "left",
                "baseline": "bottom",
                "dx": 4,
                "y": "height",
                "dy": -4,
            },
            x=x,
            text={"field": "label"},
        ),
        datasets={
            "curves": _long("k", ks, "noise", {names[k]: v for k, v in curves.items()}),
            "crossover": crossover,
            "chosen": chosen,
        },
        height=400,
    )
