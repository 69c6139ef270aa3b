"""Section 1 of the planner page, “The plan”: each statistic's share of the budget, its noise
and accuracy, and the ZIP download (its contents: plan_export)."""

from __future__ import annotations

import streamlit as st

from ui.common import charts, formatting, live
from ui.common.catalog import entry
from ui.common.exercises import section_exercises
from ui.common.export import Export, export_buttons
from ui.common.i18n import _, n_
from ui.common.release import guarantee_text, unit_words
from ui.common.shell import on_a_phone
from ui.planner import charts as planner_charts
from ui.planner import link, summary
from ui.planner.cost import totals
from ui.planner.exercises import EXERCISES
from ui.planner.settings import PAGE, READ_DELTA, Settings
from ui.planner.table import default_rows


def the_plan(s: Settings) -> None:
    """Section 1: each statistic's share of the budget, noise, accuracy and a simulated release;
    the heading and the accuracy chart follow the ε and δ thumbs (the table, on release)."""
    plan = s.plan
    live.follow_text(s, _heading, key=f"{PAGE}_heading", style="strong")
    cols = st.columns(3)
    cols[0].metric(_("planner.metric.total_epsilon"), formatting.epsilon(plan.epsilon))
    cols[1].metric(_("planner.metric.total_delta"), formatting.power_of_ten(plan.delta))
    worst = summary.widest(plan)
    cols[2].metric(
        _("planner.metric.widest", name=worst.name), summary.percent(worst.relative_half_width)
    )
    released = summary.releases(s)
    phone = on_a_phone()
    if not phone:
        _table(s, released)
    missed = [r.name for r in plan.rows if r.meets_target is False]
    if missed:
        names = _("planner.board.list_separator").join(f"“{name}”" for name in missed)
        st.warning(
            n_("planner.plan.missed", "planner.plan.missed.other", len(missed), names=names),
            icon=":material/warning:",
        )
    accuracy = live.follow_chart(
        s, lambda at: planner_charts.accuracy(*summary.accuracy_frames(at)), key=f"{PAGE}_accuracy"
    )
    st.caption(_("planner.plan.accuracy_note"))
    if phone:
        _table(s, released)
    zip_button(s, released, accuracy)
    section_exercises(EXERCISES, "plan", s)


def _table(s: Settings, released: dict) -> None:
    """The plan's table, its legend and every column: above the accuracy chart, below it on a
    phone (where the chart then comes on the first screens)."""
    st.markdown(summary.screen_table(s, released))
    st.caption(_("planner.plan.legend"))
    full = st.expander(_("planner.plan.every_column"), key=f"{PAGE}_table", on_change="rerun")
    if full.open:
        with full:
            st.dataframe(summary.plan_table(s, released), hide_index=True, width="stretch")


def _heading(s: Settings) -> str:
    """The plan in one sentence: how the budget was set, and its total."""
    plan = s.plan
    total = f"ε = {formatting.epsilon(plan.epsilon)}" + (
        f", δ = {formatting.power_of_ten(plan.delta)}" if plan.delta > 0 else ""
    )
    if s.mode == "targets":
        return _("planner.plan.targets", total=total)
    return _("planner.plan.split", how=_(summary.HOW[s.mode]), total=total)


def zip_button(s: Settings, released: dict, accuracy: charts.Spec) -> None:
    """The ZIP download (CSV, settings, charts), built when pressed; the report is the board's."""
    export_buttons(
        PAGE, s.data, lambda: plan_export(s, released, accuracy), secure=False, report_button=False
    )


def plan_export(s: Settings, released: dict, accuracy: charts.Spec) -> Export:
    """The ZIP's contents: the plan table as on screen (numbers), every setting, the guarantee,
    the accuracy chart and the accountants' chart."""
    found = totals(s.plan.releases, READ_DELTA)
    settings: dict[str, object] = {
        _("planner.export.dataset"): s.data.dataset.title,
        "epsilon": formatting.epsilon(s.plan.epsilon),
        "delta": formatting.power_of_ten(s.plan.delta),
        _("planner.export.how"): _(summary.HOW[s.mode]),
        _("planner.export.cap"): s.controls.cap,
        _("planner.export.rows"): s.controls.rows or link.encode_rows(default_rows(s.data.dataset)),
    }
    if s.controls.gaussian:
        settings[_("planner.export.calibration")] = _(summary.CALIBRATIONS[s.calibration])
    return Export(
        title=_("planner.board.title", dataset=s.data.dataset.title),
        question=entry(PAGE).question,
        table=summary.export_table(s, released),
        settings=settings,
        guarantee=guarantee_text(s.data, s.guarantee, outputs=s.outputs),
        unit=unit_words(s.data),
        charts=[
            ("accuracy", accuracy),
            ("accountants", planner_charts.accountants(summary.accountants_frame(found))),
        ],
        notes=(summary.cost_sentence(found, READ_DELTA),),
    )
