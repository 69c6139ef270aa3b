"""The Gaussian page's controls: the data and the query (the whole page reruns), then ε, δ and
the mechanism in a fragment with the guarantee box and the open section."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from dp_core.guarantee import Guarantee
from dp_core.release import noise_name
from ui.common import formatting
from ui.common.address import linked
from ui.common.catalog import entry
from ui.common.i18n import _
from ui.common.presets import preset_buttons
from ui.common.query_picker import QueryChoice, pick_query
from ui.common.release import draws_caption, guarantee_box, secure_toggle
from ui.common.sections import Section, story
from ui.common.shell import page_rng, presenter_row, settings_area
from ui.common.turns import fragment
from ui.common.widgets import delta_slider, epsilon_slider
from ui.gaussian.presets import PRESETS
from ui.gaussian.settings import DELTA, EPSILON, MECHANISM, MECHANISMS, Settings
from ui.gaussian.words import outputs, sigma_sentence


def data_controls() -> tuple[QueryChoice | None, bool]:
    """The examples, the data, the query and the kind of noise: settings that rerun the whole
    page.

    The query is None (after a message) while it cannot run: the sections then use
    sensitivity 1.
    """
    with settings_area():
        preset_buttons("gaussian", PRESETS)
        secure = secure_toggle("gaussian")
        choice = pick_query("gaussian", rng=page_rng("gaussian", "categories"), secure=secure)
    return choice, secure


@fragment
def explore(chosen: tuple[QueryChoice | None, bool], sections: Sequence[Section]) -> None:
    """ε, δ, the mechanism, the guarantee and the open section: a step reruns only this."""
    choice, secure = chosen
    left, right = presenter_row(1, 1)
    with left:
        epsilon = epsilon_slider(EPSILON)
    with right:
        delta = delta_slider(DELTA)
    mechanism = linked(
        MECHANISM,
        st.radio,
        _("gaussian.mechanism.label"),
        labels={kind: _(msgid) for kind, msgid in MECHANISMS.items()},
        horizontal=True,
    )
    settings = Settings(choice, mechanism, epsilon, delta, secure)
    _guarantee(settings)
    story(entry("gaussian").prefix, sections, settings)


def _guarantee(s: Settings) -> None:
    """The guarantee box, or why there is none."""
    if s.choice is None:
        st.caption(_("gaussian.no_query"))
        return
    if s.withheld:
        st.warning(_at(s)[1], icon=":material/warning:")
        return
    noise = draws_caption(s.secure, noise_name(s.noise))
    if s.secure and s.noise == "gaussian":  # its own paragraph: a sentence of another page
        noise += "\n\n" + sigma_sentence(s)
    # The secure release's σ sentence is of the values in use: that box waits for the release.
    follows = None if s.secure else (s.followed, lambda *values: _at(s.at(*values)))
    guarantee_box(
        s.choice.data,
        s.guarantee,
        outputs=outputs(s),
        noise=noise,
        follows=follows,
        depends=s.identity,  # the mechanism: where the classic σ is withheld
    )


def _at(s: Settings) -> Guarantee | tuple[str, str]:
    """The guarantee box at other stops: the guarantee, or the warning where it is withheld."""
    if s.withheld:
        return "warning", _("gaussian.withheld", epsilon=formatting.number(s.epsilon))
    return s.guarantee
