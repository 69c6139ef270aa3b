"""ui.common.charts: Vega-Lite specs whose text never moves with a slider (only their data do)."""

import json

import numpy as np
import pandas as pd
import pytest
import vl_convert

from ui.common import chart_text, charts, formatting, i18n


def _spec_text(spec: dict) -> str:
    """The spec without its data and its text alternative (``description``, which the relay
    carries for a live chart), as the browser compares it between reruns."""
    kept = {k: v for k, v in spec.items() if k not in ("datasets", "description")}
    return json.dumps(kept, sort_keys=True)


def test_noisy_vs_true_changes_only_its_data_when_the_noise_moves() -> None:
    labels = ["a", "b", "c"]
    one = charts.noisy_vs_true(
        labels, {"True": [3, 4, 5], "Noisy": [3.5, 2, 6]}, noisy="Noisy", half_width=3.0,
        value_title="count",
    )  # fmt: skip
    two = charts.noisy_vs_true(
        labels, {"True": [3, 4, 5], "Noisy": [1, 9, 4]}, noisy="Noisy", half_width=30.0,
        value_title="count",
    )  # fmt: skip
    assert _spec_text(one) == _spec_text(two)  # the browser swaps data, no re-embed
    errors = two["datasets"]["errors"]
    np.testing.assert_allclose(errors["high"] - errors["low"], 60.0)
    bars = one["datasets"]["bars"]
    assert bars.groupby("series")["value"].sum().to_dict() == {"Noisy": 11.5, "True": 12}


def test_a_marker_keeps_its_position_and_label_in_the_data() -> None:
    spec = charts.chart(charts.rule_x("now"), datasets={"now": charts.marker(0.5, "ε = 0.5")})
    other = charts.chart(charts.rule_x("now"), datasets={"now": charts.marker(2.0, "ε = 2")})
    assert _spec_text(spec) == _spec_text(other)
    assert spec["datasets"]["now"]["label"].tolist() == ["ε = 0.5"]


def test_specs_compile_to_svg_with_log_axes_labelled_at_powers_of_ten() -> None:
    grid = np.geomspace(0.01, 10, 31)
    spec = charts.chart(
        charts.lines("curve", x=charts.quantitative("e", "ε", log=True),
                     y=charts.quantitative("err", "error", log=True)),
        datasets={"curve": {"e": grid, "err": 1 / grid}},
    )  # fmt: skip
    spec["datasets"] = {  # vl-convert takes rows, as the browser gets them from Arrow
        name: [dict(zip(d, row, strict=True)) for row in zip(*d.values(), strict=True)]
        for name, d in spec["datasets"].items()
    }
    svg = vl_convert.vegalite_to_svg(spec)
    texts = {t.split(">")[1].split("<")[0] for t in svg.split("<text")[1:]}
    assert {"0.01", "0.1", "1", "10"} <= texts
    assert "2" not in texts and "5" not in texts  # no bare minor-tick digits on a log axis


# --- Axis titles have room ----------------------------------------------------------------------
# Every chart of every section, as the page sends it to the browser (normal and presenter
# mode), laid out by Vega (vl-convert) the way Streamlit draws it: the spec's height is the
# whole chart's, its width the column's. An axis title longer than the room the layout leaves
# it is clipped at the chart's edge in the browser ("posterior: after seeing the outp"), so
# each title, measured in a font with the metrics of the app's (Liberation Sans, as wide as
# Source Sans to 1%; else DejaVu Sans scaled), must lie wholly inside the chart, and no
# titleLimit may cut it.
SECTIONS = {  # page: (its address prefix, its sections' keys)
    "laplace": ("laplace", ["answers", "noise", "error", "averaging"]),
    "gaussian": ("gaussian", ["answers", "sigma", "noise", "k", "delta"]),
    "exponential": ("exponential", ["table", "epsilons", "right", "pitfall", "hours"]),
    "randomized_response": ("rr", ["coins", "survey", "error", "central"]),
    "local_frequencies": ("lf", ["reports", "counts", "domain"]),
    "bounding": ("bounding", ["answers", "contributions", "tradeoff", "budget"]),
    "attacker": ("attacker", ["guess", "test", "releases", "floating-point"]),
    "planner": ("planner", ["plan", "release", "cost", "wild", "board"]),
    "dp_sgd": ("dp_sgd", ["accuracy", "clipping", "accounting", "membership"]),
    "synthetic": ("synthetic", ["fidelity", "crosstab", "downstream", "pitfalls"]),
}
# The main column's width in pixels: a 1280-pixel window with the sidebar open, and presenter
# mode on a 1920-pixel projector (no sidebar); a chart in st.columns gets its share.
PAGE_WIDTH = {False: 790, True: 1832}
STREAMLIT_AXIS = {"labelPadding": 16, "titlePadding": 16}  # Streamlit's theme, under ours
LIBERATION = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"


def _text_width(text: str, size: float) -> float:
    from pathlib import Path

    from PIL import ImageFont

    if Path(LIBERATION).exists():
        return ImageFont.truetype(LIBERATION, size).getlength(text)
    return 0.87 * ImageFont.truetype("DejaVuSans.ttf", size).getlength(text)


def _page_charts(at) -> list[tuple[dict, dict, int]]:
    """(spec, {dataset: DataFrame}, columns sharing its row) of each chart on the page; a
    chart that follows sliders at their stops, as the dp_live script announces them."""
    import pyarrow as pa
    from apptest_helpers import still_stop

    from ui.common.live import follows

    def at_rest(spec: dict) -> dict:
        stops = iter([still_stop(at, key) for key in follows(spec)])
        params = [
            {**p, "value": next(stops)} if p["name"].startswith("dp_live") else p
            for p in spec.get("params", [])
        ]
        return {**spec, "params": params} if params else spec

    found = []

    def walk(node, columns: int) -> None:
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for child in children.values():
                column = getattr(child, "type", None) == "column"
                walk(child, columns * len(children) if column else columns)
        elif getattr(node, "type", None) == "vega_lite_chart":
            data = {
                d.name: pa.ipc.open_stream(d.data.data).read_all().to_pandas()
                for d in node.proto.datasets
            }
            found.append((at_rest(json.loads(node.proto.spec)), data, columns))

    walk(at._tree, 1)
    return found


def _rows(frame) -> list[dict]:
    rows = []
    for record in frame.to_dict(orient="records"):
        row = {k: v.item() if hasattr(v, "item") else v for k, v in record.items()}
        rows.append({k: None if isinstance(v, float) and not np.isfinite(v) else v
                     for k, v in row.items()})  # fmt: skip
    return rows


def clipped_titles(spec: dict, data: dict, width: int) -> list[str]:
    """The axis titles that do not fit in the chart as the browser lays it out."""
    config = dict(spec.get("config", {}))
    config["axis"] = {**STREAMLIT_AXIS, **config.get("axis", {})}
    full = {
        **spec,
        "width": width,
        "autosize": {"type": "fit", "contains": "padding"},
        "datasets": {name: _rows(frame) for name, frame in data.items()},
        "config": config,
    }
    scene = vl_convert.vegalite_to_scenegraph(full)
    size = scene["width"], scene["height"]
    found: list[str] = []

    def title(item: dict, x: float, y: float) -> None:
        lines = item["text"] if isinstance(item["text"], list) else [item["text"]]
        font = item.get("fontSize", 11)
        length = max(_text_width(str(line), font) for line in lines)
        limit = item.get("limit")
        if limit and limit < length:
            found.append(f"{lines}: titleLimit {limit} < {length:.0f} px")
        angle, align = item.get("angle") or 0, item.get("align", "center")
        along = (y, 1) if abs(angle) == 90 else (x, 0)  # position and axis of the text's run
        start = {"center": along[0] - length / 2, "left": along[0], "right": along[0] - length}
        if abs(angle) == 90:  # rotated: "left" runs up from the point when angle is -90
            start |= {"left": along[0] - length if angle < 0 else along[0],
                      "right": along[0] if angle < 0 else along[0] - length}  # fmt: skip
        low = start[align]
        if low < -1 or low + length > size[along[1]] + 1:
            found.append(f"{lines}: {length:.0f} px from {low:.0f} in {size[along[1]]}")
        if abs(angle) != 90:  # a level title's lines must fit in the height too
            tall = len(lines) * font * 1.2
            top = y - {"top": 0, "middle": tall / 2}.get(item.get("baseline", "top"), tall)
            if top < -1 or top + tall > size[1] + 1:
                found.append(f"{lines}: {tall:.0f} px high from {top:.0f} in {size[1]}")

    def walk(node: dict, x: float, y: float) -> None:
        items = node.get("items")
        if not isinstance(items, list):
            return
        for item in items:
            if node.get("role") == "axis-title":
                title(item, x + item.get("x", 0), y + item.get("y", 0))
            group = node.get("marktype") == "group"
            walk(item, x + item.get("x", 0) if group else x, y + item.get("y", 0) if group else y)

    walk(scene["scenegraph"], *scene["origin"])
    return found


@pytest.mark.parametrize("presenter", [False, True], ids=["normal", "presenter"])
@pytest.mark.parametrize("page", list(SECTIONS))
def test_no_axis_title_is_cut_at_the_apps_widths(page: str, presenter: bool) -> None:
    """Also, on the same charts (normal mode): no two of a chart's colours merge for a
    colour-blind reader, no line, point or grouped bar series differs by colour alone, every
    fill without an outline is 3:1 on white and every text 4.5:1 (tests/test_palette.py)."""
    from apptest_helpers import open_page
    from test_palette import (
        chart_colors,
        colour_only_series,
        faint_fills,
        faint_text,
        merged_colors,
    )

    prefix, keys = SECTIONS[page]
    cut = []
    for key in keys:
        query = {f"{prefix}_section": key, **({"present": "1"} if presenter else {})}
        at = open_page(page, query=query)
        for number, (spec, data, columns) in enumerate(_page_charts(at)):
            problems = clipped_titles(spec, data, PAGE_WIDTH[presenter] // columns)
            if not presenter:
                problems += merged_colors(chart_colors(spec, data)) + colour_only_series(spec, data)
                problems += faint_fills(spec, data) + faint_text(spec, data)
            cut += [f"{key} chart {number + 1}: {problem}" for problem in problems]
    assert not cut, "\n".join(cut)


def test_the_title_check_sees_a_title_longer_than_its_chart() -> None:
    """The check itself: an upright 23 px title on a 320-pixel chart is cut; level, it fits."""
    spec = charts.chart(
        charts.lines("p", x=charts.quantitative("x", "prior"),
                     y=charts.quantitative("y", "posterior: after seeing the output")),
        datasets={"p": {}},
    )  # fmt: skip
    spec |= {"height": 320, "config": {"axis": {"labelFontSize": 22, "titleFontSize": 23}}}
    data = {"p": pd.DataFrame({"x": [0.0, 1.0], "y": [0.0, 1.0]})}
    assert clipped_titles(spec, data, 1832)  # upright: cut
    spec["config"]["axisLeft"] = charts.PRESENTER_Y_TITLE
    assert not clipped_titles(spec, data, 1832)


# --- Presenter mode: a section's charts on one 1920 x 1080 screen ------------------------------
@pytest.mark.parametrize(("page", "count"), [("bounding", 2), ("planner", 1)])
def test_the_first_sections_charts_fit_a_projector_with_their_headings(
    app, browser, page, count
) -> None:
    """Bounding shows visits and revenue (each under its heading), the planner its accuracy
    chart below the plan's table: in presenter mode all of it is on the first screen."""
    from test_browser import MAIN, SHOTS, settled

    screen = browser.new_page(viewport={"width": 1920, "height": 1080})
    screen.goto(f"{app}/{page}?present=1")
    settled(screen)
    panel = f"{MAIN} [role='tabpanel']:not([hidden])"
    boxes = screen.locator(f"{panel} [data-testid='stVegaLiteChart']").evaluate_all(
        """charts => charts.map(chart => {
            const box = chart.getBoundingClientRect();
            const item = chart.closest('[data-testid="stElementContainer"]');
            let before = item && item.previousElementSibling;
            while (before && !before.querySelector('h1, h2, h3')) {
                before = before.previousElementSibling;  // the heading above, if any
            }
            const heading = before ? before.getBoundingClientRect().top : box.top;
            return [heading, box.top, box.bottom];
        })"""
    )
    SHOTS.mkdir(exist_ok=True)
    screen.screenshot(path=str(SHOTS / f"{page}-presenter-charts.png"))
    screen.close()
    assert len(boxes) == count, boxes
    for heading, top, bottom in boxes:
        assert 0 <= heading <= top and bottom <= 1080, (heading, top, bottom)


def _in(lang: str, make):
    token = i18n._LATER.set(lang)
    try:
        return make()
    finally:
        i18n._LATER.reset(token)


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", ["Bars of count", "a: True 3, Noisy 3.5", "b: True 4, Noisy 2", "1,234"]),
     ("de", ["Balken von count", "a: True 3, Noisy 3,5", "b: True 4, Noisy 2", "1.234"])],
)  # fmt: skip
def test_noisy_vs_true_says_every_category_s_values_in_the_reader_s_language(lang, words):
    spec = _in(lang, lambda: charts.noisy_vs_true(
        ["a", "b", "c"], {"True": [3, 4, 5], "Noisy": [3.5, 2, 1234.5]}, noisy="Noisy",
        half_width=3.0, value_title="count"))  # fmt: skip
    said = _in(lang, lambda: chart_text.describe(spec))
    for word in words:
        assert word in said
    bars = spec["datasets"]["bars"]  # the numbers said are the chart's own
    for row in bars.itertuples():
        number = _in(lang, lambda row=row: formatting.significant(row.value))
        assert f"{row.group}: " in said and f"{row.series} {number}" in said


def _curve() -> dict:
    frame = pd.DataFrame({"eps": [0.5, 1.0, 2.0, 0.5, 1.0, 2.0], "series": ["A"] * 3 + ["B"] * 3,
                          "y": [1.0, 2.0, 4.0, 10.0, 20.0, 40.0]})  # fmt: skip
    return charts.chart(
        charts.lines("curve", x=charts.quantitative("eps", "epsilon"),
                     y=charts.quantitative("y", "error"),
                     color=charts.series("series", "AB", "xy")),
        charts.rule_x("now"),
        datasets={"curve": frame, "now": charts.marker(1.5, "ε = 1.5")},
    )  # fmt: skip


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "A chart of error against epsilon. At ε = 1.5: A 3, B 30."),
        ("de", "Ein Diagramm von error über epsilon. Bei ε = 1.5: A 3, B 30."),
    ],
)
def test_a_curve_is_read_at_its_marked_epsilon(lang, said) -> None:
    """Each line's value where the marker stands, as drawn (straight between its points)."""
    assert _in(lang, lambda: chart_text.describe(_curve())) == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "A chart of error against epsilon. Each line's highest point (epsilon): "
               "A 4 at 2, B 40 at 2."),
        ("de", "Ein Diagramm von error über epsilon. Höchster Punkt jeder Linie (epsilon): "
               "A 4 bei 2, B 40 bei 2."),
    ],
)  # fmt: skip
def test_curves_with_no_marker_say_each_line_s_highest_point(lang, said) -> None:
    """A training curve or a density has no ε marked to read it at: its main numbers are
    each line's highest point and where it is reached."""
    spec = _in(lang, _curve)
    spec["layer"] = spec["layer"][:1]  # the lines without the marker
    assert _in(lang, lambda: chart_text.describe(spec)) == said


def test_a_long_bar_chart_says_its_ten_largest_values() -> None:
    frame = pd.DataFrame({"who": [f"c{i}" for i in range(30)], "p": np.arange(30) / 100})
    spec = charts.chart(
        charts.bars("p", x=charts.nominal("who"), y=charts.quantitative("p", "probability")),
        datasets={"p": frame},
    )
    said = _in("en", lambda: chart_text.describe(spec))
    largest = "; ".join(f"c{i}: {i / 100:g}" for i in range(29, 19, -1))
    assert said == f"A chart of probability. Its 10 largest values of 30: {largest}."


def test_bars_by_category_say_their_values_and_the_printed_labels() -> None:
    frame = pd.DataFrame({"who": ["x", "y"], "p": [0.25, 0.75]})
    spec = charts.chart(
        charts.bars("p", x=charts.nominal("who"), y=charts.quantitative("p", "probability")),
        charts.rule_y("truth"),
        datasets={"p": frame, "truth": charts.marker(0.5, "half")},
    )
    said = _in("en", lambda: chart_text.describe(spec))
    assert said == "A chart of probability. Its values: x: 0.25; y: 0.75. Marked on it: half."


def test_the_table_holds_the_chart_s_titled_data_in_the_reader_s_words() -> None:
    spec = _in("de", _curve)
    (table,) = _in("de", lambda: chart_text.tables(spec))
    assert list(table.columns) == ["epsilon", "Reihe", "error"]
    pd.testing.assert_frame_equal(table, spec["datasets"]["curve"].set_axis(table.columns, axis=1))
