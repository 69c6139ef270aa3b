"""A page as a story of sections: a tab per section, and only the open one runs.

    story("laplace", [
        Section("answers", "Noisy vs true answers", noisy_vs_true),
        Section("noise", "The noise itself", noise_itself),
    ], settings)

Each section is a function of the page's settings (a frozen object built from the controls at
the top). Tabs are lazy: a closed tab's function does not run, so a slider step recomputes and
repaints the open section alone. A section with widgets of its own is an ``st.fragment``
(decorated where it is defined): moving those widgets reruns that section only. The open
section is kept in the address (?laplace_section=noise), so a copied link opens it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from ui.common.address import from_address, publish, tabs_key
from ui.common.i18n import _
from ui.common.live import note_story
from ui.common.setting import Choice
from ui.common.shell import presenter_mode


@dataclass(frozen=True)
class Section:
    """One part of a page's story: a stable key (for the address), a title and its body."""

    key: str
    title: str
    body: Callable[..., None]


def address_key(page: str) -> str:
    """The address parameter that keeps the open section of ``page`` (the prefix of the page's
    widget keys, as given to ``story``): ``?laplace_section=noise``, ``?rr_section=survey``.
    A link to a section (the Workshop's) takes its parameter from here too."""
    return f"{page}_section"


def open_section(page: str, key: str) -> None:
    """In a callback (a preset's): open the section ``key`` of ``page`` on this run, as a link
    to it would."""
    st.session_state.pop(tabs_key(page), None)
    publish(Choice(address_key(page)), key)


def _labels(sections: Sequence[Section]) -> list[str]:
    return [f"{number}. {section.title}" for number, section in enumerate(sections, start=1)]


def story(page: str, sections: Sequence[Section], *args: Any) -> Section:
    """Tabs for ``sections``; runs the open one with ``args``; returns it.

    The tabs hold the open section by its label, in the reader's language; the address holds
    it by key. A label this run does not show (the language changed, or the page's sections
    did) is found again by the key in the address, so a new language keeps the section open.
    """
    state_key, linked_key = tabs_key(page), address_key(page)
    labels = _labels(sections)
    by_key = {section.key: label for section, label in zip(sections, labels, strict=True)}
    setting = Choice(linked_key, sections[0].key, options=tuple(by_key))
    if st.session_state.get(state_key) not in labels:  # first run, a new language, new sections
        st.session_state[state_key] = by_key.get(from_address(setting), labels[0])
    if presenter_mode():
        _previous_next(state_key, labels)
    note_story(linked_key, state_key, list(by_key))
    tabs = st.tabs(labels, key=state_key, on_change="rerun")
    chosen = sections[0]
    for tab, section in zip(tabs, sections, strict=True):
        if tab.open:
            chosen = section
            with tab:
                section.body(*args)
    publish(setting, chosen.key)
    return chosen


def _previous_next(state_key: str, labels: list[str]) -> None:
    """Previous / next section buttons, also on PageUp / PageDown (a presenter's clicker)."""

    def step(by: int) -> None:
        index = labels.index(st.session_state[state_key]) + by
        st.session_state[state_key] = labels[min(max(index, 0), len(labels) - 1)]

    # A pad of two buttons pinned in the top right corner, beside the presenter bar
    # (PRESENTER_CSS): the section starts right below the tabs and the buttons never move.
    pad = st.container(horizontal=True, key=f"{state_key}__nav", width="content")
    pad.button(
        _("common.section.previous"),
        icon=":material/arrow_back:",
        key=f"{state_key}__previous",
        on_click=step,
        args=(-1,),
        shortcut="pageup",
    )
    pad.button(
        _("common.section.next"),
        icon=":material/arrow_forward:",
        key=f"{state_key}__next",
        on_click=step,
        args=(1,),
        shortcut="pagedown",
    )
