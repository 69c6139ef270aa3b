"""The planner's Vega-Lite charts: accuracy per statistic, the accountants, ε in the wild.

Every number that moves with the budget is in a named dataset; the specs stay the same
between slider steps.
"""

from __future__ import annotations

import pandas as pd

from ui.common.charts import (
    ACCENT_COLOR,
    GOOD_COLOR,
    NOISY_COLOR,
    SECOND_COLOR,
    TRUE_COLOR,
    Spec,
    chart,
    layer,
    nominal,
    quantitative,
    rule_x,
    series,
)

STATUS = ("meets its target", "misses its target", "no target")
STATUS_COLORS = (GOOD_COLOR, ACCENT_COLOR, NOISY_COLOR)
MODELS = ("central", "local")


def accuracy(bars: pd.DataFrame, targets: pd.DataFrame) -> Spec:
    """Bars: each statistic's 95% half-width as a % of its true value (log scale), coloured
    by whether it meets its target; a tick at each target.

    ``bars`` (dataset "accuracy"): statistic, relative (%), base (where the bars start: a
    power of ten below every value, as a log axis has no zero), status, absolute (text);
    ``targets``: statistic, target (%).
    """
    x = nominal("statistic", None, sort=None, axis={"labelAngle": -20})
    y = quantitative("relative", "95% ± as % of the value", log=True)
    return chart(
        layer(
            "accuracy",
            {"type": "bar", "opacity": 0.9},
            x=x,
            y=y,
            y2={"field": "base"},
            color=series("status", STATUS, STATUS_COLORS),
            tooltip=[
                {"field": "statistic"},
                {"field": "relative", "title": "± % of the true value", "format": ",.3~g"},
                {"field": "absolute", "title": "± in its units"},
            ],
        ),
        layer(
            "targets",
            {"type": "tick", "thickness": 3, "size": 46, "color": "#1d2733"},
            x=x,
            y={"field": "target", "type": "quantitative"},
            tooltip=[{"field": "statistic"}, {"field": "target", "title": "target ± %"}],
        ),
        datasets={"accuracy": bars, "targets": targets},
        height=320,
    )


def accountants(frame: pd.DataFrame) -> Spec:
    """Horizontal bars: the plan's total ε under each accountant, labelled at their ends.

    ``frame``: accountant, epsilon, label, pad (an invisible point past the longest bar, so
    its label fits inside the chart).
    """
    y = nominal("accountant", None, sort=None, axis={"labelLimit": 320})
    return chart(
        layer(
            "totals",
            {"type": "bar", "color": NOISY_COLOR},
            y=y,
            x=quantitative("epsilon", "total ε of the plan"),
            tooltip=[{"field": "accountant"}, {"field": "label", "title": "total"}],
        ),
        layer(
            "totals",
            {"type": "text", "align": "left", "dx": 4, "color": "#1d2733"},
            y=y,
            x={"field": "epsilon", "type": "quantitative"},
            text={"field": "label"},
        ),
        layer(
            "totals",
            {"type": "point", "opacity": 0},
            y=y,
            x={"field": "pad", "type": "quantitative"},
        ),
        datasets={"totals": frame},
        height=260,
    )


def in_the_wild(points: pd.DataFrame, plan: pd.DataFrame) -> Spec:
    """Published deployments' ε on a log axis (one row each, coloured central or local, with
    what one unit is beside each point) and the plan's total as a labelled vertical line.

    ``points``: deployment (label), epsilon, model, per, unit, period, pad; ``plan``: x, label.
    """
    y = nominal(
        "deployment",
        None,
        sort={"field": "epsilon", "order": "descending"},
        axis={"labelLimit": 420, "labelOverlap": False},
    )
    x = quantitative("epsilon", "ε as published (log scale)", log=True)
    return chart(
        layer(
            "published",
            {"type": "point", "filled": True, "size": 110},
            y=y,
            x=x,
            color=series("model", MODELS, (TRUE_COLOR, SECOND_COLOR)),
            tooltip=[
                {"field": "deployment"},
                {"field": "epsilon", "format": ",.4~g"},
                {"field": "unit", "title": "per"},
                {"field": "period"},
            ],
        ),
        layer(
            "published",
            {"type": "text", "align": "left", "dx": 9, "color": "#56606c"},
            y=y,
            x={"field": "epsilon", "type": "quantitative"},
            text={"field": "per"},
        ),
        layer(
            "published",
            {"type": "point", "opacity": 0},
            y=y,
            x={"field": "pad", "type": "quantitative"},
        ),
        rule_x("plan"),
        datasets={"published": points, "plan": plan},
        height=560,
    )
