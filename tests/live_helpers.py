"""Checks that a page's charts follow a slider's thumb (ui.common.live) with the numbers the
server shows once the slider is there, drawn by Vega itself (vl-convert), not read back by a
Python copy of the filter."""

from __future__ import annotations

import json

import pandas as pd
import vl_convert
from apptest_helpers import raw_charts, rerun, still_stop, widget
from streamlit.testing.v1 import AppTest

from ui.common import live
from ui.common.live import shown
from ui.common.live_assembly import PICKED

LIVE_TRANSFORMS = 3  # put first in each layer by ui.common.live (_picking)


def follows(spec: dict, slider: str) -> int | None:
    """The index of the parameter that follows ``slider`` in a live spec; None if none does."""
    for index, param in enumerate(spec.get("params", [])):
        if param.get("bind", {}).get("element") == f".st-key-{slider}":
            return index
    return None


def _records(frame: pd.DataFrame) -> list[dict]:
    return json.loads(frame.to_json(orient="records", double_precision=15))


def svg(spec: dict, datasets: dict[str, pd.DataFrame]) -> str:
    """The chart drawn by vl-convert's Vega, 600 pixels wide (laid out as Streamlit lays out a
    still chart: a live chart's own autosize only tells Vega to lay out again as it moves)."""
    full = {k: v for k, v in spec.items() if k != "autosize"}
    full |= {"width": 600, "datasets": {n: _records(f) for n, f in datasets.items()}}
    full["config"] = {**spec.get("config", {}), "aria": False}  # a live chart's canvas has none
    return vl_convert.vegalite_to_svg(full)


def _plain(value):
    """A live spec as ``build`` made it: without the live parameters and transforms."""
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if not isinstance(value, dict):
        return value
    out = {k: _plain(v) for k, v in value.items() if k != "params"}
    params = [p for p in value.get("params", []) if not p["name"].startswith(("dp_live", PICKED))]
    if params:
        out["params"] = params
    transforms = value.get("transform", [])
    if transforms[:1] and transforms[0].get("as") == "_row":
        out["data"] = transforms[1]["from"]["data"]  # the dataset its positions look rows up in
        rest = transforms[LIVE_TRANSFORMS:]
        out.pop("transform")
        if rest:
            out["transform"] = rest
    return out


def dragged(spec: dict, datasets: dict[str, pd.DataFrame], slider: str, stop: int) -> str:
    """The live chart as the browser draws it while ``slider``'s thumb is on ``stop`` (the
    dp_live script announces a moving thumb's stop as -(stop + 1))."""
    index = follows(spec, slider)
    params = [dict(p) for p in spec["params"]]
    params[index]["value"] = -stop - 1
    return svg({**spec, "params": params}, datasets)


def still(spec: dict, datasets: dict[str, pd.DataFrame], stops: list[int]) -> str:
    """The live chart as the browser draws it with no thumb moving, the sliders it follows
    at ``stops`` (as the dp_live script announces them after a run)."""
    params = [dict(p) for p in spec["params"]]
    for param, stop in zip(params, stops, strict=False):
        param["value"] = stop
    return svg({**spec, "params": params}, datasets)


def assert_thumb_shows_the_server_view(at: AppTest, slider: str, value) -> int:
    """Move ``slider`` to ``value``: each chart that followed the thumb there (drawn by Vega
    with the thumb on that stop, before the server heard of it) is the chart the server then
    draws. Returns how many charts were checked."""
    before = [(s, d) for s, d in raw_charts(at) if follows(s, slider) is not None]
    thumb = widget(at.select_slider, slider)
    stop = thumb.options.index(thumb.format_func(value))  # the hidden range input's value
    thumb.set_value(value)
    rerun(at)
    after = [(s, d) for s, d in raw_charts(at) if follows(s, slider) is not None]
    assert len(before) == len(after)
    for (live_spec, live_data), (server_spec, server_data) in zip(before, after, strict=True):
        first = live.follows(server_spec)[0]
        assert dragged(live_spec, live_data, slider, stop) == svg(
            _plain(server_spec), shown(server_data, still_stop(at, first))
        )
    return len(before)
