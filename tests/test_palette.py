"""The charts' colours stay apart for colour-blind readers, and no series differs by colour
alone (WCAG 1.4.1, 1.4.11): the colour maths, checked against published values, and the
checks that tests/test_charts.py runs on every chart of every page.

Distance: CIEDE2000 (CIE 142-2001), the CIE's recommended formula; CIE76 (ΔE*ab) rates
differences between saturated colours such as this blue and red too high, so it would pass
pairs that look closer than it says. Threshold: 10. Mokrzycki & Tatol, "Colour difference
ΔE - a survey", Machine Graphics & Vision 20(4), 2011, put "two different colours" above 5
for large patches side by side; Szafir, "Modeling Color Difference for Visualization Design",
IEEE TVCG 24(1), 2018, measured that small points and thin lines need markedly larger
differences than such patches, so we ask twice that.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pandas as pd
import pytest

from ui.attacker import charts as attacker_charts
from ui.attacker import fp_charts
from ui.bounding import charts as bounding_charts
from ui.common import charts, palette
from ui.local import lf_charts, rr_charts, rr_tree_chart
from ui.planner import charts as planner_charts

# Machado, Oliveira & Fernandes (2009), IEEE TVCG 15(6), severity 1.0, on linear RGB.
MACHADO = {
    "normal": np.eye(3),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}  # fmt: skip
SRGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
                        [0.0193339, 0.1191920, 0.9503041]])  # fmt: skip
D65 = np.array([0.95047, 1.0, 1.08883])
APART = 10.0  # CIEDE2000, see the module's docstring
HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
# A mark and its own label or outline, one series: the label is darker, as text needs 4.5:1,
# a pale fill's outline darker, as a mark needs 3:1.
SAME_SERIES = {
    frozenset(pair) for pair in [*palette.TEXT_SHADES.items(), *palette.OUTLINES.items()]
}
NAMED = {"white": "#ffffff", "black": "#000000"}  # the colour names the charts use
MARK_COLORS = {
    "TRUE_COLOR": palette.TRUE_COLOR,
    "NOISY_COLOR": palette.NOISY_COLOR,
    "ACCENT_COLOR": palette.ACCENT_COLOR,
    "SECOND_COLOR": palette.SECOND_COLOR,
    "GOOD_COLOR": palette.GOOD_COLOR,
    "DP_COLOR": bounding_charts.DP_COLOR,
}
CUES = ("strokeDash", "shape", "fillOpacity", "opacity", "strokeWidth", "size")


def linear(hex_color: str) -> np.ndarray:
    """An sRGB colour's linear RGB (IEC 61966-2-1)."""
    c = np.array([int(hex_color[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def lab(rgb_linear: np.ndarray) -> np.ndarray:
    """CIELAB (D65) of a linear RGB colour, clipped to the screen's gamut."""
    t = SRGB_TO_XYZ @ np.clip(rgb_linear, 0, 1) / D65
    f = np.where(t > 216 / 24389, np.cbrt(t), (24389 / 27 * t + 16) / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(hex_color: str, vision: str) -> np.ndarray:
    """The colour's CIELAB as a reader with that vision sees it."""
    return lab(MACHADO[vision] @ linear(hex_color))


def ciede2000(one: np.ndarray, two: np.ndarray) -> float:
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005's formulation, kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = one, two
    c_bar = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    c1, c2 = np.hypot((1 + g) * a1, b1), np.hypot((1 + g) * a2, b2)
    h1 = np.degrees(np.arctan2(b1, (1 + g) * a1)) % 360 if c1 else 0.0
    h2 = np.degrees(np.arctan2(b2, (1 + g) * a2)) % 360 if c2 else 0.0
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_l, d_c = l2 - l1, c2 - c1
    d_h = 2 * np.sqrt(c1 * c2) * np.sin(np.radians(dh / 2))
    l_bar, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_bar = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_bar = (h1 + h2) / 2
    else:
        h_bar = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    cos = [
        np.cos(np.radians(k * h_bar - shift)) for k, shift in ((1, 30), (2, 0), (3, -6), (4, 63))
    ]
    t = 1 - 0.17 * cos[0] + 0.24 * cos[1] + 0.32 * cos[2] - 0.20 * cos[3]
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / np.sqrt(20 + (l_bar - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    r_t = (-np.sin(np.radians(60 * np.exp(-(((h_bar - 275) / 25) ** 2))))
           * 2 * np.sqrt(c_mean**7 / (c_mean**7 + 25**7)))  # fmt: skip
    return float(np.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2
                         + r_t * (d_c / s_c) * (d_h / s_h)))  # fmt: skip


def contrast_on_white(hex_color: str) -> float:
    """WCAG 2 contrast ratio against white."""
    return 1.05 / (float(np.array([0.2126, 0.7152, 0.0722]) @ linear(hex_color)) + 0.05)


def chart_colors(spec: dict, data: dict) -> set[str]:
    """Every colour a chart draws with: in its marks, encodings, scales and data."""
    found: set[str] = set()

    def walk(value) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key != "datasets":
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and HEX.match(value):
            found.add(value.lower())

    walk(spec)
    for frame in data.values():
        for column in frame.columns[frame.dtypes.eq(object)]:
            found |= {
                v.lower() for v in frame[column].dropna() if isinstance(v, str) and HEX.match(v)
            }
    return found


def merged_colors(colors: set[str]) -> list[str]:
    """The pairs of a chart's colours closer than APART for some reader."""
    same = {frozenset(c.lower() for c in pair) for pair in SAME_SERIES}
    close = []
    for one, two in itertools.combinations(sorted(colors), 2):
        if frozenset({one, two}) in same:
            continue
        for vision in MACHADO:
            difference = ciede2000(seen(one, vision), seen(two, vision))
            if difference < APART:
                close.append(f"{one} and {two}: {difference:.1f} in {vision} vision")
    return close


def _layers(spec: dict, data: dict | None = None) -> list[dict]:
    """The spec's mark layers, each with the data it draws (its own, else its parent's)."""
    data, found = spec.get("data", data), []
    for item in spec.get("layer", []):
        if "layer" in item:
            found.extend(_layers(item, data))
        else:
            found.append(item if "data" in item or data is None else {**item, "data": data})
    return found


def _source(item: dict, frames: dict) -> tuple[str | None, pd.DataFrame]:
    """A layer's data as Vega reads it: a dataset's name or inline values, or (a generated
    sequence, as the live sliders' layers draw) the dataset its lookup takes its fields from."""
    data = item.get("data", {})
    for lookup in [t for t in item.get("transform") or [] if "lookup" in t and "name" not in data]:
        data = lookup["from"]["data"]
    if "values" in data:
        return "values", pd.DataFrame(data["values"])
    return data.get("name"), pd.DataFrame(frames.get(data.get("name"), {}))


def _labelled(item: dict, layers: list[dict], frames: dict) -> bool:
    """Every mark of a layer has its own label: text layers on its data at its x and y, whose
    filters (``datum.column == 'value'``, the others shared with the layer) cover every row."""
    name, frame = _source(item, frames)
    at = [item["encoding"].get(c, {}).get("field") for c in "xy"]
    covered = pd.Series(False, index=frame.index)
    for text in layers:
        if text["mark"]["type"] != "text" or _source(text, frames)[0] != name:
            continue
        if [text["encoding"].get(c, {}).get("field") for c in "xy"] != at:
            continue
        rows = pd.Series(True, index=frame.index)
        for step in text.get("transform") or []:
            match = re.fullmatch(r"datum\.(\w+) == '([^']*)'", str(step.get("filter", "")))
            if match and match[1] in frame:
                rows &= frame[match[1]] == match[2]
        covered |= rows
    return bool(len(frame)) and bool(covered.all())


def colour_only_series(spec: dict, data: dict | None = None) -> list[str]:
    """The line and point layers and grouped bars whose series (a colour field) differ by
    nothing but colour: no other channel on the same field and no text layer naming them. A
    point layer of one series (by ``data``, else the spec's datasets) differs by its mark (a
    diamond beside a line or a bar), and one in its data's own colours (no legend to match
    them to) whose every point has its own label says what each is in words."""
    frames = spec.get("datasets", {}) if data is None else data
    layers = _layers(spec)
    named = {item["encoding"].get("text", {}).get("field") for item in layers
             if item["mark"]["type"] == "text"}  # fmt: skip
    found = []
    for item in layers:
        encoding, kind = item["encoding"], item["mark"]["type"]
        color = encoding.get("color")
        if (
            kind not in {"line", "bar", "point"}
            or not isinstance(color, dict)
            or "field" not in color
        ):
            continue
        if kind == "bar" and "xOffset" not in encoding:
            continue  # one bar a category: the category names it
        field, (name, frame) = color["field"], _source(item, frames)
        if kind == "point" and (
            (field in frame and frame[field].nunique() < 2)
            or ("scale" in color and color["scale"] is None and _labelled(item, layers, frames))
        ):
            continue
        others = [encoding.get(cue, {}) for cue in CUES]
        if not any(c.get("field") == field for c in others) and field not in named:
            found.append(f"{kind} layer on {name}: {field} by colour alone")
    return found


def _colors(mark: dict, channel: dict | None, data: dict, *keys: str) -> set[str]:
    """The colours a layer draws a channel in: the mark's ``keys``, the channel's value, its
    condition, its scale's range or (no scale) the data's column."""
    found = [mark.get(key) for key in keys]
    if isinstance(channel, dict):
        found += [channel.get("value"), channel.get("condition", {}).get("value")]
        if channel.get("scale", {}) is None and channel.get("field") in data:
            found += list(data[channel["field"]].dropna())
        found += list((channel.get("scale") or {}).get("range", []))
    return {NAMED.get(c, c).lower() for c in found if isinstance(c, str)}


def faint_fills(spec: dict, data: dict) -> list[str]:
    """The mark colours under 3:1 on white (WCAG 1.4.11) in layers that draw a fill with no
    outline of 3:1 round it: bars, areas, rectangles, ticks and points (text and lines
    aside; an invisible mark's colour does not count)."""
    found = []
    for item in _layers(spec):
        mark, encoding = item["mark"], item["encoding"]
        if mark["type"] in {"text", "line", "rule"} or mark.get("opacity") == 0:
            continue
        frame = _source(item, data)[1]
        fills = _colors(mark, encoding.get("color"), frame, "color", "fill")
        fills |= _colors({}, encoding.get("fill"), frame)
        outlines = _colors(mark, encoding.get("stroke"), frame, "stroke")
        if outlines and all(contrast_on_white(c) >= 3 for c in outlines):
            continue
        found += [f"{mark['type']} filled {c}: {contrast_on_white(c):.2f}:1 on white"
                  for c in sorted(fills) if contrast_on_white(c) < 3]  # fmt: skip
    return found


def faint_text(spec: dict, data: dict) -> list[str]:
    """The text marks' colours under 4.5:1 on white (WCAG 1.4.3); a halo (text drawn in its
    own outline's colour, behind the text) is not text."""
    found = []
    for item in _layers(spec):
        mark = item["mark"]
        if mark["type"] != "text" or mark.get("stroke", "") == mark.get("color"):
            continue
        frame = _source(item, data)[1]
        colors = _colors(mark, item["encoding"].get("color"), frame, "color", "fill")
        found += [f"text in {c}: {contrast_on_white(c):.2f}:1 on white"
                  for c in sorted(colors) if contrast_on_white(c) < 4.5]  # fmt: skip
    return found


# --- The colour maths against published values -------------------------------------------
def test_srgb_to_lab_matches_the_published_values() -> None:
    """sRGB red, white and mid grey in CIELAB (D65), as colour references tabulate them."""
    np.testing.assert_allclose(lab(linear("#ff0000")), [53.2408, 80.0925, 67.2032], atol=1e-3)
    np.testing.assert_allclose(lab(linear("#ffffff")), [100, 0, 0], atol=1e-3)
    np.testing.assert_allclose(lab(linear("#777777")), [50.0, 0, 0], atol=0.1)


@pytest.mark.parametrize(
    ("one", "two", "expected"),
    [  # Sharma, Wu & Dalal (2005), three pairs of its Table 1
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_ciede2000_matches_sharmas_test_data(one, two, expected) -> None:
    assert ciede2000(np.array(one), np.array(two)) == pytest.approx(expected, abs=1e-4)


def test_the_simulations_keep_greys_and_merge_red_and_green() -> None:
    """Each Machado row sums to 1, so greys stay grey; a deuteranope sees pure red and green
    far closer than a reader with normal vision."""
    for matrix in MACHADO.values():
        np.testing.assert_allclose(matrix.sum(axis=1), 1.0, atol=1e-5)
    normal = ciede2000(seen("#ff0000", "normal"), seen("#00ff00", "normal"))
    deutan = ciede2000(seen("#ff0000", "deuteranopia"), seen("#00ff00", "deuteranopia"))
    assert deutan < normal / 3


# --- The palette ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(MARK_COLORS))
def test_each_mark_colour_is_three_to_one_on_white(name: str) -> None:
    """WCAG 1.4.11: a bar, a line or a point in this colour alone stands out from the page."""
    assert contrast_on_white(MARK_COLORS[name]) >= 3.0


@pytest.mark.parametrize("color", list(palette.TEXT_SHADES))
def test_a_marks_text_shade_is_text_contrast_on_white_in_its_hue(color: str) -> None:
    """WCAG 1.4.3: text in a mark's colour takes its shade, 4.5:1 on white (the red is 4.36:1,
    the slate 3.59:1), of the same hue (within 4 degrees) so that it still names the mark."""
    shade = palette.text_color(color)
    assert contrast_on_white(color) < 4.5 <= contrast_on_white(shade)
    hue = [np.degrees(np.arctan2(*seen(c, "normal")[:0:-1])) for c in (color, shade)]
    assert abs((hue[0] - hue[1] + 180) % 360 - 180) < 4
    assert palette.text_color(palette.NOISY_COLOR) == palette.NOISY_COLOR  # 6.8:1 already


def test_a_pale_fills_outline_is_three_to_one_on_white() -> None:
    for pale, outline in palette.OUTLINES.items():
        assert contrast_on_white(pale) < 3.0 <= contrast_on_white(outline)


def test_every_two_mark_colours_stay_apart_for_every_reader() -> None:
    """Stricter than the charts need (test_charts checks each chart's own colours): any two
    of the palette's mark colours, so a new chart may pair any of them."""
    assert not merged_colors(set(MARK_COLORS.values()))


def test_the_check_sees_the_old_green_merge_with_the_red() -> None:
    close = merged_colors({"#4f9d69", palette.ACCENT_COLOR})
    assert close and all("deuteranopia" in problem for problem in close)


# --- Never colour alone --------------------------------------------------------------------
def test_line_series_differ_by_dash_in_the_legends_order() -> None:
    three = charts.series("s", ["a", "b", "c"], ["#1", "#2", "#3"])
    named = charts.lines("d", x={}, y={}, color=three)
    dash = named["encoding"]["strokeDash"]
    assert dash["field"] == "s"
    assert dash["scale"] == {"domain": ["a", "b", "c"], "range": list(palette.DASHES)}
    ordered = charts.lines("d", x={}, y={}, color=charts.ordered_series(["#1", "#2"]))
    assert ordered["encoding"]["strokeDash"]["sort"] == {"field": "order", "op": "min"}
    assert len({str(d) for d in palette.DASHES}) == len(palette.DASHES)
    assert "strokeDash" not in charts.lines("d", x={}, y={})["encoding"]  # one line: no legend
    mine = {"value": [1, 1]}
    own = charts.lines("d", x={}, y={}, color=charts.ordered_series(["#1"]), strokeDash=mine)
    assert own["encoding"]["strokeDash"] == {"value": [1, 1]}


def _bar_looks(spec: dict) -> dict[str, tuple]:
    encoding = _layers(spec)[0]["encoding"]
    names = encoding["color"]["scale"]["domain"]
    fills, dashes = (encoding[c]["scale"]["range"] for c in ("fillOpacity", "strokeDash"))
    assert encoding["stroke"] == encoding["color"]  # each bar outlined in its colour
    return {
        name: (fill, tuple(dash)) for name, fill, dash in zip(names, fills, dashes, strict=True)
    }


def test_true_bounded_and_noisy_bars_differ_by_fill_and_outline() -> None:
    two = charts.noisy_vs_true(["a"], {"True": [1], "Noisy": [2]}, noisy="Noisy", half_width=1,
                               value_title="count")  # fmt: skip
    assert _bar_looks(two) == {"True": (0.3, (1, 0)), "Noisy": (1.0, (1, 0))}
    three = bounding_charts.before_after_noisy(
        ["a"], np.array([3.0]), np.array([2.0]), np.array([2.5]), 1.0,
        names=("all", "bounded", "noisy"), value_title="count",
    )  # fmt: skip
    looks = _bar_looks(three)
    assert looks == {"all": (0.3, (1, 0)), "bounded": (0.6, (4, 2)), "noisy": (1.0, (1, 0))}
    assert not colour_only_series(two) and not colour_only_series(three)


def test_the_cue_check_sees_bars_that_differ_by_colour_alone() -> None:
    spec = charts.noisy_vs_true(["a"], {"T": [1], "N": [2]}, noisy="N", half_width=1,
                                value_title="count")  # fmt: skip
    for cue in ("fillOpacity", "strokeDash"):
        del spec["layer"][0]["encoding"][cue]
    assert colour_only_series(spec) == ["bar layer on bars: series by colour alone"]


def test_point_series_differ_by_shape_in_the_legends_order() -> None:
    """The posterior's highest and lowest markers, the ROC's simulated tests, the planner's
    central and local deployments: a shape each, on the colour's series; without it the
    check sees colour alone."""
    posterior = attacker_charts.posterior(np.array([0.5]), np.array([0.4]), np.array([0.6]),
                                          0.5, 0.4, 0.6, "c")  # fmt: skip
    tests = [(name, np.array([0.5]), np.array([0.5])) for name in ("laplace", "gaussian")]
    roc = attacker_charts.roc(np.array([0.5]), np.array([0.6]), np.array([0.55]), None, tests,
                              "c")  # fmt: skip
    plan = pd.DataFrame({"x": [1.0], "label": ["plan"]})
    wild = planner_charts.in_the_wild(pd.DataFrame({"model": ["central", "local"]}), plan)
    for spec in (posterior, roc, wild):
        points = [item for item in _layers(spec) if item["mark"]["type"] == "point"
                  and "color" in item["encoding"]]  # fmt: skip
        assert points and not colour_only_series(spec)
        for item in points:
            encoding = item["encoding"]
            assert {k: v for k, v in encoding["shape"].items() if k != "scale"} == {
                k: v for k, v in encoding["color"].items() if k != "scale"
            }  # the same field, order and legend: one legend
            del encoding["shape"]
        assert any("point layer" in problem for problem in colour_only_series(spec))


def test_the_attack_rates_bars_differ_by_fill_and_outline_with_dark_labels() -> None:
    """numpy's bars pale in a solid outline, OpenDP's half-filled in a dashed one, the legend's
    tick and line solid; the labels inside are 4.5:1 on each bar's fill as it shows on white."""
    rates = {fp_charts.numpy_noise(): [0.9], fp_charts.opendp_noise(): [0.6]}
    spec = fp_charts.attack_rates("d", ["ε = 1"], rates, title="t", best=[0.7])
    assert not colour_only_series(spec)
    bar, label = _layers(spec)[:2]
    encoding = bar["encoding"]
    assert encoding["fillOpacity"]["scale"]["range"] == [0.3, 0.6, 1.0, 1.0]
    assert encoding["strokeDash"]["scale"]["range"][:2] == [[1, 0], [4, 2]]
    ink = linear(label["mark"]["color"])
    for fill, opacity in zip(encoding["color"]["scale"]["range"][:2], [0.3, 0.6], strict=True):
        shown = opacity * linear(fill) + (1 - opacity) * 1.0  # over white, in linear light
        lum = [float(np.array([0.2126, 0.7152, 0.0722]) @ c) + 0.05 for c in (shown, ink)]
        assert lum[0] / lum[1] >= 4.5


def test_the_raw_sum_of_bits_bars_are_outlined_at_three_to_one() -> None:
    """The local frequencies' raw counts keep their pale fill inside a darker outline; drawn
    in their fill's colour, the check sees them."""
    spec = lf_charts.frequency_bars(["a"], np.array([3]), np.array([5]), np.array([3.2]),
                                    np.array([1.0]), "raw")  # fmt: skip
    data = {name: frame for name, frame in spec["datasets"].items()}
    assert not faint_fills(spec, data)
    encoding = _layers(spec)[0]["encoding"]
    assert palette.MUTED_COLOR in encoding["color"]["scale"]["range"]
    encoding["stroke"] = encoding["color"]
    assert faint_fills(spec, data) == [f"bar filled {palette.MUTED_COLOR}: 1.62:1 on white"]


def test_a_markers_label_is_in_its_text_shade_and_the_check_sees_the_red() -> None:
    for color in (palette.ACCENT_COLOR, palette.TRUE_COLOR, palette.NOISY_COLOR):
        spec = charts.chart(charts.rule_x("now", color=color), datasets={})
        assert not faint_text(spec, {})
        assert _layers(spec)[1]["mark"]["color"] == palette.text_color(color)
        _layers(spec)[1]["mark"]["color"] = color
        assert bool(faint_text(spec, {})) == (color != palette.NOISY_COLOR)
    halo = charts.chart(lf_charts.haloed(charts.foot_label("d", {})), datasets={})
    assert not faint_text(halo, {})  # the white halo behind a label is no text


def test_the_cue_check_reads_a_layers_data_as_vega_does() -> None:
    """A diamond beside bars is one series wherever its rows come from: the top level's data,
    inline values, or (a live slider's layer) a sequence looking its fields up in a dataset;
    two series there differ by colour alone."""
    point = {"mark": {"type": "point", "shape": "diamond"},
             "encoding": {"color": {"field": "series", "type": "nominal"}}}  # fmt: skip
    found = {"data": {"name": "d"}, "key": "_row", "fields": ["series"]}
    lookup = {"lookup": "_row", "from": found}
    for series in (["sampled"], ["sampled", "exact"]):
        frame = pd.DataFrame({"series": series, "_row": range(len(series))})
        rows = frame.to_dict(orient="records")
        specs = [
            {"data": {"name": "d"}, "layer": [point]},
            {"layer": [{**point, "data": {"values": rows}}]},
            {"layer": [{**point, "data": {"sequence": {"start": 0, "stop": 2, "as": "_row"}},
                        "transform": [lookup]}]},
        ]  # fmt: skip
        for spec in specs:
            problems = colour_only_series(spec, {"d": frame})
            assert bool(problems) == (len(series) == 2)
            assert all(" on None:" not in problem for problem in problems)


def test_the_coin_trees_nodes_are_each_labelled_in_words() -> None:
    """Its nodes take their data's colours (no legend) and each has its own label beside it,
    saying what it is; a node without one would be told apart by colour alone."""
    spec = rr_tree_chart.coin_tree(0.5, 0.5)
    assert not colour_only_series(spec)
    leaf_labels = [item for item in spec["layer"] if "leaf" in str(item.get("transform"))]
    spec["layer"].remove(leaf_labels[0])
    assert colour_only_series(spec) == ["point layer on tree_nodes: color by colour alone"]


def test_the_surveys_estimate_is_labelled_in_the_reds_text_shade() -> None:
    spec = rr_charts.estimate_distribution(
        np.array([0.4, 0.5, 0.6]), np.array([0.2, 0.6, 0.2]), 0.5, 0.52, (0.4, 0.6)
    )
    assert not faint_text(spec, spec["datasets"])
