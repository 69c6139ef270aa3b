"""Every CSV the app writes, safe to open in a spreadsheet (no CSV injection).

    archive.writestr("table.csv", safe_csv(table))

Every CSV the app writes goes through ``safe_csv`` (today: the ZIP of ui.common.export, which
every page's download and the planner's use), never ``DataFrame.to_csv`` itself.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

# OWASP, "CSV Injection" (https://owasp.org/www-community/attacks/CSV_Injection): a cell that
# begins with one of these can run as a formula in Excel, LibreOffice Calc or Google Sheets.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value


def _is_text(dtype: object) -> bool:
    """Object, string and category columns: those that can hold text."""
    return isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_string_dtype(dtype)


def _labels(labels: pd.Index) -> pd.Index:
    """Column or row labels (and their names) with each text label neutralised."""
    names = [_cell(name) for name in labels.names]
    if isinstance(labels, pd.MultiIndex):
        if len(labels) == 0:
            return labels.set_names(names)
        tuples = [tuple(_cell(part) for part in label) for label in labels]
        return pd.MultiIndex.from_tuples(tuples, names=names)
    if not _is_text(labels.dtype):  # numbers, dates: as they are
        return labels.set_names(names)
    return pd.Index([_cell(label) for label in labels], name=names[0], dtype=object)


def _column(column: pd.Series) -> pd.Series:
    """Text cells neutralised; a numeric, boolean or date column is returned as it is."""
    return column.astype(object).map(_cell) if _is_text(column.dtype) else column


def _has_carriage_return(frame: pd.DataFrame, index: bool) -> bool:
    """Whether a text cell, header or (written) index label holds a carriage return."""
    groups = [frame.iloc[:, i] for i in range(frame.shape[1]) if _is_text(frame.dtypes.iloc[i])]
    for labels in [frame.columns, frame.index] if index else [frame.columns]:
        groups.append(list(labels.names))
        levels = labels.levels if isinstance(labels, pd.MultiIndex) else [labels]
        groups.extend(level for level in levels if _is_text(level.dtype))
    return any(isinstance(v, str) and "\r" in v for values in groups for v in values)


def safe_csv(frame: pd.DataFrame, *, index: bool = False, **options: Any) -> str:
    """``frame.to_csv(index=index, **options)`` with every formula-like text cell neutralised.

    The rule (OWASP, "CSV Injection"): a *text* cell, column header, index label or index name
    that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading single
    quote ``'``, so a spreadsheet shows it as text instead of running it (an uploaded category
    ``=HYPERLINK("http://x")`` stays a label). Text that looks like a number ("-3") is quoted
    too: a spreadsheet would evaluate "-2+3". Numbers are never touched: a numeric column,
    negative values and NaN included, is written exactly as ``to_csv`` writes it, so
    ``pandas.read_csv`` reads it back as numbers with no options.

    A text with a carriage return inside ("Flu\\r=HYPERLINK(...)") must be quoted, or a
    spreadsheet starts a new row at it with a live formula; Python's csv writer quotes it only
    when the line ends hold "\\r", so such a file is written with "\\r\\n" line ends.
    """
    safe = frame.copy()
    for position in range(frame.shape[1]):  # by position: column names may repeat
        safe.isetitem(position, _column(frame.iloc[:, position]))
    safe.columns = _labels(frame.columns)
    if index:
        safe.index = _labels(frame.index)
    if _has_carriage_return(frame, index) and "\r" not in options.get("lineterminator", "\n"):
        options["lineterminator"] = "\r\n"
    return safe.to_csv(index=index, **options)
