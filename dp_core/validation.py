"""Argument checks shared by every mechanism.

Each check returns the cleaned value (a float or int) or raises ``ValueError``
with a sentence a user can read in the app, e.g. "epsilon must be greater than 0
(got 0)". Pages show that sentence as it is.
"""

from __future__ import annotations

import math
from numbers import Real

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
        raise ValueError(f"{name} must be a number (got {value!r}).")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number (got {value!r}).") from None
    if math.isnan(number):
        raise ValueError(f"{name} must be a number (got NaN).")
    return number


def check_epsilon(epsilon: object, *, allow_zero: bool = False) -> float:
    """Epsilon must be finite and > 0 (or >= 0 where a function defines epsilon = 0)."""
    eps = _as_float(epsilon, "epsilon")
    if not math.isfinite(eps):
        raise ValueError("epsilon must be finite: an infinite epsilon gives no privacy.")
    if allow_zero:
        if eps < 0:
            raise ValueError(f"epsilon cannot be negative (got {eps:g}).")
    elif eps <= 0:
        raise ValueError(
            f"epsilon must be greater than 0 (got {eps:g}): epsilon = 0 would need infinite noise."
        )
    return eps


def check_delta(delta: object, *, allow_zero: bool = True) -> float:
    """Delta must lie in [0, 1) (or (0, 1) when ``allow_zero`` is False)."""
    d = _as_float(delta, "delta")
    if not 0 <= d < 1:
        raise ValueError(f"delta must be at least 0 and below 1 (got {d:g}).")
    if d == 0 and not allow_zero:
        raise ValueError(
            "delta must be greater than 0 for this mechanism; pure (epsilon, 0)-DP "
            "needs the Laplace mechanism."
        )
    return d


def check_sensitivity(sensitivity: object, name: str = "sensitivity") -> float:
    """Sensitivity must be finite and > 0."""
    s = _as_float(sensitivity, name)
    if not math.isfinite(s) or s <= 0:
        raise ValueError(f"{name} must be a finite number greater than 0 (got {s:g}).")
    return s


def check_bounds(lower: object, upper: object) -> tuple[float, float]:
    """Clipping bounds must be finite with lower < upper."""
    lo = _as_float(lower, "lower bound")
    hi = _as_float(upper, "upper bound")
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise ValueError("clipping bounds must be finite numbers.")
    if lo >= hi:
        raise ValueError(f"the lower bound must be below the upper bound (got [{lo:g}, {hi:g}]).")
    return lo, hi


def check_probability(p: object, name: str, *, open_interval: bool = True) -> float:
    """A probability in (0, 1) (``open_interval``) or in [0, 1]."""
    value = _as_float(p, name)
    if open_interval and not 0 < value < 1:
        raise ValueError(f"{name} must lie strictly between 0 and 1 (got {value:g}).")
    if not open_interval and not 0 <= value <= 1:
        raise ValueError(f"{name} must lie between 0 and 1 (got {value:g}).")
    return value


def check_positive_int(n: object, name: str, *, minimum: int = 1) -> int:
    """A whole number >= ``minimum`` (e.g. a cap on records per person)."""
    value = _as_float(n, name)
    if not math.isfinite(value) or value != int(value):
        raise ValueError(f"{name} must be a whole number (got {n!r}).")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum} (got {int(value)}).")
    return int(value)
