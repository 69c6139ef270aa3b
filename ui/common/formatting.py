"""Every number the app writes, formatted in one place.

number(0.25)            -> "0.25"        a setting as the user typed it
fixed(12.345, 1)        -> "12.3"        a value with fixed decimals, grouped: "3,510.0"
significant(0.012345)   -> "0.0123"      3 significant digits, grouped, never "3.51e+03"
probability(4e-5)       -> "4.00e-05"    4 decimals, or 3 significant digits below 0.001
probability_from_log(-2500.0) -> "1.2e-1086"  a probability too small for a float
percent(0.999955)       -> "99.9955%"    enough digits to tell it from 0% or 100%
power_of_ten(1e-5)      -> "10⁻⁵"        a delta
epsilon(math.inf)       -> "∞"
"""

from __future__ import annotations

import math

_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
_LOG10 = math.log(10)


def number(value: float) -> str:
    """Short label for a setting: 0.01, 0.25, 1, 12.5 (Python's general format)."""
    return f"{value:g}"


def fixed(value: float, decimals: int = 0) -> str:
    """Grouped thousands with fixed decimals: 3,510 or 12.35."""
    return f"{value:,.{decimals}f}"


def significant(value: float, digits: int = 3) -> str:
    """``digits`` significant digits, grouped, without scientific notation from 0.001 to 10^15.

    3,510 (not 3.51e+03), 0.0123, 2.83, 2.5, 1; below 0.001 or beyond 10^15 scientific
    (4.5e-05). Trailing zeros are dropped.
    """
    if value == 0 or not math.isfinite(value):
        return f"{value:g}"
    magnitude = math.floor(math.log10(abs(value)))
    if magnitude < -3 or magnitude >= 15:
        return f"{value:.{digits - 1}e}"
    decimals = max(0, digits - 1 - magnitude)
    text = f"{round(value, decimals):,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def readable(value: float) -> str:
    """Whole numbers from 100 up (1,414), three significant digits below (2.83)."""
    return fixed(value) if abs(value) >= 100 else significant(value)


def probability(value: float) -> str:
    """4 decimals, or 3 significant digits below 0.001 (so a tiny probability never reads 0)."""
    return f"{value:.4f}" if value >= 1e-3 else f"{value:.3g}"


def probability_from_log(log_p: float) -> str:
    """A probability from its natural log: 0.881, 0.250, 4.0e-05, 1.2e-2171 (never a bare 0)."""
    p = math.exp(log_p)
    if p >= 0.001:
        return f"{p:.3f}"
    if p >= 1e-300:
        return f"{p:.1e}"
    exponent = math.floor(log_p / _LOG10)
    mantissa = 10 ** (log_p / _LOG10 - exponent)
    return f"{mantissa:.1f}e{exponent}"


def percent(p: float) -> str:
    """A probability as a percentage with enough digits to tell it from 0% or 100%.

    73.1%, 99.9955%, 0.0045%; exactly 0 or 1 as 0% or 100%; within 10^-6 of them as
    "< 0.0001%" or "> 99.9999%".
    """
    if p <= 0 or p >= 1:
        return f"{p:.0%}"
    if p < 1e-6:
        return "< 0.0001%"
    if p > 1 - 1e-6:
        return "> 99.9999%"
    decimals = max(1, math.ceil(-math.log10(min(p, 1 - p))) - 1)
    return f"{p * 100:.{decimals}f}%"


def power_of_ten(value: float) -> str:
    """10⁻⁵ for a power of ten, 3×10⁻⁶ otherwise; 0 as 0 (how the app writes a delta)."""
    if value <= 0:
        return f"{value:g}"
    exponent = math.floor(math.log10(value) + 1e-9)
    mantissa = round(value / 10.0**exponent, 3)
    power = f"10{str(exponent).translate(_SUPERSCRIPTS)}"
    return power if mantissa == 1 else f"{mantissa:g}×{power}"


def epsilon(value: float) -> str:
    """A total or computed epsilon: 4 significant digits, ∞ when infinite, — when undefined."""
    if math.isnan(value):
        return "—"
    return "∞" if math.isinf(value) else f"{value:.4g}"


def odds_factor(eps: float) -> str:
    """e^epsilon as a short label, e.g. 2.72 or 2.2e+04 (no overflow for a huge typed epsilon)."""
    return f"{math.exp(eps):,.3g}" if eps < 700 else f"e^{eps:g}"


def counted(n: int, word: str, plural: str | None = None) -> str:
    """1 day, 3 days, 1,360 visitors."""
    return f"{n:,} {word}" if n == 1 else f"{n:,} {plural or word + 's'}"


def number_locale() -> dict:
    """The d3-format number locale charts use (decimal point and thousands separator)."""
    return {"decimal": ".", "thousands": ",", "grouping": [3], "currency": ["", ""]}
