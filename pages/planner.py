"""Plan a release: a budget for several statistics, their accuracy, real accounting, and the
OpenDP script that carries the plan out."""

import streamlit as st

from ui.common.sections import Section
from ui.common.shell import page_header
from ui.planner import sections

page_header(
    "Plan a release",
    "We want to publish these statistics: what budget do we need, and how accurate will each "
    "one be?",
    "Switch to “Meet every target” to see the smallest total that meets each row's accuracy, "
    "then tighten the mean's target to ±0.1 and watch which statistic becomes expensive. "
    "Under “What it costs”, compare the same noise under four accountants.",
)
controls = sections.data_controls()
if controls is None:
    st.stop()
sections.explore(
    controls,
    *sections.budget_rule(controls),
    [
        Section("plan", "The plan", sections.the_plan),
        Section("release", "A simulated release", sections.a_simulated_release),
        Section("cost", "What it costs", sections.what_it_costs),
        Section("wild", "ε in the wild", sections.in_the_wild),
        Section("board", "For the board", sections.for_the_board),
    ],
)
sections.closing()
