"""How a live spec is assembled (see ui.common.live): ``build`` at every stop of each slider
(kept across runs and sessions), the datasets that differ stacked with a ``_stop`` column,
and the Vega parameters that pick the stop shown."""

from __future__ import annotations

import hashlib
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ui.common.charts import Spec

if TYPE_CHECKING:
    from ui.common.live import Stops

EVENT = "dp-live"  # what the script dispatches on a slider's container at each new stop


def _skeleton(value: Any) -> Any:
    """A spec without its data and its text alternative (the relay carries a live chart's)."""
    return {k: v for k, v in value.items() if k not in ("datasets", "description")}


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


def family(
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


_TEXTS = _Memo()  # a family's text alternatives, by the family's memo key


def described(key: str, specs: list[Any], built: bool, describe: Callable[[Any], str]) -> list[str]:
    """``describe`` of each stop's spec of the family kept under ``key`` (``family``), kept as
    it is: made again only when the family was built again, not on every run."""
    found, _made = _TEXTS.once(
        key, lambda: [describe(spec) for spec in specs], fresh=lambda _found: not built
    )
    return found


def _equal(one: Any, other: Any) -> bool:
    return _same(one, other) if isinstance(one, dict) else one == other


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


def _assemble(sliders: Sequence[Stops], base: Spec, stacks: list[_Stack]) -> Spec:
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
    spec = _picked_in(_skeleton(base), varying)
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


def assembled(
    sliders: Sequence[Stops], build: Callable[..., Spec], base: Spec, memo_key: bytes
) -> Spec:
    """One spec holding ``build`` at every stop of every slider (``base``: at the values in
    use; ``memo_key``: what else it draws from), kept for the same stops and ``memo_key``."""
    families = [family(sliders, j, build, base, memo_key) for j in range(len(sliders))]
    key = _digest(*(family_key for family_key, _, _ in families))
    rebuilt = any(built for _, _, built in families)  # a stale family: its spec made anew
    spec, _ = _SPECS.once(
        key,
        lambda: _assemble(sliders, base, [_stack(*found) for found in families]),
        fresh=lambda _spec: not rebuilt,
    )
    return spec
