"""What the local-DP pages' charts share (Vega-Lite specs, see ui.common.charts): a layer kept
to some rows, text over a white halo, persons on a log axis.

The charts themselves are by what they show: the coin tree (ui.local.rr_tree_chart), the
randomized-response survey's estimate and errors (ui.local.rr_charts), the local frequencies'
counts and domain (ui.local.lf_charts). Every number that moves with a slider sits in a
dataset, so a step swaps data and keeps the spec.
"""

from __future__ import annotations

from ui.common.charts import LOG_LABEL, quantitative


def with_filter(spec: dict, condition: str) -> dict:
    """A layer drawn for the rows where ``condition`` (a Vega expression) holds only."""
    return {**spec, "transform": [{"filter": condition}]}


def haloed(text_layer: dict) -> list[dict]:
    """A text layer drawn over a white copy of itself, so it stays readable over a curve."""
    halo = {**text_layer, "mark": {**text_layer["mark"], "stroke": "white", "strokeWidth": 4}}
    halo["mark"]["color"] = "white"
    return [halo, text_layer]


def log_persons(field: str, title: str) -> dict:
    """Persons on a log axis, its decades written out in full (1,000,000, not 1e+6)."""
    return quantitative(
        field, title, log=True, axis={"labelExpr": LOG_LABEL.replace("'~g'", "',~r'")}
    )
