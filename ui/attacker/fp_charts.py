"""The floating-point attack's chart (Vega-Lite specs, see ui.common.charts): how often
Mironov's attack is right, or certain, on numpy's noise and on OpenDP's, per ε."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ui.attacker.charts import DOTTED, share
from ui.common.charts import (
    ACCENT_COLOR,
    GOOD_COLOR,
    NOISY_COLOR,
    TRUE_COLOR,
    Spec,
    bars,
    chart,
    layer,
    nominal,
    series,
)
from ui.common.i18n import _
from ui.common.palette import BAR_LOOKS, INK, looks_cues


def numpy_noise() -> str:
    return _("attacker.chart.numpy_noise")


def opendp_noise() -> str:
    return _("attacker.chart.opendp_noise")


def _best_and_coin(x: dict, colors: dict) -> list:
    """The best attack on the true Laplace mechanism (a tick per ε) and the coin flip (a
    dotted line at 50%), over the bars of ``attack_rates``."""
    return [
        layer(
            "coin",
            {"type": "rule", "strokeDash": DOTTED, "strokeWidth": 2},
            y={"field": "rate", "type": "quantitative"},
            color=colors,
        ),
        layer(
            "best",
            {"type": "tick", "thickness": 4, "size": 70},
            x=x,
            y={"field": "rate", "type": "quantitative"},
            color=colors,
            tooltip=[{"field": "series"}, {"field": "rate", "format": ".1%"}],
        ),
    ]


def attack_rates(
    data: str,
    epsilons: Sequence[str],
    rates: dict[str, Sequence[float]],
    *,
    title: str,
    best: Sequence[float] | None = None,
) -> Spec:
    """Grouped bars per ε (numpy, OpenDP), each labelled with its share; with ``best``, the
    best success any attacker has against the true (continuous) Laplace mechanism as a tick
    over each group, and the coin flip (50%) as a dotted line; the labels then sit at the foot
    of the bars, clear of the ticks. ``data`` names the bars' dataset."""
    names = [numpy_noise(), opendp_noise()]
    x = nominal("epsilon", _("attacker.chart.epsilon_axis"), sort=None, axis={"labelAngle": 0})
    true_laplace, coin_flip = _("attacker.chart.true_laplace"), _("attacker.chart.coin_flip")
    legend = names + ([true_laplace, coin_flip] if best is not None else [])
    colors = series(
        "series",
        legend,
        [NOISY_COLOR, GOOD_COLOR, ACCENT_COLOR, TRUE_COLOR][: len(legend)],
        columns=2,
    )
    layers = _labelled_bars(data, x, names, colors, title=title, inside=best is not None)
    datasets = {data: _rates_frame(epsilons, rates, names)}
    if best is not None:
        layers += _best_and_coin(x, colors)
        datasets["best"] = pd.DataFrame(
            {"epsilon": list(epsilons), "rate": list(best), "series": true_laplace}
        )
        datasets["coin"] = pd.DataFrame({"rate": [0.5], "series": [coin_flip]})
    return chart(*layers, datasets=datasets, height=400)


def _rates_frame(
    epsilons: Sequence[str], rates: dict[str, Sequence[float]], names: Sequence[str]
) -> pd.DataFrame:
    """The bars' rows: each ε's rate by each noise (``names``), one noise after the other."""
    return pd.concat(
        [
            pd.DataFrame({"epsilon": list(epsilons), "series": name, "rate": list(rates[name])})
            for name in names
        ],
        ignore_index=True,
    )


def _labelled_bars(
    data: str, x: dict, names: Sequence[str], colors: dict, *, title: str, inside: bool
) -> list:
    """Grouped bars of ``data`` (a bar per noise in ``names``), each with its share written on
    it in bold: on top, or (``inside``) at its foot. numpy's bars are pale in a solid outline,
    OpenDP's half-filled in a dashed one (``BAR_LOOKS``), so dark text reads inside both; the
    legend's lines (``colors`` past ``names``) stay solid."""
    offset = {"field": "series", "type": "nominal", "scale": {"domain": list(names)}}
    label = {"type": "text", "baseline": "bottom", "color": INK, "fontWeight": "bold"}
    label["dy"] = -6 if inside else -3
    looks = [*BAR_LOOKS[:2], *[BAR_LOOKS[2]] * (len(colors["scale"]["domain"]) - 2)]
    return [
        bars(
            data,
            x=x,
            y=share("rate", title),
            color=colors,
            **looks_cues(colors, looks),
            xOffset=offset,
            tooltip=[{"field": "epsilon"}, {"field": "series"}, {"field": "rate", "format": ".1%"}],
        ),
        layer(
            data,
            label,
            x=x,
            xOffset=offset,
            y={"datum": 0} if inside else {"field": "rate", "type": "quantitative"},
            text={"field": "rate", "type": "quantitative", "format": ".0%"},
        ),
    ]
