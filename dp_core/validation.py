"""Argument checks shared by every mechanism.

Each check returns the cleaned value (a float or int) or raises ``CodedError`` (a
``ValueError``) with a sentence a user can read, e.g. "epsilon must be greater than 0
(got 0)", and its code and parameters, from which the app writes it in the reader's
language (dp_core.errors, ui.common.errors).
"""

from __future__ import annotations

import math
from numbers import Real

from dp_core.errors import CodedError

__all__ = [
    "check_bounds",
    "check_delta",
    "check_epsilon",
    "check_positive_int",
    "check_probability",
    "check_sensitivity",
]


def _as_float(value: object, name: str) -> float:
    """Convert to float, rejecting text, booleans, None and NaN."""
    if isinstance(value, bool) or not isinstance(value, (Real, str)):
        raise CodedError("number", name=name, got=repr(value))
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise CodedError("number", name=name, got=repr(value)) from None
    if math.isnan(number):
        raise CodedError("number", name=name, got="NaN")
    return number


def check_epsilon(epsilon: object, *, allow_zero: bool = False) -> float:
    """Epsilon must be finite and > 0 (or >= 0 where a function defines epsilon = 0)."""
    eps = _as_float(epsilon, "epsilon")
    if not math.isfinite(eps):
        raise CodedError("epsilon_finite")
    if allow_zero:
        if eps < 0:
            raise CodedError("epsilon_negative", got=f"{eps:g}")
    elif eps <= 0:
        raise CodedError("epsilon_positive", got=f"{eps:g}")
    return eps


def check_delta(delta: object, *, allow_zero: bool = True) -> float:
    """Delta must lie in [0, 1) (or (0, 1) when ``allow_zero`` is False)."""
    d = _as_float(delta, "delta")
    if not 0 <= d < 1:
        raise CodedError("delta_range", got=f"{d:g}")
    if d == 0 and not allow_zero:
        raise CodedError("delta_positive")
    return d


def check_sensitivity(sensitivity: object, name: str = "sensitivity") -> float:
    """Sensitivity must be finite and > 0."""
    s = _as_float(sensitivity, name)
    if not math.isfinite(s) or s <= 0:
        raise CodedError("positive", name=name, got=f"{s:g}")
    return s


def check_bounds(lower: object, upper: object) -> tuple[float, float]:
    """Clipping bounds must be finite with lower < upper."""
    lo = _as_float(lower, "lower bound")
    hi = _as_float(upper, "upper bound")
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise CodedError("bounds_finite")
    if lo >= hi:
        raise CodedError("bounds_order", got=f"[{lo:g}, {hi:g}]")
    return lo, hi


def check_probability(p: object, name: str, *, open_interval: bool = True) -> float:
    """A probability in (0, 1) (``open_interval``) or in [0, 1]."""
    value = _as_float(p, name)
    if open_interval and not 0 < value < 1:
        raise CodedError("probability_open", name=name, got=f"{value:g}")
    if not open_interval and not 0 <= value <= 1:
        raise CodedError("probability_closed", name=name, got=f"{value:g}")
    return value


def check_positive_int(n: object, name: str, *, minimum: int = 1) -> int:
    """A whole number >= ``minimum`` (e.g. a cap on records per person)."""
    value = _as_float(n, name)
    if not math.isfinite(value) or value != int(value):
        raise CodedError("whole", name=name, got=repr(n))
    if value < minimum:
        raise CodedError("minimum", name=name, minimum=minimum, got=int(value))
    return int(value)
