"""Local frequencies, section 3 ("domain"): GRR against unary encoding as the number of
categories grows; the chart and its sentence follow ε's thumb while it is dragged."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dp_core import local_estimation, unary_encoding
from dp_core import randomized_response as rr
from ui.common import charts, formatting, live
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.local import lf_charts
from ui.local.lf_settings import K_GRID, OWN_EXERCISES, Settings


def domain_size(s: Settings) -> None:
    """Section 3: GRR against unary encoding as the number of categories grows."""
    sliders, depends = list(s.sliders), (s.n, s.k)
    live.chart(sliders, lambda *e: _chart(s.at(*e)), key="lf_domain", depends=depends)
    live.text(
        sliders,
        lambda *e: _sentence(s.at(*e)),
        key="lf_domain_sentence",
        depends=depends,
        style="strong",
    )
    st.caption(_("local.lf.domain.caption", n=formatting.count(s.n)))
    section_exercises(OWN_EXERCISES, "domain", s)


def _chart(s: Settings) -> charts.Spec:
    """Each protocol's standard error against k at the settings' ε, with k* and this k."""
    crossover = unary_encoding.grr_oue_crossover_domain_size(s.epsilon)
    curves = domain_curves(s.n, s.epsilon)
    return lf_charts.variance_against_domain(K_GRID, curves, crossover, s.k)


def _sentence(s: Settings) -> str:
    """Below which k GRR wins at the settings' ε, and which protocol wins at this k."""
    crossover = unary_encoding.grr_oue_crossover_domain_size(s.epsilon)
    better = _("local.lf.domain.better_grr") if s.k < crossover else _("local.lf.domain.better_oue")
    return _(
        "local.lf.domain.sentence",
        epsilon=formatting.epsilon(s.epsilon),
        crossover=formatting.fixed(crossover, 1),
        k=s.k,
        better=better,
    )


def domain_curves(n: int, epsilon: float) -> dict[str, np.ndarray]:
    """Exact standard error of a count nobody holds against k, per protocol (section 3)."""
    grid_p, grid_q = rr.grr_probabilities(epsilon, K_GRID)
    oue = unary_encoding.optimized_unary_encoding(epsilon)
    sue = unary_encoding.symmetric_unary_encoding(epsilon)
    return {
        _("local.lf.domain.grr"): np.sqrt(local_estimation.estimate_variance(0, n, grid_p, grid_q)),
        _("local.lf.domain.oue"): np.full(
            K_GRID.shape, np.sqrt(local_estimation.estimate_variance(0, n, *oue))
        ),
        _("local.lf.domain.sue"): np.full(
            K_GRID.shape, np.sqrt(local_estimation.estimate_variance(0, n, *sue))
        ),
    }
