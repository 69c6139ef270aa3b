"""The bounding page's address, exports, exercises, difference view, week bar and OpenDP
pipeline, through AppTest (the page as a user reaches it)."""

from __future__ import annotations

import io
import json
import math
import re
import subprocess
import sys
import zipfile

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import (
    ROOT,
    chart_data,
    charts,
    metric,
    open_page,
    rerun,
    successes,
    texts,
    widget,
)

from dp_core import accountants
from dp_core.bounding import Bounding, release_sensitivity
from dp_core.bounding import noise as bounding_noise
from ui.bounding import answers as bounding_answers
from ui.common.export import file_stem, results_zip

CAP = "bounding_max_groups"
LINF = "bounding_max_per_group"
ANSWERS, TRADEOFF, BUDGET = (
    "1. Noisy answers, before and after bounding",
    "3. Bias against noise",
    "4. What the week costs",
)
LINKED = {  # three and more settings, none at its default
    CAP: "3",
    LINF: "2",
    "bounding_pre_aggregate": "true",
    "bounding_epsilon": "1",
    "bounding_plan": "whole week at once",  # option keys: the same link in every language
    "bounding_view": "difference",
}


@pytest.fixture
def at():
    return open_page("bounding")


def section(at, label: str):
    at.session_state["bounding__section"] = label
    return rerun(at)


def shown(at) -> tuple[list, list]:
    """What the page shows: the metrics, and every chart's datasets."""
    metrics = [(m.label, m.value, m.delta) for m in at.metric]
    return metrics, [data for _, data in charts(at)]


def bars(at, index: int) -> dict[str, np.ndarray]:
    frame = [data for _, data in charts(at) if "bars" in data][index]["bars"]
    return {name: rows["value"].to_numpy() for name, rows in frame.groupby("series", sort=False)}


def test_a_link_opens_exactly_what_moving_the_controls_shows(at):
    linked = open_page("bounding", query=LINKED)
    widget(at.slider, CAP).set_value(3)
    widget(at.slider, LINF).set_value(2)
    widget(at.toggle, "bounding_pre_aggregate").set_value(True)
    widget(at.radio, "bounding_plan").set_value("whole week at once")
    widget(at.radio, "bounding_view").set_value("difference")
    widget(at.text_input, "bounding_epsilon__text").set_value("1")
    rerun(at)
    assert metric(linked, "Visits dropped") == "157" and metric(at, "Visits dropped") == "157"
    moved_metrics, moved_charts = shown(at)
    linked_metrics, linked_charts = shown(linked)
    assert linked_metrics == moved_metrics
    assert len(linked_charts) == len(moved_charts) == 2
    for mine, theirs in zip(linked_charts, moved_charts, strict=True):
        assert mine.keys() == theirs.keys()
        for name in mine:
            pd.testing.assert_frame_equal(mine[name], theirs[name])
    assert "Laplace noise with scale 150 / 7 = 21.4" in texts(linked)  # 3 days x 50, all at once


def test_the_difference_view_shows_what_bounding_changed(at):
    values = bars(at, 0)
    widget(at.radio, "bounding_view").set_value("difference")
    changes = bars(rerun(at), 0)
    dropped = values["True after bounding"] - values["True, all records"]
    np.testing.assert_array_equal(changes["True after bounding"], dropped)
    assert dropped.sum() == -25  # 25 visits dropped at a cap of 4 days
    noisy = values["Noisy (± 95% of noise)"] - values["True, all records"]
    np.testing.assert_allclose(changes["Noisy (± 95% of noise)"], noisy)
    widget(at.radio, "bounding_view").set_value("relative")
    relative = bars(rerun(at), 0)["True after bounding"]
    np.testing.assert_allclose(relative, 100 * dropped / values["True, all records"])


def test_the_histogram_leaves_room_for_its_tallest_label(at):
    section(at, "2. Contributions per person")
    assert chart_data(at, "histogram")["persons"].max() == 507
    assert chart_data(at, "room")["y"].iloc[0] >= 1.1 * 507


def _totals(at) -> dict[str, float]:
    segments = chart_data(at, "segments")
    return segments.groupby("plan", sort=False)["epsilon"].sum().to_dict()


def test_the_week_bar_comes_from_the_accountants(at):
    day = accountants.NoiseRelease("laplace", scale=2.0, sensitivity=1.0, epsilon=0.5)
    totals = _totals(section(at, BUDGET))
    assert totals["Day by day"] == pytest.approx(accountants.basic_total([day] * 7)[0])
    assert totals["Same noise, with the cap of 4"] == pytest.approx(
        accountants.basic_total([day] * 4)[0]
    )
    widget(at.radio, "bounding_mechanism").set_value("gaussian")
    totals = _totals(rerun(at))
    sigma = accountants.gaussian_exact_epsilon  # the exact row: 4 Gaussians, δ = 4 × 10⁻⁶
    from dp_core.gaussian import analytic_gaussian_sigma

    gaussian = accountants.NoiseRelease(
        "gaussian", scale=analytic_gaussian_sigma(1.0, 0.5, 1e-6), sensitivity=1.0,
        epsilon=0.5, delta=1e-6,
    )  # fmt: skip
    exact = sigma([gaussian] * 4, 4e-6)
    assert totals["Same noise, exact Gaussian composition"] == pytest.approx(exact)
    assert exact < 2.0  # tighter than basic composition's 4 × 0.5
    assert f"ε = {exact:.4g} at δ = 4×10⁻⁶" in chart_data(at, "totals")["note"].tolist()


def test_the_export_holds_the_table_as_shown_and_every_setting(at, monkeypatch):
    built = {}

    def capture(page, data, build, *, secure, report_button=True):
        built["page"], built["data"], built["build"] = page, data, build

    monkeypatch.setattr(bounding_answers, "export_buttons", capture)
    widget(at.slider, CAP).set_value(3)
    rerun(at)
    shown_bars = [bars(at, 0), bars(at, 1)]
    export = built["build"]()
    stem = file_stem(built["page"], built["data"], {"bounding_epsilon": "0.5", "seed": "7"})
    archive = zipfile.ZipFile(io.BytesIO(results_zip(export, dict(export.settings), stem)))
    table = pd.read_csv(io.BytesIO(archive.read(f"{stem}.csv")))
    assert stem == "bounding_restaurant_epsilon-0.5"
    assert list(table["statistic"].unique()) == ["visits per day", "revenue per day"]
    assert table["Day"].astype(str).tolist() == [str(d) for d in range(1, 8)] * 2
    for statistic, values in zip(("visits per day", "revenue per day"), shown_bars, strict=True):
        rows = table[table["statistic"] == statistic]
        np.testing.assert_array_equal(rows["true after bounding"], values["True after bounding"])
        np.testing.assert_allclose(rows["noisy"], values["Noisy (± 95% of noise)"], atol=0.05)
    assert {"expected bias", "selection sd", "noise sd", "expected RMSE"} <= set(table.columns)
    settings = json.loads(archive.read(f"{stem}.json"))
    assert settings["cap on groups per person (l0)"] == 3
    assert settings["upper bound U"] == "50" and settings["pre-aggregation"] == "no"
    assert {"charts/counts.svg", "charts/sums.svg"} <= set(archive.namelist())
    assert "the noisy counts and sums of the 7 days (ε = 3)" in export.guarantee


# --- Exercises ----------------------------------------------------------------------------------


def reveal(at, key: str) -> str:
    at.session_state[f"exercise_{key}"] = True
    rerun(at)
    widget(at.toggle, f"exercise_{key}_show").set_value(True)
    return rerun(at).info[-1].value


def typed(at, key: str, value: float) -> tuple[bool, bool]:
    widget(at.number_input, f"exercise_{key}_given").set_value(value)
    rerun(at)
    return any(s == "Right." for s in successes(at)), any(
        "Not quite" in w.value for w in at.warning
    )


def test_the_pre_aggregation_exercise_is_the_sensitivity_the_metric_shows(at):
    widget(at.slider, LINF).set_value(3)
    widget(at.toggle, "bounding_pre_aggregate").set_value(True)
    rerun(at)
    shown_value = metric(at, "Sensitivity of one day's sum")
    assert reveal(at, "bounding.pre_aggregation").startswith(f"{shown_value}:")
    assert "3 × 50 = 150" in reveal(at, "bounding.pre_aggregation")
    assert typed(at, "bounding.pre_aggregation", float(shown_value)) == (True, False)
    assert typed(at, "bounding.pre_aggregation", 150.0) == (False, True)


def test_the_best_cap_exercise_is_the_star_of_the_chart(at):
    widget(at.radio, "bounding_plan").set_value("whole week at once")
    section(at, TRADEOFF)
    widget(at.radio, "bounding_tradeoff_statistic").set_value("count")
    rerun(at)
    star = int(chart_data(at, "cap_best")["x"].iloc[0])
    assert reveal(at, "bounding.best_cap").startswith(f"{star}:")
    assert typed(at, "bounding.best_cap", star) == (True, False)
    assert typed(at, "bounding.best_cap", star + 1) == (False, True)


def test_the_week_exercise_is_the_capped_bar(at):
    widget(at.slider, CAP).set_value(4)
    section(at, BUDGET)
    notes = chart_data(at, "totals")["note"].tolist()
    assert notes[1] == "4 × 0.5 = 2"
    assert reveal(at, "bounding.week").startswith("2: ")
    assert typed(at, "bounding.week", 2.0) == (True, False)
    assert typed(at, "bounding.week", 3.5) == (False, True)


def test_the_exact_gaussian_exercise_is_false_as_the_last_bar_shows(at):
    widget(at.radio, "bounding_mechanism").set_value("gaussian")
    section(at, BUDGET)
    exact = _totals(at)["Same noise, exact Gaussian composition"]
    answer = reveal(at, "bounding.exact")
    assert answer.startswith("False.") and f"ε = {exact:.4g}" in answer
    widget(at.radio, "exercise_bounding.exact_given").set_value("false")
    assert any(s.value == "Right." for s in rerun(at).success)


# --- The OpenDP pipeline ------------------------------------------------------------------------


def run_pipeline(at, tmp_path) -> dict:
    """The code the page shows, run on the shipped data; OpenDP's statement as JSON."""
    at.session_state["bounding_pipeline"] = True
    code = rerun(at).code[0].value
    script = tmp_path / "pipeline.py"
    script.write_text(code, encoding="utf-8")
    out = tmp_path / "out.json"
    done = subprocess.run(
        [sys.executable, str(script), "--data", str(ROOT / "data/restaurant_week.csv"),
         "--json", str(out)],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text())


def test_the_pipeline_states_the_pages_sensitivity_scale_and_epsilon(at, tmp_path):
    widget(at.slider, CAP).set_value(3)
    rerun(at)
    result = run_pipeline(at, tmp_path)
    stated = result["guarantee"]["statistics"]
    assert stated["sum"]["sensitivity"]["per_group"] == float(
        metric(at, "Sensitivity of one day's sum")
    )
    assert stated["sum"]["sensitivity"]["l1"] == float(
        metric(at, "Sensitivity of all days' sums (L1)")
    )
    assert stated["sum"]["stability"] == stated["sum"]["sensitivity"]["l1"]  # OpenDP's map
    count_scale = re.search(r"Laplace noise with scale 1 / 0.5 = (\S+) on every day", texts(at))
    assert stated["count"]["scale"] == float(count_scale.group(1))
    assert stated["sum"]["scale"] == 100.0  # 50 / 0.5
    # the vector of 7 days at a cap of 3 costs 3 × 0.5 per statistic, as the guarantee says
    assert stated["count"]["epsilon"] == pytest.approx(1.5)
    assert result["guarantee"]["total"]["epsilon"] == pytest.approx(3.0)
    assert "Guarantee: 3-DP" in successes(at)[0]
    assert set(result["release"]) == {"count", "sum"} and len(result["release"]["count"]) == 7


def test_a_gaussian_pipeline_states_the_pages_sigma_as_rho(at, tmp_path):
    widget(at.radio, "bounding_mechanism").set_value("gaussian")
    widget(at.toggle, "bounding_pre_aggregate").set_value(True)
    widget(at.radio, "bounding_plan").set_value("whole week at once")
    rerun(at)
    result = run_pipeline(at, tmp_path)
    stated = result["guarantee"]["statistics"]["sum"]
    l2 = float(metric(at, "Sensitivity of all days' sums (L2)"))
    assert stated["sensitivity"]["l2"] == pytest.approx(l2)
    sigma = bounding_noise.group_noise(
        release_sensitivity("sum", Bounding(4, 1, 0.0, 50.0, pre_aggregate=True)),
        bounding_noise.NoisePlan(0.5, True, "gaussian", 1e-6),
        max_groups=4,
        n_groups=7,
    ).scale
    assert stated["scale"] == pytest.approx(sigma)
    assert stated["rho"] == pytest.approx(l2**2 / (2 * sigma**2))
    assert math.isfinite(result["guarantee"]["total"]["epsilon"])


# --- Languages ----------------------------------------------------------------------------------


def test_in_german_the_noise_is_written_with_a_decimal_comma():
    at = open_page("bounding", query={"lang": "de"})
    assert "1 / 0,5 = 2" in texts(at)
    assert metric(at, "Besuche") == "25"
