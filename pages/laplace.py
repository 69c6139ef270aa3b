"""The Laplace mechanism: noisy vs true answers, the noise itself, error vs ε, averaging."""

import streamlit as st

from ui.common.sections import Section
from ui.common.shell import page_header
from ui.laplace import sections

page_header(
    "Laplace mechanism",
    "How much noise does epsilon cost, and how wrong are the published answers?",
    "Set ε to 0.1, then to 10, and watch the error bars. Then count a small category "
    "(HIV in the diseases data) and compare its relative error with the largest one.",
)
controls = sections.data_controls()
if controls is None:
    st.stop()
sections.explore(
    *controls,
    [
        Section("answers", "Noisy vs true answers", sections.noisy_vs_true),
        Section("noise", "The noise itself", sections.noise_itself),
        Section("error", "Error against ε", sections.error_against_epsilon),
        Section("averaging", "The averaging attack", sections.averaging_attack),
    ],
)
sections.closing()
