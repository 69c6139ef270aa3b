"""The planner page's story: ε (and δ) and the guarantee in a fragment, then the open one of
its five sections, each in its own module (plan, release, cost, wild, downloads). Its PAGE
(the catalogue's prefix) prefixes the open section in the address."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ui.common.i18n import _
from ui.common.release import guarantee_box
from ui.common.sections import Section, story
from ui.common.shell import presenter_row
from ui.common.turns import fragment
from ui.common.widgets import delta_slider, epsilon_slider
from ui.planner.cost import what_it_costs
from ui.planner.declared import DELTA, EPSILON
from ui.planner.downloads import for_the_board
from ui.planner.messages import planner_error
from ui.planner.plan import the_plan
from ui.planner.release import a_simulated_release
from ui.planner.settings import PAGE, Controls, Settings, make_plan
from ui.planner.wild import in_the_wild


def story_sections() -> list[Section]:
    """The page's five sections, in order."""
    return [
        Section("plan", _("planner.section.plan"), the_plan),
        Section("release", _("planner.section.release"), a_simulated_release),
        Section("cost", _("planner.section.cost"), what_it_costs),
        Section("wild", _("planner.section.wild"), in_the_wild),
        Section("board", _("planner.section.board"), for_the_board),
    ]


@fragment(key=f"{PAGE}_explore")
def explore(chosen: tuple[Controls, str, str], sections: Sequence[Section]) -> None:
    """ε (and δ), the guarantee and the open section: a fragment, so a step reruns only this."""
    controls, mode, calibration = chosen
    epsilon = delta = None
    left, right = presenter_row(1, 1)
    if mode != "targets":
        with left:
            epsilon = epsilon_slider(EPSILON, label=_("planner.epsilon.label"))
    if controls.gaussian:
        with right:
            delta = delta_slider(DELTA, label=_("planner.delta.label"))
    try:
        plan = make_plan(
            controls.statistics,
            mode,
            None if epsilon is None else epsilon.value,
            0.0 if delta is None else delta.value,
            calibration,
        )
    except ValueError as error:
        st.error(planner_error(error), icon=":material/error:")
        return
    s = Settings(controls, plan, mode, calibration, epsilon, delta)
    guarantee_box(
        controls.data,
        s.guarantee,
        outputs=s.outputs,
        noise=_("planner.noise"),
        follows=(s.followed, lambda *values: s.at(*values).guarantee) if s.followed else None,
        depends=s.identity,
    )
    story(PAGE, sections, s)
