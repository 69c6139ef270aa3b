"""The attacker page's controls: ε, pure or not, δ and the attacker's prior, in a fragment
with the open section (the page has no data to choose and no guarantee box)."""

from __future__ import annotations

import streamlit as st

from dp_core import gaussian
from ui.attacker.settings import PRIOR, PURE, Settings
from ui.common.address import linked
from ui.common.i18n import _
from ui.common.sections import Section, story
from ui.common.shell import presenter_row
from ui.common.widgets import delta_input, epsilon_input


@st.fragment
def explore(sections: list[Section]) -> None:
    """ε, pure or not, δ, the prior, and the open section: an ε step reruns only this."""
    left, middle, right = presenter_row(1, 1, 1)
    with left:
        epsilon = epsilon_input("attacker_epsilon", default=1.0)
    with middle:
        pure = linked(
            PURE, st.toggle, _("attacker.controls.pure"), help=_("attacker.controls.pure.help")
        )
        delta = 0.0 if pure else delta_input("attacker_delta", default=1e-5)
    prior = linked(
        PRIOR,
        right.slider,
        _("attacker.controls.prior"),
        min_value=0.0,
        max_value=1.0,
        step=0.01,
        format="%.2f",
    )
    sigma = None if pure else gaussian.analytic_gaussian_sigma(1.0, epsilon, delta)
    story("attacker", sections, Settings(epsilon, pure, delta, prior, sigma))
