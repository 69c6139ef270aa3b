"""The bounding page's fragment: ε, the caps and bounds (ui.bounding.caps), the noise they
call for, the guarantee, and the open section (an ε step reruns this only)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from dp_core.bounding import noise as bounding_noise
from dp_core.bounding import release_sensitivity
from dp_core.bounding.budget import WeekBudget, week_budget
from dp_core.guarantee import Guarantee, Part
from dp_core.release import noise_name
from ui.bounding import pipeline
from ui.bounding.caps import bounds_controls
from ui.bounding.choices import Choices
from ui.bounding.data import PAGE, BoundingData
from ui.bounding.private import PrivateChoice
from ui.bounding.settings import Settings
from ui.common import formatting
from ui.common.errors import translated
from ui.common.i18n import _
from ui.common.release import draws_caption, guarantee, guarantee_box
from ui.common.sections import Section, story
from ui.common.shell import presenter_row
from ui.common.widgets import delta_input, epsilon_input


def _guarantee(
    data: BoundingData,
    private: PrivateChoice | None,
    week: WeekBudget,
    *,
    statistics: int,
    joint: bool,
    reads: tuple[str, ...],
) -> Guarantee:
    """The noisy answers (all groups at once: n ε per statistic; group by group, with the cap:
    min(l0, n) ε), then the DP choices of the groups, the cap and the bounds."""
    eps, delta = week.sequential if joint else week.capped
    parts = [Part("values", statistics * eps, statistics * delta)]
    categories = data.categories
    if categories.mode == "selected":
        parts.append(Part("categories", categories.epsilon, categories.delta))
    if private is not None and private.cap is not None:
        parts.append(Part("cap", private.cap_epsilon))
    if private is not None and private.bounds is not None:
        parts.append(Part("bounds", private.bounds_epsilon))
    return guarantee(data.data, parts, reads + data.categories.reads)


def outputs(data: BoundingData, statistics: list[str]) -> str:
    """What the release publishes, for the guarantee: "noisy counts and sums of the 7 days"."""
    n, nouns = formatting.count(len(data.labels)), data.words.nouns()
    if len(statistics) == 2:
        return _("bounding.outputs.both", n=n, **nouns)
    return _("bounding.outputs.counts", n=n, **nouns)


@st.fragment
def explore(chosen: tuple[BoundingData, Choices], sections: Sequence[Section]) -> None:
    """ε, the caps and bounds, the guarantee and the open section: an ε step reruns this only."""
    data, choices = chosen
    nouns = data.words.nouns()
    budget, caps = presenter_row(1, 1)
    with budget:
        epsilon = epsilon_input(
            f"{PAGE}_epsilon",
            label=_("bounding.epsilon", **nouns),
            default=0.5,
            minimum=0.01,
            maximum=10.0,
        )
        delta = 0.0
        if choices.mechanism == "gaussian":
            delta = delta_input(f"{PAGE}_delta", label=_("bounding.delta", **nouns), default=1e-6)
    with caps:
        bounds, private, reads = bounds_controls(data, choices)
    if bounds is None:
        return
    plan = bounding_noise.NoisePlan(epsilon, choices.joint, choices.mechanism, delta)
    statistics = ["count", "sum"] if bounds.clipped else ["count"]
    n = len(data.labels)
    try:
        noises = {
            name: bounding_noise.group_noise(
                release_sensitivity(name, bounds), plan, max_groups=bounds.max_groups, n_groups=n
            )
            for name in statistics
        }
        week = week_budget(
            release_sensitivity("count", bounds), plan, max_groups=bounds.max_groups, n_groups=n
        )
    except ValueError as error:
        st.error(_("bounding.noise.cannot", error=translated(error)))
        return
    total = _guarantee(
        data, private, week, statistics=len(statistics), joint=choices.joint, reads=reads
    )
    noise = draws_caption(choices.secure, noise_name(choices.mechanism))
    guarantee_box(data.data, total, outputs=outputs(data, statistics), noise=noise)
    settings = Settings(data, choices, plan, bounds, private, noises, week, total)
    story(PAGE, sections, settings)
    pipeline.opendp_box(settings)
