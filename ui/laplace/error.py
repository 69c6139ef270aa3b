"""Section 3 of the Laplace page: the expected error against ε, absolute and relative to the
largest and the smallest group."""

from __future__ import annotations

import numpy as np
import streamlit as st

from ui.common import live
from ui.common.i18n import _
from ui.common.shell import page_rng
from ui.laplace import charts as laplace_charts
from ui.laplace.settings import EPSILON, Settings
from ui.laplace.words import display_labels

GRID = np.array(EPSILON.stops)

Curves = dict[str, np.ndarray]


def error_against_epsilon(s: Settings) -> None:
    """Section 3: expected error against ε, absolute and relative to the smallest group."""
    absolute, relative = _curves(s)
    left, right = st.columns(2)
    with left:
        live.chart(
            [s.stops],
            lambda e: laplace_charts.error_against_epsilon(GRID, absolute, e, relative=False),
            key="laplace_error_abs",
            depends=s.identity,
        )
    with right:
        if relative:
            live.chart(
                [s.stops],
                lambda e: laplace_charts.error_against_epsilon(GRID, relative, e, relative=True),
                key="laplace_error_rel",
                depends=s.identity,
            )
        else:
            st.info(_("laplace.error.undefined"))
    st.caption(_("laplace.error.caption"))


def _curves(s: Settings) -> tuple[Curves, Curves]:
    """The expected |error| over GRID (b = Δ/ε; a mean's simulated for its largest group),
    and relative to the largest and smallest groups (none where a true value is 0)."""
    query = s.choice.query
    labels = display_labels(s.choice)
    values = np.abs(query.true_values)
    largest, smallest = int(np.argmax(values)), int(np.argmin(values))
    if query.kind == "mean":
        picks = [largest, smallest]
        rng = page_rng("laplace", "error")
        curves = np.array(
            [
                query.release_mean(
                    rng, epsilon=e, groups=picks, simulations=2000
                ).expected_abs_error
                for e in GRID
            ]
        )
        absolute = {_("laplace.error.largest_simulated"): curves[:, 0]}
        relative = {labels[largest]: curves[:, 0] / max(values[largest], 1e-300)}
        if smallest != largest and values[smallest] > 0:
            relative[labels[smallest]] = curves[:, 1] / values[smallest]
    else:
        absolute = {_("laplace.error.expected_b"): query.sensitivity / GRID}
        relative = {
            labels[i]: query.sensitivity / GRID / values[i]
            for i in dict.fromkeys([largest, smallest])
            if values[i] != 0
        }
    return absolute, relative
