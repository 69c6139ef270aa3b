"""The exponential mechanism: the live probability table, several ε side by side, how often
the answer is right (three mechanisms), and the count ÷ largest-count pitfall."""

import streamlit as st

from ui.common.sections import Section
from ui.common.shell import page_header
from ui.exponential import sections

page_header(
    "Exponential mechanism",
    "How likely is a private “which is most common?” to give the right answer?",
    "Keep the diseases and set ε to 0.1, then to 1: the table reproduces the textbook "
    "(Flu 0.399, then 0.881; HIV 8.9e-06). Then pick the industry groups: at ε = 0.1 the "
    "right group comes out 95% of the time. Last, open the sensitivity pitfall.",
)
candidates = sections.candidate_controls()
if candidates is None:
    st.stop()
sections.explore(
    candidates,
    [
        Section("table", "The probability table", sections.probability_table),
        Section("epsilons", "Several ε side by side", sections.several_epsilons),
        Section("right", "How often is the answer right?", sections.how_often_right),
        Section("pitfall", "The sensitivity pitfall", sections.sensitivity_pitfall),
    ],
)
sections.closing()
