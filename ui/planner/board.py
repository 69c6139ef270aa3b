"""The plan on one page for a privacy board (ui.common.report): the question, the data and
the unit of privacy, the settings, the guarantee, the accuracy, the accounting, the address."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

import pandas as pd

from data import sources
from dp_core.accountants import AccountingTotal
from ui.common import formatting
from ui.common.release import unit_words
from ui.common.report import Chart, Section, Table, html_report
from ui.planner import charts as planner_charts
from ui.planner import summary

if TYPE_CHECKING:
    from ui.planner.sections import Settings

# The CSV each shipped dataset is read from (data/), for the script's default path.
DATA_FILES = {
    "census": "census.csv",
    "diseases": "diseases.csv",
    "restaurant": "restaurant_week.csv",
    "industry_groups": "industry_groups.csv",
    "tips": "tips.csv",  # written from plotly's copy, see DATA_NOTES
}
DATA_NOTES = {
    "tips": "The tips data ship inside plotly: write them to a file first with `python3 -c "
    "\"import plotly.express as px; px.data.tips().to_csv('tips.csv', index=False)\"`. ",
}


def _settings_table(s: Settings) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "statistic": [row.name for row in s.plan.rows],
            "what": [summary.what(row.statistic).replace("`", "") for row in s.plan.rows],
            "mechanism": [row.statistic.spec.mechanism.capitalize() for row in s.plan.rows],
            "sensitivity": [
                formatting.significant(row.statistic.sensitivity) for row in s.plan.rows
            ],
            "weight": [formatting.number(row.statistic.spec.weight) for row in s.plan.rows],
            "target (95%)": [summary.target_text(row.statistic) for row in s.plan.rows],
        }
    )


def _accuracy_table(s: Settings) -> pd.DataFrame:
    table = summary.plan_table(s)
    keep = [
        "statistic",
        "target",
        "ε_i",
        "δ_i",
        "noise scale",
        "95% ±",
        "95% ± of the value",
        "expected relative error",
        "meets it",
        "true value",
    ]
    return table[keep]


def _accounting_table(found: tuple[AccountingTotal, ...]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "accountant": [t.name for t in found],
            "total ε": [formatting.epsilon(t.epsilon) for t in found],
            "at δ": [formatting.power_of_ten(t.delta) for t in found],
            "source": [t.source for t in found],
        }
    )


def report_html(s: Settings, found: tuple[AccountingTotal, ...], address: str) -> str:
    """The one-page HTML report of the plan (charts as SVG when vl-convert can draw them)."""
    plan, data = s.plan, s.data
    dataset = data.dataset
    if data.path:
        rows = f"{sources.summary(data.origin).rows:,}"
    elif dataset.count_column:
        rows = f"{int(data.frame[dataset.count_column].sum()):,}"
    else:
        rows = f"{len(data.frame):,}"
    categories = ", ".join(
        f"`{column}` {'public (published codes)' if mode == 'public' else 'declared in advance'}"
        for column, mode in s.controls.categories
    )
    label = (
        f"({formatting.epsilon(plan.epsilon)}, {formatting.power_of_ten(plan.delta)})-DP"
        if plan.delta > 0
        else f"{formatting.epsilon(plan.epsilon)}-DP"
    )
    how = summary.MODES[s.mode].replace("…", "Split a total ε")
    sections = [
        Section(
            "The question",
            (
                f"We want to publish {formatting.counted(len(plan.rows), 'statistic')} of "
                f"**{dataset.title}**. What budget do they need, and how accurate will each be? "
                f"How the budget was set: {how[0].lower() + how[1:]}.",
            ),
        ),
        Section(
            "The data and the unit of privacy",
            (
                f"{dataset.title}: {rows} rows. The guarantee protects {unit_words(data)}: "
                "neighbouring datasets differ by one person added or removed with all their "
                f"rows. Each person counts with at most {s.controls.cap} row(s) (the cap"
                + (
                    f"; public rule: {dataset.contribution_rule}"
                    if dataset.contribution_rule
                    else ""
                )
                + ")."
                + (f" Released categories: {categories}." if categories else ""),
            ),
        ),
        Section(
            "Settings",
            (
                Table(
                    _settings_table(s),
                    "Sensitivity: one person's largest effect on the "
                    "released values (L1 for Laplace, L2 for Gaussian).",
                ),
                (
                    f"Gaussian noise: {summary.CALIBRATIONS[s.calibration]}; the total δ is "
                    "shared equally by the Gaussian rows."
                    if s.controls.gaussian
                    else "Laplace noise only: the plan is pure ε-DP."
                ),
            ),
        ),
        Section(
            "The guarantee",
            (
                f"**{label}** for {unit_words(data)}, by basic composition of the "
                f"{len(plan.rows)} releases (Dwork & Roth 2014, Thm 3.16). "
                + summary.cost_sentence(found, found[-1].delta)
                + (
                    " The script's OpenDP maps certify the Gaussian rows in zCDP (ρ = Δ²/2σ²) "
                    "and convert with a bound, so they state a larger ε for them than the "
                    "analytic calibration's ε_i; with “σ as OpenDP certifies” they state "
                    "exactly these ε_i."
                    if s.controls.gaussian and s.calibration == "analytic"
                    else ""
                ),
                Table(_accounting_table(found)),
            ),
        ),
        Section(
            "Accuracy",
            (
                Table(
                    _accuracy_table(s),
                    "95% ±: the noise stays within it 95% of the time "
                    "(Laplace b ln 20, Gaussian 1.96 σ; a mean to first order). Relative "
                    "to the true value (a histogram: its median category).",
                ),
                Chart(
                    planner_charts.accuracy(*summary.accuracy_frames(s)),
                    "95% half-width as a % of the true value; ticks: the targets.",
                    width=520,
                    height=120,
                ),
            ),
        ),
    ]
    return html_report(
        f"Release plan: {dataset.title}",
        sections,
        subtitle=f"DP Explorer, “Plan a release”, {date.today().isoformat()}",
        footer=f"Address of this plan: {address}. The OpenDP script carries it out; the page's "
        "noisy values are teaching draws, not a release.",
    )
