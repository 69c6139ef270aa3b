"""Charts of the randomized-response page (Vega-Lite specs, see ui.common.charts): the
survey's estimate and its exact distribution, its error against the number asked, local
against central.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ui.common.charts import (
    ACCENT_COLOR,
    NOISY_COLOR,
    SECOND_COLOR,
    TRUE_COLOR,
    Spec,
    chart,
    layer,
    lines,
    marker,
    quantitative,
    rule_x,
    series,
)
from ui.common.formatting import count, fixed
from ui.common.i18n import _
from ui.common.palette import text_color
from ui.local.charts import haloed, log_persons, with_filter


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
        with_filter(
            layer("survey_marks", {"type": "rule", "strokeWidth": 3, "color": TRUE_COLOR}, x=at),
            _TRUTH_ONLY,
        ),
        with_filter(
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
        *haloed(
            layer(
                "survey_interval",
                {**label, "y": 46},
                x={"field": "low", "type": "quantitative"},
                text={"field": "label"},
            )
        ),
        *[
            with_filter(text, _TRUTH_ONLY)
            for text in haloed(
                layer("survey_marks", {**label, "y": 2}, x=at, text={"field": "label"})
            )
        ],
        *[
            with_filter(text, _SURVEY_ONLY)
            for text in haloed(
                layer(
                    "survey_marks",
                    {**label, "y": 24, "color": text_color(ACCENT_COLOR)},
                    x=at,
                    text={"field": "label"},
                )
            )
        ],
    ]


def _persons_axis() -> dict:
    return log_persons("n", _("local.chart.n"))


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
            y=log_persons("error", _("local.chart.central.y")),
            color=series("series", names, [NOISY_COLOR, SECOND_COLOR]),
        ),
        rule_x("local_now"),
        datasets={
            "local_central": frame[frame["error"] > 0],
            "local_now": marker(current_n, f"n = {count(current_n)}"),
        },
        height=400,
    )
