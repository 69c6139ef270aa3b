"""A delta control: a slider over powers of ten (10⁻¹² to 10⁻²) and a typed-value box.

Like ui.widgets.epsilon_input: slider and box stay in step, a bad typed value (0, 1, text)
shows the validation message while the page keeps using the last good delta, and the value in
use is kept in the page's address (?<key>=...), so a link reproduces it.
"""

from __future__ import annotations

import math

import streamlit as st

from dp_core.validation import check_delta
from ui.shell import link_param

_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def format_delta(value: float) -> str:
    """10⁻⁵ for a power of ten, 3×10⁻⁶ otherwise; 0 as 0."""
    if value <= 0:
        return f"{value:g}"
    exponent = math.floor(math.log10(value) + 1e-9)
    mantissa = round(value / 10.0**exponent, 3)
    power = f"10{str(exponent).translate(_SUPERSCRIPTS)}"
    return power if mantissa == 1 else f"{mantissa:g}×{power}"


def delta_powers(smallest_exponent: int = -12, largest_exponent: int = -2) -> list[float]:
    """Powers of ten from 10^smallest_exponent to 10^largest_exponent."""
    return [10.0**k for k in range(smallest_exponent, largest_exponent + 1)]


def delta_input(
    key: str = "delta",
    *,
    label: str = "Delta (δ)",
    default: float = 1e-5,
    help: str | None = None,
) -> float:
    """A power-of-ten slider for delta with a typed-value box; returns the delta in use.

    A typed value between the powers of ten (or above 10⁻²) is used as typed; the slider
    shows the nearest power. delta = 0 and delta >= 1 are refused with a message.
    """
    options = delta_powers()
    state = st.session_state
    slider_key, text_key, error_key = f"{key}__slider", f"{key}__text", f"{key}__error"
    if key not in state:
        state[key] = link_param(key, _parse, default)
    state.setdefault(error_key, None)
    if slider_key not in state:
        state[slider_key] = _nearest_power(options, state[key])
    if text_key not in state:
        state[text_key] = f"{state[key]:g}"

    def from_slider() -> None:
        state[key] = state[slider_key]
        state[text_key] = f"{state[slider_key]:g}"
        state[error_key] = None

    def from_text() -> None:
        typed = state[text_key].strip()
        try:
            value = check_delta(typed, allow_zero=False)
        except ValueError as error:
            state[error_key] = f"Could not use “{typed}”: {error}"
            return
        state[key] = value
        state[slider_key] = _nearest_power(options, value)
        state[error_key] = None

    slider_column, text_column = st.columns([4, 1])
    with slider_column:
        st.select_slider(
            label,
            options=options,
            format_func=format_delta,
            key=slider_key,
            on_change=from_slider,
            help=help or "Smaller delta = a smaller chance the guarantee fails = more noise.",
        )
    with text_column:
        st.text_input("or type δ", key=text_key, on_change=from_text, help="e.g. 1e-6 or 3e-7")
    if state[error_key]:
        st.error(f"{state[error_key]} Still showing δ = {format_delta(state[key])}.")
    st.query_params[key] = f"{state[key]:g}"
    return float(state[key])


def _parse(raw: str) -> float:
    return check_delta(raw, allow_zero=False)


def _nearest_power(options: list[float], value: float) -> float:
    """The option closest to value on a log scale."""
    return min(options, key=lambda option: abs(math.log(option) - math.log(value)))
