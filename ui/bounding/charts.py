"""Charts of the contribution-bounding page (Vega-Lite specs, see ui.common.charts).

Every number that moves with a slider (the cap, the bounds, the best setting, the DP choice,
the budget's notes) sits in a named dataset, so a slider step swaps data, not the spec.
"""

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
    chart,
    foot_label,
    layer,
    lines,
    noisy_vs_true,
    quantitative,
    rule_x,
    series,
)
from ui.common.i18n import N_, _
from ui.common.palette import text_color

BOUNDED_COLOR = GOOD_COLOR
DP_COLOR = "#7b2d6b"  # plum: #6a4c93 fell 3.5 CIEDE2000 from NOISY_COLOR for a protanope
# Vega has no star symbol: a five-pointed star as an SVG path in the unit square.
STAR = (
    "M0,-1L0.2245,-0.309L0.951,-0.309L0.363,0.118L0.588,0.809L0,0.382L-0.588,0.809"
    "L-0.363,0.118L-0.951,-0.309L-0.2245,-0.309Z"
)
PARTS = {  # column of a trade-off table: its line's name (message id), colour and dash
    "bias": (N_("bounding.chart.bias"), SECOND_COLOR, [2, 3]),
    "selection_std": (N_("bounding.chart.selection"), BOUNDED_COLOR, [8, 3, 2, 3]),
    "noise_std": (N_("bounding.chart.noise"), NOISY_COLOR, [6, 4]),
    "rmse": (N_("bounding.chart.rmse"), ACCENT_COLOR, [1, 0]),
}
HEADROOM = 1.12  # bar charts with labels on top: room above the tallest bar for its label
# Section 1 shows one answers chart per statistic (visits and revenue), each under its heading
# and above its caption and table. In presenter mode they stand side by side (ui.bounding.
# answers), so each keeps a readable height (108 px, one above the other, left two y ticks)
# and both still fit on one 1080-pixel screen below the controls and the metrics.
ANSWERS_PRESENTER = {"height": 300}
WHOLE_NUMBERS = {"tickMinStep": 1, "format": "d"}


def before_after_noisy(
    labels: Sequence[str],
    true_values: np.ndarray,
    bounded_values: np.ndarray,
    noisy_values: np.ndarray,
    half_width: float,
    *,
    names: tuple[str, str, str],
    value_title: str,
) -> Spec:
    """Three bars per group: the truth before bounding, after bounding, and the noisy answer.

    ``names``: the three series' names (the truth, after bounding, noisy), as the legend shows.
    """
    true_name, bounded_name, noisy_name = names
    return noisy_vs_true(
        labels,
        {true_name: true_values, bounded_name: bounded_values, noisy_name: noisy_values},
        noisy=noisy_name,
        half_width=half_width,
        value_title=value_title,
        colors=(TRUE_COLOR, BOUNDED_COLOR, NOISY_COLOR),
        presenter=ANSWERS_PRESENTER,
    )


def changes(
    labels: Sequence[str],
    bounded_change: np.ndarray,
    noisy_change: np.ndarray,
    half_widths: np.ndarray,
    *,
    names: tuple[str, str],
    value_title: str,
) -> Spec:
    """Two bars per group from zero: what bounding changed, and what the noisy answer differs
    from the truth by (with its ± 95% band), so that a change of 5 in 500 is visible.

    ``names``: (after bounding, noisy); a relative view passes percentages (NaN where the
    truth is 0: no bar).
    """
    bounded_name, noisy_name = names
    return noisy_vs_true(
        labels,
        {bounded_name: bounded_change, noisy_name: noisy_change},
        noisy=noisy_name,
        half_width=half_widths,
        value_title=value_title,
        colors=(BOUNDED_COLOR, NOISY_COLOR),
        presenter=ANSWERS_PRESENTER,
    )


def _label(data: str, *, color: str, dy: int = -12, left: bool = False) -> dict:
    """Text at each point of a dataset with columns x, y, label (``left``: before the point),
    in ``color``'s text shade."""
    mark = {"type": "text", "align": "right" if left else "left", "dx": -10 if left else 8}
    return layer(
        data,
        {**mark, "dy": dy, "color": text_color(color), "fontWeight": "bold"},
        x={"field": "x", "type": "quantitative"},
        y={"field": "y", "type": "quantitative"},
        text={"field": "label"},
    )


def contribution_histogram(
    histogram: pd.Series, cap: int, *, x_title: str, y_title: str, cap_label: str
) -> Spec:
    """Persons by number of groups; the bars above the cap in the accent colour, the cap marked.

    The count is written on each bar; an invisible point ``HEADROOM`` times the tallest bar
    keeps the top label inside the chart.
    """
    k = histogram.index.to_numpy()
    frame = pd.DataFrame(
        {
            "k": k,
            "left": k - 0.4,
            "right": k + 0.4,
            "persons": histogram.to_numpy(),
            "color": np.where(k > cap, ACCENT_COLOR, NOISY_COLOR),
        }
    )
    x = quantitative("k", x_title, axis=WHOLE_NUMBERS, scale={"zero": False})
    return chart(
        layer(
            "histogram",
            "bar",
            x={**x, "field": "left"},
            x2={"field": "right"},
            y=quantitative("persons", y_title),
            y2={"datum": 0},
            color={"field": "color", "type": "nominal", "scale": None, "legend": None},
        ),
        layer(
            "histogram",
            {"type": "text", "baseline": "bottom", "dy": -3},
            x=x,
            y={"field": "persons", "type": "quantitative"},
            text={"field": "persons", "format": ","},
        ),
        rule_x("cap"),
        layer("room", {"type": "point", "opacity": 0}, y={"field": "y", "type": "quantitative"}),
        datasets={
            "histogram": frame,
            "cap": pd.DataFrame({"x": [cap + 0.5], "label": [cap_label]}),
            "room": pd.DataFrame({"y": [HEADROOM * float(frame["persons"].max())]}),
        },
        height=340,
    )


def tradeoff(
    prefix: str,
    summary: pd.DataFrame,
    setting: str,
    *,
    best: tuple[float, float, str],
    current: tuple[float, str],
    pair: tuple[float, float, str] | None = None,
    private: tuple[float, float, float, str] | None = None,
    with_selection: bool,
    x_title: str,
    y_title: str,
    caps: bool,
) -> Spec:
    """Bias, selection sd, noise sd and RMSE against a setting, on a log axis.

    ``best``: (x, RMSE, label) starred; ``current``: (x, label) dashed; ``pair``: a better
    point found by moving another setting too (a diamond); ``private``: the DP choice and the
    range that holds it 90% of the time, (x, low, high, label), as a line over a band.
    The selection line is left out (``with_selection`` False) when it is 0 everywhere.
    ``caps``: the setting is a cap (whole numbers, a point at each).
    """
    parts = [column for column in PARTS if with_selection or column != "selection_std"]
    x = quantitative(
        "x", x_title, **({"axis": WHOLE_NUMBERS, "scale": {"zero": False}} if caps else {})
    )
    marks = _tradeoff_marks(best, current, pair, private)
    return chart(
        *_spread(prefix),
        _tradeoff_lines(f"{prefix}_lines", parts, x=x, y_title=y_title, points=caps),
        rule_x(f"{prefix}_now", color=DP_COLOR if private else ACCENT_COLOR),
        *_best_and_pair(prefix),
        datasets={
            f"{prefix}_{name}": data
            for name, data in {"lines": _parts_frame(summary, setting, parts), **marks}.items()
        },
        height=380,
    )


def _parts_frame(summary: pd.DataFrame, setting: str, parts: Sequence[str]) -> pd.DataFrame:
    """The trade-off table melted: one line per part (its name in the reader's language), its
    settings in order."""
    rows = len(summary)
    return pd.DataFrame(
        {
            "x": np.tile(summary[setting].to_numpy(), len(parts)),
            "part": np.repeat(np.asarray(parts, dtype=object), rows),
            "value": summary[parts].to_numpy(dtype=float).T.ravel(),
            "series": np.repeat(np.asarray([_(PARTS[p][0]) for p in parts], dtype=object), rows),
        }
    )


def _tradeoff_lines(
    data: str, parts: Sequence[str], *, x: dict, y_title: str, points: bool
) -> dict:
    """A line per part on a log axis, each in its colour and dash (one legend for both)."""
    domain = [_(PARTS[part][0]) for part in parts]
    legend = {"columns": 2, "symbolType": "stroke", "symbolStrokeWidth": 3, "symbolSize": 400}
    line = lines(
        data,
        x=x,
        y=quantitative("value", y_title, log=True),
        color=series("series", domain, [PARTS[part][1] for part in parts], **legend),
        points=points,
        strokeDash={
            "field": "series",
            "type": "nominal",
            "scale": {"domain": domain, "range": [PARTS[part][2] for part in parts]},
            "legend": {"orient": "top", "title": None, **legend},
        },
    )
    line["transform"] = [{"filter": "datum.value > 0"}]  # a log axis has no 0
    return line


def _tradeoff_marks(
    best: tuple[float, float, str],
    current: tuple[float, str],
    pair: tuple[float, float, str] | None,
    private: tuple[float, float, float, str] | None,
) -> dict[str, pd.DataFrame]:
    """The marks' datasets (see ``tradeoff``): an empty one for a pair or a DP choice not
    shown, so the spec stays the same."""
    return {
        "best": pd.DataFrame({"x": [best[0]], "y": [best[1]], "label": [best[2]]}),
        "pair": pd.DataFrame(
            {"x": [pair[0]], "y": [pair[1]], "label": [pair[2]]}
            if pair
            else {"x": [], "y": [], "label": []}
        ),
        "now": pd.DataFrame({"x": [current[0]], "label": [current[1]]}),
        "spread": pd.DataFrame(
            {"low": [private[1]], "high": [private[2]], "label": [private[3]]}
            if private
            else {"low": [], "high": [], "label": []}
        ),
    }


def _spread(prefix: str) -> list[dict]:
    """The band that holds the DP choice 90% of the time, labelled at its foot."""
    low = {"field": "low", "type": "quantitative"}
    return [
        layer(
            f"{prefix}_spread",
            {"type": "rect", "opacity": 0.14, "color": DP_COLOR},
            x=low,
            x2={"field": "high"},
        ),
        foot_label(f"{prefix}_spread", low, color=DP_COLOR),
    ]


def _best_and_pair(prefix: str) -> list[dict]:
    """The best setting as a labelled star, the best pair as a labelled diamond."""
    point = {"field": "x", "type": "quantitative"}, {"field": "y", "type": "quantitative"}
    return [
        layer(
            f"{prefix}_best",
            {"type": "point", "shape": STAR, "size": 420, "filled": True, "color": ACCENT_COLOR},
            x=point[0],
            y=point[1],
        ),
        _label(f"{prefix}_best", color=ACCENT_COLOR),
        layer(
            f"{prefix}_pair",
            {
                "type": "point",
                "shape": "diamond",
                "size": 260,
                "filled": True,
                "color": SECOND_COLOR,
            },
            x=point[0],
            y=point[1],
        ),
        _label(f"{prefix}_pair", color=SECOND_COLOR, dy=16, left=True),
    ]


def budget(rows: list[tuple[str, list[tuple[float, str]], str]], *, x_title: str) -> Spec:
    """Horizontal stacked bars: each row a plan, one segment per release, its total noted.

    ``rows``: (plan, [(epsilon, colour) per segment], note). Segments are separated by white
    lines; an invisible point past the longest bar leaves room for the notes.
    """
    segments = pd.DataFrame(
        [
            {"plan": plan, "order": k, "epsilon": eps, "color": color}
            for plan, parts, _ in rows
            for k, (eps, color) in enumerate(parts)
        ]
    )
    totals = pd.DataFrame(
        {
            "plan": [plan for plan, _, _ in rows],
            "total": [sum(eps for eps, _ in parts) for _, parts, _ in rows],
            "note": [note for _, _, note in rows],
        }
    )
    room = pd.DataFrame({"x": [1.7 * float(totals["total"].max())]})
    plans = [plan for plan, _, _ in rows]
    y = {"field": "plan", "type": "nominal", "title": None, "sort": plans}
    return chart(
        layer(
            "segments",
            {"type": "bar", "stroke": "white", "strokeWidth": 2},
            y=y,
            x=quantitative("epsilon", x_title, stack="zero"),
            color={"field": "color", "type": "nominal", "scale": None, "legend": None},
            order={"field": "order", "type": "quantitative"},
            tooltip=[
                {"field": "plan", "title": x_title},
                {"field": "epsilon", "title": "ε", "format": ".4~g"},
            ],
        ),
        layer(
            "totals",
            {"type": "text", "align": "left", "dx": 6},
            y=y,
            x={"field": "total", "type": "quantitative"},
            text={"field": "note"},
        ),
        layer("room", {"type": "point", "opacity": 0}, x={"field": "x", "type": "quantitative"}),
        datasets={"segments": segments, "totals": totals, "room": room},
        height=80 + 60 * len(rows),
    )
