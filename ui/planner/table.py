"""The plan's table: its columns, the rows each dataset starts with, and reading it back.

The table is edited with ``st.data_editor`` (rows added, removed and edited); ``parse_rows``
turns it into StatisticSpecs and a readable sentence for every row it cannot use. The cells
hold keys ("count", "laplace", "percent"); the editor shows them in the reader's language.
Pure pandas apart from ``column_config`` (Streamlit's column types).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from data.registry import Dataset
from dp_core.planner import StatisticSpec
from ui.common.formatting import number
from ui.common.i18n import N_, _, display

KINDS = {  # key -> message id of its display name
    "count": N_("planner.kind.count"),
    "sum": N_("planner.kind.sum"),
    "mean": N_("planner.kind.mean"),
    "histogram": N_("planner.kind.histogram"),
}
MECHANISMS = {
    "laplace": N_("planner.mechanism.laplace"),
    "gaussian": N_("planner.mechanism.gaussian"),
}
TARGET_UNITS = {"absolute": N_("planner.unit.absolute"), "percent": N_("planner.unit.percent")}
NAME, KIND, COLUMN, LOWER, UPPER = "name", "kind", "column", "lower", "upper"
MECHANISM, WEIGHT, TARGET, TARGET_UNIT = "mechanism", "weight", "target", "unit"
COLUMNS = (NAME, KIND, COLUMN, LOWER, UPPER, MECHANISM, WEIGHT, TARGET, TARGET_UNIT)
NUMBERS = (LOWER, UPPER, WEIGHT, TARGET)
HEADERS = {  # column -> message id of its header
    NAME: N_("planner.table.name"),
    KIND: N_("planner.table.kind"),
    COLUMN: N_("planner.table.column"),
    LOWER: N_("planner.table.lower"),
    UPPER: N_("planner.table.upper"),
    MECHANISM: N_("planner.table.mechanism"),
    WEIGHT: N_("planner.table.weight"),
    TARGET: N_("planner.table.target"),
    TARGET_UNIT: N_("planner.table.unit"),
}

# Each dataset's first plan: (name's message id, kind, column, L, U, mechanism, target, unit).
_DEFAULTS: dict[str, list[tuple]] = {
    "census": [
        (N_("planner.default.persons"), "count", None, None, None, "laplace", 50.0, "absolute"),
        (N_("planner.default.mean_age"), "mean", "age", 0.0, 100.0, "laplace", 0.5, "absolute"),
        (N_("planner.default.occupations"), "histogram", "occupation", None, None, "laplace",
         5.0, "percent"),
        (N_("planner.default.hours"), "sum", "hours_per_week", 0.0, 100.0, "gaussian", 1.0,
         "percent"),
    ],
    "diseases": [
        (N_("planner.default.persons"), "count", None, None, None, "laplace", 5.0, "absolute"),
        (N_("planner.default.diagnoses"), "histogram", "disease", None, None, "laplace", 5.0,
         "absolute"),
    ],
    "restaurant": [
        (N_("planner.default.visits"), "count", None, None, None, "laplace", 50.0, "absolute"),
        (N_("planner.default.visits_per_day"), "histogram", "day", None, None, "gaussian", 20.0,
         "absolute"),
        (N_("planner.default.revenue"), "sum", "money_spent", 0.0, 50.0, "laplace", 2.0,
         "percent"),
        (N_("planner.default.mean_time"), "mean", "time_spent", 0.0, 120.0, "laplace", 2.0,
         "absolute"),
    ],
    "tips": [
        (N_("planner.default.bills"), "count", None, None, None, "laplace", 10.0, "absolute"),
        (N_("planner.default.mean_tip"), "mean", "tip", 0.0, 10.0, "laplace", 0.5, "absolute"),
        (N_("planner.default.bills_per_day"), "histogram", "day", None, None, "laplace", 10.0,
         "absolute"),
        (N_("planner.default.takings"), "sum", "total_bill", 0.0, 60.0, "gaussian", 5.0,
         "percent"),
    ],
    "industry_groups": [
        (N_("planner.default.rows"), "count", None, None, None, "laplace", 20.0, "absolute"),
        (N_("planner.default.rows_per_group"), "histogram", "industry_group", None, None,
         "laplace", 20.0, "absolute"),
    ],
}  # fmt: skip


def default_rows(dataset: Dataset) -> pd.DataFrame:
    """The plan a dataset starts with: its shipped plan, or a count (and a histogram and a
    mean of the first usable columns) for the user's own table; names in the reader's language."""
    shipped = _DEFAULTS.get(dataset.key)
    if shipped is not None:
        rows = [(_(name), *rest) for name, *rest in shipped]
    else:
        rows = [(_default_name("count", ""), "count", None, None, None, "laplace", 1.0, "percent")]
        if dataset.categorical:
            column = dataset.categorical[0]
            rows.append(
                (_default_name("histogram", column), "histogram", column, None, None, "laplace",
                 10.0, "percent")
            )  # fmt: skip
        numeric = [c for c in dataset.numeric if c not in dataset.categorical]
        numeric = numeric or list(dataset.numeric)
        if numeric and not dataset.is_count_table:  # bounds left empty: the note says they
            column = numeric[0]  # come from the file (for exploring only)
            rows.append(
                (_default_name("mean", column), "mean", column, None, None, "laplace", 5.0,
                 "percent")
            )  # fmt: skip
    return frame_of([(n, k, c, lo, hi, m, 1.0, t, u) for n, k, c, lo, hi, m, t, u in rows])


def frame_of(rows: list[tuple]) -> pd.DataFrame:
    """A plan table from rows in COLUMNS order (the number columns as floats)."""
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    for column in NUMBERS:
        frame[column] = frame[column].astype(float)
    return frame


def column_config(dataset: Dataset) -> dict:
    """st.data_editor's column types: choices for kind, column, mechanism and target unit."""
    import streamlit as st  # the only Streamlit use here

    columns = list(dict.fromkeys([*dataset.numeric, *dataset.categorical]))
    return {
        NAME: st.column_config.TextColumn(_(HEADERS[NAME]), help=_("planner.table.name.help")),
        KIND: st.column_config.SelectboxColumn(
            _(HEADERS[KIND]),
            options=list(KINDS),
            format_func=display(KINDS, lambda key: _(KINDS[key])),
            required=True,
            help=_("planner.table.kind.help"),
        ),
        COLUMN: st.column_config.SelectboxColumn(
            _(HEADERS[COLUMN]), options=columns, help=_("planner.table.column.help")
        ),
        LOWER: st.column_config.NumberColumn(_(HEADERS[LOWER]), help=_("planner.table.lower.help")),
        UPPER: st.column_config.NumberColumn(_(HEADERS[UPPER]), help=_("planner.table.upper.help")),
        MECHANISM: st.column_config.SelectboxColumn(
            _(HEADERS[MECHANISM]),
            options=list(MECHANISMS),
            format_func=display(MECHANISMS, lambda key: _(MECHANISMS[key])),
            required=True,
            help=_("planner.table.mechanism.help"),
        ),
        WEIGHT: st.column_config.NumberColumn(
            _(HEADERS[WEIGHT]), help=_("planner.table.weight.help")
        ),
        TARGET: st.column_config.NumberColumn(
            _(HEADERS[TARGET]), help=_("planner.table.target.help")
        ),
        TARGET_UNIT: st.column_config.SelectboxColumn(
            _(HEADERS[TARGET_UNIT]),
            options=list(TARGET_UNITS),
            format_func=display(TARGET_UNITS, lambda key: _(TARGET_UNITS[key])),
            help=_("planner.table.unit.help"),
        ),
    }


@dataclass(frozen=True)
class Parsed:
    """The statistics the table asks for, what is wrong with it, and what was filled in."""

    specs: tuple[StatisticSpec, ...]
    problems: tuple[str, ...]
    notes: tuple[str, ...]
    bounds_from_file: bool = False  # some bounds are an own file's min/max: read from the data


def _number(value: object) -> float | None:
    """A finite float, or None for an empty cell."""
    if value is None:
        return None
    try:
        parsed = float(value)
    except (TypeError, ValueError):
        return None
    return parsed if math.isfinite(parsed) else None


def text(value: object) -> str:
    """A cell as stripped text ("" for an empty cell)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value).strip()


def _default_name(kind: str, column: str) -> str:
    ids = {
        "count": N_("planner.default.rows"),
        "sum": N_("planner.default.sum_of"),
        "mean": N_("planner.default.mean_of"),
        "histogram": N_("planner.default.rows_per"),
    }
    return _(ids[kind], column=column) if kind != "count" else _(ids[kind])


def _column_problems(kind: str, column: str | None, dataset: Dataset, label: str) -> list[str]:
    """What is wrong with a row's column for its kind."""
    if kind in ("sum", "mean"):
        if dataset.is_count_table:
            return [_("planner.parse.count_table", row=label)]
        if column is None:
            if kind == "sum":
                return [_("planner.parse.sum_column_needed", row=label)]
            return [_("planner.parse.mean_column_needed", row=label)]
        if column not in dataset.numeric:
            return [_("planner.parse.not_numeric", row=label, column=column)]
    elif kind == "histogram":
        if column is None:
            return [_("planner.parse.category_needed", row=label)]
        if column not in dataset.categorical:
            return [_("planner.parse.not_category", row=label, column=column)]
    return []


def _target_problems(target: float | None, label: str) -> list[str]:
    if target is not None and target < 0:
        return [_("planner.parse.target_negative", row=label, target=number(target))]
    if target == 0:
        return [_("planner.parse.target_zero", row=label)]
    return []


def _parse_row(
    index: int, row: pd.Series, dataset: Dataset, own: bool, names: set[str]
) -> tuple[StatisticSpec | None, list[str], list[str]]:
    notes: list[str] = []
    name = text(row[NAME])
    label = (
        _("planner.parse.row_named", index=index, name=name)
        if name
        else _("planner.parse.row", index=index)
    )
    kind = text(row[KIND])
    if kind not in KINDS:
        return None, [_("planner.parse.kind_needed", row=label)], []
    column = text(row[COLUMN]) or None
    lower, upper = _number(row[LOWER]), _number(row[UPPER])
    problems = _column_problems(kind, column, dataset, label)
    if kind in ("sum", "mean") and not problems:
        if lower is None or upper is None:
            public_lower, public_upper = dataset.numeric[column]
            lower = public_lower if lower is None else lower
            upper = public_upper if upper is None else upper
            bounds = {"row": label, "lower": number(lower), "upper": number(upper)}
            notes.append(
                _("planner.parse.bounds_from_file", **bounds)
                if own
                else _("planner.parse.bounds_public", **bounds)
            )
        if lower >= upper:
            problems.append(_("planner.parse.bounds_order", row=label))
    mechanism = text(row[MECHANISM]) or "laplace"
    if mechanism not in MECHANISMS:
        problems.append(_("planner.parse.mechanism", row=label))
    weight = _number(row[WEIGHT])
    weight = 1.0 if weight is None else weight
    if weight <= 0:
        problems.append(_("planner.parse.weight", row=label, weight=number(weight)))
    target = _number(row[TARGET])
    relative = text(row[TARGET_UNIT]) == "percent"
    problems += _target_problems(target, label)
    if problems:
        return None, problems, notes
    name = name or _default_name(kind, column or "")
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


def _bounds_missing(row: pd.Series) -> bool:
    """Whether a sum or mean row leaves a bound empty (filled in from the dataset's range)."""
    return text(row[KIND]) in ("sum", "mean") and (
        _number(row[LOWER]) is None or _number(row[UPPER]) is None
    )


def is_empty(row: pd.Series) -> bool:
    """Whether every cell of a row is empty (as a freshly added row is)."""
    return all(text(row[column]) == "" for column in COLUMNS)


def parse_rows(frame: pd.DataFrame | None, dataset: Dataset, *, own: bool = False) -> Parsed:
    """The table as StatisticSpecs; a sentence for every row (or column) it cannot use.

    Empty rows (as a freshly added row is) are skipped; an empty name gets a default; a
    missing weight is 1; missing bounds are the dataset's (public for shipped data, read from
    the file for an own table, which the notes say); a percentage target is a fraction.
    """
    if frame is None or frame.empty:
        return Parsed((), (_("planner.parse.empty"),), ())
    missing = [column for column in COLUMNS if column not in frame.columns]
    if missing:
        names = ", ".join(f"“{_(HEADERS[column])}”" for column in missing)
        return Parsed((), (_("planner.parse.missing_columns", columns=names),), ())
    specs: list[StatisticSpec] = []
    problems: list[str] = []
    notes: list[str] = []
    names: set[str] = set()
    read = False
    for index, (_row_id, row) in enumerate(frame.iterrows(), start=1):
        if is_empty(row):
            continue
        spec, row_problems, row_notes = _parse_row(index, row, dataset, own, names)
        read = read or (own and spec is not None and _bounds_missing(row))
        problems.extend(row_problems)
        notes.extend(row_notes)
        if spec is not None:
            specs.append(spec)
    if not specs and not problems:
        problems.append(_("planner.parse.empty"))
    return Parsed(tuple(specs), tuple(problems), tuple(notes), read)
