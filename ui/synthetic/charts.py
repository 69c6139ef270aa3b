"""Charts of the synthetic-data page (Vega-Lite specs, see ui.common.charts). Series names are
in the data (the reader's language), their colours fixed by an ``order`` column."""

from __future__ import annotations

import pandas as pd

from ui.common.chart_text import grouped
from ui.common.charts import (
    ACCENT_COLOR,
    GOOD_COLOR,
    NOISY_COLOR,
    TRUE_COLOR,
    Spec,
    bars,
    chart,
    lines,
    marker,
    nominal,
    ordered_series,
    quantitative,
    rule_x,
)
from ui.common.formatting import number, percent
from ui.common.i18n import _

SHARE = {"format": ".0%"}
TVD = {"format": ".2f"}


def fidelity_curve(frame: pd.DataFrame, epsilon: float) -> Spec:
    """Mean TVD against ε: one-way marginals, measured two-way, two-way not measured."""
    return chart(
        lines(
            "fidelity",
            x=quantitative("x", _("synthetic.chart.epsilon"), log=True),
            y=quantitative("y", _("synthetic.chart.tvd"), axis=TVD),
            color=ordered_series([NOISY_COLOR, GOOD_COLOR, ACCENT_COLOR]),
            points=True,
        ),
        rule_x("now"),
        datasets={"fidelity": frame, "now": marker(epsilon, f"ε = {number(epsilon)}")},
        height=280,
        presenter={"height": 230},
    )


def marginal_bars(frame: pd.DataFrame) -> Spec:
    """Each marginal's TVD at the release's ε, largest first, coloured by how it was made."""
    return chart(
        bars(
            "marginals",
            x=quantitative("tvd", _("synthetic.chart.tvd"), axis=TVD),
            y=nominal("name", None, sort="-x", axis={"labelLimit": 260}),
            color=ordered_series([NOISY_COLOR, GOOD_COLOR, ACCENT_COLOR]),
        ),
        datasets={"marginals": frame},
        height=max(160, 22 * len(frame)),
        presenter={"height": 300},
    )


def crosstab(frame: pd.DataFrame, row: str, column: str, titles: tuple[str, str]) -> Spec:
    """Shares of each (row, column) cell in the real and the synthetic table, side by side;
    ``titles``: the row's and the column's axis titles (in the reader's language)."""
    return {
        "description": _crosstab_said(frame, row, column, titles),
        "datasets": {"cells": frame},
        "data": {"name": "cells"},
        "facet": {"column": {"field": "table", "type": "nominal", "title": None,
                             "sort": {"field": "order"}}},
        "spec": {
            "width": 300,
            "height": {"step": 22},
            "mark": {"type": "rect"},
            "encoding": {
                "x": {"field": column, "type": "nominal", "title": titles[1], "sort": None},
                "y": {"field": row, "type": "nominal", "title": titles[0], "sort": None},
                "color": {"field": "share", "type": "quantitative",
                          "title": _("synthetic.chart.share"),
                          "scale": {"scheme": "blues"}, "legend": {"format": ".0%"}},
                "tooltip": [
                    {"field": row, "type": "nominal", "title": titles[0]},
                    {"field": column, "type": "nominal", "title": titles[1]},
                    {"field": "share", "type": "quantitative", "format": ".2%"},
                ],
            },
        },
    }  # fmt: skip


def _crosstab_said(frame: pd.DataFrame, row: str, column: str, titles: tuple[str, str]) -> str:
    """The crosstab's text alternative: what it shows and each table's three largest cells."""
    largest = {
        table: [(f"{c[row]} | {c[column]}", percent(c["share"]))
                for _i, c in rows.nlargest(3, "share").iterrows()]
        for table, rows in frame.sort_values("order").groupby("table", sort=False)
    }  # fmt: skip
    return _("synthetic.chart.crosstab_alt", row=titles[0], column=titles[1],
             largest=grouped(largest))  # fmt: skip


def downstream_curve(frame: pd.DataFrame, epsilon: float) -> Spec:
    """Held-out accuracy against ε: trained on the synthetic table, on the real rows, and the
    majority guess."""
    return chart(
        lines(
            "accuracy",
            x=quantitative("x", _("synthetic.chart.epsilon"), log=True),
            y=quantitative("y", _("synthetic.chart.accuracy"), axis=SHARE,
                           scale={"zero": False}),
            color=ordered_series([NOISY_COLOR, GOOD_COLOR, TRUE_COLOR]),
            points=True,
        ),
        rule_x("now"),
        datasets={"accuracy": frame, "now": marker(epsilon, f"ε = {number(epsilon)}")},
        height=280,
        presenter={"height": 230},
    )  # fmt: skip
