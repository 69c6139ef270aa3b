"""The bounding page's fragment: ε (and δ), the caps and bounds (ui.bounding.caps), the noise
they call for (ui.bounding.settings), the guarantee, and the open section (an ε step reruns
this only)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from dp_core.bounding.noise import NoisePlan
from dp_core.release import noise_name
from ui.bounding import pipeline
from ui.bounding.caps import bounds_controls
from ui.bounding.choices import Choices
from ui.bounding.data import PAGE, BoundingData
from ui.bounding.declared import DELTA, EPSILON
from ui.bounding.settings import Settings
from ui.common import formatting
from ui.common.errors import translated
from ui.common.i18n import _
from ui.common.release import draws_caption, guarantee_box
from ui.common.sections import Section, story
from ui.common.shell import phone_fold, presenter_row
from ui.common.turns import fragment
from ui.common.widgets import delta_slider, epsilon_slider


def outputs(data: BoundingData, statistics: list[str]) -> str:
    """What the release publishes, for the guarantee: "noisy counts and sums of the 7 days"."""
    n, nouns = formatting.count(len(data.labels)), data.words.nouns()
    if len(statistics) == 2:
        return _("bounding.outputs.both", n=n, **nouns)
    return _("bounding.outputs.counts", n=n, **nouns)


@fragment
def explore(chosen: tuple[BoundingData, Choices], sections: Sequence[Section]) -> None:
    """ε, the caps and bounds, the guarantee and the open section: an ε step reruns this only."""
    data, choices = chosen
    nouns = data.words.nouns()
    budget, caps = presenter_row(1, 1)
    with budget:
        stops = (epsilon_slider(EPSILON, label=_("bounding.epsilon", **nouns)),)
        if choices.mechanism == "gaussian":
            label = _("bounding.delta", **nouns)
            stops += (delta_slider(DELTA, label=label),)
    with caps, phone_fold(_("bounding.caps.box"), "bounding_caps_box"):  # on a phone, closed
        bounds, private, reads = bounds_controls(data, choices)
    if bounds is None:
        return
    delta = stops[1].value if len(stops) > 1 else 0.0
    plan = NoisePlan(stops[0].value, choices.joint, choices.mechanism, delta)
    settings = Settings(data, choices, plan, bounds, private, stops, reads)
    try:
        statistics = list(settings.noises)  # calibrated here, or refused with a message
    except ValueError as error:
        st.error(_("bounding.noise.cannot", error=translated(error)))
        return
    noise = draws_caption(choices.secure, noise_name(choices.mechanism))
    guarantee_box(
        data.data,
        settings.guarantee,
        outputs=outputs(data, statistics),
        noise=noise,
        follows=(stops, lambda *values: settings.at(*values).guarantee),
        depends=settings.identity,
    )
    story(PAGE, sections, settings)
    pipeline.opendp_box(settings)
