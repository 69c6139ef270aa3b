"""The randomized-response page's coin tree (a Vega-Lite spec, see ui.common.charts).

The tree is a drawing: edges are rule marks as thick as their probability, nodes are points,
labels are text marks placed beside the nodes (never on them). Every number that moves with a
slider sits in a dataset, so a step swaps data and keeps the spec.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from ui.common.charts import (
    ACCENT_COLOR,
    NOISY_COLOR,
    TRUE_COLOR,
    Spec,
    chart,
    layer,
)
from ui.common.formatting import fixed
from ui.common.i18n import _, language
from ui.common.palette import MUTED_COLOR
from ui.local.charts import with_filter

_TREE_X = [-1.15, 3.45]
_TREE_Y = [-2.05, 1.55]


def _scaled(field: str, domain: list[float]) -> dict:
    return {
        "field": field,
        "type": "quantitative",
        "scale": {"domain": domain, "nice": False, "zero": False},
        "axis": None,
    }


def coin_tree(truth_prob: float, random_yes_prob: float) -> Spec:
    """The two-coin game as a tree; each branch is as thick as the chance of walking it.

    Labels sit where no edge or node is: the root's to its left, coin 1's outcomes above and
    below-left of their nodes, the leaves' to their right. The first coin's chances label its
    edges (on their outer side); the second coin's stand in its leaves' labels, so the narrow
    fork after coin 1 carries no text.
    """
    t, y = truth_prob, random_yes_prob
    return chart(
        *_tree_layers(),
        datasets={"tree_edges": _tree_edges(t, y), "tree_nodes": _tree_nodes(t, y)},
        height=380,
        view={"stroke": None},
    )


@functools.cache
def _tree_layers() -> tuple[dict, ...]:
    """The tree's layers, the same for any coins and language (its words are in its data):
    built once, as the tree is drawn at every stop of the coins' sliders (never modified)."""
    x, y_ = _scaled("x", _TREE_X), _scaled("y", _TREE_Y)
    return (*_tree_drawing(x, y_), *_tree_edge_labels(), *_tree_node_labels(x, y_))


# The tree's places: the edges' ends, their labels' anchors halfway along them (on the outer
# side: above a rising edge, below a falling one, so the wedge between branches stays empty)
# and the nodes. Only widths, colours and texts change with the coins.
_STARTS = np.array([(0.0, 0.0), (0.0, 0.0), (1.0, 1.0), (1.0, -1.0), (1.0, -1.0)])
_ENDS = np.array([(1.0, 1.0), (1.0, -1.0), (2.0, 1.0), (2.0, -0.4), (2.0, -1.6)])
_EDGE_PLACES = {
    "x": _STARTS[:, 0],
    "y": _STARTS[:, 1],
    "x2": _ENDS[:, 0],
    "y2": _ENDS[:, 1],
}
_EDGE_LABELS = {
    "lx": (_STARTS[:, 0] + _ENDS[:, 0]) / 2,
    "ly": (_STARTS[:, 1] + _ENDS[:, 1]) / 2,
    "side": np.where(_ENDS[:, 1] > _STARTS[:, 1], "above", "below").astype(object),
}
_NODE_PLACES = {
    "x": np.array([0.0, 1.0, 1.0, 2.0, 2.0, 2.0]),
    "y": np.array([0.0, 1.0, -1.0, 1.0, -0.4, -1.6]),
    "color": np.array([TRUE_COLOR] * 3 + [ACCENT_COLOR] * 3, dtype=object),
    "kind": np.array(["root", "above", "below", "leaf", "leaf", "leaf"], dtype=object),
}


@functools.lru_cache(maxsize=4096)
def _three_decimals(value: float, language: str) -> str:
    """fixed(value, 3) in ``language``, the session's (a key only: fixed reads it), kept: the
    tree is drawn at every stop of the coins' sliders, and most of its numbers recur."""
    return fixed(value, 3)


def _tree_edges(t: float, y: float) -> pd.DataFrame:
    """The five edges: where each starts and ends, its width and colour, and its label."""
    reach = np.array([t, 1 - t, t, (1 - t) * y, (1 - t) * (1 - y)])
    shown = language()
    edge_text = [
        _("local.chart.tree.t", t=_three_decimals(t, shown)),
        _("local.chart.tree.not_t", value=_three_decimals(1 - t, shown)),
        "",
        "",
        "",
    ]
    return pd.DataFrame(
        {
            **_EDGE_PLACES,
            "width": 1 + 14 * reach,
            "color": np.where(reach > 0, NOISY_COLOR, MUTED_COLOR).astype(object),
            **_EDGE_LABELS,
            "text": np.array(edge_text, dtype=object),
        }
    )


def _tree_nodes(t: float, y: float) -> pd.DataFrame:
    """The six nodes: the root, coin 1's two outcomes and the three leaves, with their text."""
    shown = language()
    leaves = [
        _("local.chart.tree.leaf_truth", overall=_three_decimals(t, shown)),
        _(
            "local.chart.tree.leaf_yes",
            y=_three_decimals(y, shown),
            overall=_three_decimals((1 - t) * y, shown),
        ),
        _(
            "local.chart.tree.leaf_no",
            value=_three_decimals(1 - y, shown),
            overall=_three_decimals((1 - t) * (1 - y), shown),
        ),
    ]
    text = [_("local.chart.tree.root"), _("local.chart.tree.truth"), _("local.chart.tree.coin2")]
    return pd.DataFrame({**_NODE_PLACES, "text": np.array([*text, *leaves], dtype=object)})


def _tree_drawing(x: dict, y_: dict) -> list[dict]:
    """The edges as rules as thick as their width, then the nodes as points over them."""
    return [
        layer(
            "tree_edges",
            {"type": "rule", "strokeCap": "round"},
            x=x,
            y=y_,
            x2={"field": "x2"},
            y2={"field": "y2"},
            strokeWidth={"field": "width", "type": "quantitative", "scale": None},
            color={"field": "color", "type": "nominal", "scale": None},
        ),
        layer(
            "tree_nodes",
            {"type": "point", "filled": True, "size": 320, "opacity": 1},
            x=x,
            y=y_,
            color={"field": "color", "type": "nominal", "scale": None},
        ),
    ]


def _tree_edge_labels() -> list[dict]:
    """Coin 1's chances halfway along its edges: above a rising edge, below a falling one."""
    label_x, label_y = _scaled("lx", _TREE_X), _scaled("ly", _TREE_Y)
    text = {"field": "text"}
    edge_label = {"type": "text", "align": "right", "dx": -8}
    return [
        with_filter(
            layer(
                "tree_edges",
                {**edge_label, "baseline": baseline, "dy": dy},
                x=label_x,
                y=label_y,
                text=text,
            ),
            f"datum.text != '' && datum.side == '{side}'",
        )
        for side, baseline, dy in (("above", "bottom", -10), ("below", "top", 10))
    ]


# Where each kind of node has its text: the root's to its left, coin 1's outcomes above and
# below-left of their nodes, the leaves' to their right.
_NODE_LABELS = (
    ("root", {"align": "right", "baseline": "middle", "dx": -18}),
    ("above", {"align": "center", "baseline": "bottom", "dy": -16}),
    ("below", {"align": "right", "baseline": "top", "dx": -16, "dy": 16}),
    ("leaf", {"align": "left", "baseline": "middle", "dx": 18}),
)


def _tree_node_labels(x: dict, y_: dict) -> list[dict]:
    """Each node's text beside it, placed by its kind (_NODE_LABELS)."""
    text = {"field": "text"}
    node_text = {"type": "text", "lineBreak": "\n"}
    return [
        with_filter(
            layer("tree_nodes", {**node_text, **place}, x=x, y=y_, text=text),
            f"datum.kind == '{kind}'",
        )
        for kind, place in _NODE_LABELS
    ]
