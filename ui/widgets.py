"""Shared input widgets: an epsilon control on a log scale that also takes a typed value.

The slider moves over "nice" values (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 per decade) so the
arrow keys step evenly on a log scale; the text box takes any value. Both stay in step and
a bad typed value (0, negative, text) shows the validation message while the page keeps
using the last good epsilon.
"""

from __future__ import annotations

import math

import streamlit as st

from dp_core.validation import check_epsilon
from ui.shell import link_param

_MANTISSAS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)


def log_grid(minimum: float, maximum: float) -> list[float]:
    """Nice values from minimum to maximum, about ten per decade."""
    values = []
    for exponent in range(math.floor(math.log10(minimum)), math.ceil(math.log10(maximum)) + 1):
        for mantissa in _MANTISSAS:
            value = round(mantissa * 10.0**exponent, 10)
            if minimum - 1e-12 <= value <= maximum + 1e-12:
                values.append(value)
    return values


def format_number(value: float) -> str:
    """Short label: 0.01, 0.25, 1, 12.5."""
    return f"{value:g}"


def _nearest(options: list[float], value: float) -> float:
    """Option closest to value on a log scale (0 maps to 0 when offered)."""
    if value <= 0:
        return options[0]
    positive = [o for o in options if o > 0]
    return min(positive, key=lambda o: abs(math.log(o) - math.log(value)))


def epsilon_input(
    key: str = "epsilon",
    *,
    label: str = "Epsilon (ε)",
    default: float = 1.0,
    minimum: float = 0.01,
    maximum: float = 10.0,
    allow_zero: bool = False,
    help: str | None = None,
) -> float:
    """A log slider for epsilon with a typed-value box; returns the epsilon in use.

    With ``allow_zero`` the slider starts at 0 (for mechanisms that define epsilon = 0).
    A typed value outside the slider's range is used as typed; the slider shows the nearest.
    The value in use is kept in the page's address (?<key>=...), so a link reproduces it.
    """
    options = ([0.0] if allow_zero else []) + log_grid(minimum, maximum)
    state = st.session_state
    slider_key, text_key, error_key = f"{key}__slider", f"{key}__text", f"{key}__error"
    if key not in state:
        state[key] = link_param(key, lambda raw: check_epsilon(raw, allow_zero=allow_zero), default)
    state.setdefault(error_key, None)
    # Widget values are dropped when a page is left; restore them from the value in use.
    if slider_key not in state:
        state[slider_key] = _nearest(options, state[key])
    if text_key not in state:
        state[text_key] = format_number(state[key])

    def from_slider() -> None:
        state[key] = state[slider_key]
        state[text_key] = format_number(state[slider_key])
        state[error_key] = None

    def from_text() -> None:
        typed = state[text_key].strip()
        try:
            value = check_epsilon(typed, allow_zero=allow_zero)
        except ValueError as error:
            state[error_key] = f"Could not use “{typed}”: {error}"
            return
        state[key] = value
        state[slider_key] = _nearest(options, value)
        state[error_key] = None

    slider_column, text_column = st.columns([4, 1])
    with slider_column:
        st.select_slider(
            label,
            options=options,
            format_func=format_number,
            key=slider_key,
            on_change=from_slider,
            help=help or "Smaller epsilon = stronger privacy = more noise. Log scale.",
        )
    with text_column:
        st.text_input("or type ε", key=text_key, on_change=from_text)
    if state[error_key]:
        st.error(f"{state[error_key]} Still showing ε = {format_number(state[key])}.")
    st.query_params[key] = format_number(state[key])
    return float(state[key])
