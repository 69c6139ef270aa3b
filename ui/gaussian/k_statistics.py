"""Section 4 of the Gaussian page: one person in k statistics. Laplace's noise per statistic
grows like k, the Gaussian's like √k; where they cross, and which to pick for k."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dp_core import gaussian
from ui.common import charts, formatting
from ui.common.address import linked
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.gaussian import charts as gaussian_charts
from ui.gaussian.exercises import EXERCISES
from ui.gaussian.settings import K, Settings

K_MAX = 100


@st.fragment(key="gaussian_k_section")
def k_statistics(s: Settings) -> None:
    """Section 4: Laplace grows like k, Gaussian like √k; its k slider reruns this alone."""
    st.markdown(_("gaussian.k.intro"))
    k_now = linked(K, st.slider, _("gaussian.k.slider"), min_value=1, max_value=K_MAX)
    crossover = gaussian.laplace_gaussian_crossover(s.epsilon, s.delta)
    first_k = gaussian.first_k_gaussian_wins(crossover)
    ks = np.arange(1, min(K_MAX, max(20, 3 * first_k, k_now)) + 1)  # around the action
    laplace_k, analytic_k = gaussian.noise_per_statistic(ks, s.epsilon, s.delta)
    st.success(_k_advice(s, k_now, laplace_k[k_now - 1], analytic_k[k_now - 1]))
    cols = st.columns(2)
    cols[0].metric(_("gaussian.k.break_even"), formatting.fixed(crossover, 2))
    cols[1].metric(_("gaussian.k.first"), str(first_k))
    curves = {"laplace": laplace_k, "analytic": analytic_k}
    if s.classic_sigma is not None:
        curves["classic"] = gaussian.noise_per_statistic(
            ks, s.epsilon, s.delta, calibration="classic"
        )[1]
    _k_chart(ks, curves, crossover, k_now)
    crossover_abs = gaussian.laplace_gaussian_crossover(s.epsilon, s.delta, measure="mean_abs")
    st.caption(
        _(
            "gaussian.k.caption",
            crossover=formatting.fixed(crossover, 2),
            crossover_abs=formatting.fixed(crossover_abs, 2),
        )
    )
    section_exercises(EXERCISES, "k", s)


def _k_chart(ks: np.ndarray, curves: dict[str, np.ndarray], crossover: float, k_now: int) -> None:
    """The noise per statistic against k, the break-even k (when on the chart) and k now."""
    on_chart = ks[0] <= crossover <= ks[-1]
    crossover_marker = charts.marker(
        crossover, _("gaussian.k.break_even_marker", k=formatting.fixed(crossover, 2))
    )
    charts.show(
        gaussian_charts.noise_per_statistic(
            ks,
            curves,
            crossover_marker if on_chart else crossover_marker.iloc[0:0],
            charts.marker(k_now, f"k = {k_now}"),
        ),
        key="gaussian_k_chart",
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
