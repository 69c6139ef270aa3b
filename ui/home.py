"""The home page's live example: one noisy count, and why a real release draws once."""

from __future__ import annotations

import streamlit as st

from dp_core import laplace
from ui.common import formatting, live
from ui.common.exercises import exercise_box
from ui.common.i18n import _
from ui.common.shell import page_rng
from ui.common.turns import fragment
from ui.common.widgets import epsilon_setting, epsilon_slider
from ui.home_exercises import EXERCISES, TRUE_COUNT, Example

EPSILON = epsilon_setting("home_epsilon", 1.0)


@fragment
def tiny_example() -> None:
    """How many of 65 patients have HIV, released with Laplace noise at the chosen ε."""
    st.subheader(_("home.example.title"))
    stops = epsilon_slider(EPSILON)
    epsilon = stops.value
    # One standard draw Z, shown as 5 + Z/ε: moving ε rescales it, so the answer moves smoothly.
    example = Example(
        epsilon, float(laplace.sample_laplace(page_rng("home", "example"), 1.0, 1)[0])
    )
    noisy = example.published(epsilon)
    true_column, noisy_column, band_column = st.columns(3)
    true_column.metric(_("home.example.true"), TRUE_COUNT)
    noisy_column.metric(_("home.example.noisy"), formatting.fixed(noisy, 1))
    band_column.metric(
        _("home.example.band"), f"± {formatting.fixed(example.half_width(epsilon), 1)}"
    )

    def caption(epsilon: float) -> str:
        """The answers at ε and 2ε from the same draw, and the truth they give away."""
        first, doubled = example.published(epsilon), example.published(2 * epsilon)
        return _(
            "home.example.caption",
            scale=formatting.significant(1 / epsilon),
            epsilon=formatting.number(epsilon),
            doubled_epsilon=formatting.number(2 * epsilon),
            first=formatting.fixed(first, 4),
            second=formatting.fixed(doubled, 4),
            truth=formatting.fixed(2 * doubled - first, 4),
        )

    live.text([stops], caption, key="home_caption", depends=example.draw, style="caption")
    for exercise in EXERCISES:
        exercise_box(exercise, example)
