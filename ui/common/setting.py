"""Every setting a page keeps, declared once: its key, its default and what it accepts.

    EPSILON = Number("laplace_epsilon", 1.0, minimum=1e-4, maximum=100.0)
    KIND = Choice("laplace_kind", "count", options=("count", "sum", "mean"))

The key is the widget's key and the address parameter. From a declaration come the widget's
value (``ui.common.address.linked``), the address (``encode``), reading a link (``decode``),
the exports' settings (they are the address) and the presets (``ui.common.presets``).

Encoding and decoding are pure functions. A value at its default is left out of the address
(``encode`` gives None); an address value the setting does not accept decodes to None (the
widget keeps its default). Numbers are written one way in every language ("0.5", "1e-05",
never "0,5"), and a choice by its option key, never its translated label: a link made in German
opens in English.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Encoded = str | list[str]  # one parameter, or a parameter repeated (?k=a&k=b)
DECLARED: set[str] = set()  # every setting key declared in this process (address.forget_settings)


def number_code(value: float) -> str:
    """A number as the address writes it: Python's shortest exact form, "1", "0.12", "1e-05"
    (never the reader's decimal comma)."""
    if isinstance(value, int | bool) or (float(value).is_integer() and abs(value) < 1e15):
        return str(int(value))
    return repr(float(value))


def option_code(option: object) -> str:
    """An option as the address writes it: its key, a number in its short form, a pair as
    "a,b"."""
    if isinstance(option, tuple):
        return ",".join(option_code(part) for part in option)
    if isinstance(option, float | int) and not isinstance(option, bool):
        return number_code(option)
    return str(option)


@dataclass(frozen=True)
class Setting:
    """A setting's key (widget and address) and default; ``in_address=False`` keeps it out of
    links (a choice that only changes how something is shown), ``always`` keeps it in them
    at its default too (ε and δ: a shared link and a file's name say them)."""

    key: str
    default: Any = None
    in_address: bool = True
    always: bool = False

    def __post_init__(self) -> None:
        DECLARED.add(self.key)

    def encode(self, value: Any) -> Encoded | None:
        """The address's parameter for ``value``; None at the default (left out)."""
        if not self.in_address or value is None or (value == self.default and not self.always):
            return None
        return self.code(value)

    def code(self, value: Any) -> Encoded:
        return str(value)

    def decode(self, raw: Encoded, options: Sequence[Any] | None = None) -> Any | None:
        """The value an address parameter stands for; None when the setting does not accept
        it. ``options``: the choices this run offers, when they depend on the data."""
        raise NotImplementedError

    def accepts(self, value: Any, options: Sequence[Any] | None = None) -> bool:
        """Whether ``value`` is one this setting can take (this run's ``options``)."""
        return value is not None and self.decode(self.code(value), options) == value


@dataclass(frozen=True)
class Number(Setting):
    """A number in [minimum, maximum]; ``integer`` for counts. ``default=None`` is an empty
    box (read from the data)."""

    minimum: float = -math.inf
    maximum: float = math.inf
    integer: bool = False

    def code(self, value: Any) -> str:
        return number_code(value)

    def decode(self, raw: Encoded, options: Sequence[Any] | None = None) -> float | int | None:
        try:
            value = float(_single(raw))
        except (TypeError, ValueError):
            return None
        if not math.isfinite(value) or not self.minimum <= value <= self.maximum:
            return None
        if self.integer:
            return int(value) if value.is_integer() else None
        return value

    def accepts(self, value: Any, options: Sequence[Any] | None = None) -> bool:
        return (self.default is None and value is None) or (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and self.decode(self.code(value)) == value
        )


@dataclass(frozen=True)
class Stepped(Number):
    """A number whose slider moves over ``stops`` (ε over nice values, δ over powers of ten),
    declared with it so a chart over the slider's range reads the same stops; a typed value
    may lie between them or beyond, within [minimum, maximum]."""

    stops: tuple[float, ...] = ()


@dataclass(frozen=True)
class Flag(Setting):
    """On or off: ``on`` ("true", or "1" for ?present=1) or "false" in the address."""

    default: bool = False
    on: str = "true"

    def code(self, value: Any) -> str:
        return self.on if value else "false"

    def decode(self, raw: Encoded, options: Sequence[Any] | None = None) -> bool | None:
        return {self.on: True, "true": True, "1": True, "false": False, "0": False}.get(
            _single(raw).lower()
        )


@dataclass(frozen=True)
class Text(Setting):
    """Typed text, up to ``longest`` characters."""

    default: str = ""
    longest: int = 200

    def decode(self, raw: Encoded, options: Sequence[Any] | None = None) -> str | None:
        text = _single(raw)
        return text if len(text) <= self.longest else None


@dataclass(frozen=True)
class Choice(Setting):
    """One of ``options`` (or of the options a run gives, when they come from the data),
    written by its key."""

    options: tuple[Any, ...] = ()

    def code(self, value: Any) -> str:
        return option_code(value)

    def decode(self, raw: Encoded, options: Sequence[Any] | None = None) -> Any | None:
        text = _single(raw)
        return next((o for o in (options or self.options) if option_code(o) == text), None)


@dataclass(frozen=True)
class Many(Setting):
    """Several of the options, in order (a multiselect): the parameter repeated."""

    default: tuple[Any, ...] = ()
    options: tuple[Any, ...] = ()

    def code(self, value: Any) -> list[str]:
        return [option_code(option) for option in value]

    def encode(self, value: Any) -> Encoded | None:
        return super().encode(tuple(value))

    def decode(self, raw: Encoded, options: Sequence[Any] | None = None) -> tuple | None:
        codes = {option_code(o): o for o in (options or self.options)}
        parts = [raw] if isinstance(raw, str) else list(raw)
        chosen = tuple(codes[part] for part in dict.fromkeys(parts) if part in codes)
        return chosen if len(chosen) == len(parts) else None

    def accepts(self, value: Any, options: Sequence[Any] | None = None) -> bool:
        allowed = set(options or self.options)
        return isinstance(value, list | tuple) and all(o in allowed for o in value)


@dataclass(frozen=True)
class Span(Setting):
    """A range (low, high), low <= high: of numbers in [minimum, maximum], or of ``options``
    (a select_slider range). Written "low,high"."""

    minimum: float = -math.inf
    maximum: float = math.inf
    options: tuple[Any, ...] = ()

    def code(self, value: Any) -> str:
        return ",".join(option_code(part) for part in value)

    def decode(self, raw: Encoded, options: Sequence[Any] | None = None) -> tuple | None:
        parts = _single(raw).split(",") if isinstance(raw, str) else list(raw)
        if len(parts) != 2:
            return None
        choices = options or self.options
        if choices:
            found = [next((o for o in choices if option_code(o) == p), None) for p in parts]
            if None in found or choices.index(found[0]) > choices.index(found[1]):
                return None
            return tuple(found)
        bounds = [Number("", minimum=self.minimum, maximum=self.maximum).decode(p) for p in parts]
        if None in bounds or bounds[0] > bounds[1]:
            return None
        return tuple(bounds)

    def accepts(self, value: Any, options: Sequence[Any] | None = None) -> bool:
        return isinstance(value, list | tuple) and self.decode(self.code(value), options) == tuple(
            value
        )


def _single(raw: Encoded) -> str:
    """A parameter's value; the last when it is repeated (as a browser reads it)."""
    return raw if isinstance(raw, str) else (raw[-1] if raw else "")
