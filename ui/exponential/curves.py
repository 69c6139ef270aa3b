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
from ui.common import formatting, live
from ui.common.address import linked
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.common.turns import fragment
from ui.exponential import charts as exp_charts
from ui.exponential.candidates import PAGE
from ui.exponential.declared import AXES, AXIS, EPSILON
from ui.exponential.exercises import EXERCISES
from ui.exponential.settings import Settings

# The ε slider's own stops among the curves' points: P(best) at a stop is read off the curves,
# so the three numbers that follow the ε thumb cost nothing beyond the curves themselves.
CURVE_EPSILONS = np.union1d(np.geomspace(1e-3, EPSILON.stops[-1], 56), EPSILON.stops)


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


def best_answer_now(
    scores: tuple[float, ...], epsilon: float, sensitivity: float, monotonic: bool
) -> tuple[float, float, float]:
    """P(a true best answer) at one ε for the three mechanisms, exactly: the curves' values
    at a stop of the slider, else (a typed ε) computed at that ε."""
    if epsilon in EPSILON.stops:
        index = int(np.searchsorted(CURVE_EPSILONS, epsilon))
        curves = best_answer_curves(scores, sensitivity, monotonic)
        return tuple(float(curve[index]) for curve in curves)
    return _best_answer_at(scores, epsilon, sensitivity, monotonic)


@functools.lru_cache(maxsize=64)
def _best_answer_at(
    scores: tuple[float, ...], epsilon: float, sensitivity: float, monotonic: bool
) -> tuple[float, float, float]:
    """P(a true best answer) at one ε for the three mechanisms, computed at that ε alone."""
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


@fragment
def how_often_right(s: Settings) -> None:
    """Section 3: P(best) against ε for the exponential mechanism, permute-and-flip and RNM.

    The marker and the three exact probabilities under the chart follow the ε thumb: at each
    stop of the slider they are the curves' own points (best_answer_now), so following the
    thumb adds no report-noisy-max integral to the curves'.
    """
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
        live.chart(
            [s.stops],
            lambda e: exp_charts.best_probability_curves(
                CURVE_EPSILONS, dict(zip(names, curves, strict=True)), e, log_x=axis == "log"
            ),
            key=f"{PAGE}_curves",
            depends=(s.identity, axis),
        )
        for mechanism, (col, name) in enumerate(zip(st.columns(3), names, strict=True)):
            with col:
                live.follow_text(
                    s,
                    lambda at, mechanism=mechanism: _chance(at, mechanism),
                    key=f"{PAGE}_chance_{mechanism}",
                    style="metric",
                    label=name,  # the ε is the marker's, above: a label does not follow
                )
    st.caption(_("exponential.curves.caption"))
    section_exercises(EXERCISES, "right", s)


def _chance(s: Settings, mechanism: int) -> str:
    """P(a true best answer) at the settings' ε for one mechanism (MECHANISMS' order)."""
    c = s.candidates
    return formatting.fixed(
        best_answer_now(c.scores, s.epsilon, c.sensitivity, s.monotonic)[mechanism], 4
    )
