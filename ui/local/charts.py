"""Charts of the local-DP pages (Vega-Lite specs, see ui.common.charts).

The coin tree is a drawing: edges are rule marks as thick as their probability, nodes are
points, labels are text marks placed beside the nodes (never on them). Every number that moves
with a slider sits in a dataset, so a step swaps data and keeps the spec.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ui.common.charts import (
    ACCENT_COLOR,
    LOG_LABEL,
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
from ui.common.formatting import count, fixed
from ui.common.i18n import _, language

MUTED_COLOR = "#c4ccd6"
_TREE_X = [-1.15, 3.45]
_TREE_Y = [-2.05, 1.55]


def _with_filter(spec: dict, condition: str) -> dict:
    return {**spec, "transform": [{"filter": condition}]}


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
        _with_filter(
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
        _with_filter(
            layer("tree_nodes", {**node_text, **place}, x=x, y=y_, text=text),
            f"datum.kind == '{kind}'",
        )
        for kind, place in _NODE_LABELS
    ]


def _haloed(text_layer: dict) -> list[dict]:
    """A text layer drawn over a white copy of itself, so it stays readable over a curve."""
    halo = {**text_layer, "mark": {**text_layer["mark"], "stroke": "white", "strokeWidth": 4}}
    halo["mark"]["color"] = "white"
    return [halo, text_layer]


def estimate_distribution(
    values: np.ndarray,
    probs: np.ndarray,
    truth: float,
    estimate: float,
    interval: tuple[float, float],
) -> Spec:
    """Exact distribution of the debiased estimate, with the truth and this survey's answer."""
    name = _("local.chart.survey.curve")
    return chart(
        _survey_shapes(name),
        _survey_labels(),
        datasets=_survey_datasets(values, probs, truth, estimate, interval, name),
        height=360,
    )


_TRUTH_ONLY, _SURVEY_ONLY = "datum.which == 'truth'", "datum.which == 'survey'"


def _survey_datasets(
    values: np.ndarray,
    probs: np.ndarray,
    truth: float,
    estimate: float,
    interval: tuple[float, float],
    name: str,
) -> dict[str, pd.DataFrame]:
    """The curve's visible bulk, the interval, the two marks and the room above the peak."""
    shown = probs >= probs.max() * 1e-5  # the visible bulk; the tails are drawn as zero
    curve = pd.DataFrame({"x": values[shown], "y": probs[shown], "series": name})
    low, high = interval
    shade = pd.DataFrame(
        {"low": [low], "high": [high], "label": [_("local.chart.survey.interval")]}
    )
    marks = pd.DataFrame(
        {
            "x": [truth, estimate],
            "label": [
                _("local.chart.survey.truth", value=fixed(truth)),
                _("local.chart.survey.estimate", value=fixed(estimate, 1)),
            ],
            "which": ["truth", "survey"],
        }
    )
    return {
        "estimate_curve": curve,
        "survey_interval": shade,
        "survey_marks": marks,
        "survey_headroom": pd.DataFrame({"x": [truth], "y": [1.4 * float(probs.max())]}),
    }


def _survey_shapes(name: str) -> list[dict]:
    """The interval's band, the curve, room for the labels, and the truth's and the survey's
    lines."""
    x = quantitative("x", _("local.chart.survey.x"), scale={"zero": False})
    at = {"field": "x", "type": "quantitative"}
    return [
        layer(
            "survey_interval",
            {"type": "rect", "opacity": 0.2, "color": SECOND_COLOR},
            x={"field": "low", "type": "quantitative"},
            x2={"field": "high"},
        ),
        layer(
            "estimate_curve",
            {"type": "area", "opacity": 0.45, "line": True},
            x=x,
            y=quantitative("y", _("local.chart.survey.y")),
            color=series("series", [name], [NOISY_COLOR]),
        ),
        # an invisible point above the peak leaves room for the labels at the top
        layer("survey_headroom", {"type": "point", "opacity": 0}, x=at, y={**at, "field": "y"}),
        _with_filter(
            layer("survey_marks", {"type": "rule", "strokeWidth": 3, "color": TRUE_COLOR}, x=at),
            _TRUTH_ONLY,
        ),
        _with_filter(
            layer(
                "survey_marks",
                {"type": "rule", "strokeWidth": 3, "strokeDash": [6, 4], "color": ACCENT_COLOR},
                x=at,
            ),
            _SURVEY_ONLY,
        ),
    ]


def _survey_labels() -> list[dict]:
    """The interval's, the truth's and the survey's labels at the top, each over a halo."""
    at = {"field": "x", "type": "quantitative"}
    label = {"type": "text", "align": "left", "baseline": "top", "dx": 5}
    return [
        *_haloed(
            layer(
                "survey_interval",
                {**label, "y": 46},
                x={"field": "low", "type": "quantitative"},
                text={"field": "label"},
            )
        ),
        *[
            _with_filter(text, _TRUTH_ONLY)
            for text in _haloed(
                layer("survey_marks", {**label, "y": 2}, x=at, text={"field": "label"})
            )
        ],
        *[
            _with_filter(text, _SURVEY_ONLY)
            for text in _haloed(
                layer(
                    "survey_marks",
                    {**label, "y": 24, "color": ACCENT_COLOR},
                    x=at,
                    text={"field": "label"},
                )
            )
        ],
    ]


def _log_persons(field: str, title: str) -> dict:
    """Persons on a log axis, its decades written out in full (1,000,000, not 1e+6)."""
    return quantitative(
        field, title, log=True, axis={"labelExpr": LOG_LABEL.replace("'~g'", "',~r'")}
    )


def _persons_axis() -> dict:
    return _log_persons("n", _("local.chart.n"))


def share_error_against_n(
    n_grid: np.ndarray,
    standard_errors: np.ndarray,
    simulated_n: np.ndarray,
    simulated_errors: np.ndarray,
    current_n: int,
) -> Spec:
    """Exact standard error of the estimated share against n, with simulated RMS errors.

    Errors are shown in percentage points on a log axis; zero errors (no noise) are left out.
    """
    names = [_("local.chart.share.exact"), _("local.chart.share.simulated")]
    colors = series("series", names, [NOISY_COLOR, SECOND_COLOR])
    y = quantitative("error", _("local.chart.share.y"), log=True)
    return chart(
        lines("share_exact", x=_persons_axis(), y=y, color=colors),
        layer(
            "share_simulated",
            {"type": "point", "shape": "diamond", "size": 170, "filled": True, "opacity": 1},
            x=_persons_axis(),
            y=y,
            color=colors,
        ),
        rule_x("share_now"),
        datasets={
            "share_exact": _positive(n_grid, 100 * standard_errors, names[0]),
            "share_simulated": _positive(simulated_n, 100 * simulated_errors, names[1]),
            "share_now": marker(current_n, f"n = {count(current_n)}"),
        },
        height=380,
    )


def _positive(n: np.ndarray, errors: np.ndarray, name: str) -> pd.DataFrame:
    """A series' errors against n where they are above 0 (a log axis has no 0)."""
    shown = errors > 0
    return pd.DataFrame({"n": n[shown], "error": errors[shown], "series": name})


def local_vs_central(
    n_grid: np.ndarray, local_errors: np.ndarray, central_error: float, current_n: int
) -> Spec:
    """Expected absolute error of a count, local vs central, on log axes."""
    names = [_("local.chart.central.local"), _("local.chart.central.central")]
    frame = pd.concat(
        [
            pd.DataFrame({"n": n_grid, "error": local_errors, "series": names[0]}),
            pd.DataFrame({"n": n_grid, "error": central_error, "series": names[1]}),
        ],
        ignore_index=True,
    )
    return chart(
        lines(
            "local_central",
            x=_persons_axis(),
            y=_log_persons("error", _("local.chart.central.y")),
            color=series("series", names, [NOISY_COLOR, SECOND_COLOR]),
        ),
        rule_x("local_now"),
        datasets={
            "local_central": frame[frame["error"] > 0],
            "local_now": marker(current_n, f"n = {count(current_n)}"),
        },
        height=400,
    )


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
            y=_log_persons("error", _("local.chart.domain.y")),
            color=series("series", names, [NOISY_COLOR, SECOND_COLOR, TRUE_COLOR][: len(names)]),
        ),
        layer(
            "domain_crossover",
            {"type": "rule", "strokeDash": [2, 3], "strokeWidth": 2, "color": TRUE_COLOR},
            x=at,
        ),
        _haloed(foot_label("domain_crossover", at)),
        rule_x("domain_now"),
        datasets={
            "domain_curves": frame,
            "domain_crossover": cross if inside else cross.iloc[0:0],
            "domain_now": marker(current_k, _("local.chart.domain.now", k=current_k)),
        },
        height=400,
    )
