"""The home page's live example: one noisy count, and why a real release draws once."""

from __future__ import annotations

import streamlit as st

from dp_core import laplace
from ui.common import formatting
from ui.common.shell import page_rng
from ui.common.widgets import epsilon_input

TRUE_COUNT = 5


@st.fragment
def tiny_example() -> None:
    """How many of 65 patients have HIV, released with Laplace noise at the chosen ε."""
    st.subheader("A tiny example: how many of 65 patients have HIV?")
    epsilon = epsilon_input("home_epsilon", default=1.0)
    # One standard draw Z, shown as 5 + Z/ε: moving ε rescales it, so the answer moves smoothly.
    draw = float(laplace.sample_laplace(page_rng("home", "example"), 1.0, 1)[0])
    noisy = TRUE_COUNT + draw / epsilon
    half_width = laplace.laplace_half_width(laplace.laplace_scale(1, epsilon))
    true_column, noisy_column, band_column = st.columns(3)
    true_column.metric("True answer", TRUE_COUNT)
    noisy_column.metric("Published (noisy) answer", formatting.fixed(noisy, 1))
    band_column.metric("95% of answers land within", f"± {formatting.fixed(half_width, 1)}")
    doubled = TRUE_COUNT + draw / (2 * epsilon)
    st.caption(
        "One person joining or leaving changes the count by at most 1; Laplace noise with "
        f"scale 1/ε = {formatting.significant(1 / epsilon)} hides that change. Moving ε here "
        "rescales one random draw, so you can watch the noise shrink. A real curator draws "
        "once and publishes once: published from the same draw at ε = "
        f"{formatting.number(epsilon)} and at ε = {formatting.number(2 * epsilon)}, the answers "
        f"{formatting.fixed(noisy, 4)} and {formatting.fixed(doubled, 4)} would give the count "
        f"away (2 × {formatting.fixed(doubled, 4)} − {formatting.fixed(noisy, 4)} = "
        f"{formatting.fixed(2 * doubled - noisy, 4)}). Every new release needs fresh noise, and "
        "spends its own ε: **Draw new noise** in the sidebar stands for that."
    )
