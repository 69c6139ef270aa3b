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
from ui.common.i18n import N_, _
from ui.common.palette import same_series

# Legend entries (message ids): the datasets' colour columns hold them in the reader's language.
STATUS = (N_("planner.status.meets"), N_("planner.status.misses"), N_("planner.status.none"))
STATUS_COLORS = (GOOD_COLOR, ACCENT_COLOR, NOISY_COLOR)
MODELS = {"central": N_("planner.model.central"), "local": N_("planner.model.local")}
# The accuracy chart closes section 1 below the plan's table: in presenter mode it fits on the
# same 1080-pixel screen, its statistics' names level (the projector's width has room).
ACCURACY_PRESENTER = {"height": 125, "x_axis": {"labelAngle": 0}}


def accuracy(bars: pd.DataFrame, targets: pd.DataFrame) -> Spec:
    """Bars: each statistic's 95% half-width as a % of its true value (log scale), coloured
    by whether it meets its target; a tick at each target.

    ``bars`` (dataset "accuracy"): statistic, relative (%), base (where the bars start: a
    power of ten below every value, as a log axis has no zero), status, absolute (text);
    ``targets``: statistic, target (%).
    """
    x = nominal("statistic", None, sort=None, axis={"labelAngle": -20})
    y = quantitative("relative", _("planner.chart.relative"), log=True)
    statistic = {"field": "statistic", "title": _("planner.col.statistic")}
    return chart(
        layer(
            "accuracy",
            {"type": "bar", "opacity": 0.9},
            x=x,
            y=y,
            y2={"field": "base"},
            color=series("status", [_(status) for status in STATUS], STATUS_COLORS),
            tooltip=[
                statistic,
                {"field": "relative", "title": _("planner.chart.relative_tip"), "format": ",.3~g"},
                {"field": "absolute", "title": _("planner.chart.absolute_tip")},
            ],
        ),
        layer(
            "targets",
            {"type": "tick", "thickness": 3, "size": 46, "color": "#1d2733"},
            x=x,
            y={"field": "target", "type": "quantitative"},
            tooltip=[
                statistic,
                {"field": "target", "title": _("planner.chart.target_tip"), "format": ",.3~g"},
            ],
        ),
        datasets={"accuracy": bars, "targets": targets},
        height=320,
        presenter=ACCURACY_PRESENTER,
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
            x=quantitative("epsilon", _("planner.chart.total")),
            tooltip=[
                {"field": "accountant", "title": _("planner.accounting.accountant")},
                {"field": "label", "title": _("planner.accounting.total")},
            ],
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
    """Published deployments' ε on a log axis (one row each: a circle if central, a diamond if
    local, each in its colour; what one unit is beside each point) and the plan's total as a
    labelled vertical line.

    ``points``: deployment (label), epsilon, model, per, unit, period, pad; ``plan``: x, label.
    """
    y = nominal(
        "deployment",
        None,
        sort={"field": "epsilon", "order": "descending"},
        axis={"labelLimit": 420, "labelOverlap": False},
    )
    x = quantitative("epsilon", _("planner.chart.published"), log=True)
    model = series("model", [_(m) for m in MODELS.values()], (TRUE_COLOR, SECOND_COLOR))
    return chart(
        layer(
            "published",
            {"type": "point", "filled": True, "size": 110},
            y=y,
            x=x,
            color=model,
            shape=same_series(model, ["circle", "diamond"]),
            tooltip=[
                {"field": "deployment", "title": _("planner.wild.deployment")},
                {"field": "epsilon", "title": "ε", "format": ",.4~g"},
                {"field": "unit", "title": _("planner.wild.unit")},
                {"field": "period", "title": _("planner.wild.period")},
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
