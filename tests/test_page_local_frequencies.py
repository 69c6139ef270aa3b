"""The local-frequencies page through AppTest: protocols, p and q, domain size, bad input."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from apptest_helpers import metric, open_page, plotly_figures, rerun, texts, widget

PAGE = "local_frequencies"
# shared/README: UCI Adult occupation counts.
OCCUPATIONS = [4140, 4099, 4066, 3770, 3650, 3295, 2002, 1597, 1370, 994, 928, 649, 149, 9]


def table(at) -> pd.DataFrame:
    return at.dataframe[-1].value


def test_default_oue_on_occupations():
    at = open_page(PAGE)
    assert metric(at, "ε per person") == "1"
    assert metric(at, "p") == "0.5000"
    assert metric(at, "q") == f"{1 / (math.e + 1):.4f}"
    counts = table(at)
    assert counts["true count"].tolist() == OCCUPATIONS
    n, p, q = sum(OCCUPATIONS), 0.5, 1 / (math.e + 1)
    true = counts["true count"].to_numpy()
    sd = np.sqrt(true * p * (1 - p) + (n - true) * q * (1 - q)) / (p - q)
    assert np.all(np.abs(counts["debiased estimate"] - true) < 5 * sd)
    assert np.allclose(counts["debiased estimate"], (counts["raw sum of bits"] - n * q) / (p - q))
    assert np.all(
        (counts["95% interval from"] < counts["debiased estimate"])
        & (counts["debiased estimate"] < counts["to"])
    )
    assert "1,843 persons with no occupation are left out" in texts(at)
    # Wald intervals: the exact variance formula at the estimate clipped to [0, n]
    plug_in = np.clip(counts["debiased estimate"].to_numpy(), 0, n)
    plug_in_sd = np.sqrt(plug_in * p * (1 - p) + (n - plug_in) * q * (1 - q)) / (p - q)
    half = (counts["to"] - counts["95% interval from"]).to_numpy() / 2
    assert np.allclose(half, 1.959964 * plug_in_sd, rtol=1e-6)
    assert "Wald intervals" in texts(at) and "plug-in, clipped to [0, n]" in texts(at)
    assert "exact standard errors" not in texts(at)
    # one neighbouring relation on both sides: replacement, so the central scale is 2/eps
    assert "Neighbouring datasets on this page: one person's answer replaced" in texts(at)
    assert "would be off by 2.00" in texts(at)
    assert "a bill is a party" not in texts(at)  # only the tips data need that caveat
    assert "k\\* = 3e^ε + 2 = 10.2" in texts(at) and "optimised unary encoding wins" in texts(at)
    bars = plotly_figures(at)[0]
    assert bars["data"][0]["name"] == "true count"


def test_grr_wins_at_large_epsilon():
    at = open_page(PAGE)
    widget(at.radio, "lf_protocol").set_value("k-ary randomized response (GRR)")
    rerun(at)
    widget(at.text_input, "lf_epsilon__text").input("4")
    rerun(at)
    assert metric(at, "p") == f"{math.exp(4) / (math.exp(4) + 13):.4f}"
    assert "k-ary randomized response wins" in texts(at)
    counts = table(at)
    assert counts["raw reports"].sum() == sum(OCCUPATIONS)  # one report per person


def test_sue_parameters():
    at = open_page(PAGE)
    widget(at.radio, "lf_protocol").set_value("Symmetric unary encoding (SUE, basic RAPPOR)")
    rerun(at)
    p = math.exp(0.5) / (math.exp(0.5) + 1)
    assert metric(at, "p") == f"{p:.4f}" and metric(at, "q") == f"{1 - p:.4f}"


def test_p_and_q_sliders_give_epsilon():
    at = open_page(PAGE)
    widget(at.radio, "lf_protocol").set_value("Unary encoding: choose p and q")
    rerun(at)
    assert metric(at, "ε per person") == f"{math.log(9):.4g}"  # shared/README: ln 9
    widget(at.slider, "lf_p").set_value(0.99)
    widget(at.slider, "lf_q").set_value(0.01)
    rerun(at)
    assert metric(at, "ε per person") == f"{math.log(0.99**2 / 0.01**2):.4g}"
    widget(at.slider, "lf_p").set_value(0.25)
    widget(at.slider, "lf_q").set_value(0.75)
    rerun(at)
    assert at.error and "greater than q" in at.error[0].value
    assert not [m for m in at.metric if m.label.startswith("ε")]


def test_small_population_warns():
    at = open_page(PAGE)
    widget(at.selectbox, "lf_dataset").set_value("diseases")
    rerun(at)
    widget(at.text_input, "lf_epsilon__text").input("0.1")
    rerun(at)
    assert any("Only 65 persons" in w.value for w in at.warning)
    assert table(at)["true count"].sum() == 65


def test_bad_typed_epsilon():
    at = open_page(PAGE)
    widget(at.text_input, "lf_epsilon__text").input("0")
    rerun(at)
    assert at.error and "Could not use" in at.error[0].value
    assert metric(at, "ε per person") == "1"


def test_a_column_with_one_category(monkeypatch):
    import ui.local_inputs

    monkeypatch.setattr(
        ui.local_inputs,
        "category_counts",
        lambda key, column: pd.Series([32_561], index=pd.Index(["everyone"], name=column)),
    )
    at = open_page(PAGE)
    assert at.error and "at least 2 categories" in at.error[0].value


def test_a_tiny_q_is_shown_in_significant_digits_not_as_zero():
    at = open_page("local_frequencies")
    widget(at.select_slider, "lf_epsilon__slider").set_value(10.0)
    rerun(at)
    assert metric(at, "q") == f"{1 / (math.exp(10) + 1):.3g}" == "4.54e-05"
