"""Shared privacy-parameter inputs: a slider that also takes a typed value.

Epsilon moves over "nice" values on a log scale (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 per
decade), delta over powers of ten, so the arrow keys step evenly; the text box takes any
value. Both stay in step; a bad typed value (0, negative, text) shows the validation message
while the page keeps using the last good value; the value in use is kept in the page's
address (?<key>=...), so a link reproduces it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import streamlit as st

from dp_core.validation import check_delta, check_epsilon
from ui.common.errors import translated
from ui.common.formatting import number, power_of_ten, typed_number
from ui.common.i18n import _
from ui.common.shell import link_param

_MANTISSAS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)
# Typed epsilons outside this range are refused: the pages' arithmetic (e^eps, 1/eps) and
# their explanations stop being meaningful there.
TYPED_EPSILON_RANGE = (1e-4, 100.0)


def log_grid(minimum: float, maximum: float) -> list[float]:
    """Nice values from minimum to maximum, about ten per decade."""
    values = []
    for exponent in range(math.floor(math.log10(minimum)), math.ceil(math.log10(maximum)) + 1):
        for mantissa in _MANTISSAS:
            value = round(mantissa * 10.0**exponent, 10)
            if minimum - 1e-12 <= value <= maximum + 1e-12:
                values.append(value)
    return values


def _nearest(options: list[float], value: float) -> float:
    """Option closest to value on a log scale (0 maps to the first option)."""
    if value <= 0:
        return options[0]
    positive = [o for o in options if o > 0]
    return min(positive, key=lambda o: abs(math.log(o) - math.log(value)))


def slider_with_typed_value(
    key: str,
    *,
    label: str,
    symbol: str,
    options: list[float],
    default: float,
    parse: Callable[[str], float],
    format_func: Callable[[float], str],
    help: str,
    text_help: str | None = None,
) -> float:
    """A select_slider over ``options`` beside a box for any value ``parse`` accepts.

    State: ``key`` holds the value in use; ``key__slider`` and ``key__text`` the widgets;
    ``key__error`` the message for the last bad typed value. A typed value between or outside
    the options is used as typed: the slider gains it as a stop (within its range) or shows
    the nearest option (outside).
    """
    state = st.session_state
    slider_key, text_key, error_key = f"{key}__slider", f"{key}__text", f"{key}__error"
    if key not in state:
        state[key] = link_param(key, parse, default)
    state.setdefault(error_key, None)
    # Restore the widgets from the value in use on every run. Testing `slider_key not in state`
    # is not enough: when a run stops before the widgets (a page left, or st.stop while an
    # upload is missing), Streamlit keeps their session-state entries but the browser drops
    # the widgets, and on their return it shows the defaults (slider at its first option, an
    # empty box) while the page uses the value in state. Assigning marks them for the browser.
    # The default and the value in use are stops of their own (when in range), so the thumb
    # shows the value the page uses: ln 3 reads 1.099, not the nearest stop 1.2.
    inside = [v for v in (default, float(state[key])) if min(options) <= v <= max(options)]
    options = sorted({*options, *inside})
    state[slider_key] = _nearest(options, state[key])
    if not state[error_key]:  # keep a bad typed value in view beside its message
        state[text_key] = number(state[key])

    def from_slider() -> None:
        state[key] = state[slider_key]
        state[text_key] = number(state[slider_key])
        state[error_key] = None

    def from_text() -> None:
        typed = state[text_key].strip()
        try:
            value = parse(typed_number(typed))
        except ValueError as error:
            state[error_key] = _("common.typed.refused", typed=typed, error=translated(error))
            return
        state[key] = value
        state[slider_key] = _nearest(options, value)
        state[error_key] = None

    slider_column, text_column = st.columns([4, 1])
    with slider_column:
        st.select_slider(
            label,
            options=options,
            format_func=format_func,
            key=slider_key,
            on_change=from_slider,
            help=help,
        )
    with text_column:
        st.text_input(
            _("common.typed.label", symbol=symbol),
            key=text_key,
            on_change=from_text,
            help=text_help,
        )
    if state[error_key]:
        st.error(
            _(
                "common.typed.error",
                error=state[error_key],
                symbol=symbol,
                value=format_func(state[key]),
            )
        )
    linked = address_number(state[key])  # the same in every language: a link is shared
    if st.query_params.get(key) != linked:  # each change is a browser history entry
        st.query_params[key] = linked
    return float(state[key])


def address_number(value: float) -> str:
    """A value as written in the address: Python's shortest exact form, "1", "0.12", "1e-05"
    (never the reader's decimal comma, so a link made in German opens in English)."""
    text = repr(float(value))
    return text.removesuffix(".0")


def epsilon_input(
    key: str = "epsilon",
    *,
    label: str | None = None,
    default: float = 1.0,
    minimum: float = 0.01,
    maximum: float = 10.0,
    allow_zero: bool = False,
    help: str | None = None,
) -> float:
    """A log slider for epsilon with a typed-value box; returns the epsilon in use.

    With ``allow_zero`` the slider starts at 0 (for mechanisms that define epsilon = 0).
    """

    def parse(raw: str) -> float:
        value = check_epsilon(raw, allow_zero=allow_zero)
        if value != 0 and not TYPED_EPSILON_RANGE[0] <= value <= TYPED_EPSILON_RANGE[1]:
            low, high = TYPED_EPSILON_RANGE
            raise ValueError(_("common.typed.epsilon_range", low=number(low), high=number(high)))
        return value

    return slider_with_typed_value(
        key,
        label=label or _("common.epsilon.label"),
        symbol="ε",
        options=([0.0] if allow_zero else []) + log_grid(minimum, maximum),
        default=default,
        parse=parse,
        format_func=number,
        help=help or _("common.epsilon.help"),
    )


def delta_input(
    key: str = "delta",
    *,
    label: str | None = None,
    default: float = 1e-5,
    help: str | None = None,
) -> float:
    """A slider over 10⁻¹² … 10⁻² with a typed-value box; returns the delta in use.

    delta = 0 (pure DP needs Laplace) and delta >= 1 are refused with a message.
    """
    return slider_with_typed_value(
        key,
        label=label or _("common.delta.label"),
        symbol="δ",
        options=[10.0**k for k in range(-12, -1)],
        default=default,
        parse=lambda raw: check_delta(raw, allow_zero=False),
        format_func=power_of_ten,
        help=help or _("common.delta.help"),
        text_help=_("common.delta.text_help"),
    )
