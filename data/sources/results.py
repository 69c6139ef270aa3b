"""What a source answers: frozen values holding small pandas objects, never the rows.

``Schema`` (columns and their kinds, the row count), ``Profile`` (persons and the
contribution histogram), ``CategoryCounts`` (rows and distinct persons per category) and
``BoundedStatistics`` (per group, true and bounded counts, distinct persons and sums under
one ``Request``). Every engine returns the same values for the same source and request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import pandas as pd

from data.sources.coded import coded_error

if TYPE_CHECKING:  # dp_core's package import is heavy; a Bounding is only read here
    from dp_core.bounding import Bounding

Kind = Literal["integer", "float", "string", "boolean", "date", "timestamp", "other"]
NUMERIC_KINDS = ("integer", "float")
ROLES = ("person", "group", "value", "order", "category", "predicate")  # Schema.column's roles


@dataclass(frozen=True)
class Column:
    """One column: its name, the engine's type name and its kind (one of Kind)."""

    name: str
    type: str
    kind: str


@dataclass(frozen=True)
class Schema:
    """The columns of a source and how many rows it has."""

    columns: tuple[Column, ...]
    rows: int

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(column.name for column in self.columns)

    def column(self, name: str, role: str, kinds: Sequence[str] | None = None) -> Column:
        """The column ``name``; ValueError naming the columns there are, or the kind needed
        (``role``: one of ROLES, each with its sentences)."""
        for column in self.columns:
            if column.name == name:
                break
        else:
            names = ", ".join(self.names)
            raise coded_error(f"source_{role}_absent", column=name, columns=names)
        if column.kind == "other" or (kinds is not None and column.kind not in kinds):
            numbers = kinds is not None and set(kinds) <= set(NUMERIC_KINDS)
            code = f"source_{role}_numbers" if numbers else f"source_{role}_kind"
            raise coded_error(code, column=name, type=column.type)
        return column


@dataclass(frozen=True)
class Profile:
    """Who contributes how much: persons, and persons by number of contributions.

    ``histogram``: index k (contributions: groups per person when a group column is given,
    rows per person otherwise), value the persons with k (zeros included); as
    dp_core.bounding.contribution_histogram. A unit is one person's rows in one group (the
    whole table is one group without a group column): ``units`` counts them and
    ``max_rows_per_unit`` is the most rows one person has in one group.
    """

    person: str | None
    group: str | None
    rows: int
    persons: int
    units: int
    max_rows_per_person: int
    max_rows_per_unit: int
    histogram: pd.Series = field(compare=False)

    @property
    def max_contributions(self) -> int:
        return int(self.histogram.index.max()) if len(self.histogram) else 0


@dataclass(frozen=True)
class CategoryCounts:
    """Rows and distinct persons per category of ``column`` (sorted by category).

    ``counts``: index the categories' values, columns ``rows`` and ``persons`` (distinct
    persons; rows when there is no person column) and ``label`` (the text a declared category
    is compared as). Describes the data: the input of a DP selection, never a release.
    """

    column: str
    person: str | None
    counts: pd.DataFrame = field(compare=False)


@dataclass(frozen=True)
class Request:
    """What to compute: the columns, the bounds (dp_core.bounding.Bounding) and the seed.

    ``person`` None: each row is a different person. ``value`` None: counts only.
    ``order``: the column "first" selection keeps the earliest rows of (ties: by value).
    ``groups``: the groups to answer, as text, in order (a public or declared domain; rows
    in other groups are dropped before bounding and only counted); None: the data's groups.
    """

    person: str | None
    group: str
    bounding: Bounding  # dp_core.bounding.Bounding (or any value with its fields)
    value: str | None = None
    order: str | None = None
    seed: int = 0
    groups: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.groups is not None:
            object.__setattr__(self, "groups", tuple(str(g).strip() for g in self.groups))
        if self.value is not None and not self.bounding.clipped:
            raise coded_error("source_sum_bounds")
        if self.bounding.selection == "first" and self.order is None and self.person:
            raise coded_error("source_first_order")


@dataclass(frozen=True)
class BoundedStatistics:
    """Per group, before and after bounding under one Request.

    ``answers``: index the groups (the request's labels in their order, or the data's
    groups sorted), columns ``true_count``, ``bounded_count``, ``true_persons``,
    ``bounded_persons`` (distinct persons in the group before and after the l0 cap) and, with
    a value column, ``true_sum`` and ``bounded_sum`` (clipped; pre-aggregated if asked).
    The columns named like dp_core.bounding.bounded_answers' hold the same numbers.
    ``rows_outside`` / ``groups_outside``: rows, and distinct groups, not among the request's
    groups (dropped before bounding; they describe the data: never list them).
    """

    request: Request
    answers: pd.DataFrame = field(compare=False)
    rows_outside: int = 0
    groups_outside: int = 0

    @property
    def rows(self) -> int:
        """Rows in the answered groups, before bounding."""
        return int(self.answers["true_count"].sum())

    @property
    def rows_kept(self) -> int:
        return int(self.answers["bounded_count"].sum())

    @property
    def units(self) -> int:
        """Units (one person's rows in one group) in the answered groups."""
        return int(self.answers["true_persons"].sum())

    @property
    def units_kept(self) -> int:
        return int(self.answers["bounded_persons"].sum())
