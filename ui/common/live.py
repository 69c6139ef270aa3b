"""Charts and numbers that follow a slider's thumb while it is dragged, before the server
hears of it.

Streamlit sends a slider's value to the server when the mouse is released; until then the page
would stand still. But a select_slider has a few dozen stops, so the page can send, with each
chart, the chart at every stop: ``build`` is called once per stop (the same code that draws the
chart for the value in use), the datasets that differ between stops are sent once with a
``_stop`` column (numbered across the sliders' stops), and every layer keeps the rows of the
stop shown. Which stop is shown is a Vega parameter bound to the slider's element container
(``.st-key-<key>``): the ``dp_live`` script, mounted once a page, watches each slider's thumb
(its hidden range input, whose value is the stop's index) and announces every new stop to that
container with a ``dp-live`` event, while the mouse is still down. The browser computes
nothing: it picks dp_core's own numbers, so what it shows during a drag is what the server
shows after it.

The same parameter holds the slider's stop when no thumb is moving: the script announces every
slider's stop when the page is drawn and again when a server run has finished, as a number;
a thumb moved since the last run is announced as -(stop + 1), and the charts show its slider's
stops while it is, and after its release too, until another thumb moves (a chart told its
stop again, the same, would be laid out and painted again: a jump after each release).
Nothing in a chart names the stop in use, so a step sends the same chart again, which
Streamlit keeps (its message cache) and Vega leaves as it is: the browser draws only what
changed.

A page's numbers follow the same way (``text``): the sentence for every stop, in a markdown
element's ``data-live`` (one element, not a component of its own), which the script paints
at the stop the thumb is on.

A live chart's text alternative (ui.common.chart_text.describe) follows the same way, from a
hidden element beside the chart into its ``aria-label`` (one Streamlit sends as the chart's
``alt`` would make the browser embed the chart anew whenever it changes).

Secure releases are never computed at other stops: that would be a release per stop.

A room's browsers move the same stops without a run (ui.workshop.room_strip): the relay carries,
for every slider this run's charts and sentences follow, its stops as the address writes them,
so a follower's browser told the trainer's new ε finds its stop and shows it (``__dpPush``);
that stop holds, whatever the runs in between announce, until the follower's own thumb is on
it (the run that catches the page up) or the follower takes the thumb.

The one spec is assembled in ui.common.live_assembly; the dp_live script is live.js, beside
this module.
"""

from __future__ import annotations

import html
import json
import pickle
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import pandas as pd
import streamlit as st

from ui.common.chart_text import describe
from ui.common.charts import Spec, show
from ui.common.i18n import language
from ui.common.live_assembly import assembled, described, family
from ui.common.setting import option_code


@dataclass(frozen=True)
class Stops:
    """A select_slider's stops (``values``, in order), the one in use and the widget's key."""

    key: str
    values: tuple[float, ...]
    index: int
    default: float | None = None  # the setting's default: the address leaves it out

    @property
    def value(self) -> float:
        return self.values[self.index]

    def at(self, value: float) -> Stops:
        """The same slider with ``value`` in use (a stop of its own if it is none yet, as a
        typed value is)."""
        values = tuple(sorted({*self.values, value}))
        return Stops(self.key, values, values.index(value), self.default)


_FOLLOWED = "live__followed"  # session state: the sliders this run's charts and texts follow


def _note(sliders: Sequence[Stops]) -> None:
    """Keep the sliders followed for the relay: each stop as the address writes it."""
    noted = st.session_state.setdefault(_FOLLOWED, {})
    for s in sliders:
        default = None if s.default is None else option_code(s.default)
        noted[s.key] = {"codes": [option_code(v) for v in s.values], "default": default}


def _memo_key(key: str, depends: Hashable) -> bytes:
    """What a chart or sentence draws from besides its sliders: the caller's ``depends``, the
    language, the seed and the draw."""
    state = st.session_state
    return pickle.dumps((key, depends, language(), state.get("seed"), state.get("draw")))


def live_spec(
    sliders: Sequence[Stops], build: Callable[..., Spec], *, key: str, depends: Hashable = ()
) -> Spec:
    """One spec holding ``build(*values)`` at every stop of every slider (see the module).

    ``build`` takes one value per slider; ``depends`` is everything else it draws from (the
    language, seed and draw are added here): the stops' specs are kept for the same
    ``depends``, so moving a slider builds nothing new. A chart whose spec (not its data)
    changes with a slider cannot follow it: the spec for the values in use is returned.
    """
    return _live(sliders, build, key, depends)[0]


def _live(
    sliders: Sequence[Stops], build: Callable[..., Spec], key: str, depends: Hashable
) -> tuple[Spec, Spec]:
    """(the live spec, the spec at the values in use)."""
    base = build(*(s.value for s in sliders))
    if not sliders:  # nothing to follow
        return base, base
    _note(sliders)
    return assembled(sliders, build, base, _memo_key(key, depends)), base


def follows(spec: Spec) -> list[str]:
    """The keys of the sliders a spec follows, in order (none for a still chart)."""
    params = spec.get("params", [])
    return [p["bind"]["element"].removeprefix(".st-key-") for p in params if _live_param(p)]


def _live_param(param: dict) -> bool:
    return param["name"].startswith("dp_live") and "bind" in param


def shown(datasets: dict[str, pd.DataFrame], stop: int) -> dict[str, pd.DataFrame]:
    """A live spec's datasets as the page shows them when no thumb is moving (its first
    slider at ``stop``, the server's), without the columns that pick it: what Vega keeps
    (tested through vl-convert in tests/test_live.py)."""
    out = {}
    for name, frame in datasets.items():
        if "_stop" in frame:
            frame = frame[frame["_stop"] == stop].drop(columns=["_stop", "_row"])
            frame = frame.reset_index(drop=True)
            words = frame.select_dtypes(include="category").columns
            frame = frame.astype({c: frame[c].cat.categories.dtype for c in words})
        out[name] = frame
    return out


def chart(
    sliders: Sequence[Stops], build: Callable[..., Spec], *, key: str, depends: Hashable = ()
) -> Spec:
    """Draw ``build``'s chart so that it follows the sliders' thumbs (``depends``: as for
    ``live_spec``); returns the chart at the values in use (for exports and the report)."""
    spec, base = _live(sliders, build, key, depends)
    if not follows(spec):
        show(base, key=key)
        return base
    memo_key = _memo_key(key, depends)
    said = {}
    for j, s in enumerate(sliders):  # each stop's sentence, kept with the stops' specs
        found, specs, built = family(sliders, j, build, base, memo_key)
        said[s.key] = described(found, specs, built, describe)
    alt = {"key": key, "now": describe(base), "texts": said}
    st.markdown(_held(alt, "dp-live-alt"), unsafe_allow_html=True)  # hidden (live.css)
    show(base, key=key, steady=True, live=spec)
    return base


class Followed(Protocol):
    """A page's settings whose charts follow its sliders: the sliders followed (none for a
    chart that must stay still), everything else the settings hold (``depends``), and the
    settings at other values of the sliders, one per slider in order."""

    @property
    def followed(self) -> Sequence[Stops]: ...

    @property
    def identity(self) -> Hashable: ...

    def at(self, *values: float) -> Any: ...


def follow_chart(
    s: Followed, build: Callable[[Any], Spec], *, key: str, depends: Hashable = ()
) -> Spec:
    """``chart`` of ``build(settings)`` at every stop of the settings' sliders; ``depends``:
    what it reads besides the settings (a section's own widgets)."""
    return chart(s.followed, lambda *values: build(_at(s, values)), key=key,
                 depends=(s.identity, depends))  # fmt: skip


def follow_text(
    s: Followed, sentence: Callable[[Any], str], *, key: str, depends: Hashable = (), **style: str
) -> str:
    """``text`` of ``sentence(settings)`` at every stop of the settings' sliders (``depends``
    as for ``follow_chart``, ``style``: as for ``text``)."""
    return text(s.followed, lambda *values: sentence(_at(s, values)), key=key,
                depends=(s.identity, depends), **style)  # fmt: skip


def _at(s: Followed, values: tuple[float, ...]) -> Any:
    """The settings at ``values``; as they are when they follow no slider."""
    return s.at(*values) if values else s


# The dp_live script, beside this module (live.js).
_SCRIPT = Path(__file__).with_name("live.js").read_text(encoding="utf-8")
# A live slider and its typed-value box share a row (ui.common.widgets) until the slider would
# be narrower than 16rem: then the box goes below it (a phone). So do the two downloads
# (ui.common.export) until a button would be narrower than 18rem, and a row of metrics
# (ui.common.shell.metric_row, or live sentences in a ``row``) until one would be narrower
# than 9rem, and controls side by side (ui.common.shell.control_row) until one would be
# narrower than 14rem.
_CSS = Path(__file__).with_name("live.css").read_text(encoding="utf-8")
_COMPONENT = st.components.v2.component("dp_live", js=_SCRIPT, css=_CSS, isolate_styles=False)


_STORY = "live__story"  # session state: the page's story, for the relay


def note_story(key: str, tabs: str, sections: Sequence[str]) -> None:
    """Keep the page's story for the relay: the address parameter of its open section, the
    key of its tabs and its sections' keys in order (a room's browser opens a section by
    clicking its tab: the page's own run, ui.workshop.room_strip)."""
    st.session_state[_STORY] = {"key": key, "tabs": tabs, "sections": list(sections)}


def relay() -> None:
    """Mount the ``dp_live`` script, hidden (ui.common.page.draw does, on every page, after
    the page), with the stops of every slider this run's charts and sentences followed, and
    the page's story."""
    state = st.session_state
    data = {"stops": state.pop(_FOLLOWED, {}), "story": state.pop(_STORY, None)}
    _COMPONENT(key="dp_live_relay", data=data)


# A sentence, or (style, sentence) for one drawn in a box of its own at some stops: "notice"
# (st.info), "info" (the same with a guarantee's icon), "warning", or "error" where there is
# no guarantee to give.
Said = str | tuple[str, str]


# Where the server draws a sentence with a style of its own: Streamlit's box and icon (the
# dp_live script draws the same at a stop mid-drag).
_BOXES = {
    "error": (st.error, ":material/gpp_bad:"),
    "warning": (st.warning, None),
    "info": (st.info, ":material/verified_user:"),
    "notice": (st.info, None),
}


def box(said: Said) -> bool:
    """Draw ``said`` in Streamlit's box if it has a style of its own; False for a sentence."""
    if not isinstance(said, tuple):
        return False
    style, sentence = said
    draw, icon = _BOXES[style]
    draw(sentence, icon=icon)
    return True


def texts(
    sliders: Sequence[Stops], sentence: Callable[..., Said], *, key: str, depends: Hashable = ()
) -> dict[str, list[Said]]:
    """``sentence(*values)`` at every stop of every slider, by the slider's key (kept for the
    same ``depends``, as ``live_spec``'s charts are)."""
    now = sentence(*(s.value for s in sliders))
    memo_key = _memo_key(key, depends)
    _note(sliders)
    return {s.key: family(sliders, j, sentence, now, memo_key)[1] for j, s in enumerate(sliders)}


def text(
    sliders: Sequence[Stops],
    sentence: Callable[..., Said],
    *,
    key: str,
    depends: Hashable = (),
    style: str = "",
    label: str = "",
    note: str = "",
) -> Said:
    """A sentence that follows the sliders' thumbs (``sentence`` takes one value per slider,
    ``depends`` is everything else it reads); returns it at the values in use. It may hold
    **bold** and `code`. ``style``: "" (a paragraph), "strong", "caption", "metric" (the
    sentence is the value under ``label``, as st.metric draws it), "success" (a guarantee
    box, ``note`` below it) or "success-line" (the same in one line, ``note`` on hover); a
    stop whose ``sentence`` is (style, sentence) is drawn in that style instead (``Said``).
    At the values in use such a sentence is Streamlit's own box, which stands still."""
    now, memo_key = sentence(*(s.value for s in sliders)), _memo_key(key, depends)
    if box(now):
        return now
    _note(sliders)
    found = {s.key: family(sliders, j, sentence, now, memo_key)[1] for j, s in enumerate(sliders)}
    data = {"key": key, "now": now, "texts": found, "style": style, "label": label, "note": note}
    drawn, held = _held(data, "dp-live-text"), _ROW.get()
    if held is None:
        st.markdown(drawn, unsafe_allow_html=True)
    else:
        held.append(drawn)
    return now


def _held(data: dict, kind: str) -> str:
    """Markdown holding a live sentence at every stop (``data``), which the relay's script
    paints (not a component of its own: each one would be a widget whose state every run and
    every selectbox presents): a sentence shown ("dp-live-text"), or a live chart's text
    alternative ("dp-live-alt"), painted into the chart's aria-label."""
    payload = html.escape(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    return f'<div class="{kind}" data-live="{payload}"></div>'


# The sentences of the ``row`` being drawn; None outside one.
_ROW: ContextVar[list[str] | None] = ContextVar("live_row", default=None)


@contextmanager
def row() -> Iterator[None]:
    """The live sentences ``text`` draws within, side by side in one element (a section's
    metrics: one element a run, not one per metric and one for the row); on a phone they
    wrap, each at least 9rem wide. A sentence with no sliders (``text([], ...)``) stays still."""
    held: list[str] = []
    token = _ROW.set(held)
    try:
        yield
    finally:
        _ROW.reset(token)
    if held:
        st.markdown(f'<div class="dp-live-row">{"".join(held)}</div>', unsafe_allow_html=True)
