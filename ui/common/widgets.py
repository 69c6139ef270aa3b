"""Shared privacy-parameter inputs: a slider that also takes a typed value.

Epsilon moves over "nice" values on a log scale (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 per
decade), delta over powers of ten, so the arrow keys step evenly; the box beside it takes any
value and shows the value in use as its placeholder. A bad typed value (0, negative, text)
shows the validation message while the page keeps using the last good value; the value in
use is kept in the page's address (?<key>=...), so a link reproduces it. A page declares
each ε and δ once (``epsilon_setting``, ``delta_setting``): its key, default and the slider's
stops, which a chart over the slider's range reads too.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import streamlit as st

from dp_core.validation import check_delta, check_epsilon
from ui.common.address import current, linked
from ui.common.errors import translated
from ui.common.folding import folded
from ui.common.formatting import number, power_of_ten, typed_number
from ui.common.i18n import _
from ui.common.live import Stops
from ui.common.setting import Stepped
from ui.common.shell import following

_MANTISSAS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)
# Typed epsilons outside this range are refused: the pages' arithmetic (e^eps, 1/eps) and
# their explanations stop being meaningful there.
TYPED_EPSILON_RANGE = (1e-4, 100.0)
TYPED_WIDTH = 170  # px: the typed-value box beside its slider ("oder ε eingeben" and its help)


def log_grid(minimum: float, maximum: float) -> list[float]:
    """Nice values from minimum to maximum, about ten per decade."""
    values = []
    for exponent in range(math.floor(math.log10(minimum)), math.ceil(math.log10(maximum)) + 1):
        for mantissa in _MANTISSAS:
            value = round(mantissa * 10.0**exponent, 10)
            if minimum - 1e-12 <= value <= maximum + 1e-12:
                values.append(value)
    return values


def epsilon_setting(
    key: str,
    default: float,
    *,
    minimum: float = 0.01,
    maximum: float = 10.0,
    allow_zero: bool = False,
) -> Stepped:
    """An ε: its slider's stops (``log_grid(minimum, maximum)``, after 0 where the mechanism
    defines it) and the typed range (from 0 with ``allow_zero``)."""
    low, high = TYPED_EPSILON_RANGE
    return Stepped(
        key,
        default,
        always=True,
        minimum=0.0 if allow_zero else low,
        maximum=high,
        stops=((0.0,) if allow_zero else ()) + tuple(log_grid(minimum, maximum)),
    )


def delta_setting(key: str, default: float) -> Stepped:
    """A δ in (0, 1); its slider's stops are 10⁻¹² … 10⁻²."""
    return Stepped(
        key,
        default,
        always=True,
        minimum=math.ulp(0.0),
        maximum=math.nextafter(1.0, 0.0),
        stops=tuple(10.0**k for k in range(-12, -1)),
    )


def slider_with_typed_value(
    setting: Stepped,
    *,
    label: str,
    symbol: str,
    parse: Callable[[str], float],
    format_func: Callable[[float], str],
    help: str,
    text_help: str | None = None,
) -> Stops:
    """A select_slider over the ``setting``'s stops beside a box for any value ``parse``
    accepts; returns its stops and the one in use (ui.common.live draws charts that follow
    them).

    The slider's state (the setting's key) is the value in use, its one copy. The box
    (``key__text``) is for typing: it shows the value in use as its placeholder, and a typed
    value it accepts moves the slider and empties the box. Nothing assigns the box while the
    slider moves: a value the server wrote into it on each step would come back with the
    browser's next step and undo the thumb (the ε-thumb race). The slider's stops are
    the setting's, its default and the value in use, so a typed value between stops or beyond
    the ends is a stop of its own (ln 3 reads 1.099; 50 extends the track). A bad typed value
    stays in the box beside its message while the page uses the last good value. A page
    that follows a trainer's shows the slider alone: its value is the trainer's to choose
    (and in a closed settings box, ui.common.folding, nothing at all).
    """
    key = setting.key
    options = sorted({*setting.stops, setting.default, current(setting)})
    slider = functools.partial(_slider, setting, label, options, format_func, help)
    if following() or folded() is not None:  # the trainer's value, or a closed box's
        return slider()
    refusal = _refusal(f"{key}__text", parse)
    # One row (a wrapping flex box: one element, where columns are three; ui.common.live's
    # stylesheet sends the box below a slider that would be too narrow)
    with st.container(horizontal=True, gap="medium", key=f"{key}__typed_row"):
        stops = slider()
        st.text_input(
            _("common.typed.label", symbol=symbol),
            key=f"{key}__text",
            placeholder=number(stops.value),
            on_change=_take_typed,
            args=(key, parse),
            help=text_help,
            persist_state="session",
            width=TYPED_WIDTH,
        )
    if refusal:
        st.error(
            _("common.typed.error", error=refusal, symbol=symbol, value=format_func(stops.value))
        )
    return stops


def _slider(
    setting: Stepped,
    label: str,
    options: list[float],
    format_func: Callable[[float], str],
    help: str,
) -> Stops:
    """The select_slider over ``options`` (the value in use one of them), as its stops."""
    value = linked(
        setting, st.select_slider, label, options=options, format_func=format_func, help=help
    )
    return Stops(setting.key, tuple(options), options.index(value), setting.default)


def _refusal(text_key: str, parse: Callable[[str], float]) -> str | None:
    """Why the value left in the box by its callback (``_take_typed``) could not be used, or
    None when the box is empty."""
    typed = str(st.session_state.get(text_key) or "").strip()
    if not typed:
        return None
    try:
        parse(typed_number(typed))
    except ValueError as error:
        return _("common.typed.refused", typed=typed, error=translated(error))
    return None


def _take_typed(key: str, parse: Callable[[str], float]) -> None:
    """The box's callback: a value ``parse`` accepts moves the slider (its key) and empties the
    box; a bad one stays in the box, with its message on this run."""
    state = st.session_state
    try:
        state[key] = parse(typed_number(state[f"{key}__text"].strip()))
    except ValueError:
        return
    state[f"{key}__text"] = ""


def epsilon_slider(
    setting: Stepped,
    *,
    label: str | None = None,
    help: str | None = None,
) -> Stops:
    """A log slider over the ε ``setting``'s stops with a typed-value box; returns its stops
    and the one in use. An ε declared with ``allow_zero`` takes 0 (typed or its first stop)."""
    allow_zero = setting.minimum == 0

    def parse(raw: str) -> float:
        value = check_epsilon(raw, allow_zero=allow_zero)
        if value != 0 and not TYPED_EPSILON_RANGE[0] <= value <= TYPED_EPSILON_RANGE[1]:
            low, high = TYPED_EPSILON_RANGE
            raise ValueError(_("common.typed.epsilon_range", low=number(low), high=number(high)))
        return value

    return slider_with_typed_value(
        setting,
        label=label or _("common.epsilon.label"),
        symbol="ε",
        parse=parse,
        format_func=number,
        help=help or _("common.epsilon.help"),
    )


def delta_slider(
    setting: Stepped,
    *,
    label: str | None = None,
    help: str | None = None,
) -> Stops:
    """A slider over the δ ``setting``'s stops with a typed-value box; returns its stops and
    the one in use.

    delta = 0 (pure DP needs Laplace) and delta >= 1 are refused with a message.
    """
    return slider_with_typed_value(
        setting,
        label=label or _("common.delta.label"),
        symbol="δ",
        parse=lambda raw: check_delta(raw, allow_zero=False),
        format_func=power_of_ten,
        help=help or _("common.delta.help"),
        text_help=_("common.delta.text_help"),
    )


def epsilon_input(setting: Stepped, **options: Any) -> float:
    """The epsilon in use from ``epsilon_slider(setting, **options)``."""
    return float(epsilon_slider(setting, **options).value)


def delta_input(setting: Stepped, **options: Any) -> float:
    """The delta in use from ``delta_slider(setting, **options)``."""
    return float(delta_slider(setting, **options).value)
