"""The Laplace mechanism: noisy vs true answers, the noise itself, error vs ε, averaging."""

import streamlit as st

from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.sections import Section
from ui.common.shell import page_header
from ui.laplace import sections

header = st.container()  # drawn above the controls, once they say which data were chosen
controls = sections.data_controls()
with header:
    page_header(
        entry("laplace").title,
        entry("laplace").question,
        sections.try_this(None if controls is None else controls[0]),
    )
if controls is None:
    st.stop()
sections.explore(
    *controls,
    [
        Section("answers", _("laplace.section.answers"), sections.noisy_vs_true),
        Section("noise", _("laplace.section.noise"), sections.noise_itself),
        Section("error", _("laplace.section.error"), sections.error_against_epsilon),
        Section("averaging", _("laplace.section.averaging"), sections.averaging_attack),
    ],
)
sections.closing()
