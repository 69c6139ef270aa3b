"""The plan in tables and sentences: one line per statistic, every released value, the
accountants' totals. Shared by the page's sections and the board's report."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from dp_core import accountants, planner
from ui.common import formatting
from ui.common.shell import page_rng
from ui.planner import charts as planner_charts

if TYPE_CHECKING:
    from ui.planner.sections import Settings

PAGE = "planner"
MODES = {
    "equal": "Split a total ε equally",
    "weight": "… by weight",
    "minimax": "… to minimise the worst relative error",
    "targets": "Meet every target: the smallest total",
}
CALIBRATIONS = {
    "analytic": "analytic σ (Balle & Wang 2018)",
    "zcdp": "σ as OpenDP certifies (zCDP)",
}


def what(stat: planner.Statistic) -> str:
    spec = stat.spec
    if spec.kind == "count":
        return "count of rows"
    if spec.kind == "histogram":
        return f"rows per `{spec.column}` ({len(stat.labels)} categories)"
    return f"{spec.kind} of `{spec.column}` clipped to [{spec.lower:g}, {spec.upper:g}]"


def scale_text(row: planner.RowPlan) -> str:
    symbol = "b" if row.statistic.spec.mechanism == "laplace" else "σ"
    text = f"{symbol} = {formatting.significant(row.scale)}"
    if row.count_scale is not None:
        text += f" (sum), {formatting.significant(row.count_scale)} (rows)"
    return text


def target_text(stat: planner.Statistic) -> str:
    spec = stat.spec
    if spec.target is None:
        return "—"
    if spec.relative:
        return f"±{formatting.significant(100 * spec.target)}%"
    return f"±{formatting.significant(spec.target)}"


def percent(value: float) -> str:
    return "∞" if not math.isfinite(value) else f"{formatting.significant(100 * value)}%"


def at_noise_precision(value: float, half_width: float) -> str:
    """A value with as many decimals as its noise has (the 95% half-width to 2 digits), so a
    release and the truth differ visibly: 38.458, not 38.5, when the noise is ±0.078."""
    decimals = max(0, 1 - math.floor(math.log10(half_width))) if half_width > 0 else 0
    return formatting.fixed(value, min(decimals, 12))


def true_text(stat: planner.Statistic, half_width: float) -> str:
    if stat.spec.kind == "histogram":
        return f"median {formatting.significant(stat.reference)} of {len(stat.labels)}"
    return at_noise_precision(stat.true_values[0], half_width)


def releases(s: Settings) -> dict[str, np.ndarray]:
    """Each row's simulated release: its standard draws (seeded per row) times its noise."""
    return {
        row.name: planner.simulate_release(
            row, planner.standard_draws(page_rng(PAGE, f"release/{row.name}"), row)
        )
        for row in s.plan.rows
    }


def plan_table(s: Settings, released: dict[str, np.ndarray] | None = None) -> pd.DataFrame:
    """One line per statistic: share, noise, accuracy, and a simulated release."""
    released = released if released is not None else releases(s)
    lines = []
    for row in s.plan.rows:
        stat = row.statistic
        met = row.meets_target
        values = released[row.name]
        lines.append(
            {
                "statistic": row.name,
                "ε_i": formatting.epsilon(row.epsilon),
                "δ_i": formatting.power_of_ten(row.delta),
                "noise scale": scale_text(row),
                "95% ±": formatting.significant(row.half_width),
                "95% ± of the value": percent(row.relative_half_width),
                "expected relative error": percent(row.expected_relative_error),
                "target": target_text(stat),
                "meets it": "—" if met is None else ("yes" if met else "no"),
                "true value": true_text(stat, row.half_width),
                "simulated release": "see “A simulated release”"
                if stat.spec.kind == "histogram"
                else at_noise_precision(float(values[0]), row.half_width),
                "what": what(stat),
                "mechanism": stat.spec.mechanism.capitalize(),
                "sensitivity": formatting.significant(stat.sensitivity),
            }
        )
    return pd.DataFrame(lines)


def screen_table(s: Settings, released: dict[str, np.ndarray]) -> str:
    """The plan as a compact markdown table: light to redraw on every ε step (a canvas data
    grid costs about 200 ms a step in the browser), short enough to read at a glance."""
    header = ["statistic", "Δ", "ε_i", "δ_i", "noise", "95% ±", "± of value",
              "expected rel. error", "target", "true value", "simulated"]  # fmt: skip
    lines = []
    for row in s.plan.rows:
        stat = row.statistic
        met = row.meets_target
        mark = "" if met is None else (" ✓" if met else " ✗")
        symbol = "b" if stat.spec.mechanism == "laplace" else "σ"
        noise = f"{symbol} = {formatting.significant(row.scale)}"
        if row.count_scale is not None:
            noise += f" / {formatting.significant(row.count_scale)}"
        simulated = (
            "see tab 2"
            if stat.spec.kind == "histogram"
            else at_noise_precision(float(released[row.name][0]), row.half_width)
        )
        lines.append(
            [
                row.name,
                formatting.significant(stat.sensitivity),
                formatting.epsilon(row.epsilon),
                formatting.power_of_ten(row.delta),
                noise,
                formatting.significant(row.half_width),
                percent(row.relative_half_width),
                percent(row.expected_relative_error),
                target_text(stat) + mark,
                true_text(stat, row.half_width),
                simulated,
            ]
        )
    return markdown_table(header, lines)


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A markdown table; cell text escaped so a typed name cannot break or format it."""

    def cell(text: str) -> str:
        text = str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
        return "".join(f"\\{c}" if c in "*_`[]<>#~" else c for c in text)

    lines = ["| " + " | ".join(map(cell, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(cell, row)) + " |" for row in rows]
    return "\n".join(lines)


def values_table(s: Settings, released: dict[str, np.ndarray]) -> pd.DataFrame:
    """Every released value beside its true value (histogram cells one by one)."""
    lines = []
    for row in s.plan.rows:
        stat = row.statistic
        for label, truth, value in zip(
            stat.labels, stat.true_values, released[row.name], strict=True
        ):
            lines.append(
                {
                    "statistic": row.name,
                    "category": label if stat.spec.kind == "histogram" else "",
                    "true value": round(truth, 4),
                    "simulated release": round(float(value), 4),
                    "error": round(float(value) - truth, 4),
                    "95% ±": round(row.half_width, 4),
                }
            )
    return pd.DataFrame(lines)


def accuracy_frames(s: Settings) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The accuracy chart's data: each row's 95% half-width and target as a % of its value.

    A statistic whose true value is 0 has no relative accuracy and is left out of the chart
    (the table says ∞). The bars start at a power of ten below every value shown.
    """
    bars, targets = [], []
    for row in s.plan.rows:
        if not math.isfinite(row.relative_half_width):
            continue
        met = row.meets_target
        bars.append(
            {
                "statistic": row.name,
                "relative": 100 * row.relative_half_width,
                "status": planner_charts.STATUS[2 if met is None else (0 if met else 1)],
                "absolute": f"±{formatting.significant(row.half_width)}",
            }
        )
        wanted = row.statistic.target_half_width
        if wanted is not None:
            targets.append(
                {"statistic": row.name, "target": 100 * wanted / row.statistic.reference}
            )
    shown = [b["relative"] for b in bars] + [t["target"] for t in targets]
    lowest = min(shown, default=1.0)
    base = 10.0 ** math.floor(math.log10(lowest)) if lowest > 0 else 1e-3
    for bar in bars:
        bar["base"] = base
    return (
        pd.DataFrame(bars, columns=["statistic", "relative", "base", "status", "absolute"]),
        pd.DataFrame(targets, columns=["statistic", "target"]),
    )


def accounting_frame(found: tuple[accountants.AccountingTotal, ...]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "accountant": [t.name for t in found],
            "total ε": [formatting.epsilon(t.epsilon) for t in found],
            "at δ": [formatting.power_of_ten(t.delta) for t in found],
            "holds for": [t.assumes for t in found],
            "source": [t.source for t in found],
        }
    )


def cost_sentence(found: tuple[accountants.AccountingTotal, ...], delta: float) -> str:
    """“These releases cost ε = … under …, at δ = …”."""
    by_key = {t.key: t for t in found}
    basic = by_key["basic"]
    tighter = [
        f"{formatting.epsilon(t.epsilon)} by {t.name[0].lower() + t.name[1:]}"
        for t in found
        if t.key != "basic"
    ]
    return (
        f"These releases cost ε = {formatting.epsilon(basic.epsilon)} by basic composition "
        f"(δ = {formatting.power_of_ten(basic.delta)}); at δ = {formatting.power_of_ten(delta)} "
        f"they cost ε = {', '.join(tighter)}."
    )
