"""Contribution bounding: caps per person, clipping, pre-aggregation, and what the week costs."""

import streamlit as st

from ui.bounding import inputs, sections
from ui.common.shell import page_header

page_header(
    "Contribution bounding",
    "How many records per person should count, how far should values be clipped, and what "
    "does a week of daily statistics cost in privacy?",
    "Set the cap on days per visitor to 3: 157 visits are dropped. Then choose “All days at "
    "once” and type ε = 0.02: the best cap (the star, under “Bias against noise”) falls to 3, "
    "because with less budget the noise a fourth day brings costs more than the visits it "
    "keeps.",
)
controls = inputs.data_controls()
if controls is None:
    st.stop()
data, choices = controls
sections.explore(data, choices, sections.story_sections(data.words))
sections.closing(data.words)
