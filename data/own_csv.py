"""Reading a user's own CSV file into a DataFrame, with messages a user can act on.

Nothing is guessed silently: a file that is empty, not text, not comma-separated or too large
raises ValueError saying which. ``guess_person_column`` proposes the column that identifies a
person (a repeating id, or a name such as patient_id); the page shows the proposal and what
choosing "each row is a different person" instead would mean.
"""

from __future__ import annotations

import io
import re
import warnings
from dataclasses import dataclass

import pandas as pd

from dp_core.errors import CodedError

MAX_BYTES = 50 * 1024 * 1024
MAX_ROWS = 2_000_000


def read_csv_bytes(data: bytes, name: str = "file") -> pd.DataFrame:
    """Parse CSV bytes (UTF-8 or Latin-1, header row first) into a DataFrame."""
    if not data or not data.strip():
        raise CodedError("csv_empty", name=name)
    if len(data) > MAX_BYTES:
        raise CodedError(
            "csv_size", name=name, size=f"{len(data) / 2**20:.0f}", limit=MAX_BYTES // 2**20
        )
    if b"\x00" in data[:4096]:
        raise CodedError("csv_binary", name=name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)
            frame = pd.read_csv(
                io.StringIO(text), sep=_separator(text), index_col=False, nrows=MAX_ROWS + 1
            )
    except pd.errors.ParserWarning:
        raise CodedError("csv_fields", name=name) from None
    except pd.errors.EmptyDataError:
        raise CodedError("csv_columns", name=name) from None
    except pd.errors.ParserError as error:
        raise CodedError("csv_unreadable", name=name, detail=str(error)) from None
    if len(frame) > MAX_ROWS:
        raise CodedError("csv_rows", name=name, rows=f"{MAX_ROWS:,}")
    if frame.empty:
        raise CodedError("csv_no_rows", name=name)
    frame.columns = [str(column).strip() for column in frame.columns]
    return frame


def _separator(text: str) -> str:
    """The separator the header row uses most: comma, semicolon, tab or bar (comma if none)."""
    header = text.split("\n", 1)[0]
    counts = {sep: header.count(sep) for sep in (",", ";", "\t", "|")}
    best = max(counts, key=counts.get)
    return best if counts[best] else ","


# Words that name the unit of privacy in a column name (patient_id, CustomerID, user, visitor).
PERSON_WORDS = frozenset(
    [
        "person",
        "persons",
        "people",
        "user",
        "users",
        "patient",
        "patients",
        "customer",
        "customers",
        "visitor",
        "visitors",
        "client",
        "clients",
        "member",
        "members",
        "respondent",
        "respondents",
        "subject",
        "subjects",
        "participant",
        "participants",
        "individual",
        "individuals",
        "household",
        "households",
        "account",
        "accounts",
        "employee",
        "employees",
        "student",
        "students",
        "owner",
        "owners",
    ]
)
_TOKENS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


@dataclass(frozen=True)
class PersonColumnHint:
    """Why a column looks like it identifies a person, and how many rows its values have."""

    column: str
    named_like_id: bool  # its name says id / person / user / patient / customer / visitor …
    max_rows: int  # the most rows any one value has
    distinct: int  # how many different values it has


def _named_like_id(column: str) -> bool:
    tokens = [t.lower() for t in _TOKENS.findall(column)]
    return any(
        t in PERSON_WORDS or t in ("id", "ids") or (t.endswith("id") and t[:-2] in PERSON_WORDS)
        for t in tokens
    )


def person_column_hints(frame: pd.DataFrame) -> list[PersonColumnHint]:
    """Columns that may identify a person, most likely first.

    A column qualifies if its name says so (``patient_id``, ``CustomerID``, ``user``) or if its
    values repeat while being many (at least 20 distinct values and 10% of the rows, not
    decimals: an identifier, not a category like ``disease`` or a measurement like ``age``).
    Named columns whose values repeat come first, then other named ones, then repeating
    unnamed ones; ties by most rows per value.
    """
    hints = []
    rows = len(frame)
    for column in frame.columns:
        values = frame[column].dropna()
        if values.empty:
            continue
        counts = values.value_counts()
        distinct, most = int(counts.size), int(counts.iloc[0])
        named = _named_like_id(str(column))
        decimal = pd.api.types.is_float_dtype(values) and not (values == values.round()).all()
        many = distinct >= 20 and distinct >= 0.1 * rows
        if named or (most > 1 and many and not decimal):
            hints.append(PersonColumnHint(str(column), named, most, distinct))
    return sorted(hints, key=lambda h: (not (h.named_like_id and h.max_rows > 1),
                                        not h.named_like_id, -h.max_rows))  # fmt: skip


def guess_person_column(frame: pd.DataFrame) -> str | None:
    """The column most likely to identify a person (person_column_hints), or None."""
    hints = person_column_hints(frame)
    return hints[0].column if hints else None
