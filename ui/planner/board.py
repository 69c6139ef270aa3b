"""The plan on one page for a privacy board (ui.common.report): the question, the data and
the unit of privacy, the settings, the guarantee, the accuracy, the accounting, the address."""

from __future__ import annotations

from datetime import date

import pandas as pd

from data import sources
from dp_core import accountants, planner
from dp_core.accountants import AccountingTotal
from ui.common import formatting
from ui.common.export import localized, missing_chart_note
from ui.common.i18n import N_, _, language, n_, sentences
from ui.common.release import guarantee_text, unit_words
from ui.common.report import Chart, Section, Table, html_report
from ui.planner import charts as planner_charts
from ui.planner import summary
from ui.planner.settings import Settings

# The CSV each shipped dataset is read from (data/), for the script's default path.
DATA_FILES = {
    "census": "census.csv",
    "diseases": "diseases.csv",
    "restaurant": "restaurant_week.csv",
    "industry_groups": "industry_groups.csv",
    "tips": "tips.csv",  # written from plotly's copy, see DATA_NOTES
}
DATA_NOTES = {"tips": N_("planner.board.tips_note")}  # how to write a dataset's file first


def _settings_table(s: Settings) -> pd.DataFrame:
    rows = s.plan.rows
    return pd.DataFrame(
        {
            _("planner.col.statistic"): [row.name for row in rows],
            _("planner.col.what"): [summary.what(row.statistic).replace("`", "") for row in rows],
            _("planner.col.mechanism"): [summary.mechanism_name(row.statistic) for row in rows],
            _("planner.col.sensitivity"): [
                formatting.significant(row.statistic.sensitivity) for row in rows
            ],
            _("planner.table.weight"): [
                formatting.number(row.statistic.spec.weight) for row in rows
            ],
            _("planner.board.target"): [summary.target_text(row.statistic) for row in rows],
        }
    )


def _accuracy_table(s: Settings) -> pd.DataFrame:
    table = summary.plan_table(s)
    certified = _("planner.col.certified")  # in the plan table when it differs from ε_i
    keep = [
        _("planner.col.statistic"),
        _("planner.col.target"),
        "ε_i",
        "δ_i",
        *([certified] if certified in table.columns else []),
        _("planner.col.noise_scale"),
        _("planner.col.half_width"),
        _("planner.col.relative"),
        _("planner.col.expected"),
        _("planner.col.meets"),
        _("planner.col.true"),
    ]
    return table[keep]


def data_rows(s: Settings) -> str:
    """The number of rows of the data, grouped (a count table's summed counts)."""
    data, dataset = s.data, s.data.dataset
    if data.path:
        return formatting.count(sources.summary(data.origin).rows)
    if dataset.count_column:
        return formatting.count(int(data.frame[dataset.count_column].sum()))
    return formatting.count(len(data.frame))


def guarantee_label(s: Settings) -> str:
    """(ε, δ)-DP or ε-DP of the whole plan."""
    plan = s.plan
    bound = formatting.epsilon_bound(plan.epsilon)
    if plan.delta > 0:
        return f"({bound}, {formatting.power_of_ten(plan.delta)})-DP"
    return f"{bound}-DP"


def _data_text(s: Settings) -> str:
    dataset = s.data.dataset
    categories = _("planner.board.list_separator").join(
        _("planner.board.category_public", column=column)
        if mode == "public"
        else _("planner.board.category_declared", column=column)
        for column, mode in s.controls.categories
    )
    text = _(
        "planner.board.data",
        dataset=dataset.title,
        rows=data_rows(s),
        unit=unit_words(s.data),
        cap=formatting.count(s.controls.cap),
    )
    more = (
        [_("planner.board.rule", rule=dataset.contribution_rule)]
        if dataset.contribution_rule
        else []
    )
    if categories:
        more.append(_("planner.board.categories", categories=categories))
    return sentences(text, *more)


def _certified_text(s: Settings) -> str:
    """The total ε the OpenDP script's maps certify (the sum of its rows' certified ε_i)."""
    plan = s.plan
    certified = planner.certified_total(plan)
    if not summary.certified_differs(plan):
        return _("planner.board.certified_same", epsilon=formatting.epsilon(plan.epsilon))
    return _(
        "planner.board.certified_differs",
        certified=formatting.epsilon(certified),
        delta=formatting.power_of_ten(plan.delta),
        column=_("planner.col.certified"),
        epsilon=formatting.epsilon(plan.epsilon),
    )


def _guarantee_text(s: Settings, found: tuple[AccountingTotal, ...]) -> str:
    if not s.guarantee.differentially_private:  # what was read from the data comes first
        statement = guarantee_text(s.data, s.guarantee, outputs=s.outputs)
        return sentences(statement, summary.cost_sentence(found, found[-1].delta))
    text = _(
        "planner.board.guarantee",
        label=guarantee_label(s),
        unit=unit_words(s.data),
        count=formatting.count(len(s.plan.rows)),
    )
    more = [summary.cost_sentence(found, found[-1].delta)]
    if s.controls.gaussian and s.calibration == "analytic":
        more.append(_("planner.board.opendp_gaussian"))
    return sentences(text, *more)


def report_html(s: Settings, found: tuple[AccountingTotal, ...], address: str) -> str:
    """The one-page HTML report of the plan (ui.common.report draws its chart, in the reader's
    number symbols)."""
    plan, dataset = s.plan, s.data.dataset
    rho = accountants.total_rho(plan.releases)
    sections = [
        Section(
            _("planner.board.question"),
            (
                n_(
                    "planner.board.question_text",
                    "planner.board.question_text.other",
                    len(plan.rows),
                    dataset=dataset.title,
                    how=_(summary.HOW[s.mode]),
                ),
            ),
        ),
        Section(_("planner.board.data_title"), (_data_text(s),)),
        Section(
            _("planner.board.settings"),
            (
                Table(_settings_table(s), _("planner.board.sensitivity_note")),
                _(
                    "planner.board.gaussian",
                    calibration=_(summary.CALIBRATIONS[s.calibration]),
                )
                if s.controls.gaussian
                else _("planner.board.laplace_only"),
                _certified_text(s),
            ),
        ),
        Section(
            _("planner.board.guarantee_title"),
            (_guarantee_text(s, found), Table(summary.accounting_frame(found, rho, assumes=False))),
        ),
        Section(
            _("planner.board.accuracy"),
            (
                Table(_accuracy_table(s), _("planner.board.accuracy_note")),
                Chart(
                    localized(planner_charts.accuracy(*summary.accuracy_frames(s))),
                    _("planner.board.chart_note"),
                    width=520,
                    height=120,
                ),
            ),
        ),
    ]
    return html_report(
        _("planner.board.title", dataset=dataset.title),
        sections,
        subtitle=_("planner.board.subtitle", day=date.today().isoformat()),
        footer=_("planner.board.footer", address=address),
        language=language(),
        missing_chart=missing_chart_note(),
    )
