"""The plan's table: its columns, the rows each dataset starts with, and reading it back.

The table is edited with ``st.data_editor`` (rows added, removed and edited); ``parse_rows``
turns it into StatisticSpecs and a readable sentence for every row it cannot use. Pure
pandas apart from ``column_config`` (Streamlit's column types).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from data.registry import Dataset
from dp_core.planner import StatisticSpec

KINDS = {"Count": "count", "Sum": "sum", "Mean": "mean", "Histogram": "histogram"}
MECHANISMS = {"Laplace": "laplace", "Gaussian": "gaussian"}
TARGET_UNITS = ("absolute", "% of value")
NAME, KIND, COLUMN, LOWER, UPPER = "statistic", "kind", "column", "lower L", "upper U"
MECHANISM, WEIGHT, TARGET, TARGET_UNIT = "mechanism", "weight", "target ±", "target is"
COLUMNS = (NAME, KIND, COLUMN, LOWER, UPPER, MECHANISM, WEIGHT, TARGET, TARGET_UNIT)
NUMBERS = (LOWER, UPPER, WEIGHT, TARGET)

# Each dataset's first plan: (name, kind, column, L, U, mechanism, target, unit).
_DEFAULTS: dict[str, list[tuple]] = {
    "census": [
        ("Persons", "Count", None, None, None, "Laplace", 50.0, "absolute"),
        ("Mean age", "Mean", "age", 0.0, 100.0, "Laplace", 0.5, "absolute"),
        ("Occupations", "Histogram", "occupation", None, None, "Laplace", 5.0, "% of value"),
        ("Hours worked", "Sum", "hours_per_week", 0.0, 100.0, "Gaussian", 1.0, "% of value"),
    ],
    "diseases": [
        ("Persons", "Count", None, None, None, "Laplace", 5.0, "absolute"),
        ("Diagnoses", "Histogram", "disease", None, None, "Laplace", 5.0, "absolute"),
    ],
    "restaurant": [
        ("Visits", "Count", None, None, None, "Laplace", 50.0, "absolute"),
        ("Visits per day", "Histogram", "day", None, None, "Gaussian", 20.0, "absolute"),
        ("Revenue", "Sum", "money_spent", 0.0, 50.0, "Laplace", 2.0, "% of value"),
        ("Mean time spent", "Mean", "time_spent", 0.0, 120.0, "Laplace", 2.0, "absolute"),
    ],
    "tips": [
        ("Bills", "Count", None, None, None, "Laplace", 10.0, "absolute"),
        ("Mean tip", "Mean", "tip", 0.0, 10.0, "Laplace", 0.5, "absolute"),
        ("Bills per day", "Histogram", "day", None, None, "Laplace", 10.0, "absolute"),
        ("Takings", "Sum", "total_bill", 0.0, 60.0, "Gaussian", 5.0, "% of value"),
    ],
    "industry_groups": [
        ("Rows", "Count", None, None, None, "Laplace", 20.0, "absolute"),
        ("Rows per group", "Histogram", "industry_group", None, None, "Laplace", 20.0, "absolute"),
    ],
}


_EMPTY = (None, None, "Laplace")  # no bounds yet, Laplace noise


def default_rows(dataset: Dataset) -> pd.DataFrame:
    """The plan a dataset starts with: its shipped plan, or a count (and a histogram and a
    mean of the first usable columns) for the user's own table."""
    rows = _DEFAULTS.get(dataset.key)
    if rows is None:
        rows = [("Rows", "Count", None, None, None, "Laplace", 1.0, "% of value")]
        if dataset.categorical:
            column = dataset.categorical[0]
            rows.append((f"Rows per {column}", "Histogram", column, *_EMPTY, 10.0, "% of value"))
        numeric = [c for c in dataset.numeric if c not in dataset.categorical]
        numeric = numeric or list(dataset.numeric)
        if numeric and not dataset.is_count_table:  # bounds left empty: the note says they
            column = numeric[0]  # come from the file (for exploring only)
            rows.append((f"Mean {column}", "Mean", column, *_EMPTY, 5.0, "% of value"))
    frame = pd.DataFrame(
        [(n, k, c, lo, hi, m, 1.0, t, u) for n, k, c, lo, hi, m, t, u in rows], columns=COLUMNS
    )
    for column in NUMBERS:
        frame[column] = frame[column].astype(float)
    return frame


def column_config(dataset: Dataset) -> dict:
    """st.data_editor's column types: choices for kind, column, mechanism and target unit."""
    import streamlit as st  # the only Streamlit use here

    columns = list(dict.fromkeys([*dataset.numeric, *dataset.categorical]))
    return {
        NAME: st.column_config.TextColumn("statistic", help="A name for the statistic."),
        KIND: st.column_config.SelectboxColumn(
            "kind", options=list(KINDS), required=True, help="What is released."
        ),
        COLUMN: st.column_config.SelectboxColumn(
            "column",
            options=columns,
            help="The column summed or averaged (numeric), or counted per category.",
        ),
        LOWER: st.column_config.NumberColumn(
            "lower L",
            help="Values below L count as L (a sum or mean); one person's effect "
            "depends on max(|L|, |U|).",
        ),
        UPPER: st.column_config.NumberColumn("upper U", help="Values above U count as U."),
        MECHANISM: st.column_config.SelectboxColumn(
            "mechanism",
            options=list(MECHANISMS),
            required=True,
            help="Laplace: pure ε-DP, L1 sensitivity. Gaussian: (ε, δ), L2 sensitivity.",
        ),
        WEIGHT: st.column_config.NumberColumn(
            "weight", help="Its share of the total when the budget is split by weight."
        ),
        TARGET: st.column_config.NumberColumn(
            "target ±",
            help="The accuracy wanted: within ± this of the truth 95% of the time.",
        ),
        TARGET_UNIT: st.column_config.SelectboxColumn(
            "target is",
            options=list(TARGET_UNITS),
            help="Absolute, in the statistic's units, or a percentage of its true value.",
        ),
    }


@dataclass(frozen=True)
class Parsed:
    """The statistics the table asks for, what is wrong with it, and what was filled in."""

    specs: tuple[StatisticSpec, ...]
    problems: tuple[str, ...]
    notes: tuple[str, ...]


def _number(value: object) -> float | None:
    """A finite float, or None for an empty cell."""
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _text(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value).strip()


def _default_name(kind: str, column: str) -> str:
    return {
        "count": "Rows",
        "sum": f"Sum of {column}",
        "mean": f"Mean {column}",
        "histogram": f"Rows per {column}",
    }[kind]


def _parse_row(
    index: int, row: pd.Series, dataset: Dataset, own: bool, names: set[str]
) -> tuple[StatisticSpec | None, list[str], list[str]]:
    problems: list[str] = []
    notes: list[str] = []
    label = f"Row {index}" + (f" (“{_text(row[NAME])}”)" if _text(row[NAME]) else "")
    kind = KINDS.get(_text(row[KIND]))
    if kind is None:
        return None, [f"{label}: choose its kind (Count, Sum, Mean or Histogram)."], []
    column = _text(row[COLUMN]) or None
    lower, upper = _number(row[LOWER]), _number(row[UPPER])
    if kind in ("sum", "mean"):
        if dataset.is_count_table:
            problems.append(f"{label}: a count table has no values to sum or average.")
        elif column is None:
            problems.append(f"{label}: a {kind} needs a numeric column; choose one.")
        elif column not in dataset.numeric:
            problems.append(f"{label}: `{column}` is not a numeric column of this dataset.")
        elif lower is None or upper is None:
            public_lower, public_upper = dataset.numeric[column]
            lower = public_lower if lower is None else lower
            upper = public_upper if upper is None else upper
            where = "read from your file" if own else "the dataset's public bounds"
            notes.append(f"{label}: clipped to [{lower:g}, {upper:g}], {where}.")
        if lower is not None and upper is not None and lower >= upper:
            problems.append(f"{label}: the lower bound must be below the upper bound.")
    elif kind == "histogram":
        if column is None:
            problems.append(f"{label}: a histogram needs a category column; choose one.")
        elif column not in dataset.categorical:
            problems.append(f"{label}: `{column}` is not a category column of this dataset.")
    mechanism = MECHANISMS.get(_text(row[MECHANISM]) or "Laplace")
    if mechanism is None:
        problems.append(f"{label}: the mechanism must be Laplace or Gaussian.")
    weight = _number(row[WEIGHT])
    weight = 1.0 if weight is None else weight
    if weight <= 0:
        problems.append(f"{label}: a weight must be above 0 (got {weight:g}).")
    target = _number(row[TARGET])
    relative = _text(row[TARGET_UNIT]) == TARGET_UNITS[1]
    if target is not None and target < 0:
        problems.append(
            f"{label}: the target is negative ({target:g}). A target is a half-width: the "
            "statistic should be within ± that of the truth 95% of the time, so it is above 0."
        )
    elif target == 0:
        problems.append(
            f"{label}: a target of ±0 needs infinite ε: no noise at all. Give a half-width above 0."
        )
    if problems:
        return None, problems, notes
    name = _text(row[NAME]) or _default_name(kind, column or "")
    base, copy = name, 2
    while name in names:
        name, copy = f"{base} ({copy})", copy + 1
    names.add(name)
    spec = StatisticSpec(
        name=name,
        kind=kind,
        column=column if kind != "count" else None,
        lower=lower if kind in ("sum", "mean") else None,
        upper=upper if kind in ("sum", "mean") else None,
        mechanism=mechanism,
        weight=weight,
        target=None if target is None else (target / 100 if relative else target),
        relative=relative,
    )
    return spec, [], notes


def parse_rows(frame: pd.DataFrame | None, dataset: Dataset, *, own: bool = False) -> Parsed:
    """The table as StatisticSpecs; a sentence for every row (or column) it cannot use.

    Empty rows (as a freshly added row is) are skipped; an empty name gets a default; a
    missing weight is 1; missing bounds are the dataset's (public for shipped data, read from
    the file for an own table, which the notes say); a percentage target is a fraction.
    """
    if frame is None or frame.empty:
        return Parsed((), ("The plan is empty: add a statistic with the + under the table.",), ())
    missing = [column for column in COLUMNS if column not in frame.columns]
    if missing:
        names = ", ".join(f"“{column}”" for column in missing)
        return Parsed((), (f"The table has no {names} column: it needs {', '.join(COLUMNS)}.",), ())
    specs: list[StatisticSpec] = []
    problems: list[str] = []
    notes: list[str] = []
    names: set[str] = set()
    for index, (_, row) in enumerate(frame.iterrows(), start=1):
        if all(_text(row[column]) == "" for column in COLUMNS):
            continue
        spec, row_problems, row_notes = _parse_row(index, row, dataset, own, names)
        problems.extend(row_problems)
        notes.extend(row_notes)
        if spec is not None:
            specs.append(spec)
    if not specs and not problems:
        problems.append("The plan is empty: add a statistic with the + under the table.")
    return Parsed(tuple(specs), tuple(problems), tuple(notes))
