"""ui.common.charts: Vega-Lite specs whose text never moves with a slider (only their data do)."""

import json

import numpy as np
import vl_convert

from ui.common import charts


def _spec_text(spec: dict) -> str:
    """The spec without its data, as the browser compares it between reruns."""
    return json.dumps({k: v for k, v in spec.items() if k != "datasets"}, sort_keys=True)


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
