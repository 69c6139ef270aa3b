"""What the SQL engines (DuckDB and Spark) share: running data.sources.sql and turning its
few result rows into the same values the pandas engine computes.

A subclass sets ``relation`` (the table or view the SQL reads) and ``dialect``, and answers
``_query`` (SQL text to a frame), ``_columns`` (the schema's columns) and ``_keep`` /
``_forget`` (a temporary table). The engine keeps what it learnt: the schema, the profiles
(which tell whether the windows can be skipped), the checks, and the ranked units or rows of
the last KEPT_TABLES requests, so that a change of cap or bound is one aggregation over them
(on 10^8 visits 0.01 s over the pass's counted ranks, against 16 s to rank them).
"""

from __future__ import annotations

import functools
import itertools
import os
import threading

import numpy as np
import pandas as pd

from data.sources import capped, describe, frame_statistics, results, sql, units
from data.sources.coded import coded_error
from data.sources.engine import finish_answers, request_kinds
from data.sources.keys import KEY_KINDS, Dialect
from data.sources.source import Source

MASKABLE = ("integer", "string")  # group kinds whose values sql.mask_profile_sql can list
KEPT_TABLES = 2  # ranked tables an engine keeps (each as long as the units or rows it ranks)
# The kept tables' numbers, once each in a process: Spark's temporary views belong to the
# session all engines share, and an engine made where a gone one was (its id) took its names
# ("TEMP_TABLE_OR_VIEW_ALREADY_EXISTS"; 9 names for 30 engines made one after another).
_KEPT_NUMBERS = itertools.count(1)


class SqlEngine:
    """What DuckDB and Spark share: the SQL, and turning its rows into results.

    Implements data.sources.engine.Engine for its subclasses (checked by
    tests/test_engines.py)."""

    name = "sql"
    source: Source
    dialect: Dialect = Dialect()
    relation: str

    def __init__(self, source: Source) -> None:
        self.source = source
        self._profiles: dict[tuple[str | None, str | None], results.Profile] = {}
        self._checks: dict[str, pd.Series] = {}
        self._kept: dict[str, str] = {}  # query text -> temporary table, oldest ask first
        self._lock = threading.Lock()
        self._kept_lock = threading.Lock()

    def _query(self, text: str) -> pd.DataFrame:  # pragma: no cover - overridden
        raise NotImplementedError

    def _columns(self) -> tuple[results.Column, ...]:  # pragma: no cover - overridden
        raise NotImplementedError

    def _keep(self, name: str, text: str) -> None:  # pragma: no cover - overridden
        """Compute ``text`` into the temporary table ``name``."""
        raise NotImplementedError

    def _forget(self, name: str) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    @functools.cached_property
    def _schema(self) -> results.Schema:
        columns = self._columns()
        rows = int(self._query(sql.schema_rows_sql(self.relation))["n"].iloc[0])
        return results.Schema(columns, rows)

    def schema(self) -> results.Schema:
        return self._schema

    def profile(self, person: str | None, group: str | None) -> results.Profile:
        schema = self.schema()
        if person is not None:
            schema.column(person, "person", KEY_KINDS)
        if group is not None:
            schema.column(group, "group", KEY_KINDS)
        cached = self._profiles.get((person, group))
        if cached is not None:
            return cached
        if person is None:
            result = self._rows_profile(group)
        else:
            raw = self._mask_profile(person, group, schema)
            if raw is None:
                raw = self._query(sql.profile_sql(self.dialect, self.relation, person, group))
            result = _profile_from_rows(raw, person, group)
        self._profiles[(person, group)] = result
        return result

    def _mask_profile(
        self, person: str, group: str | None, schema: results.Schema
    ) -> pd.DataFrame | None:
        """The profile in one aggregation (sql.mask_profile_sql) when the group column holds at
        most MASK_GROUPS whole numbers or texts and no missing value, and every unit is one
        row; None otherwise (then profile_sql answers)."""
        if group is None or schema.column(group, "group", KEY_KINDS).kind not in MASKABLE:
            return None
        values = self._query(sql.distinct_groups_sql(self.dialect, self.relation, group))["g"]
        if len(values) > sql.MASK_GROUPS or values.isna().any():
            return None
        if schema.column(group, "group", KEY_KINDS).kind == "integer":
            literals = [str(int(v)) for v in values]
        else:
            literals = [self.dialect.string_literal(str(v)) for v in values]
        raw = self._query(
            sql.mask_profile_sql(self.dialect, self.relation, person, group, literals)
        )
        return None if (raw["max_unit"] > 1).any() else raw

    def _rows_profile(self, group: str | None) -> results.Profile:
        q = self.dialect.quote
        missing = f"count(*) - count({q(group)})" if group else "0"
        raw = self._query(f"SELECT count(*) AS n, {missing} AS missing FROM {self.relation}")
        rows, missing = int(raw["n"].iloc[0]), int(raw["missing"].iloc[0])
        if missing:
            raise frame_statistics.missing_error("group", group, missing)
        histogram = _histogram(np.array([rows] if rows else [], dtype=np.int64))
        return results.Profile(
            None, group, rows, rows, rows, 1 if rows else 0, 1 if rows else 0, histogram
        )

    def category_counts(self, column: str, person: str | None) -> results.CategoryCounts:
        schema = self.schema()
        kind = schema.column(column, "category", KEY_KINDS).kind
        if person is not None:
            schema.column(person, "person", KEY_KINDS)
        raw = self._query(sql.category_sql(self.dialect, self.relation, column, person))
        missing_person = int(raw["missing_person"].sum())
        if missing_person:
            raise frame_statistics.missing_error("person", person, missing_person)
        missing = raw["g"].isna()
        if missing.any():
            rows = int(raw.loc[missing, "n_rows"].sum())
            raise frame_statistics.missing_error("category", column, rows)
        counts = raw.set_index("g").sort_index()
        counts.index.name = column
        counts = counts.rename(columns={"n_rows": "rows"})[["rows", "persons"]].astype(np.int64)
        counts["label"] = frame_statistics.text_keys(pd.Series(counts.index), kind).to_numpy()
        return results.CategoryCounts(column, person, counts)

    def bounded(self, request: results.Request) -> results.BoundedStatistics:
        kinds = request_kinds(self.schema(), request)
        checks = self._checked(sql.checks_sql(self.dialect, self.relation, request, kinds))
        _check_counts(checks, request)
        if request.person is None:
            raw = self._query(sql.rows_are_persons_sql(self.dialect, self.relation, request, kinds))
        else:
            raw = self._one_pass(request, kinds)
        if raw is None:
            shape, unit_window = self._shape(request)
            text = sql.ranked_sql(
                self.dialect, self.relation, request, kinds, shape=shape, unit_window=unit_window
            )
            with self._kept_lock:
                ranked = self._kept_table(text)
                raw = self._query(sql.answers_sql(self.dialect, ranked, request, shape))
        inside = raw[raw["d"].astype(bool)].set_index("g")
        outside = raw[~raw["d"].astype(bool)]
        answers = finish_answers(inside, request, kinds[request.group])
        return results.BoundedStatistics(
            request, answers, int(outside["true_count"].sum()), len(outside)
        )

    def _one_pass(self, request: results.Request, kinds: dict[str, str]) -> pd.DataFrame | None:
        """The answers from one pass over the persons (sql.persons_sql, kept for the next cap
        or bound): for counts whatever the units, for sums when every unit is one row. None
        when ranked_sql answers instead: a unit of several rows and a value (the profile
        says so, or the pass finds it), or one unit per person (no window at all). A pass
        over every group (none declared) also gives the profile: the histogram then costs
        no second read."""
        known = self._profiles.get((request.person, request.group))
        summed = request.value is not None
        counted = not summed or kinds[request.value] in ("integer", "boolean")
        text = sql.persons_sql(self.dialect, self.relation, request, kinds, counted=counted)
        with self._kept_lock:
            made = text not in self._kept  # a kept pass was checked when it was made
            if made and not _pass_applies(request, known):
                return None
            kept = self._kept_table(text)
            if made and known is None:
                ranks = self._query(sql.pass_ranks_sql(kept))
                if summed and (ranks["rr"] > 1).any():  # ur then counts rows, not units
                    self._forget(self._kept.pop(text))
                    return None
                if request.groups is None:
                    self._profiles[(request.person, request.group)] = _profile_from_ranks(
                        ranks, request.person, request.group
                    )
            return self._query(sql.answers_sql(self.dialect, kept, request, "rows", counted=True))

    def _shape(self, request: results.Request) -> tuple[str, bool]:
        """sql.ranked_sql's shape, and whether units need ranking, from the profile (asked
        first if need be: one aggregation, against a second window for the rows it spares),
        whatever the caps, so that every cap reads the same kept ranks: one row per unit
        when the profile says so; rows ranked in their units when records are summed one by
        one and a unit has several; else units."""
        known = self.profile(request.person, request.group)
        b = request.bounding
        unit_window = known.max_contributions > 1
        if known.max_rows_per_unit <= 1:
            return "rows_are_units", unit_window
        if request.value is not None and not b.pre_aggregate:
            return "rows", unit_window
        return "units", unit_window

    def _checked(self, text: str) -> pd.Series:
        """The one row of a checks query, kept: the data do not change under a page."""
        found = self._checks.get(text)
        if found is None:
            found = self._checks[text] = self._query(text).iloc[0]
        return found

    def _kept_table(self, text: str) -> str:
        """The name of a temporary table holding the result of ``text``, made at the first
        ask; the least recently asked beyond KEPT_TABLES is dropped. Hold _kept_lock while
        reading it."""
        name = self._kept.pop(text, None)
        if name is None:
            name = f"dp_kept_{os.getpid()}_{next(_KEPT_NUMBERS)}"
            self._keep(name, text)
        self._kept[text] = name
        while len(self._kept) > KEPT_TABLES:
            self._forget(self._kept.pop(next(iter(self._kept))))
        return name

    def summary(self, limit: int) -> describe.TableSummary:
        schema = self.schema()
        first = self._query(describe.summary_sql(self.dialect, self.relation, schema)).iloc[0]
        few = describe.candidates(first, schema, limit)
        exact = None
        if few:
            text = describe.distinct_sql(self.dialect, self.relation, schema, few)
            exact = self._query(text).iloc[0]
        return describe.summary_from_rows(first, exact, schema, limit)

    def sample(self, rows: int) -> pd.DataFrame:
        return self._query(f"SELECT * FROM {self.relation} LIMIT {int(rows)}")

    def capped(self, request: capped.CappedRequest) -> capped.CappedTotals:
        kinds = capped.request_kinds(self.schema(), request)
        if request.person is None:
            total = persons = self.schema().rows
            window = False
        else:
            known = self.profile(request.person, None)  # raises for missing persons
            total, persons = known.rows, known.persons
            window = request.cap is not None and known.max_rows_per_person > int(request.cap)
        if not window:
            rows = f"({capped.rows_sql(self.dialect, self.relation, request, kinds)}) _t"
            raw = self._query(capped.totals_sql(self.dialect, rows, request, ranked=False))
        else:
            with self._kept_lock:
                ranked = self._kept_table(
                    capped.ranked_sql(self.dialect, self.relation, request, kinds)
                )
                raw = self._query(capped.totals_sql(self.dialect, ranked, request, ranked=True))
        return capped.finish(raw, request, total, persons)

    def units(self, request: units.UnitsRequest) -> units.ContributionUnits:
        kinds = units.request_kinds(self.schema(), request)
        checks = self._query(units.outside_sql(self.dialect, self.relation, request, kinds))
        checks = checks.iloc[0]
        _check_counts(checks, request)
        raw, complete = self._unit_profiles(request, kinds)
        if raw.empty:
            raise coded_error("source_released_no_rows")
        value_range = (None, None)
        if request.value is not None:
            value_range = (float(raw["lo"].min()), float(raw["hi"].max()))
        return units.finish(
            raw,
            request,
            kinds[request.group],
            complete=complete,
            outside=(int(checks["rows_outside"]), int(checks["groups_outside"])),
            value_range=value_range,
        )

    def _unit_profiles(
        self, request: units.UnitsRequest, kinds: dict[str, str]
    ) -> tuple[pd.DataFrame, bool]:
        """units.units_sql's profiles and whether they hold the values: each one-row
        unit's value first (enough when no unit has two rows), the listed values when some
        unit has more, none past the limit. The profile (kept for the bounded statistics
        the page asks next) tells when every row is its unit."""

        known = self.profile(request.person, request.group)

        def ask(values: units.Values) -> pd.DataFrame:
            return self._query(
                units.units_sql(
                    self.dialect,
                    self.relation,
                    request,
                    kinds,
                    values=values,
                    rows_are_units=known.max_rows_per_unit <= 1,
                )
            )

        if request.value is None:
            return ask("none"), True
        raw = ask("single")
        if len(raw) <= request.limit and (raw["size"] <= 1).all():
            return raw.assign(vs=[(v,) for v in raw.pop("one")]), True
        if len(raw) <= request.limit:
            raw = ask("listed")
            if len(raw) <= request.limit:
                return raw, True
        return ask("none"), False


def _histogram(counts: np.ndarray) -> pd.Series:
    """Persons by number of contributions k = 1 .. len(counts), as results.Profile holds."""
    index = pd.Index(np.arange(1, len(counts) + 1, dtype=np.int64), name="contributions")
    return pd.Series(counts, index=index, name="persons", dtype=np.int64)


def _profile_from_rows(raw: pd.DataFrame, person: str, group: str | None) -> results.Profile:
    missing = raw[raw["missing_person"].astype(bool)]
    if len(missing):
        raise frame_statistics.missing_error("person", person, int(missing["n_rows"].sum()))
    missing_group = int(raw["missing_group"].sum())
    if missing_group:
        raise frame_statistics.missing_error("group", group, missing_group)
    k = raw["k"].astype(np.int64).to_numpy()
    persons = raw["persons"].astype(np.int64).to_numpy()
    top = int(k.max()) if len(k) else 0
    counts = np.zeros(top, dtype=np.int64)
    counts[k - 1] = persons
    histogram = _histogram(counts)
    return results.Profile(
        person=person,
        group=group,
        rows=int(raw["n_rows"].astype(np.int64).sum()),
        persons=int(persons.sum()),
        units=int((k * persons).sum()) if group is not None else int(persons.sum()),
        max_rows_per_person=int(raw["max_rows"].max()) if len(raw) else 0,
        max_rows_per_unit=int(raw["max_unit"].max()) if len(raw) else 0,
        histogram=histogram,
    )


def _pass_applies(request: results.Request, known: results.Profile | None) -> bool:
    """Whether sql.persons_sql is worth making for ``request``, from the profile if known:
    not for sums over units of several rows, nor when each person has one unit (ranked_sql
    then needs no window); not for "first" by another column than the group unless every
    unit is known to be one row (a unit's rows need not tie on that order)."""
    summed = request.value is not None
    if known is not None and (
        known.max_contributions <= 1 or (summed and known.max_rows_per_unit > 1)
    ):
        return False
    first_by = request.order if request.bounding.selection == "first" else None
    return first_by in (None, request.group) or (known is not None and known.max_rows_per_unit <= 1)


def _profile_from_ranks(ranks: pd.DataFrame, person: str, group: str) -> results.Profile:
    """The profile from sql.pass_ranks_sql's rows over every group: a person with k units
    has one of rank r for each r <= k, so persons with exactly k are the units (rr = 1) of
    rank k less those of rank k + 1."""
    units = ranks[ranks["rr"] == 1].groupby("ur")["w"].sum().astype(np.int64)
    top = int(units.index.max()) if len(units) else 0
    at_least = units.reindex(np.arange(1, top + 2), fill_value=0).to_numpy()
    histogram = _histogram(at_least[:-1] - at_least[1:])
    return results.Profile(
        person=person,
        group=group,
        rows=int(ranks["w"].sum()),
        persons=int(at_least[0]),
        units=int(units.sum()),
        max_rows_per_person=int(ranks["most"].max()) if len(ranks) else 0,
        max_rows_per_unit=int(ranks["rr"].max()) if len(ranks) else 0,
        histogram=histogram,
    )


def _check_counts(counts: pd.Series, request: results.Request | units.UnitsRequest) -> None:
    """The missing or infinite values a checks query counted, as the sentence of the first."""
    for role, column in (
        ("person", request.person),
        ("group", request.group),
        ("value", request.value),
        ("order", request.order),
    ):
        count = int(counts[f"missing_{role}"])
        if count and column is not None:
            raise frame_statistics.missing_error(role, column, count)
    bad = int(counts["bad_value"])
    if bad:
        raise frame_statistics.infinite_error(request.value, bad)


def readable_error(error: BaseException) -> str:
    """The first line of an engine's error message (for the ValueError a page shows)."""
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
