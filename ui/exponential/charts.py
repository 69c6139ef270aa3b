"""Charts of the exponential-mechanism page (Vega-Lite specs, see ui.common.charts).

Legend names that hold a number (the N of the sampled runs, the Δ of the count) live in the
data, not in the spec, so a slider step only swaps data. Their colours follow a ``rank``
column (0, 1, …), never the names' alphabetical order, which differs between languages.
Titles and fixed names are translated in the spec: it changes only with the language.
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
from ui.common.formatting import count, number
from ui.common.i18n import N_, _

MECHANISMS = (  # message ids, in the order of their colours
    N_("exponential.mechanism.exponential"),
    N_("exponential.mechanism.permute_and_flip"),
    N_("exponential.mechanism.noisy_max"),
)
MECHANISM_COLORS = (NOISY_COLOR, ACCENT_COLOR, SECOND_COLOR)


def mechanism_names() -> list[str]:
    """The three mechanisms' names in the reader's language."""
    return [_(mechanism) for mechanism in MECHANISMS]


def _legend_by_rank(colors: Sequence[str]) -> dict:
    """Colour by the "series" column, names from the data, colours in the order of "rank"."""
    return {
        "field": "series",
        "type": "nominal",
        "sort": {"field": "rank", "op": "min"},
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


def _probability_axis() -> dict:
    return quantitative(
        "p", _("exponential.chart.probability"), scale={"domain": [0, 1]}, axis={"tickCount": 5}
    )


def probability_bars(
    names: Sequence[str], exact: np.ndarray, sampled_share: np.ndarray, n_draws: int
) -> Spec:
    """Exact probabilities as bars, the share of ``n_draws`` sampled runs as diamonds on them
    (each series' frame built whole, rank included: it is built at every stop of ε)."""
    exact_frame, sampled_frame = (
        pd.DataFrame({"candidate": list(names), "p": values, "series": name, "rank": rank})
        for rank, (name, values) in enumerate(
            [
                (_("exponential.chart.exact"), exact),
                (_("exponential.chart.sampled", n=count(n_draws)), sampled_share),
            ]
        )
    )
    p = _probability_axis()
    color = _legend_by_rank([NOISY_COLOR, ACCENT_COLOR])
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
        height=_height(len(names)),
    )


def best_probability_curves(
    epsilons: np.ndarray, curves: Mapping[str, np.ndarray], epsilon: float, *, log_x: bool
) -> Spec:
    """P(returning a true best answer) against ε, one line per mechanism (named in ``curves``),
    the current ε marked. A log axis leaves out ε = 0 (and the marker, at ε = 0).
    """
    shown = epsilons > 0 if log_x else np.full(epsilons.size, True)
    frame = pd.concat(
        [
            pd.DataFrame({"epsilon": epsilons[shown], "p": values[shown], "series": name})
            for name, values in curves.items()
        ],
        ignore_index=True,
    )
    now = pd.DataFrame(
        {"x": [epsilon], "label": [_("exponential.chart.now", epsilon=number(epsilon))]}
    )
    if log_x and epsilon <= 0:
        now = now.iloc[:0]
    x = quantitative("epsilon", "ε", log=log_x)
    x.setdefault("scale", {}).update(
        domain=[float(epsilons[shown].min()), float(epsilons.max())], nice=False
    )
    return chart(
        lines(
            "curves",
            x=x,
            y=quantitative("p", _("exponential.chart.p_best"), scale={"domain": [0, 1.02]}),
            color=series("series", list(curves), MECHANISM_COLORS[: len(curves)]),
        ),
        rule_x("now", "x", "label", color=TRUE_COLOR),
        datasets={"curves": frame, "now": now},
        height=400,
    )


def pitfall_bars(
    names: Sequence[str], wrong: np.ndarray, right: np.ndarray, sensitivity: float
) -> Spec:
    """Grouped bars: count ÷ largest count with Δ = 1 next to the count with its own Δ (one
    frame built whole, rank included: it is built at every stop of ε)."""
    series_names = [
        _("exponential.chart.pitfall_wrong"),
        _("exponential.chart.pitfall_right", delta=number(sensitivity)),
    ]
    frame = pd.DataFrame(
        {
            "candidate": list(names) * 2,
            "p": np.concatenate([wrong, right]),
            "series": np.repeat(series_names, len(names)),
            "rank": np.repeat([0, 1], len(names)),
        }
    )
    return chart(
        bars(
            "pitfall",
            x=_probability_axis(),
            y=_candidate_axis(),
            color=_legend_by_rank([TRUE_COLOR, NOISY_COLOR]),
            yOffset={"field": "rank", "type": "nominal"},
            tooltip=[{"field": "candidate"}, {"field": "series"}, {"field": "p", "format": ".4g"}],
        ),
        datasets={"pitfall": frame},
        height=_height(len(names), bars_each=2),
    )


def score_bars(names: Sequence[str], probabilities: np.ndarray) -> Spec:
    """The probability of naming each group, for a score other than a count."""
    frame = pd.DataFrame({"candidate": list(names), "p": probabilities})
    return chart(
        bars(
            "hours",
            x=_probability_axis(),
            y=_candidate_axis(),
            tooltip=[{"field": "candidate"}, {"field": "p", "format": ".4g"}],
        ),
        datasets={"hours": frame},
        height=_height(len(names)),
    )
