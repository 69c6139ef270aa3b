"""Reading a user's own CSV file into a DataFrame, with messages a user can act on.

Nothing is guessed silently: a file that is empty, not text, not comma-separated or too large
raises ValueError saying which.
"""

from __future__ import annotations

import io
import warnings

import pandas as pd

MAX_BYTES = 50 * 1024 * 1024
MAX_ROWS = 2_000_000


def read_csv_bytes(data: bytes, name: str = "file") -> pd.DataFrame:
    """Parse CSV bytes (UTF-8 or Latin-1, header row first) into a DataFrame."""
    if not data or not data.strip():
        raise ValueError(f"“{name}” is empty: a CSV needs a header row and at least one row.")
    if len(data) > MAX_BYTES:
        raise ValueError(
            f"“{name}” is {len(data) / 2**20:.0f} MB; files up to {MAX_BYTES // 2**20} MB "
            "can be explored here."
        )
    if b"\x00" in data[:4096]:
        raise ValueError(
            f"“{name}” does not look like a text file: is it a spreadsheet? Save it as CSV first."
        )
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
        raise ValueError(
            f"“{name}” has rows with more fields than its header row; check the separator."
        ) from None
    except pd.errors.EmptyDataError:
        raise ValueError(f"“{name}” has no columns to read.") from None
    except pd.errors.ParserError as error:
        raise ValueError(f"“{name}” could not be read as CSV: {error}") from None
    if len(frame) > MAX_ROWS:
        raise ValueError(f"“{name}” has more than {MAX_ROWS:,} rows; use a sample.")
    if frame.empty:
        raise ValueError(f"“{name}” has a header row but no data rows.")
    frame.columns = [str(column).strip() for column in frame.columns]
    return frame


def _separator(text: str) -> str:
    """The separator the header row uses most: comma, semicolon, tab or bar (comma if none)."""
    header = text.split("\n", 1)[0]
    counts = {sep: header.count(sep) for sep in (",", ";", "\t", "|")}
    best = max(counts, key=counts.get)
    return best if counts[best] else ","
