"""Every number the app writes, formatted in one place, in the reader's language (Babel).

    number(0.25)            -> "0.25"        a setting as the user typed it ("0,25" in German)
    fixed(12.345, 1)        -> "12.3"        a value with fixed decimals, grouped: "3,510.0"
    significant(0.012345)   -> "0.0123"      3 significant digits, grouped, never "3.51e+03"
    probability(4e-5)       -> "4e-05"       4 decimals, or 3 significant digits below 0.001
    probability_from_log(-2500.0) -> "1.2e-1086"  a probability too small for a float
    percent(0.999955)       -> "99.9955%"    enough digits to tell it from 0% or 100%
    power_of_ten(1e-5)      -> "10⁻⁵"        a delta
    epsilon(math.inf)       -> "∞"

Decimal and grouping symbols follow the session's language (ui.common.i18n.number_locale):
"0,881" and "3.510" in German and Spanish; ``number_locale`` gives charts the same symbols.
"""

from __future__ import annotations

import functools
import math
from decimal import Decimal

from babel import Locale
from babel.numbers import (
    NumberPattern,
    format_decimal,
    get_decimal_symbol,
    get_group_symbol,
    parse_pattern,
)

from ui.common import i18n


@functools.cache
def _parsed_locale(name: str) -> Locale:
    return Locale.parse(name)


def _babel_locale() -> Locale:
    """The session's number locale, parsed once per process (Babel parses a locale's name and
    loads its data under one global lock at each call given a name: a page run formats some
    fifty numbers, and a worker runs many pages at once)."""
    return _parsed_locale(i18n.number_locale())


@functools.cache
def _pattern(pattern: str) -> NumberPattern:
    return parse_pattern(pattern)


_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
_LOG10 = math.log(10)


def _decimal(value: float, pattern: str) -> str:
    """Babel's locale format of the float's exact value (so rounding matches Python's: 90.45 is
    stored as 90.4500…03 and rounds up); beyond 10^15 it is written in scientific notation."""
    if not math.isfinite(value) or abs(value) >= 1e15:
        return _scientific(value, 3) if math.isfinite(value) else f"{value:g}"
    return format_decimal(Decimal(value), format=_pattern(pattern), locale=_babel_locale())


def _scientific(value: float, digits: int) -> str:
    """1.23e-05 with the locale's decimal symbol (the exponent is written as in code)."""
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    return f"{mantissa.replace('.', get_decimal_symbol(_babel_locale()))}e{exponent}"


def number(value: float) -> str:
    """Short label for a setting: 0.01, 0.25, 1, 12.5, 1e-06 (Python's general format, with
    the locale's decimal symbol and no grouping)."""
    return f"{value:g}".replace(".", get_decimal_symbol(_babel_locale()))


def fixed(value: float, decimals: int = 0) -> str:
    """Grouped thousands with fixed decimals: 3,510 or 12.35."""
    return _decimal(value, "#,##0" + ("." + "0" * decimals if decimals else ""))


def significant(value: float, digits: int = 3) -> str:
    """``digits`` significant digits, grouped, without scientific notation from 0.001 to 10^15.

    3,510 (not 3.51e+03), 0.0123, 2.83, 2.5, 1; below 0.001 or beyond 10^15 scientific
    (4.5e-05). Trailing zeros are dropped.
    """
    if value == 0 or not math.isfinite(value):
        return f"{value:g}"
    magnitude = math.floor(math.log10(abs(value)))
    if magnitude < -3 or magnitude >= 15:
        return _scientific(value, digits)
    decimals = max(0, digits - 1 - magnitude)
    return _decimal(round(value, decimals), "#,##0" + ("." + "#" * decimals if decimals else ""))


def readable(value: float) -> str:
    """Whole numbers from 100 up (1,414), three significant digits below (2.83)."""
    return fixed(value) if abs(value) >= 100 else significant(value)


def probability(value: float) -> str:
    """4 decimals, or 3 significant digits below 0.001 (so a tiny probability never reads 0);
    exactly 0 as 0 (not 0.00e+00)."""
    if value == 0:
        return "0"
    return _decimal(value, "0.0000") if value >= 1e-3 else _scientific(value, 3)


def probability_from_log(log_p: float) -> str:
    """A probability from its natural log: 0.881, 0.250, 4.0e-05, 1.2e-2171 (never a bare 0)."""
    p = math.exp(log_p)
    if p >= 0.001:
        return _decimal(p, "0.000")
    if p >= 1e-300:
        return _scientific(p, 2)
    exponent = math.floor(log_p / _LOG10)
    mantissa = 10 ** (log_p / _LOG10 - exponent)
    return f"{_decimal(mantissa, '0.0')}e{exponent}"


def percent(p: float) -> str:
    """A probability as a percentage with enough digits to tell it from 0% or 100%.

    73.1%, 99.9955%, 0.0045%; exactly 0 or 1 as 0% or 100%; within 10^-6 of them as
    "< 0.0001%" or "> 99.9999%".
    """
    if p <= 0 or p >= 1:
        return f"{round(p * 100):d}%"
    if p < 1e-6:
        return f"< {_decimal(0.0001, '0.0000')}%"
    if p > 1 - 1e-6:
        return f"> {_decimal(99.9999, '0.0000')}%"
    decimals = max(1, math.ceil(-math.log10(min(p, 1 - p))) - 1)
    return f"{_decimal(p * 100, '0.' + '0' * decimals)}%"


def power_of_ten(value: float) -> str:
    """10⁻⁵ for a power of ten, 3×10⁻⁶ otherwise; 0 as 0 (how the app writes a delta)."""
    if value <= 0:
        return f"{value:g}"
    exponent = math.floor(math.log10(value) + 1e-9)
    mantissa = round(value / 10.0**exponent, 3)
    power = f"10{str(exponent).translate(_SUPERSCRIPTS)}"
    return power if mantissa == 1 else f"{number(mantissa)}×{power}"


def epsilon(value: float) -> str:
    """A total or computed epsilon: 4 significant digits, ∞ when infinite, — when undefined."""
    if math.isnan(value):
        return "—"
    if math.isinf(value):
        return "∞"
    return significant(value, 4) if abs(value) < 1e15 else _scientific(value, 4)


def epsilon_bound(value: float) -> str:
    """An epsilon a guarantee states: 4 significant digits rounded up, so the figure shown is
    never below the bound it stands for (1.386294 -> 1.387; 1.0000000000000002 stays 1:
    differences within 1e-9 of the digit below are float noise, not privacy loss)."""
    if not math.isfinite(value) or value <= 0:
        return epsilon(value)
    places = 3 - math.floor(math.log10(value))
    up = math.ceil(value * 10.0**places * (1 - 1e-9)) / 10.0**places
    return number(up)  # as a setting reads: 0.0001, not 1.000e-04


def odds_factor(eps: float) -> str:
    """e^epsilon as a short label, e.g. 2.72 or 2.2e+04 (no overflow for a huge typed epsilon)."""
    if eps >= 700:
        return f"e^{number(eps)}"
    factor = math.exp(eps)
    return significant(factor) if factor < 1e15 else _scientific(factor, 3)


def count(n: int) -> str:
    """A whole count, grouped: 1,360 (1.360 in German)."""
    return fixed(n)


def number_locale() -> dict:
    """The d3-format number locale charts use: the session's decimal and thousands symbols."""
    locale = _babel_locale()
    return {
        "decimal": get_decimal_symbol(locale),
        "thousands": get_group_symbol(locale),
        "grouping": [3],
        "currency": ["", ""],
    }


def typed_number(text: str) -> str:
    """A number typed in the reader's language, as Python reads it: "0,5" -> "0.5" where the
    decimal symbol is a comma (German, Spanish); a point is read as a decimal point too."""
    symbol = get_decimal_symbol(_babel_locale())
    return text.strip().replace(symbol, ".") if symbol != "." else text.strip()
