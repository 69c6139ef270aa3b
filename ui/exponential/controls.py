"""The exponential-mechanism page's controls: where the candidates come from (the whole page
reruns), then ε and the monotonic switch in a fragment with the guarantee and the open section."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dp_core.guarantee import Part
from ui.common import formatting
from ui.common.address import linked
from ui.common.i18n import _, sentences
from ui.common.live import Said
from ui.common.presets import preset_buttons
from ui.common.release import (
    READ_WORDS,
    guarantee,
    guarantee_text,
    said_box,
    said_guarantee,
    unit_words,
)
from ui.common.sections import Section, story
from ui.common.shell import settings_area
from ui.common.turns import fragment
from ui.common.widgets import epsilon_slider
from ui.exponential.candidates import PAGE, Candidates, pick_candidates
from ui.exponential.declared import EPSILON, MONOTONIC
from ui.exponential.presets import PRESETS
from ui.exponential.settings import Settings


def candidate_controls() -> Candidates | None:
    """The examples, where the candidates come from, what one person moves, and warnings that
    hold at any ε."""
    with settings_area():
        preset_buttons(PAGE, PRESETS)
        candidates = pick_candidates()
        if candidates is None:
            return None
        st.caption(
            _(
                "exponential.candidates.caption",
                delta=formatting.number(candidates.sensitivity),
                note=candidates.note,
                origin=candidates.origin,
            )
        )
    counts = candidates.counts
    if len(counts) == 1:
        st.warning(_("exponential.candidates.one", name=candidates.names[0]))
    elif np.all(counts == counts[0]):
        st.info(_("exponential.candidates.equal"))
    return candidates


@fragment(key=f"{PAGE}_explore")
def explore(candidates: Candidates, sections: list[Section]) -> None:
    """ε, the monotonic switch, the guarantee and the open section: an ε step reruns only this."""
    stops = epsilon_slider(EPSILON, help=_("exponential.epsilon.help"))
    monotonic = linked(
        MONOTONIC, st.toggle, _("exponential.monotonic.label"), help=_("exponential.monotonic.help")
    )
    settings = Settings(candidates, stops, monotonic)
    _guarantee(settings)
    if settings.epsilon == 0:
        cost = _("exponential.zero.cost") if candidates.selected else ""
        st.info(
            _(
                "exponential.zero.info",
                n=formatting.count(len(candidates.labels)),
                origin=candidates.origin,
                cost=cost,
            )
        )
    story(PAGE, sections, settings)


def _parts(s: Settings) -> list[Part]:
    """What the release spends: the selection, and a DP choice of the candidates."""
    parts = [Part("selection", s.epsilon)] if s.epsilon > 0 else []
    if s.candidates.selected:
        parts.append(Part("categories", s.candidates.selected.epsilon, s.candidates.selected.delta))
    return parts


def guarantee_sentence(s: Settings) -> str:
    """The guarantee in one sentence (the box's statement, and the export's)."""
    c, eps = s.candidates, formatting.number(s.epsilon)
    if c.data is None:
        return _("exponential.guarantee.typed", epsilon=eps)
    parts = _parts(s)
    if not parts and "categories" in c.reads:  # ε = 0 ignores the counts, not the list
        listed = READ_WORDS["categories"]  # the sentence on the categories read
        return sentences(_("exponential.guarantee.zero_read", unit=unit_words(c.data)), _(listed))
    if not parts:  # ε = 0 over a list fixed in advance: the output ignores the data
        return _("exponential.guarantee.zero", unit=unit_words(c.data))
    return guarantee_text(
        c.data, guarantee(c.data, parts, c.reads), outputs=_("exponential.outputs")
    )


def _guarantee(s: Settings) -> None:
    """The selection is ε-DP (the exponential mechanism) for the data's unit, plus a DP choice;
    the box follows the ε thumb."""
    c = s.candidates
    chosen = c.selected and (c.selected.epsilon, c.selected.delta)
    said_box(
        _said(s),
        noise=_("exponential.guarantee.draws"),
        follows=((s.stops,), lambda epsilon: _said(s.at(epsilon))),
        depends=(s.identity, c.data and c.data.source, c.reads, chosen),
    )


def _said(s: Settings) -> Said:
    """The guarantee box's sentence at the settings' ε (ui.common.release.said_box)."""
    c = s.candidates
    parts = _parts(s) if c.data is not None else []
    if not parts and "categories" in c.reads:
        return "error", guarantee_sentence(s)
    if not parts:  # no Guarantee to compose: the sentence alone
        return guarantee_sentence(s)
    total = guarantee(c.data, parts, c.reads)
    draws = _("exponential.guarantee.draws")
    said = said_guarantee(c.data, total, outputs=_("exponential.outputs"), noise=draws)
    if s.epsilon == 0 and isinstance(said, str):  # only the DP choice of the candidates spends
        return said + _("exponential.guarantee.zero_selection")
    return said
