"""Named settings from the teaching material, chosen in one click.

    RESTAURANT = Preset("restaurant", N_("bounding.preset.restaurant"),
                        {"bounding_dataset": "restaurant", "bounding_epsilon": 0.5, ...})
    preset_buttons("bounding", [RESTAURANT, ...])

A preset is a set of values for declared settings (ui.common.setting), by their keys. A click
assigns them (before the widgets are drawn, so each widget shows its new value) and the page
publishes them to the address like any other change: a link keeps the view, and nothing keeps
"which preset" apart from the settings. The preset whose values the page shows is marked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from ui.common.address import assign
from ui.common.i18n import _


@dataclass(frozen=True)
class Preset:
    """A stable key, the message id of its name (which notebook or example), its values."""

    key: str
    title: str
    values: Mapping[str, Any]

    def shown(self) -> bool:
        """Whether the page holds this preset's values now."""
        state = st.session_state
        return all(key in state and state[key] == value for key, value in self.values.items())


def apply(preset: Preset) -> None:
    """Assign the preset's values; settings tied to the data (a column, a cap) take them
    as given, not as left over from the dataset before."""
    for key in preset.values:
        st.session_state.pop(f"{key}__for", None)
    assign(preset.values)


def preset_buttons(page: str, presets: Sequence[Preset]) -> None:
    """One button per preset in a row, after a label; the one the page shows is primary."""
    row = st.container(horizontal=True, vertical_alignment="center", key=f"{page}__presets")
    with row:
        st.caption(_("common.preset.label"))
        for preset in presets:
            st.button(
                _(preset.title),
                key=f"{page}__preset_{preset.key}",
                type="primary" if preset.shown() else "secondary",
                on_click=apply,
                args=(preset,),
                help=_("common.preset.help"),
            )
