"""Charts of the DP-SGD page (Vega-Lite specs, see ui.common.charts). Series names are in the
data (the reader's language), their colours fixed by an ``order`` column."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ui.common.charts import (
    ACCENT_COLOR,
    GOOD_COLOR,
    NOISY_COLOR,
    SECOND_COLOR,
    TRUE_COLOR,
    Spec,
    band,
    chart,
    layer,
    lines,
    marker,
    ordered_series,
    quantitative,
    rule_x,
)
from ui.common.formatting import number
from ui.common.i18n import _

SHARE = {"format": ".0%"}


def _level(value: float, name: str, order: int, xs: Sequence[float]) -> pd.DataFrame:
    """A horizontal reference line across ``xs`` as a series."""
    return pd.DataFrame({"x": [min(xs), max(xs)], "y": [value] * 2, "series": name, "order": order})


def accuracy_curve(
    curve: pd.DataFrame, *, baseline: float, majority: float, epsilon: float, now: float
) -> Spec:
    """Held-out accuracy against ε: the mean of the trainings at each ε, their range shaded,
    the model without DP and the majority guess as levels, the slider's ε marked."""
    private = curve[np.isfinite(curve["epsilon"])]
    summary = private.groupby("epsilon", as_index=False)["accuracy"].agg(["mean", "min", "max"])
    xs = summary["epsilon"].tolist()
    names = (_("dp_sgd.chart.dp"), _("dp_sgd.chart.baseline"), _("dp_sgd.chart.majority"))
    series = pd.concat(
        [
            pd.DataFrame(
                {"x": summary["epsilon"], "y": summary["mean"], "series": names[0], "order": 0}
            ),
            _level(baseline, names[1], 1, xs),
            _level(majority, names[2], 2, xs),
        ]
    )
    x = quantitative("x", _("dp_sgd.chart.epsilon"), log=True)
    return chart(
        band(
            "range",
            x=quantitative("epsilon", _("dp_sgd.chart.epsilon"), log=True),
            low="min",
            high="max",
            color=NOISY_COLOR,
        ),
        lines(
            "series",
            x=x,
            y=quantitative("y", _("dp_sgd.chart.accuracy"), axis=SHARE, scale={"zero": False}),
            color=ordered_series([NOISY_COLOR, GOOD_COLOR, TRUE_COLOR]),
            points=True,
        ),
        layer(
            "now",
            {"type": "point", "size": 160, "filled": True, "color": ACCENT_COLOR},
            x={"field": "x", "type": "quantitative"},
            y={"field": "y", "type": "quantitative"},
        ),
        rule_x("now"),
        datasets={
            "range": summary,
            "series": series,
            "now": marker(epsilon, _("dp_sgd.chart.now", epsilon=number(epsilon)), y=now),
        },
        height=340,
        presenter={"height": 260},
    )


def by_clip(frame: pd.DataFrame, clip: float) -> Spec:
    """Held-out accuracy and the share of gradients clipped against the clipping norm C."""
    long = pd.concat(
        [
            pd.DataFrame(
                {
                    "x": frame["clip"],
                    "y": frame["accuracy"],
                    "series": _("dp_sgd.chart.accuracy"),
                    "order": 0,
                }
            ),
            pd.DataFrame(
                {
                    "x": frame["clip"],
                    "y": frame["clipped"],
                    "series": _("dp_sgd.chart.clipped"),
                    "order": 1,
                }
            ),
        ]
    )
    return chart(
        lines(
            "clips",
            x=quantitative("x", _("dp_sgd.chart.clip"), log=True),
            y=quantitative("y", _("dp_sgd.chart.share"), axis=SHARE),
            color=ordered_series([NOISY_COLOR, SECOND_COLOR]),
            points=True,
        ),
        rule_x("now"),
        datasets={"clips": long, "now": marker(clip, f"C = {number(clip)}")},
        height=300,
        presenter={"height": 240},
    )


def by_epoch(private: Sequence[float], baseline: Sequence[float]) -> Spec:
    """Held-out accuracy after each epoch, with DP and without."""
    epochs = np.arange(len(private))
    long = pd.concat(
        [
            pd.DataFrame({"x": epochs, "y": private, "series": _("dp_sgd.chart.dp"), "order": 0}),
            pd.DataFrame(
                {"x": epochs, "y": baseline, "series": _("dp_sgd.chart.baseline"), "order": 1}
            ),
        ]
    )
    return chart(
        lines(
            "epochs",
            x=quantitative("x", _("dp_sgd.chart.epoch"), axis={"tickMinStep": 1}),
            y=quantitative("y", _("dp_sgd.chart.accuracy"), axis=SHARE, scale={"zero": False}),
            color=ordered_series([NOISY_COLOR, GOOD_COLOR]),
            points=True,
        ),
        datasets={"epochs": long},
        height=260,
        presenter={"height": 220},
    )


def accounting(
    frame: pd.DataFrame, x_title: str, marked: float, label: str, *, whole: bool = False
) -> Spec:
    """ε by each accountant against ``x`` (the noise multiplier, or the epochs so far:
    ``whole`` numbers)."""
    axis = {"tickMinStep": 1, "format": "d"} if whole else {}
    return chart(
        lines(
            "epsilons",
            x=quantitative("x", x_title, axis=axis),
            y=quantitative("y", _("dp_sgd.chart.epsilon"), log=True),
            color=ordered_series([NOISY_COLOR, ACCENT_COLOR]),
            points=True,
        ),
        rule_x("now"),
        datasets={"epsilons": frame, "now": marker(marked, label)},
        height=280,
        presenter={"height": 230},
    )


def membership(curve: pd.DataFrame, bound: pd.DataFrame, baseline: float, epsilon: float) -> Spec:
    """The loss-threshold attack's advantage on each model against ε, the most any attack
    can have at (ε, δ), and the model without DP's."""
    private = curve[np.isfinite(curve["epsilon"])]
    xs = bound["x"].tolist()
    long = pd.concat(
        [
            bound.assign(series=_("dp_sgd.chart.bound"), order=0),
            private.groupby("epsilon", as_index=False)["advantage"]
            .mean()
            .rename(columns={"epsilon": "x", "advantage": "y"})
            .assign(series=_("dp_sgd.chart.measured"), order=1),
            _level(baseline, _("dp_sgd.chart.measured_baseline"), 2, xs),
        ]
    )
    return chart(
        lines(
            "advantages",
            x=quantitative("x", _("dp_sgd.chart.epsilon"), log=True),
            y=quantitative("y", _("dp_sgd.chart.advantage"), axis=SHARE),
            color=ordered_series([ACCENT_COLOR, NOISY_COLOR, GOOD_COLOR]),
        ),
        layer(
            "trainings",
            {"type": "point", "size": 50, "color": NOISY_COLOR, "opacity": 0.6},
            x={"field": "epsilon", "type": "quantitative"},
            y={"field": "advantage", "type": "quantitative"},
        ),
        rule_x("now"),
        datasets={
            "advantages": long,
            "trainings": private,
            "now": marker(epsilon, _("dp_sgd.chart.now", epsilon=number(epsilon))),
        },
        height=320,
        presenter={"height": 250},
    )
