"""Local frequency estimation: unary encoding and k-ary randomized response over a column."""

import streamlit as st

from ui.common.sections import Section
from ui.common.shell import page_header
from ui.local import frequencies as lf

page_header(
    "Local frequency estimation",
    "How do many people each add noise and still give usable counts?",
    "With the occupations at ε = 1, compare the raw perturbed counts with the debiased ones. "
    "Then switch to k-ary randomized response: with 14 categories it is worse than unary "
    "encoding at ε = 1 and better at ε = 4. The last section shows where the two cross.",
)
respondents = lf.data_controls()
if respondents is None:
    st.stop()
lf.explore(
    respondents,
    [
        Section("reports", "Each person's report", lf.reports),
        Section("counts", "Counts: true, as reported, debiased", lf.counts),
        Section("domain", "More categories: GRR or unary encoding?", lf.domain_size),
    ],
)
lf.closing()
