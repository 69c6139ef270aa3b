"""Charts of the local-frequencies page (Vega-Lite specs, see ui.common.charts): the counts
per category, and one count's error against the number of categories.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ui.common.charts import (
    NOISY_COLOR,
    SECOND_COLOR,
    TRUE_COLOR,
    Spec,
    chart,
    foot_label,
    layer,
    lines,
    marker,
    noisy_vs_true,
    quantitative,
    rule_x,
    series,
)
from ui.common.formatting import fixed
from ui.common.i18n import _
from ui.common.palette import MUTED_COLOR
from ui.local.charts import haloed, log_persons


def frequency_bars(
    labels: Sequence[str],
    true_counts: np.ndarray,
    raw_counts: np.ndarray,
    estimates: np.ndarray,
    half_widths: np.ndarray,
    raw_name: str,
) -> Spec:
    """Per category: true count, raw perturbed count, debiased estimate with its 95% interval."""
    estimate_name = _("local.chart.counts.estimate")
    spec = noisy_vs_true(
        labels,
        {_("local.chart.counts.true"): true_counts, raw_name: raw_counts, estimate_name: estimates},
        noisy=estimate_name,
        half_width=half_widths,
        value_title=_("local.chart.counts.y"),
        colors=(TRUE_COLOR, MUTED_COLOR, NOISY_COLOR),
    )
    for item in spec["layer"]:  # name every category, as a table would
        item["encoding"]["x"]["axis"] = {"labelAngle": -45, "labelOverlap": False}
    return spec


def variance_against_domain(
    k_grid: np.ndarray,
    standard_errors: Mapping[str, np.ndarray],
    crossover: float,
    current_k: int,
) -> Spec:
    """Standard error of one category's count against the number of categories k.

    The crossover k* is a dotted line labelled at the bottom, this column's k a dashed one
    labelled at the top; a line beyond the chart's range is not drawn (the text says where).
    """
    names = list(standard_errors)
    frame = pd.concat(
        [pd.DataFrame({"k": k_grid, "error": v, "series": n}) for n, v in standard_errors.items()],
        ignore_index=True,
    )
    k_axis = quantitative(
        "k", _("local.chart.domain.x"), log=True, scale={"type": "log", "nice": False}
    )
    inside = float(k_grid.min()) <= crossover <= float(k_grid.max())
    cross = marker(crossover, f"k* = 3e^ε + 2 = {fixed(crossover, 1)}")
    at = {"field": "x", "type": "quantitative"}
    return chart(
        lines(
            "domain_curves",
            x=k_axis,
            y=log_persons("error", _("local.chart.domain.y")),
            color=series("series", names, [NOISY_COLOR, SECOND_COLOR, TRUE_COLOR][: len(names)]),
        ),
        layer(
            "domain_crossover",
            {"type": "rule", "strokeDash": [2, 3], "strokeWidth": 2, "color": TRUE_COLOR},
            x=at,
        ),
        haloed(foot_label("domain_crossover", at)),
        rule_x("domain_now"),
        datasets={
            "domain_curves": frame,
            "domain_crossover": cross if inside else cross.iloc[0:0],
            "domain_now": marker(current_k, _("local.chart.domain.now", k=current_k)),
        },
        height=400,
    )
