"""The exponential-mechanism page through AppTest: the published tables after moving epsilon,
the sampled column, the curves, the pitfall and bad input."""

from __future__ import annotations

import base64

import numpy as np
import pytest
from apptest_helpers import metric, open_page, plotly_figures, rerun, texts, widget

EPS_TEXT = "exponential_epsilon__text"
EPS_SLIDER = "exponential_epsilon__slider"
PUBLISHED = {  # the Swiss teaching notebooks' disease table (/work/shared/README.md)
    "0.1": {"Diabetes": "0.327", "Hepatitis": "0.147", "Flu": "0.399", "HIV": "0.126"},
    "1": {"Diabetes": "0.119", "Hepatitis": "4.0e-05", "Flu": "0.881", "HIV": "8.9e-06"},
    "0": {"Diabetes": "0.250", "Hepatitis": "0.250", "Flu": "0.250", "HIV": "0.250"},
}


@pytest.fixture(scope="module")
def page():
    return open_page("exponential")


def main_table(at):
    return at.dataframe[0].value.set_index("candidate")


DISEASES = "Diseases (65 persons): which disease is most common?"


def values(trace_axis) -> np.ndarray:
    """A trace's x or y: a list, or plotly's packed {"dtype", "bdata"} form."""
    if isinstance(trace_axis, dict):
        raw = base64.b64decode(trace_axis["bdata"])
        return np.frombuffer(raw, dtype=np.dtype(trace_axis["dtype"]))
    return np.asarray(trace_axis, dtype=float)


def choose(at, source: str):
    widget(at.selectbox, "exp_source").set_value(source)
    return rerun(at)


def infos(at) -> str:
    return " ".join(i.value for i in at.info)


def set_epsilon(at, value: str):
    widget(at.text_input, EPS_TEXT).set_value(value)
    return rerun(at)


@pytest.mark.parametrize("epsilon", ["0.1", "1", "0"])
def test_disease_table_matches_the_published_one(page, epsilon):
    at = set_epsilon(page, epsilon)
    table = main_table(at)
    assert table["probability"].to_dict() == PUBLISHED[epsilon]
    assert table.loc["Flu", "true count"] == 28
    assert metric(at, "P(true best answer)") == PUBLISHED[epsilon]["Flu"][:5]


def test_slider_to_both_ends(page):
    widget(page.select_slider, EPS_SLIDER).set_value(0.0)
    at = rerun(page)
    assert metric(at, "P(true best answer)") == "0.250"
    assert "ε = 0: every candidate is equally likely (1/4 each)" in infos(at)
    assert "Given a candidate list fixed in advance, the answer says nothing" in infos(at)
    assert "the list itself reveals that each of them occurs" in infos(at)
    widget(at.select_slider, EPS_SLIDER).set_value(20.0)
    at = rerun(at)
    table = main_table(at)
    assert table.loc["Flu", "probability"] == "1.000"
    assert table.loc["HIV", "probability"] == "1.3e-100"  # about exp(-10 * 23), not a bare 0
    assert metric(at, "P(true best answer)") == "1.000"


def test_sampled_column_is_within_binomial_bounds_at_100000_draws(page):
    from scipy import stats

    at = set_epsilon(page, "0.1")
    widget(at.select_slider, "exp_draws").set_value(100_000)
    at = rerun(at)
    table = main_table(at)
    share = table["sampled share of 100,000"]
    assert table["sampled runs"].sum() == 100_000
    for name, p in {"Diabetes": 0.32707, "Hepatitis": 0.14696, "Flu": 0.39948}.items():
        low, high = stats.binom.ppf([0.0005, 0.9995], 100_000, p) / 100_000
        assert low <= share[name] <= high
    bars = plotly_figures(at)[0]["data"]
    assert np.allclose(values(bars[0]["y"]), table["probability"].astype(float), atol=5e-4)
    assert np.allclose(values(bars[1]["y"]), share.to_numpy())


def test_compare_mode_columns_and_bad_epsilons(page):
    at = set_epsilon(page, "1")
    compare = at.dataframe[1].value.set_index("candidate")
    assert list(compare.columns) == ["true count", "ε = 0", "ε = 0.1", "ε = 1"]
    assert compare.loc["Hepatitis", "ε = 1"] == "4.0e-05"
    assert compare.loc["Flu", "ε = 0.1"] == "0.399"
    widget(at.text_input, "exp_compare").set_value("0.5, -1, abc, 10")
    at = rerun(at)
    compare = at.dataframe[1].value.set_index("candidate")
    assert list(compare.columns) == ["true count", "ε = 0.5", "ε = 10"]
    errors = " ".join(e.value for e in at.error)
    assert "epsilon cannot be negative" in errors and "must be a number" in errors
    widget(at.text_input, "exp_compare").set_value("0, 0.1, 1.0")
    rerun(at)


def test_industry_groups_read_0_950_at_0_1_and_the_curves(page):
    at = set_epsilon(choose(page, "Industry groups (37,080 rows, 119 groups)"), "0.1")
    assert metric(at, "P(true best answer)") == "0.950"
    assert metric(at, "Exponential mechanism, ε = 0.1") == "0.9501"
    assert float(metric(at, "Permute-and-flip, ε = 0.1")) > 0.95
    assert len(main_table(at)) == 119
    assert "Row-level privacy, not person-level" in texts(at)
    assert "A person could be behind several rows" in texts(at)
    assert "computed numerically (to about 1e-12)" in texts(at)
    assert "all are exact" not in texts(at)
    curves = {trace["name"]: trace for trace in plotly_figures(at)[1]["data"]}
    em = curves["Exponential mechanism"]
    assert set(curves) == {
        "Exponential mechanism",
        "Permute-and-flip",
        "Report-noisy-max, Laplace noise",
        "ε = 0.1 (now)",
    }
    assert values(curves["ε = 0.1 (now)"]["x"]).tolist() == [0.1, 0.1]
    x, y = values(em["x"]), values(em["y"])
    assert x.min() > 0 and x.max() == pytest.approx(20)  # log axis leaves out 0
    assert np.interp(0.1, x, y) == pytest.approx(0.9501, abs=5e-3)
    widget(at.radio, "exp_axis").set_value("linear, 0 to 20")
    at = rerun(at)
    em = plotly_figures(at)[1]["data"][0]
    assert values(em["x"])[0] == 0 and values(em["y"])[0] == pytest.approx(1 / 119)
    choose(at, DISEASES)


def test_sensitivity_pitfall_is_near_uniform(page):
    at = set_epsilon(choose(page, DISEASES), "1")
    widget(at.toggle, "exp_pitfall").set_value(True)
    at = rerun(at)
    pitfall = at.dataframe[2].value.set_index("candidate")
    wrong = pitfall["probability, count ÷ largest with Δ = 1"].astype(float)
    assert wrong.max() / wrong.min() <= np.exp(0.5) * 1.01
    assert pitfall.loc["Flu", "probability, count with Δ = 1"] == "0.881"
    assert "1/28" in texts(at)
    widget(at.toggle, "exp_pitfall").set_value(False)
    rerun(at)


def test_pitfall_keeps_epsilon_over_2_delta_when_the_count_is_monotonic(page):
    """count / largest is not monotonic: the monotonic switch must not reach it."""
    at = set_epsilon(choose(page, DISEASES), "1")
    widget(at.toggle, "exp_monotonic").set_value(True)
    widget(at.toggle, "exp_pitfall").set_value(True)
    at = rerun(at)
    pitfall = at.dataframe[2].value.set_index("candidate")
    counts = pitfall["count ÷ largest"].to_numpy() * 28
    shares = counts / counts.max()
    half_rate = np.exp(0.5 * shares) / np.exp(0.5 * shares).sum()  # epsilon / (2 Delta)
    wrong = pitfall["probability, count ÷ largest with Δ = 1"].astype(float).to_numpy()
    assert np.allclose(wrong, half_rate, atol=5e-4)
    full_rate = np.exp(shares) / np.exp(shares).sum()
    assert not np.allclose(wrong, full_rate, atol=5e-3)
    # the count itself is monotonic: its column follows the switch (epsilon / Delta)
    right = pitfall["probability, count with Δ = 1"].astype(float).to_numpy()
    assert np.allclose(
        right, np.exp(counts - counts.max()) / np.exp(counts - counts.max()).sum(), atol=5e-4
    )
    assert "factor e^(ε/2) = 1.649" in texts(at)
    assert "only be guaranteed 2ε-differentially private" in texts(at)
    widget(at.toggle, "exp_pitfall").set_value(False)
    widget(at.toggle, "exp_monotonic").set_value(False)
    rerun(at)


def test_budget_line(page):
    at = set_epsilon(page, "0.1")
    widget(at.slider, "exp_runs").set_value(5)
    at = rerun(at)
    assert "5 × 0.1 = **ε = 0.5**" in texts(at)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "no candidates"),
        ("A=3, B=x", "is not a count"),
        ("A=-2", "at least 0"),
    ],
)
def test_bad_typed_counts_give_messages_not_tracebacks(typed, message):
    at = choose(open_page("exponential"), "Type your own counts")
    widget(at.text_input, "exp_typed").set_value(typed)
    at = rerun(at)
    assert any(message in e.value for e in at.error), [e.value for e in at.error]


def test_single_candidate_equal_scores_and_bad_epsilon():
    at = choose(open_page("exponential"), "Type your own counts")
    widget(at.text_input, "exp_typed").set_value("Only=7")
    at = rerun(at)
    assert any("Only one candidate" in w.value for w in at.warning)
    assert metric(at, "P(true best answer)") == "1.000"
    widget(at.text_input, "exp_typed").set_value("A=4, B=4, C=4")
    at = rerun(at)
    assert "every ε gives the uniform distribution" in infos(at)
    assert main_table(at)["probability"].tolist() == ["0.333"] * 3
    for bad in ("-1", "abc"):
        at = set_epsilon(at, bad)
        assert any("Still showing ε = 1" in e.value for e in at.error)
        assert main_table(at)["probability"].tolist() == ["0.333"] * 3


def test_astronomical_typed_counts_show_no_nan():
    # lambda * 1e308 overflows; the page must shift by the best count first (no inf - inf)
    at = choose(open_page("exponential"), "Type your own counts")
    widget(at.text_input, "exp_typed").set_value("A=1e308, B=0")
    at = set_epsilon(rerun(at), "10")
    assert not at.error
    table = main_table(at)
    assert table.loc["A", "probability"] == "1.000"
    assert table.loc["B", "probability"].startswith("<")  # e^(-5e308): below any float
    gaps = next(c for c in table.columns if c.startswith("log weight"))
    assert "(count − best)" in gaps
    assert table.loc["A", gaps] == 0 and table.loc["B", gaps] == -np.inf
    shown = texts(at) + " ".join(str(v) for v in table.to_numpy().ravel())
    assert "nan" not in shown.lower()
    assert metric(at, "P(true best answer)") == "1.000"
    for name in ("Exponential mechanism", "Permute-and-flip", "Report-noisy-max"):
        assert metric(at, name) == "1.0000"  # B trails by 1e308 counts: A always wins
    for figure in plotly_figures(at):
        for trace in figure["data"]:
            assert not np.isnan(values(trace["y"]).astype(float)).any()
