"""Charts of the attacker page (Vega-Lite specs, see ui.common.charts).

Several series carry a number that moves with a slider in their name ("highest possible
posterior (ε = 1)", the ceiling of a (1, 10⁻⁵)-DP output). Those names live in the data, with
an ``order`` column that fixes each series' colour and dash, so the spec itself stays the same
between slider steps and the browser only swaps the data. A series that only some settings
have (the dashed ε bound, the Gaussian curves) comes last in that order, so leaving it out
moves no other colour.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ui.common.charts import (
    ACCENT_COLOR,
    NOISY_COLOR,
    SECOND_COLOR,
    TRUE_COLOR,
    Spec,
    chart,
    layer,
    lines,
    marker,
    quantitative,
    rule_x,
)
from ui.common.formatting import count, percent
from ui.common.i18n import _
from ui.common.palette import same_series

CEILING_COLOR = ACCENT_COLOR
LAPLACE_COLOR = SECOND_COLOR
GAUSSIAN_COLOR = NOISY_COLOR
SOLID, DOTTED, DASHED = [1, 0], [2, 3], [6, 4]
SHARE_AXIS = {"format": "%"}


def _named(field: str, colors: Sequence[str], **legend: object) -> dict:
    """Colour by series names held in the data, in their ``order`` (colours in that order)."""
    return {
        "field": field,
        "type": "nominal",
        "sort": {"field": "order", "op": "min"},
        "scale": {"range": list(colors)},
        "legend": {"orient": "top", "title": None, "direction": "vertical", **legend},
    }


def _dashed(field: str, dashes: Sequence[list[int]]) -> dict:
    """Dash by the same series as ``_named`` (same field and order: one merged legend)."""
    return {
        "field": field,
        "type": "nominal",
        "sort": {"field": "order", "op": "min"},
        "scale": {"range": [list(d) for d in dashes]},
        "legend": {"orient": "top", "title": None, "direction": "vertical"},
    }


def _curves(curves: Sequence[tuple[str, np.ndarray, np.ndarray]], columns: tuple[str, str]):
    """One long frame of curves, each (name, x, y): x, y, the series name and its order."""
    x_name, y_name = columns
    sizes = [len(x) for _, x, _ in curves]
    return pd.DataFrame(
        {
            x_name: np.concatenate([x for _, x, _ in curves]),
            y_name: np.concatenate([y for _, _, y in curves]),
            "series": np.repeat([name for name, _, _ in curves], sizes),
            "order": np.repeat(np.arange(len(curves)), sizes),
        }
    )


DIAGONAL = np.array([0.0, 1.0])  # a straight line needs its two ends only


def share(field: str, title: str, top: float = 1.0) -> dict:
    """A 0-100% axis."""
    return quantitative(field, title, axis=SHARE_AXIS, scale={"domain": [0, top], "nice": False})


def _marker_names(upper: float, lower: float, *, rare: bool) -> list[str]:
    """The highest and lowest posterior's markers, by name (``rare``: on all but the rarest
    outputs)."""
    most, least = percent(upper), percent(lower)
    if rare:
        return [
            _("attacker.chart.at_most_rare", value=most),
            _("attacker.chart.at_least_rare", value=least),
        ]
    return [_("attacker.chart.at_most", value=most), _("attacker.chart.at_least", value=least)]


def posterior(
    priors: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
    prior_now: float,
    lower_now: float,
    upper_now: float,
    curve_label: str,
    *,
    rare: bool = False,
    epsilon_upper: np.ndarray | None = None,
    epsilon_name: str = "",
) -> Spec:
    """Lowest and highest posterior against the prior, the diagonal, the current prior marked.

    ``curve_label`` says what the two curves are (e.g. "possible posterior (ε = 1)", or with
    δ > 0 the outputs they hold on); ``rare``: the markers hold on all but the rarest outputs
    (δ > 0), and their names say so. ``epsilon_upper``, dashed, is the ε bound when it is
    shown only for comparison.
    """
    x = share("prior", _("attacker.chart.prior_axis"))
    curves = _posterior_curves(priors, lower, upper, curve_label, epsilon_upper, epsilon_name)
    return chart(
        *_posterior_layers(x),
        rule_x("prior", "x", "label", color=TRUE_COLOR),
        datasets={
            "band": pd.DataFrame({"prior": priors, "low": lower, "high": upper}),
            "curves": _curves(curves, ("prior", "posterior")),
            "markers": _posterior_markers(prior_now, lower_now, upper_now, rare=rare),
            "prior": marker(
                prior_now, _("attacker.chart.prior_marker", prior=f"{count(prior_now * 100)}%")
            ),
        },
        resolve={
            "scale": {"color": "independent", "strokeDash": "independent", "shape": "independent"}
        },
        height=440,
    )


def _posterior_curves(
    priors: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
    curve_label: str,
    epsilon_upper: np.ndarray | None,
    epsilon_name: str,
) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """The diagonal (no output seen), the lowest and highest posterior, and the ε bound when
    it is shown for comparison: (name, prior, posterior) each."""
    curves = [
        (_("attacker.chart.no_output"), DIAGONAL, DIAGONAL),
        (_("attacker.chart.lowest", curve=curve_label), priors, lower),
        (_("attacker.chart.highest", curve=curve_label), priors, upper),
    ]
    if epsilon_upper is not None:
        curves.append((epsilon_name, priors, epsilon_upper))
    return curves


def _posterior_markers(
    prior_now: float, lower_now: float, upper_now: float, *, rare: bool
) -> pd.DataFrame:
    """The highest and lowest posterior at the current prior, named (``_marker_names``)."""
    return pd.DataFrame(
        {
            "prior": [prior_now, prior_now],
            "posterior": [upper_now, lower_now],
            "series": _marker_names(upper_now, lower_now, rare=rare),
            "order": [0, 1],
        }
    )


def _posterior_layers(x: dict) -> list[dict]:
    """The band between the lowest and highest posterior, the curves over it, the markers."""
    return [
        layer(
            "band",
            {"type": "area", "opacity": 0.12, "color": CEILING_COLOR},
            x=x,
            y={"field": "low", "type": "quantitative"},
            y2={"field": "high"},
        ),
        lines(
            "curves",
            x=x,
            y=share("posterior", _("attacker.chart.posterior_axis")),
            color=_named("series", [TRUE_COLOR, NOISY_COLOR, CEILING_COLOR, CEILING_COLOR]),
            strokeDash=_dashed("series", [DOTTED, SOLID, SOLID, DASHED]),
        ),
        # the markers' legend below the plot: beside the curves' one it ran off a narrow chart
        _markers(x, _named("series", [CEILING_COLOR, NOISY_COLOR], orient="bottom")),
    ]


def _markers(x: dict, color: dict) -> dict:
    """The highest posterior as a triangle up, the lowest as one down, in ``color``."""
    return layer(
        "markers",
        {"type": "point", "filled": True, "size": 170, "opacity": 1},
        x=x,
        y={"field": "posterior", "type": "quantitative"},
        color=color,
        shape=same_series(color, ["triangle-up", "triangle-down"]),
        tooltip=[{"field": "series"}],
    )


def roc(
    alphas: np.ndarray,
    ceiling: np.ndarray,
    laplace: np.ndarray,
    gaussian: np.ndarray | None,
    simulated: Sequence[tuple[str, np.ndarray, np.ndarray]],
    ceiling_name: str,
) -> Spec:
    """The ROC ceiling of (ε, δ)-DP over the coin flip (shaded between them), exact
    Laplace/Gaussian ROCs, all at the false positive rates ``alphas``, and simulated threshold
    tests as crosses (name, false positive rates, true positive rates); the Laplace simulation
    first."""
    curves = [
        (_("attacker.chart.coin"), DIAGONAL, DIAGONAL),
        (ceiling_name, alphas, ceiling),
        (_("attacker.chart.laplace_best"), alphas, laplace),
    ]
    if gaussian is not None:
        curves.append((_("attacker.chart.gaussian_best"), alphas, gaussian))
    points = _curves(simulated, ("fpr", "tpr"))
    simulated_color = _named("series", [LAPLACE_COLOR, GAUSSIAN_COLOR])
    x = share("fpr", _("attacker.chart.fpr_axis"))
    band = layer(
        "roc",
        {"type": "area", "opacity": 0.10, "color": CEILING_COLOR},
        x=x,
        y={"field": "tpr", "type": "quantitative"},
        y2={"field": "fpr"},  # the coin flip's diagonal
    )
    return chart(
        {**band, "transform": [{"filter": "datum.order == 1"}]},  # the ceiling's rows
        lines(
            "roc",
            x=x,
            y=share("tpr", _("attacker.chart.tpr_axis"), top=1.01),
            color=_named("series", [TRUE_COLOR, CEILING_COLOR, LAPLACE_COLOR, GAUSSIAN_COLOR]),
            strokeDash=_dashed("series", [DOTTED, SOLID, SOLID, SOLID]),
        ),
        layer(
            "simulated",
            {"type": "point", "angle": 45, "filled": True, "size": 110},
            x=x,
            y={"field": "tpr", "type": "quantitative"},
            color=simulated_color,
            shape=same_series(simulated_color, ["cross", "square"]),  # × and ◆ at 45°
            tooltip=[
                {"field": "series"},
                {"field": "fpr", "format": ".3f"},
                {"field": "tpr", "format": ".3f"},
            ],
        ),
        datasets={"roc": _curves(curves, ("fpr", "tpr")), "simulated": points},
        resolve={
            "scale": {"color": "independent", "strokeDash": "independent", "shape": "independent"}
        },
        height=520,
    )


def composition(
    ks: np.ndarray,
    basic: np.ndarray,
    advanced: np.ndarray,
    optimal: np.ndarray,
    gaussian: np.ndarray | None,
    k_now: int,
) -> Spec:
    """Total ε against the number of releases k (log-log), the chosen k marked.

    Totals that are void (NaN), infinite or 0 have no place on a log axis and are left out.
    """
    curves = [
        (_("attacker.chart.basic"), ks, basic),
        (_("attacker.chart.advanced"), ks, advanced),
        (_("attacker.chart.optimal"), ks, optimal),
    ]
    if gaussian is not None:
        curves.append((_("attacker.chart.gaussian"), ks, gaussian))
    frame = _curves(curves, ("k", "epsilon"))
    frame = frame[np.isfinite(frame["epsilon"]) & (frame["epsilon"] > 0)]
    x = quantitative("k", _("attacker.chart.k_axis"), log=True)
    return chart(
        lines(
            "totals",
            x=x,
            y=quantitative("epsilon", _("attacker.chart.total_axis"), log=True),
            color=_named("series", [TRUE_COLOR, CEILING_COLOR, SECOND_COLOR, GAUSSIAN_COLOR]),
        ),
        rule_x("k_now", "x", "label", color=TRUE_COLOR),
        datasets={"totals": frame, "k_now": marker(k_now, f"k = {count(k_now)}")},
        height=420,
    )
