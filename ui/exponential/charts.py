"""Charts of the exponential-mechanism page (Vega-Lite specs, see ui.common.charts).

Legend names that hold a number (the N of the sampled runs, the Δ of the count) live in the
data, not in the spec, so a slider step only swaps data: their colour scales give the range
alone and Vega orders the names alphabetically ("count ÷ …" before "count, …", "exact …"
before "share …").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ui.common.charts import (
    ACCENT_COLOR,
    NOISY_COLOR,
    SECOND_COLOR,
    TRUE_COLOR,
    Spec,
    bars,
    chart,
    layer,
    lines,
    nominal,
    quantitative,
    rule_x,
    series,
)

MECHANISMS = ("Exponential mechanism", "Permute-and-flip", "Report-noisy-max, Laplace noise")
MECHANISM_COLORS = (NOISY_COLOR, ACCENT_COLOR, SECOND_COLOR)
PROBABILITY_TITLE = "probability of being returned"


def _legend_by_data(colors: Sequence[str]) -> dict:
    """Colour by the "series" column, names from the data (sorted), colours in that order."""
    return {
        "field": "series",
        "type": "nominal",
        "scale": {"range": list(colors)},
        "legend": {"orient": "top", "title": None},
    }


def _candidate_axis() -> dict:
    """Candidates down the side, in the list's order: long names stay readable."""
    return nominal("candidate", None, sort=None)


def _height(n_candidates: int, bars_each: int = 1) -> int:
    """The chart's total height (legend and axis included): a band of bars per candidate."""
    band = (44 if n_candidates <= 10 else 26) * (1 + 0.6 * (bars_each - 1))  # 22 px labels fit
    return int(130 + band * n_candidates)


def probability_bars(
    labels: Sequence[str], exact: np.ndarray, sampled_share: np.ndarray, n_draws: int
) -> Spec:
    """Exact probabilities as bars, the share of ``n_draws`` sampled runs as diamonds on them."""
    exact_frame = pd.DataFrame(
        {"candidate": list(labels), "p": exact, "series": "exact probability"}
    )
    sampled_frame = pd.DataFrame(
        {
            "candidate": list(labels),
            "p": sampled_share,
            "series": f"share of {n_draws:,} sampled runs",
        }
    )
    p = quantitative("p", PROBABILITY_TITLE, scale={"domain": [0, 1]}, axis={"tickCount": 5})
    color = _legend_by_data([NOISY_COLOR, ACCENT_COLOR])
    return chart(
        bars(
            "exact",
            x=p,
            y=_candidate_axis(),
            color=color,
            tooltip=[{"field": "candidate"}, {"field": "p", "format": ".4g"}],
        ),
        layer(
            "sampled",
            {"type": "point", "shape": "diamond", "filled": True, "size": 160, "opacity": 1},
            x=p,
            y=_candidate_axis(),
            color=color,
            tooltip=[{"field": "candidate"}, {"field": "p", "format": ".4f"}],
        ),
        datasets={"exact": exact_frame, "sampled": sampled_frame},
        height=_height(len(labels)),
    )


def best_probability_curves(
    epsilons: np.ndarray, curves: Mapping[str, np.ndarray], epsilon: float, *, log_x: bool
) -> Spec:
    """P(returning a true best answer) against ε, one line per mechanism, the current ε marked.

    A log axis leaves out ε = 0 (and the marker, at ε = 0).
    """
    shown = epsilons > 0 if log_x else np.full(epsilons.size, True)
    frame = pd.concat(
        [
            pd.DataFrame({"epsilon": epsilons[shown], "p": values[shown], "series": name})
            for name, values in curves.items()
        ],
        ignore_index=True,
    )
    now = pd.DataFrame({"x": [epsilon], "label": [f"ε = {epsilon:g} (now)"]})
    if log_x and epsilon <= 0:
        now = now.iloc[:0]
    x = quantitative("epsilon", "epsilon", log=log_x)
    x.setdefault("scale", {}).update(
        domain=[float(epsilons[shown].min()), float(epsilons.max())], nice=False
    )
    return chart(
        lines(
            "curves",
            x=x,
            y=quantitative("p", "P(true best answer)", scale={"domain": [0, 1.02]}),
            color=series("series", list(curves), MECHANISM_COLORS[: len(curves)]),
        ),
        rule_x("now", "x", "label", color=TRUE_COLOR),
        datasets={"curves": frame, "now": now},
        height=400,
    )


def pitfall_bars(
    labels: Sequence[str], wrong: np.ndarray, right: np.ndarray, sensitivity: float
) -> Spec:
    """Grouped bars: count ÷ largest count with Δ = 1 next to the count with its own Δ."""
    frame = pd.concat(
        [
            pd.DataFrame(
                {"candidate": list(labels), "p": wrong, "series": "count ÷ largest count, Δ = 1"}
            ),
            pd.DataFrame(
                {"candidate": list(labels), "p": right, "series": f"count, Δ = {sensitivity:g}"}
            ),
        ],
        ignore_index=True,
    )
    return chart(
        bars(
            "pitfall",
            x=quantitative("p", PROBABILITY_TITLE, scale={"domain": [0, 1]}, axis={"tickCount": 5}),
            y=_candidate_axis(),
            color=_legend_by_data([TRUE_COLOR, NOISY_COLOR]),  # "count ÷ …" sorts first
            yOffset={"field": "series", "type": "nominal"},
            tooltip=[{"field": "candidate"}, {"field": "series"}, {"field": "p", "format": ".4g"}],
        ),
        datasets={"pitfall": frame},
        height=_height(len(labels), bars_each=2),
    )
