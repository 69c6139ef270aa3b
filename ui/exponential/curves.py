"""Section 3 of the exponential-mechanism page: how often the answer is right. P(a true best
answer) against ε for the exponential mechanism, permute-and-flip and report-noisy-max, and
exactly at the page's ε."""

from __future__ import annotations

import functools

import numpy as np
import streamlit as st

from dp_core import selection as sel
from dp_core.exponential import exponential_probabilities, exponential_probabilities_by_epsilon
from dp_core.noisy_max import (
    report_noisy_max_laplace_probabilities,
    report_noisy_max_laplace_probabilities_by_epsilon,
)
from dp_core.permute_and_flip import (
    permute_and_flip_probabilities,
    permute_and_flip_probabilities_by_epsilon,
)
from ui.common import charts, formatting
from ui.common.address import linked
from ui.common.i18n import _
from ui.exponential import charts as exp_charts
from ui.exponential.candidates import PAGE
from ui.exponential.declared import AXES, AXIS
from ui.exponential.settings import Settings

CURVE_EPSILONS = np.concatenate([[0.0], np.geomspace(1e-3, 20, 90)])


@st.cache_data(max_entries=16, show_spinner=False)
def best_answer_curves(
    scores: tuple[float, ...], sensitivity: float, monotonic: bool
) -> tuple[np.ndarray, ...]:
    """P(a true best answer) on CURVE_EPSILONS for the three mechanisms, in MECHANISMS' order."""
    kwargs = {"sensitivity": sensitivity, "monotonic": monotonic}
    with np.errstate(over="ignore"):  # a gap beyond -1.8e308 is -inf: weight 0
        return tuple(
            sel.probability_of_best(rows(scores, CURVE_EPSILONS, **kwargs), scores)
            for rows in (
                exponential_probabilities_by_epsilon,
                permute_and_flip_probabilities_by_epsilon,
                report_noisy_max_laplace_probabilities_by_epsilon,
            )
        )


@functools.lru_cache(maxsize=64)
def best_answer_now(
    scores: tuple[float, ...], epsilon: float, sensitivity: float, monotonic: bool
) -> tuple[float, float, float]:
    """P(a true best answer) at one ε for the three mechanisms, exactly."""
    kwargs = {"monotonic": monotonic}
    with np.errstate(over="ignore"):  # a gap beyond -1.8e308 is -inf: weight 0
        return tuple(
            float(
                sel.probability_of_best(
                    probabilities(scores, epsilon, sensitivity, **kwargs), scores
                )
            )
            for probabilities in (
                exponential_probabilities,
                permute_and_flip_probabilities,
                report_noisy_max_laplace_probabilities,
            )
        )


@st.fragment
def how_often_right(s: Settings) -> None:
    """Section 3: P(best) against ε for the exponential mechanism, permute-and-flip and RNM."""
    c = s.candidates
    axis = linked(
        AXIS,
        st.radio,
        _("exponential.curves.axis"),
        labels={key: _(msgid) for key, msgid in AXES.items()},  # translated in the run
        horizontal=True,
    )
    names = exp_charts.mechanism_names()
    with st.spinner(_("exponential.curves.computing")):
        curves = best_answer_curves(c.scores, c.sensitivity, s.monotonic)
    charts.show(
        exp_charts.best_probability_curves(
            CURVE_EPSILONS, dict(zip(names, curves, strict=True)), s.epsilon, log_x=axis == "log"
        ),
        key=f"{PAGE}_curves",
    )
    now = best_answer_now(c.scores, s.epsilon, c.sensitivity, s.monotonic)
    for col, name, value in zip(st.columns(3), names, now, strict=True):
        col.metric(
            _("exponential.curves.metric", name=name, epsilon=formatting.number(s.epsilon)),
            formatting.fixed(value, 4),
        )
    st.caption(_("exponential.curves.caption"))
