"""The planner's charts and sentences that follow the ε and δ thumbs (ui.common.live), or stand
still when they follow none (Settings.followed: no slider, or plans too slow to make at every
stop)."""

from __future__ import annotations

from collections.abc import Callable, Hashable

import streamlit as st

from ui.common import charts, live
from ui.planner.settings import Settings


def chart(
    s: Settings, build: Callable[[Settings], charts.Spec], *, key: str, depends: Hashable = ()
) -> charts.Spec:
    """``build(settings)`` drawn at every stop of the plan's sliders (``depends``: what it reads
    besides the settings); returns it at the values in use."""
    if not s.followed:
        spec = build(s)
        charts.show(spec, key=key)
        return spec
    return live.chart(s.followed, lambda *values: build(s.at(*values)), key=key,
                      depends=(s.identity, depends))  # fmt: skip


def text(
    s: Settings,
    sentence: Callable[[Settings], str],
    *,
    key: str,
    depends: Hashable = (),
    style: str = "",
) -> str:
    """``sentence(settings)`` at every stop of the plan's sliders (``depends`` as for
    ``chart``; ``style`` as live.text's: "", "strong" or "caption"); returns it at the values
    in use."""
    if not s.followed:
        now = sentence(s)
        shown = {"strong": f"**{now}**", "caption": now}.get(style, now)
        (st.caption if style == "caption" else st.markdown)(shown)
        return now
    return live.text(s.followed, lambda *values: sentence(s.at(*values)), key=key,
                     depends=(s.identity, depends), style=style)  # fmt: skip
