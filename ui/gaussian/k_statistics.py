"""Section 4 of the Gaussian page: one person in k statistics. Laplace's noise per statistic
grows like k, the Gaussian's like √k; where they cross, and which to pick for k."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import gaussian
from ui.common import charts, formatting, live
from ui.common.address import linked
from ui.common.exercises import section_exercises
from ui.common.i18n import _, language
from ui.common.turns import fragment
from ui.gaussian import charts as gaussian_charts
from ui.gaussian.exercises import EXERCISES
from ui.gaussian.settings import K, Settings, proven_classic_sigma

K_MAX = 100


@fragment(key="gaussian_k_section")
def k_statistics(s: Settings) -> None:
    """Section 4: Laplace grows like k, Gaussian like √k; its k slider reruns this alone. The
    chart and the caption follow the ε and δ thumbs."""
    st.markdown(_("gaussian.k.intro"))
    k_now = linked(K, st.slider, _("gaussian.k.slider"), min_value=1, max_value=K_MAX)
    crossover = gaussian.laplace_gaussian_crossover(s.epsilon, s.delta)
    laplace_k, analytic_k = gaussian.noise_per_statistic([k_now], s.epsilon, s.delta)
    st.success(_k_advice(s, k_now, float(laplace_k[0]), float(analytic_k[0])))
    cols = st.columns(2)
    cols[0].metric(_("gaussian.k.break_even"), formatting.fixed(crossover, 2))
    cols[1].metric(_("gaussian.k.first"), str(gaussian.first_k_gaussian_wins(crossover)))
    chosen = charts.marker(k_now, f"k = {k_now}")
    live.follow_chart(
        s, lambda at: _k_chart(at, k_now, chosen), key="gaussian_k_chart", depends=k_now
    )
    live.follow_text(s, _k_caption, key="gaussian_k_caption", style="caption")
    section_exercises(EXERCISES, "k", s)


def _k_chart(s: Settings, k_now: int, chosen: pd.DataFrame) -> charts.Spec:
    """The noise per statistic against k (around the break-even k, and k now), the break-even
    k (when on the chart) and k now (``chosen``, its marker)."""
    first_k = gaussian.first_k_gaussian_wins(
        gaussian.laplace_gaussian_crossover(s.epsilon, s.delta)
    )
    last_k = min(K_MAX, max(20, 3 * first_k, k_now))  # around the action
    spec = _k_spec(s.epsilon, s.delta, last_k, language())
    return {**spec, "datasets": {**spec["datasets"], "chosen": chosen}}


@functools.lru_cache(maxsize=256)
def _k_spec(epsilon: float, delta: float, last_k: int, lang: str) -> charts.Spec:
    """The k chart over k = 1 … last_k without k now, in the language ``lang``: the same at
    every k that needs no wider chart, so a step of the k slider, which redraws the chart at
    every stop of ε and δ, finds it here. Classic curve for ε < 1 (as Settings.classic_sigma)."""
    crossover = gaussian.laplace_gaussian_crossover(epsilon, delta)
    ks = np.arange(1, last_k + 1)
    laplace_k, analytic_k = gaussian.noise_per_statistic(ks, epsilon, delta)
    curves = {"laplace": laplace_k, "analytic": analytic_k}
    if proven_classic_sigma(1.0, epsilon, delta) is not None:
        _laplace, curves["classic"] = gaussian.noise_per_statistic(
            ks, epsilon, delta, calibration="classic"
        )
    on_chart = ks[0] <= crossover <= ks[-1]
    crossover_marker = charts.marker(
        crossover, _("gaussian.k.break_even_marker", k=formatting.fixed(crossover, 2))
    )
    return gaussian_charts.noise_per_statistic(
        ks,
        curves,
        crossover_marker if on_chart else crossover_marker.iloc[0:0],
        charts.marker(0, ""),  # k now: drawn by _k_chart
    )


def _k_caption(s: Settings) -> str:
    """The break-even k by standard deviation and by expected |error|."""
    return _(
        "gaussian.k.caption",
        crossover=formatting.fixed(gaussian.laplace_gaussian_crossover(s.epsilon, s.delta), 2),
        crossover_abs=formatting.fixed(
            gaussian.laplace_gaussian_crossover(s.epsilon, s.delta, measure="mean_abs"), 2
        ),
    )


def _k_advice(s: Settings, k: int, laplace_noise: float, gaussian_noise: float) -> str:
    """Which mechanism to pick for k statistics, with both noises."""
    values = {
        "k": k,
        "gaussian": formatting.significant(gaussian_noise),
        "laplace": formatting.significant(laplace_noise),
        "delta": formatting.power_of_ten(s.delta),
    }
    if gaussian_noise < laplace_noise:
        return _("gaussian.k.pick_gaussian", **values)
    return _("gaussian.k.pick_laplace", **values)
