"""The attacker page's controls: ε, pure or not, δ and the attacker's prior, in a fragment
with the open section (the page has no data to choose and no guarantee box). The charts follow
the ε and δ thumbs while they are dragged (ui.common.live).

The prior stays a plain slider, which no chart follows: as a select_slider its 101 stops would
rebuild the posterior chart 101 times at every ε step (0.3 s of server time, measured, against
0.04 s today) and send its curves 101 more times for one marker's move."""

from __future__ import annotations

import streamlit as st

from ui.attacker.settings import DELTA, EPSILON, PRIOR, PURE, Settings
from ui.common.address import linked
from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.sections import Section, story
from ui.common.shell import presenter_row
from ui.common.turns import fragment
from ui.common.widgets import delta_slider, epsilon_slider


@fragment
def explore(sections: list[Section]) -> None:
    """ε, pure or not, δ, the prior, and the open section: an ε step reruns only this."""
    left, middle, right = presenter_row(1, 1, 1)
    with left:
        epsilon = epsilon_slider(EPSILON)
    with middle:
        pure = linked(
            PURE, st.toggle, _("attacker.controls.pure"), help=_("attacker.controls.pure.help")
        )
        delta = None if pure else delta_slider(DELTA)
    prior = linked(
        PRIOR,
        right.slider,
        _("attacker.controls.prior"),
        min_value=0.0,
        max_value=1.0,
        step=0.01,
        format="%.2f",
    )
    story(entry("attacker").prefix, sections, Settings.chosen(epsilon, delta, prior))
