"""Local frequencies, section 3 ("domain"): GRR against unary encoding as the number of
categories grows."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dp_core import local_estimation, unary_encoding
from dp_core import randomized_response as rr
from ui.common import charts, formatting
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.local import charts as local_charts
from ui.local.lf_settings import K_GRID, OWN_EXERCISES, Settings


def domain_size(s: Settings) -> None:
    """Section 3: GRR against unary encoding as the number of categories grows."""
    n, epsilon = s.n, s.epsilon
    crossover = unary_encoding.grr_oue_crossover_domain_size(epsilon)
    charts.show(
        local_charts.variance_against_domain(K_GRID, domain_curves(n, epsilon), crossover, s.k),
        key="lf_domain",
    )
    better = _("local.lf.domain.better_grr") if s.k < crossover else _("local.lf.domain.better_oue")
    st.markdown(
        _(
            "local.lf.domain.sentence",
            epsilon=formatting.epsilon(epsilon),
            crossover=formatting.fixed(crossover, 1),
            k=s.k,
            better=better,
        )
    )
    st.caption(_("local.lf.domain.caption", n=formatting.count(n)))
    section_exercises(OWN_EXERCISES, "domain", s)


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
