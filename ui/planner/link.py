"""The plan table in one address parameter, a setting of its own (``Rows``: the page keeps it
through ui.common.address's ``current`` and ``publish``).

    encode_rows(table)  -> "Persons~count~-~-~-~lap~1~50~abs~~Mean age~mean~age~0~100~lap~1~0.5~abs"
    decode_rows(text)   -> the table again (ValueError with a sentence when malformed)

Each row is its nine cells in the table's order (name, kind, column, L, U, mechanism, weight,
target, target unit) joined by ``~``; rows are joined by ``~~``. An empty cell is ``-``;
kinds are written as ``count``, ``sum``, ``mean``, ``hist``, mechanisms as ``lap``/``gauss``,
target units as ``abs``/``pct``; numbers in Python's shortest form (0.5, -10, 1e-05). In a
name or column, ``%``, ``~`` and a lone ``-`` are percent-escaped, so any text survives. The
letters, digits and ``~ - . _`` pass through an address unchanged (a space becomes ``+``), so
the parameter reads as the plan.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

import pandas as pd

from ui.common.i18n import _
from ui.common.setting import Encoded, Setting
from ui.planner.table import COLUMNS, KIND, MECHANISM, NUMBERS, TARGET_UNIT, frame_of, is_empty

PARAM = "planner_rows"
EMPTY = "-"
CODES = {  # column -> table key -> code in the address
    KIND: {"count": "count", "sum": "sum", "mean": "mean", "histogram": "hist"},
    MECHANISM: {"laplace": "lap", "gaussian": "gauss"},
    TARGET_UNIT: {"absolute": "abs", "percent": "pct"},
}
KEYS = {column: {code: key for key, code in codes.items()} for column, codes in CODES.items()}


def _escape(value: str) -> str:
    escaped = value.replace("%", "%25").replace("~", "%7E")
    return "%2D" if escaped == EMPTY else escaped


def _cell(column: str, value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return EMPTY
    if column in NUMBERS:
        return f"{float(value):.12g}"
    text = str(value).strip()
    if not text:
        return EMPTY
    return CODES[column].get(text, EMPTY) if column in CODES else _escape(text)


def encode_rows(frame: pd.DataFrame) -> str:
    """The table as one short text (empty rows left out)."""
    rows = [row for _i, row in frame.iterrows() if not is_empty(row)]
    return "~~".join("~".join(_cell(c, row[c]) for c in COLUMNS) for row in rows)


def _value(column: str, cell: str, row: int) -> object:
    if cell == EMPTY:
        return None
    if column in NUMBERS:
        try:
            value = float(cell)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise ValueError(_("planner.link.number", row=row, cell=cell))
        return value
    if column in KEYS:
        if cell not in KEYS[column]:
            choices = ", ".join(KEYS[column])
            raise ValueError(_("planner.link.code", row=row, cell=cell, choices=choices))
        return KEYS[column][cell]
    return unquote(cell)


def decode_rows(text: str) -> pd.DataFrame:
    """The table a parameter holds; ValueError with a sentence saying what is wrong."""
    if not text.strip():
        raise ValueError(_("planner.link.empty"))
    rows = []
    for index, row in enumerate(text.split("~~"), start=1):
        cells = row.split("~")
        if len(cells) != len(COLUMNS):
            raise ValueError(
                _("planner.link.cells", row=index, found=len(cells), wanted=len(COLUMNS))
            )
        rows.append(tuple(_value(c, cell, index) for c, cell in zip(COLUMNS, cells, strict=True)))
    return frame_of(rows)


@dataclass(frozen=True)
class Rows(Setting):
    """The plan table (a DataFrame) in one parameter, written by ``encode_rows``. Its default,
    None, stands for the dataset's own first plan (``table.default_rows``), left out of the
    address. A text ``decode_rows`` refuses decodes to None (the page shows its sentence)."""

    def encode(self, value: Any) -> Encoded | None:
        return None if value is None or not self.in_address else self.code(value)

    def code(self, value: Any) -> str:
        return encode_rows(value)

    def decode(self, raw: Encoded, options: Sequence[Any] | None = None) -> pd.DataFrame | None:
        try:
            return decode_rows(raw if isinstance(raw, str) else (raw[-1] if raw else ""))
        except ValueError:
            return None

    def accepts(self, value: Any, options: Sequence[Any] | None = None) -> bool:
        return value is None or isinstance(value, pd.DataFrame)
