"""Section 3 of the planner page, “What it costs”: the plan's total by basic, optimal, zCDP
and PLD accounting, side by side, read at a δ the reader may move."""

from __future__ import annotations

import functools

import streamlit as st

from dp_core import accountants
from ui.common import charts, formatting
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.common.turns import fragment
from ui.common.widgets import delta_input
from ui.planner import charts as planner_charts
from ui.planner import summary
from ui.planner.declared import READ
from ui.planner.exercises import EXERCISES
from ui.planner.messages import planner_error
from ui.planner.settings import PAGE, Costs, Settings


@functools.lru_cache(maxsize=64)
def totals(
    releases: tuple[accountants.NoiseRelease, ...], delta: float
) -> tuple[accountants.AccountingTotal, ...]:
    """Every accountant's total for these releases at delta (cached: PLDs take ~0.1-1 s)."""
    return accountants.compare_accountants(releases, delta)


@fragment(key=f"{PAGE}_costs_section")
def what_it_costs(s: Settings) -> None:
    """Section 3: the plan's total by basic, optimal, zCDP and PLD accounting, side by side."""
    delta = delta_input(READ, label=_("planner.cost.delta"), help=_("planner.cost.delta.help"))
    try:
        with st.spinner(_("planner.cost.spinner")):
            found = totals(s.plan.releases, delta)
    except ValueError as error:
        st.error(_("planner.cost.error", error=planner_error(error)), icon=":material/error:")
        return
    st.markdown(f"**{summary.cost_sentence(found, delta)}**")
    charts.show(
        planner_charts.accountants(summary.accountants_frame(found)), key=f"{PAGE}_accountants"
    )
    rho = accountants.total_rho(s.plan.releases)
    st.dataframe(summary.accounting_frame(found, rho), hide_index=True, width="stretch")
    basic_delta = s.plan.delta
    if basic_delta > delta:
        st.warning(
            _(
                "planner.cost.below",
                delta=formatting.power_of_ten(delta),
                plan_delta=formatting.power_of_ten(basic_delta),
            ),
            icon=":material/warning:",
        )
    st.caption(_("planner.cost.note"))
    section_exercises(EXERCISES, "cost", Costs(s, delta, found))
