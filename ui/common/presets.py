"""Named settings from the teaching material, chosen in one click.

    RESTAURANT = Preset("restaurant", N_("bounding.preset.restaurant"),
                        {DATASET: "restaurant", EPSILON: 0.5, ...})
    preset_buttons("bounding", [RESTAURANT, ...])

A preset is a set of values for the settings a page declares (ui.common.setting), keyed by
the settings themselves (a test checks that each accepts its value), and the section that
shows them. A click assigns them (before the widgets are drawn, so each widget shows its new
value), opens the section, and the page publishes the values to the address like any other
change: a link keeps the view. Nothing keeps "which preset" apart from the settings, so no
button claims to be in use once a control has moved on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from ui.common.address import assign, forget_contexts
from ui.common.folding import folded
from ui.common.i18n import _
from ui.common.sections import open_section
from ui.common.setting import Setting
from ui.common.shell import following


@dataclass(frozen=True)
class Preset:
    """A stable key, the message id of its name (which notebook or example), its values."""

    key: str
    title: str
    values: Mapping[Setting, Any]
    section: str | None = None  # the section that shows the example (its key)


def apply(page: str, preset: Preset) -> None:
    """Assign the preset's values and open its section; settings tied to the data (a column,
    a cap) take them as given, not as left over from the dataset before."""
    values = {setting.key: value for setting, value in preset.values.items()}
    forget_contexts(values)
    assign(values)
    if preset.section is not None:
        open_section(page, preset.section)


def preset_buttons(page: str, presets: Sequence[Preset]) -> None:
    """One button per preset in a row, after a label; none on a page that follows a trainer's
    (its settings are the trainer's: an example is one click away once exploring alone), nor
    in a closed settings box (ui.common.folding)."""
    if following() or folded() is not None:
        return
    row = st.container(horizontal=True, vertical_alignment="center", key=f"{page}__presets")
    with row:
        st.caption(_("common.preset.label"))
        for preset in presets:
            st.button(
                _(preset.title),
                key=f"{page}__preset_{preset.key}",
                on_click=apply,
                args=(page, preset),
                help=_("common.preset.help"),
            )
