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

Secure releases are never computed at other stops: that would be a release per stop.

A room's browsers move the same stops without a run (ui.workshop.room): the relay carries,
for every slider this run's charts and sentences follow, its stops as the address writes them,
so a follower's browser told the trainer's new ε finds its stop and shows it (``__dpPush``);
that stop holds, whatever the runs in between announce, until the follower's own thumb is on
it (the run that catches the page up) or the follower takes the thumb.
"""

from __future__ import annotations

import hashlib
import html
import json
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd
import streamlit as st

from ui.common.charts import Spec, show
from ui.common.i18n import language
from ui.common.setting import option_code

EVENT = "dp-live"  # what the script dispatches on a slider's container at each new stop


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


def _variants(sliders: Sequence[Stops]) -> list[tuple[int, int, tuple[float, ...]]]:
    """(slider, stop, values of every slider): each slider's stops, the others where they are.
    Slider 0 at its own stop is the page as the server shows it."""
    now = tuple(s.value for s in sliders)
    return [
        (j, i, (*now[:j], value, *now[j + 1 :]))
        for j, slider in enumerate(sliders)
        for i, value in enumerate(slider.values)
    ]


def _skeleton(value: Any) -> Any:
    return {k: v for k, v in value.items() if k != "datasets"}


def _param(j: int) -> str:
    return f"dp_live{j}"


PICKED = "dp_picked"  # the ``_stop`` shown (see ``_picked``)


def _offsets(sliders: Sequence[Stops]) -> list[int]:
    """Where each slider's stops start among the stops of all: a row's ``_stop`` is its
    stop's index plus its slider's offset (slider 0 at its stop in use: the server's view)."""
    return [0, *np.cumsum([len(s.values) for s in sliders[:-1]]).tolist()]


def _picked(sliders: Sequence[Stops]) -> str:
    """The Vega expression for ``PICKED``, evaluated once a step: the stop of the first slider
    whose thumb moved (announced as -(stop + 1)), else slider 0's stop, else -1 (nothing is
    drawn before the script has announced the sliders)."""
    first = _param(0)
    picked = f"(isValid({first}) ? {first} : -1)"
    for j, offset in reversed(list(enumerate(_offsets(sliders)))):
        live = _param(j)
        picked = f"(isValid({live}) && {live} < 0 ? {offset - 1} - {live} : {picked})"
    return picked


def _picking(name: str, frame: pd.DataFrame, rows: int) -> list[dict]:
    """The transforms that turn a sequence of ``rows`` positions into the rows of the stop
    shown of the stacked dataset ``name`` (``frame``): each position looks its row up by
    ``_row`` (stop × rows + position), so a step costs a few hundred lookups, not a pass over
    every stop's rows; a stop with fewer rows leaves positions without one, dropped."""
    fields = [c for c in frame.columns if c != "_row"]
    return [
        {"calculate": f"{PICKED} * {rows} + datum._pos", "as": "_row"},
        {"lookup": "_row", "from": {"data": {"name": name}, "key": "_row", "fields": fields}},
        {"filter": "isValid(datum._stop)"},
    ]


def _picked_in(value: Any, varying: dict[str, tuple[int, list[dict]]]) -> Any:
    """The spec with every view that draws a varying dataset drawing instead its positions
    (a sequence) and the transforms that pick the stop shown's row at each."""
    if isinstance(value, list):
        return [_picked_in(item, varying) for item in value]
    if not isinstance(value, dict):
        return value
    out = {k: _picked_in(v, varying) for k, v in value.items() if k != "datasets"}
    if isinstance(value.get("data"), dict) and value["data"].get("name") in varying:
        rows, transforms = varying[value["data"]["name"]]
        out["data"] = {"sequence": {"start": 0, "stop": rows, "as": "_pos"}}
        out["transform"] = transforms + list(value.get("transform", []))
    return out


def _same(one: Spec, other: Spec) -> bool:
    """Whether two specs draw the same chart (their text and every dataset)."""
    return (
        _skeleton(one) == _skeleton(other)
        and one["datasets"].keys() == other["datasets"].keys()
        and all(f.equals(other["datasets"][n]) for n, f in one["datasets"].items())
    )


_NONE = object()  # no value kept


class _Memo:
    """What was built for a slider's stops, kept across reruns and sessions (the newest 128):
    a step of a slider changes none of it, so the server's rerun after a drag builds little.
    A key is built by one session at a time: a room's followers opening the same view at once
    wait for the first one's build instead of each building it (``once``)."""

    def __init__(self, size: int = 128) -> None:
        self._found: OrderedDict[str, Any] = OrderedDict()
        self._making: dict[str, threading.Event] = {}
        self._lock = threading.Lock()
        self._size = size

    def once(
        self, key: str, make: Callable[[], Any], fresh: Callable[[Any], bool] | None = None
    ) -> tuple[Any, bool]:
        """(the value kept for ``key``, False); or (``make()``, True) where none is kept, or
        the kept one is not ``fresh``, made by this thread while any other asking waits."""
        while True:
            with self._lock:
                found = self._found.get(key, _NONE)
                making = self._making.get(key)
                if found is not _NONE:
                    self._found.move_to_end(key)
                elif making is None:
                    making = self._making[key] = threading.Event()
                    break
            if making is not None:
                making.wait()  # another session builds it: its value, or make it after all
                continue
            if fresh is None or fresh(found):
                return found, False
            with self._lock:  # kept but stale (its ``depends`` said too little): made anew
                if key in self._making:
                    continue
                making = self._making[key] = threading.Event()
                break
        try:
            value = make()
            self.put(key, value)
            return value, True
        finally:
            with self._lock:
                self._making.pop(key, None)
            making.set()

    def get(self, key: str) -> Any:
        with self._lock:
            if key in self._found:
                self._found.move_to_end(key)
            return self._found.get(key)

    def put(self, key: str, found: Any) -> None:
        with self._lock:
            self._found[key] = found
            while len(self._found) > self._size:
                self._found.popitem(last=False)


_FAMILIES, _SPECS = _Memo(), _Memo()


def _digest(*parts: Any) -> str:
    return hashlib.sha1(pickle.dumps(parts, protocol=5)).hexdigest()


def _family(
    sliders: Sequence[Stops], j: int, build: Callable[..., Any], base: Any, memo_key: bytes
) -> tuple[str, list[Any], bool]:
    """``build`` at every stop of slider j, the others where they are: (its memo key, the
    results, whether they were built now). Taken from the memo when its stop in use still
    gives ``base`` (a check on the caller's ``depends``)."""
    now = [s.value for s in sliders]
    key = _digest(memo_key, j, sliders[j].values, now[:j], now[j + 1 :])
    found, built = _FAMILIES.once(
        key,
        lambda: [build(*now[:j], value, *now[j + 1 :]) for value in sliders[j].values],
        fresh=lambda found: _equal(found[sliders[j].index], base),
    )
    return key, found, built


def _equal(one: Any, other: Any) -> bool:
    return _same(one, other) if isinstance(one, dict) else one == other


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
    memo_key = _memo_key(key, depends)
    families = [_family(sliders, j, build, base, memo_key) for j in range(len(sliders))]
    assembled = _digest(*(family_key for family_key, _, _ in families))
    rebuilt = any(built for _, _, built in families)  # a stale family: its spec made anew
    spec, _ = _SPECS.once(
        assembled,
        lambda: _assembled(sliders, base, [_stack(*family) for family in families]),
        fresh=lambda _spec: not rebuilt,
    )
    return spec, base


class _Stack:
    """One slider's stops of a chart: whether their specs' text agree, and per dataset
    whether every stop has the same frame and (made when first asked) the frames stacked with
    a ``_stop`` column (the stop's index). Kept with the stops, so a step of another slider
    stacks only the stops that step built."""

    def __init__(self, specs: list[Spec]) -> None:
        first = specs[0]
        self.skeleton = _skeleton(first)
        self.agree = all(_skeleton(spec) == self.skeleton for spec in specs)
        self.frames = {
            name: [spec["datasets"][name] for spec in specs] for name in first["datasets"]
        }
        self.same = {name: all(f.equals(fs[0]) for f in fs[1:]) for name, fs in self.frames.items()}
        self._stacked: dict[str, pd.DataFrame] = {}

    def stacked(self, name: str) -> pd.DataFrame:
        if name not in self._stacked:
            frames = self.frames[name]
            rows = [len(f) for f in frames]
            self._stacked[name] = pd.concat(frames, ignore_index=True).assign(
                _stop=np.repeat(np.arange(len(frames), dtype=np.int16), rows)
            )
        return self._stacked[name]


_STACKS = _Memo()


def _stack(family_key: str, specs: list[Spec], built: bool) -> _Stack:
    found = None if built else _STACKS.get(family_key)
    if found is None:
        found = _Stack(specs)
        _STACKS.put(family_key, found)
    return found


def _assembled(sliders: Sequence[Stops], base: Spec, stacks: list[_Stack]) -> Spec:
    """Every slider's stops in one spec (see the module), without the stop in use."""
    skeleton = _skeleton(base)
    if any(not stack.agree or stack.skeleton != skeleton for stack in stacks):
        return base
    datasets: dict[str, pd.DataFrame] = {}
    varying: dict[str, tuple[int, list[dict]]] = {}
    for name, frame in base["datasets"].items():
        if all(stack.same[name] and stack.frames[name][0].equals(frame) for stack in stacks):
            datasets[name] = frame
            continue
        parts = [stack.stacked(name) for stack in stacks]
        stacked = pd.concat(parts, ignore_index=True)
        stacked["_stop"] += np.repeat(_offsets(sliders), [len(p) for p in parts]).astype(np.int16)
        position = stacked.groupby("_stop").cumcount().to_numpy()
        rows = int(position.max()) + 1 if len(position) else 0
        stacked["_row"] = stacked["_stop"].to_numpy(np.int32) * rows + position
        # Words repeat from stop to stop: sent once each (Arrow dictionaries), not per row.
        words = stacked.select_dtypes(include=["object", "string"]).columns
        datasets[name] = stacked.astype({column: "category" for column in words})
        varying[name] = (rows, _picking(name, stacked, rows))
    if not varying:
        return base
    spec = _picked_in(base, varying)
    params = [
        {"name": _param(j), "value": None, "bind": {"element": f".st-key-{s.key}", "event": EVENT}}
        for j, s in enumerate(sliders)
    ] + [{"name": PICKED, "expr": _picked(sliders)}]
    # Vega lays a chart out again on a parameter's change only when told to: without this, a
    # y axis whose labels grow wider than the room ``show`` gives them is clipped.
    autosize = {"type": "fit-x" if "vconcat" in spec else "fit", "contains": "padding"}
    # Drawn on a canvas: as SVG, every step would change hundreds of elements of the page
    # (style, layout and the tab panel's scans for focusable elements at each one). A canvas
    # shows no ARIA descriptions, which Vega would otherwise write for every mark at each step.
    usermeta = {**spec.get("usermeta", {}), "embedOptions": {"renderer": "canvas"}}
    return {
        "autosize": {**autosize, "resize": True},
        **spec,
        "usermeta": usermeta,
        "config": {**spec.get("config", {}), "aria": False},
        "params": params + list(spec.get("params", [])),
        "datasets": datasets,
    }


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
    show(spec, key=key, steady=bool(follows(spec)))
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
    clicking its tab: the page's own run, ui.workshop.room)."""
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
    return {s.key: _family(sliders, j, sentence, now, memo_key)[1] for j, s in enumerate(sliders)}


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
    found = {s.key: _family(sliders, j, sentence, now, memo_key)[1] for j, s in enumerate(sliders)}
    data = {"key": key, "now": now, "texts": found, "style": style, "label": label, "note": note}
    # Markdown holding the sentences, which the relay's script paints (not a component of its
    # own: each one would be a widget whose state every run and every selectbox presents).
    payload = html.escape(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    drawn = f'<div class="dp-live-text" data-live="{payload}"></div>'
    held = _ROW.get()
    if held is None:
        st.markdown(drawn, unsafe_allow_html=True)
    else:
        held.append(drawn)
    return now


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
