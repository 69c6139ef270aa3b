"""The plan in tables and sentences: one line per statistic, every released value, the
accountants' totals. Shared by the page's sections and the board's report."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dp_core import accountants, planner
from ui.common import formatting
from ui.common.i18n import N_, _, n_
from ui.common.labels import category_label
from ui.common.shell import page_rng
from ui.planner import charts as planner_charts
from ui.planner.settings import PAGE, Settings
from ui.planner.table import MECHANISMS

MODES = {  # key -> message id
    "equal": N_("planner.mode.equal"),
    "weight": N_("planner.mode.weight"),
    "minimax": N_("planner.mode.minimax"),
    "targets": N_("planner.mode.targets"),
}
HOW = {  # the budget rule as a phrase: "split a total ε equally"
    "equal": N_("planner.how.equal"),
    "weight": N_("planner.how.weight"),
    "minimax": N_("planner.how.minimax"),
    "targets": N_("planner.how.targets"),
}
CALIBRATIONS = {
    "analytic": N_("planner.calibration.analytic"),
    "zcdp": N_("planner.calibration.zcdp"),
}
# Each accountant's name and what it needs to hold (dp_core.accountants keys); {rho}: total ρ.
ACCOUNTANTS = {
    "basic": (N_("planner.accountant.basic"), N_("planner.accountant.basic.assumes")),
    "optimal": (N_("planner.accountant.optimal"), N_("planner.accountant.optimal.assumes")),
    "zcdp_bs": (N_("planner.accountant.zcdp_bs"), N_("planner.accountant.zcdp.assumes")),
    "zcdp": (N_("planner.accountant.zcdp"), N_("planner.accountant.zcdp.assumes")),
    "pld": (N_("planner.accountant.pld"), N_("planner.accountant.pld.assumes")),
    "gaussian": (N_("planner.accountant.gaussian"), N_("planner.accountant.gaussian.assumes")),
}


def accountant_name(total: accountants.AccountingTotal) -> str:
    """The accountant's name in the reader's language."""
    return _(ACCOUNTANTS[total.key][0])


def _assumes(total: accountants.AccountingTotal, rho: float) -> str:
    return _(ACCOUNTANTS[total.key][1], rho=formatting.significant(rho, 4))


def what(stat: planner.Statistic) -> str:
    """What a statistic releases, in words (column names in backticks)."""
    spec = stat.spec
    if spec.kind == "count":
        return _("planner.what.count")
    if spec.kind == "histogram":
        return n_(
            "planner.what.histogram", "planner.what.histogram.other", len(stat.labels),
            column=spec.column,
        )  # fmt: skip
    bounds = {"lower": formatting.number(spec.lower), "upper": formatting.number(spec.upper)}
    if spec.kind == "sum":
        return _("planner.what.sum", column=spec.column, **bounds)
    return _("planner.what.mean", column=spec.column, **bounds)


def mechanism_name(stat: planner.Statistic) -> str:
    return _(MECHANISMS[stat.spec.mechanism])


def scale_text(row: planner.RowPlan) -> str:
    symbol = "b" if row.statistic.spec.mechanism == "laplace" else "σ"
    text = f"{symbol} = {formatting.significant(row.scale)}"
    if row.count_scale is not None:
        text = _(
            "planner.scale.mean",
            scale=text,
            rows=formatting.significant(row.count_scale),
        )
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
    return formatting.fixed(value, noise_decimals(half_width))


def noise_decimals(half_width: float) -> int:
    """The decimals that show a value to its noise's precision (the half-width to 2 digits)."""
    decimals = max(0, 1 - math.floor(math.log10(half_width))) if half_width > 0 else 0
    return min(decimals, 12)


def true_text(stat: planner.Statistic, half_width: float) -> str:
    if stat.spec.kind == "histogram":
        return _(
            "planner.true.histogram",
            median=formatting.significant(stat.reference),
            count=formatting.count(len(stat.labels)),
        )
    return at_noise_precision(stat.true_values[0], half_width)


def certified_differs(plan: planner.Plan) -> bool:
    """Whether some row's ε that the OpenDP script certifies (planner.certified_epsilon) differs
    from its ε_i as shown (4 significant digits): Gaussian rows with the analytic σ."""
    return any(
        formatting.epsilon(planner.certified_epsilon(row)) != formatting.epsilon(row.epsilon)
        for row in plan.rows
    )


def widest(plan: planner.Plan) -> planner.RowPlan:
    """The row with the widest 95% half-width relative to its value (the worst relative error)."""
    return max(plan.rows, key=lambda row: row.relative_half_width)


def standard_draws(s: Settings) -> dict[str, np.ndarray]:
    """Each row's standard draws, seeded per row: the same at every ε and δ."""
    return {
        row.name: planner.standard_draws(page_rng(PAGE, f"release/{row.name}"), row)
        for row in s.plan.rows
    }


def releases(s: Settings, draws: dict[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
    """Each row's simulated release: its standard draws times its noise (dp_core.planner)."""
    draws = standard_draws(s) if draws is None else draws
    return {row.name: planner.simulate_release(row, draws[row.name]) for row in s.plan.rows}


def plan_table(s: Settings, released: dict[str, np.ndarray] | None = None) -> pd.DataFrame:
    """One line per statistic: share, noise, accuracy, and a simulated release (as text); the ε
    the OpenDP script certifies beside ε_i when some row's differs (``certified_differs``)."""
    released = released if released is not None else releases(s)
    certified = certified_differs(s.plan)
    lines = []
    for row in s.plan.rows:
        stat = row.statistic
        met = row.meets_target
        values = released[row.name]
        line = {
            _("planner.col.statistic"): row.name,
            "ε_i": formatting.epsilon(row.epsilon),
            "δ_i": formatting.power_of_ten(row.delta),
        }
        if certified:
            line[_("planner.col.certified")] = formatting.epsilon(planner.certified_epsilon(row))
        line.update(
            {
                _("planner.col.noise_scale"): scale_text(row),
                _("planner.col.half_width"): formatting.significant(row.half_width),
                _("planner.col.relative"): percent(row.relative_half_width),
                _("planner.col.expected"): percent(row.expected_relative_error),
                _("planner.col.target"): target_text(stat),
                _("planner.col.meets"): "—"
                if met is None
                else (_("planner.yes") if met else _("planner.no")),
                _("planner.col.true"): true_text(stat, row.half_width),
                _("planner.col.simulated"): _("planner.col.simulated.see")
                if stat.spec.kind == "histogram"
                else at_noise_precision(float(values[0]), row.half_width),
                _("planner.col.what"): what(stat),
                _("planner.col.mechanism"): mechanism_name(stat),
                _("planner.col.sensitivity"): formatting.significant(stat.sensitivity),
            }
        )
        lines.append(line)
    return pd.DataFrame(lines)


def _sig(value: float, digits: int = 4) -> float:
    """A number rounded to ``digits`` significant digits (for a CSV: sensible precision)."""
    return float(f"{value:.{digits}g}") if math.isfinite(value) else value


def export_table(s: Settings, released: dict[str, np.ndarray] | None = None) -> pd.DataFrame:
    """The plan table of the screen as numbers for a CSV: the same columns, a percentage as a
    percentage (the header says %), 4 significant digits, a value to its noise's precision.
    The ε the OpenDP script certifies for each row is always there (equal to ε_i for Laplace
    rows and the zCDP calibration)."""
    released = released if released is not None else releases(s)
    lines = []
    for row in s.plan.rows:
        stat, spec = row.statistic, row.statistic.spec
        met = row.meets_target
        histogram = spec.kind == "histogram"
        lines.append(
            {
                _("planner.col.statistic"): row.name,
                _("planner.col.what"): what(stat).replace("`", ""),
                _("planner.col.mechanism"): mechanism_name(stat),
                "Δ": _sig(stat.sensitivity),
                "ε_i": _sig(row.epsilon),
                "δ_i": _sig(row.delta, 3),
                _("planner.col.certified"): _sig(planner.certified_epsilon(row)),
                _("planner.csv.noise"): _sig(row.scale, 3),
                _("planner.csv.noise_rows"): None
                if row.count_scale is None
                else _sig(row.count_scale, 3),
                _("planner.col.half_width"): _sig(row.half_width, 3),
                _("planner.csv.relative"): _sig(100 * row.relative_half_width, 3),
                _("planner.csv.expected"): _sig(100 * row.expected_relative_error, 3),
                _("planner.col.target"): target_text(stat),
                _("planner.col.meets"): ""
                if met is None
                else (_("planner.yes") if met else _("planner.no")),
                _("planner.csv.true"): _sig(stat.reference, 6)
                if histogram
                else round(float(stat.true_values[0]), noise_decimals(row.half_width)),
                _("planner.col.simulated"): None
                if histogram
                else round(float(released[row.name][0]), noise_decimals(row.half_width)),
            }
        )
    return pd.DataFrame(lines)


def screen_table(s: Settings, released: dict[str, np.ndarray]) -> str:
    """The plan as a compact markdown table: light to redraw on every ε step (a canvas data
    grid costs about 200 ms a step in the browser), short enough to read at a glance."""
    header = [_("planner.col.statistic"), "Δ", "ε_i", "δ_i", _("planner.screen.noise"),
              _("planner.col.half_width"), _("planner.screen.relative"),
              _("planner.screen.expected"), _("planner.col.target"), _("planner.col.true"),
              _("planner.screen.simulated")]  # fmt: skip
    certified = certified_differs(s.plan)  # the column only where it says something
    if certified:
        header.append(_("planner.col.certified"))
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
            _("planner.screen.see_tab")
            if stat.spec.kind == "histogram"
            else at_noise_precision(float(released[row.name][0]), row.half_width)
        )
        cells = [
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
        if certified:
            cells.append(formatting.epsilon(planner.certified_epsilon(row)))
        lines.append(cells)
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
        column = stat.spec.column or ""
        for label, truth, value in zip(
            stat.labels, stat.true_values, released[row.name], strict=True
        ):
            lines.append(
                {
                    _("planner.col.statistic"): row.name,
                    _("planner.values.category"): category_label(column, label)
                    if stat.spec.kind == "histogram"
                    else "",
                    _("planner.col.true"): round(truth, 4),
                    _("planner.col.simulated"): round(float(value), 4),
                    _("planner.values.error"): round(float(value) - truth, 4),
                    _("planner.col.half_width"): round(row.half_width, 4),
                }
            )
    return pd.DataFrame(lines)


def accuracy_frames(s: Settings) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The accuracy chart's data: each row's 95% half-width and target as a % of its value.

    A statistic whose true value is 0 has no relative accuracy and is left out of the chart
    (the table says ∞). The bars start at a power of ten below every value shown. The status
    column holds the legend's words in the reader's language.
    """
    bars, targets = [], []
    statuses = [_(status) for status in planner_charts.STATUS]
    for row in s.plan.rows:
        if not math.isfinite(row.relative_half_width):
            continue
        met = row.meets_target
        bars.append(
            {
                "statistic": row.name,
                "relative": 100 * row.relative_half_width,
                "status": statuses[2 if met is None else (0 if met else 1)],
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


def accountants_frame(found: tuple[accountants.AccountingTotal, ...]) -> pd.DataFrame:
    """The accountants chart's data: each total, its label, and room for the longest label."""
    frame = pd.DataFrame(
        {
            "accountant": [accountant_name(t) for t in found],
            "epsilon": [t.epsilon if math.isfinite(t.epsilon) else None for t in found],
            "label": [f"ε = {formatting.epsilon(t.epsilon)}" for t in found],
        }
    )
    frame["pad"] = 1.25 * float(frame["epsilon"].max())
    return frame


def accounting_frame(
    found: tuple[accountants.AccountingTotal, ...], rho: float, *, assumes: bool = True
) -> pd.DataFrame:
    """The accountants' totals as a table (``rho``: the plan's total zCDP ρ)."""
    columns = {
        _("planner.accounting.accountant"): [accountant_name(t) for t in found],
        _("planner.accounting.total"): [formatting.epsilon(t.epsilon) for t in found],
        _("planner.accounting.delta"): [formatting.power_of_ten(t.delta) for t in found],
    }
    if assumes:
        columns[_("planner.accounting.holds")] = [_assumes(t, rho) for t in found]
    columns[_("planner.accounting.source")] = [t.source for t in found]
    return pd.DataFrame(columns)


def cost_sentence(found: tuple[accountants.AccountingTotal, ...], delta: float) -> str:
    """“These releases cost ε = … by basic composition; at δ = … they cost …”."""
    basic = next(t for t in found if t.key == "basic")
    tighter = [
        _("planner.cost.item", epsilon=formatting.epsilon(t.epsilon), name=accountant_name(t))
        for t in found
        if t.key != "basic"
    ]
    return _(
        "planner.cost.sentence",
        epsilon=formatting.epsilon(basic.epsilon),
        basic_delta=formatting.power_of_ten(basic.delta),
        delta=formatting.power_of_ten(delta),
        tighter=_("planner.cost.separator").join(tighter),
    )
