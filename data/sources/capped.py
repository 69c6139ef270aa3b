"""Totals under a cap on rows per person: what the query pages (Laplace, Gaussian, planner) ask.

The query pages bound a person by the number of rows they contribute in all (m = ``cap``),
not per group: each person keeps m of their rows, then the pages count rows per category,
clip and sum a value, or count the rows where a predicate holds. For a table beyond memory
the engine does it, and only one row per category comes back:

    rows (kept, with a category), value_rows (kept, with a category and a value), the sums
    of the values clipped to [L, U] and unclipped, and predicate matches.

Which m rows a person keeps: the m with the smallest keys hash(seed, person, category,
value, match) (data.sources.keys, the seeded order all three engines compute alike), ties by
the category (missing last), the value (missing last) and the match: rows that tie are
identical on everything the totals use, hence interchangeable. A file has no row order that
every engine keeps, so "the first rows in the file" (what the pages do with an upload) is not
offered here. Categories are compared as text (frame_statistics.text_keys), missing values
(and a float's NaN) are missing, a predicate on a missing value never holds (as
dp_core.queries.predicate_mask).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from data.sources import frame_statistics, keys
from data.sources.coded import coded_error
from data.sources.keys import KEY_KINDS, Dialect
from data.sources.results import NUMERIC_KINDS, Schema

PREDICATE_OPS = ("≥", "<", "=")


@dataclass(frozen=True)
class CappedRequest:
    """What to total: each person (``person``; None: each row is one) keeps ``cap`` rows
    (None: no cap), then per category of ``category`` (None: the whole table as one) the
    rows, the sums of ``value`` clipped to [``lower``, ``upper``], and the rows where
    ``predicate`` (column, one of PREDICATE_OPS, value) holds."""

    person: str | None
    cap: int | None = None
    category: str | None = None
    value: str | None = None
    lower: float = 0.0
    upper: float = 0.0
    predicate: tuple[str, str, object] | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        if self.cap is not None and int(self.cap) < 1:
            raise coded_error("source_rows_cap")
        if self.value is not None and not float(self.lower) <= float(self.upper):
            raise coded_error("source_bounds_reversed")
        if self.predicate is not None and self.predicate[1] not in PREDICATE_OPS:
            choices = ", ".join(repr(op) for op in PREDICATE_OPS)
            raise coded_error(
                "choice", name="predicate", choices=choices, got=repr(self.predicate[1])
            )


@dataclass(frozen=True)
class DomainTotals:
    """Totals over released labels, as dp_core.domains counts them (absent labels are 0)."""

    labels: tuple[str, ...]
    rows: np.ndarray
    clipped_sums: np.ndarray
    raw_sums: np.ndarray
    rows_outside: int
    distinct_outside: int
    missing: int


@dataclass(frozen=True)
class CappedTotals:
    """Per category (the text labels, sorted; "" for the whole table): kept rows with a
    category (``rows``), with a value too (``value_rows``), ``clipped_sum``, ``raw_sum`` and
    predicate ``matches``. ``missing``: kept rows without a category; ``kept``: rows kept by
    the cap, of ``total`` rows; ``persons``: distinct persons (rows when each is a person).
    These describe the data: the input of a DP release, never a release."""

    request: CappedRequest
    totals: pd.DataFrame
    missing: int
    kept: int
    total: int
    persons: int

    @property
    def matches(self) -> int:
        return int(self.totals["matches"].sum())

    def over(self, labels: tuple[str, ...], *, with_value: bool) -> DomainTotals:
        """Totals over the released ``labels``: rows outside counted (never listed), rows
        missing a category (or, ``with_value``, a value) counted as missing."""
        column = "value_rows" if with_value else "rows"
        totals = self.totals
        inside = totals.index.isin(labels)
        here = totals.reindex(pd.Index(labels)).fillna(0.0)
        missing = self.missing
        if with_value:
            missing += int((totals["rows"] - totals["value_rows"]).sum())
        outside = totals.loc[~inside, column]
        return DomainTotals(
            labels=tuple(labels),
            rows=here[column].to_numpy(dtype=np.int64),
            clipped_sums=here["clipped_sum"].to_numpy(dtype=float),
            raw_sums=here["raw_sum"].to_numpy(dtype=float),
            rows_outside=int(outside.sum()),
            distinct_outside=int((outside > 0).sum()),
            missing=missing,
        )


def request_kinds(schema: Schema, request: CappedRequest) -> dict[str, str]:
    """The kinds of the request's columns; ValueError for a missing or unusable column."""
    kinds = {}
    if request.person is not None:
        kinds[request.person] = schema.column(request.person, "person", KEY_KINDS).kind
    if request.category is not None:
        kinds[request.category] = schema.column(request.category, "category", KEY_KINDS).kind
    if request.value is not None:
        kind = schema.column(request.value, "value").kind
        if kind not in NUMERIC_KINDS:
            raise coded_error("source_not_numeric_sum", column=request.value)
        kinds[request.value] = kind
    if request.predicate is not None:
        column, op, value = request.predicate
        kind = schema.column(column, "predicate", KEY_KINDS).kind
        if (op != "=" or isinstance(value, float)) and kind not in NUMERIC_KINDS:
            raise coded_error("source_not_numeric_compare", column=column)
        kinds[column] = kind
    return kinds


def finish(raw: pd.DataFrame, request: CappedRequest, total: int, persons: int) -> CappedTotals:
    """CappedTotals from per-category rows (column ``g``: the text label, None if missing)."""
    names = ["rows", "value_rows", "clipped_sum", "raw_sum", "matches"]
    raw = raw.copy()
    for name in names:
        raw[name] = pd.to_numeric(raw[name]).fillna(0)
    missing_rows = raw["g"].isna().to_numpy()
    missing = int(raw.loc[missing_rows, "rows"].sum())
    present = raw[~missing_rows]
    totals = present.groupby(present["g"].astype(str))[names].sum().sort_index()
    totals.index.name = request.category
    counts = ["rows", "value_rows", "matches"]
    totals[counts] = totals[counts].astype(np.int64)
    totals[["clipped_sum", "raw_sum"]] = totals[["clipped_sum", "raw_sum"]].astype(float)
    kept = int(totals["rows"].sum()) + missing
    return CappedTotals(request, totals, missing, kept, total, persons)


# ---------------------------------------------------------------------------------------
# pandas (the reference)
# ---------------------------------------------------------------------------------------


def _match(values: pd.Series, kind: str, op: str, value: object) -> np.ndarray:
    if op in ("≥", "<") or isinstance(value, float):
        numbers = values.to_numpy(dtype=float, na_value=np.nan)
        with np.errstate(invalid="ignore"):
            if op == "≥":
                hit = numbers >= float(value)
            elif op == "<":
                hit = numbers < float(value)
            else:
                hit = numbers == float(value)
        return hit & ~np.isnan(numbers)
    present = values.notna().to_numpy()
    text = frame_statistics.text_keys(values.where(values.notna(), ""), kind).to_numpy(dtype=object)
    if kind == "string":
        text = values.astype(str).to_numpy(dtype=object)
    return present & (text == str(value))


def pandas_totals(
    frame: pd.DataFrame, request: CappedRequest, kinds: dict[str, str], persons: int
) -> CappedTotals:
    """The totals of an in-memory table (vectorised; the reference of the SQL engines)."""
    n = len(frame)
    if request.category is None:
        category = pd.Series(np.full(n, "", dtype=object))
    else:
        values = frame[request.category].reset_index(drop=True)
        category = frame_statistics.text_keys(values, kinds[request.category])
        category[values.isna().to_numpy()] = None
    value = np.full(n, np.nan)
    if request.value is not None:
        value = frame[request.value].to_numpy(dtype=float, na_value=np.nan)
    has_value = ~np.isnan(value)
    matches = np.zeros(n, dtype=np.int64)
    if request.predicate is not None:
        column, op, target = request.predicate
        matches = _match(frame[column].reset_index(drop=True), kinds[column], op, target)
        matches = matches.astype(np.int64)
    keep = np.ones(n, dtype=bool)
    if request.person is not None and request.cap is not None and n:
        person = frame[request.person].reset_index(drop=True)
        keep = _kept(person, kinds[request.person], category, value, matches, request)
    rows = pd.DataFrame(
        {
            "g": category[keep].to_numpy(dtype=object),
            "rows": 1,
            "value_rows": has_value[keep].astype(np.int64),
            "clipped_sum": np.where(has_value, np.clip(value, request.lower, request.upper), 0.0)[
                keep
            ],
            "raw_sum": np.where(has_value, value, 0.0)[keep],
            "matches": matches[keep],
        }
    )
    raw = rows.groupby("g", dropna=False, sort=False).sum().reset_index()
    return finish(raw, request, n, persons)


def _kept(person, person_kind, category, value, matches, request) -> np.ndarray:
    """The rows each person keeps: the ``cap`` smallest (key, category, value, match)."""
    text = category.where(category.notna(), "")
    codes = [
        keys.numpy_code(person, person_kind),
        np.where(category.isna(), 0, keys.numpy_code(text, "string")),
    ]
    has_value = ~np.isnan(value)
    floor, fraction = keys.numpy_value_codes(np.where(has_value, value, 0.0))
    codes += [np.where(has_value, floor, 0), np.where(has_value, fraction, 0), matches]
    key = keys.hash_codes(request.seed, codes)
    person_code = pd.factorize(person)[0]
    category_rank = pd.factorize(text, sort=True)[0]
    order = np.lexsort(
        (
            matches,
            np.where(has_value, value, 0.0),
            ~has_value,
            category_rank,
            category.isna().to_numpy(),
            key,
            person_code,
        )
    )
    ranked = np.empty(len(order), dtype=np.int64)
    sorted_person = person_code[order]
    starts = np.ones(len(order), dtype=bool)
    starts[1:] = sorted_person[1:] != sorted_person[:-1]
    run_start = np.flatnonzero(starts)
    ranked[order] = np.arange(len(order)) - run_start[np.cumsum(starts) - 1]
    return ranked < int(request.cap)


# ---------------------------------------------------------------------------------------
# SQL (DuckDB and Spark)
# ---------------------------------------------------------------------------------------


def _match_sql(dialect: Dialect, column: str, kind: str, op: str, value: object) -> str:
    from data.sources.sql import text_key_sql

    q = dialect.quote(column)
    if op in ("≥", "<") or isinstance(value, float):
        number = f"CAST({q} AS DOUBLE)"
        sign = {"≥": ">=", "<": "<", "=": "="}[op]
        condition = f"{number} {sign} CAST({float(value)!r} AS DOUBLE)"
        if kind == "float":
            condition = f"{condition} AND NOT isnan({number})"
    elif kind == "string":
        condition = f"CAST({q} AS {dialect.text_type}) = {dialect.string_literal(str(value))}"
    else:
        condition = f"{text_key_sql(dialect, q, kind)} = {dialect.string_literal(str(value))}"
    return f"(CASE WHEN {q} IS NOT NULL AND {condition} THEN 1 ELSE 0 END)"


def rows_sql(dialect: Dialect, relation: str, request: CappedRequest, kinds: dict[str, str]) -> str:
    """The request's rows as g (the category's text), v (the value; NULL when missing or
    NaN), m (1 where the predicate holds) and p (the person)."""
    from data.sources.sql import text_key_sql

    q = dialect.quote
    cols = []
    if request.category is None:
        cols.append(f"CAST('' AS {dialect.text_type}) AS g")
    else:
        c = q(request.category)
        cols.append(f"{text_key_sql(dialect, c, kinds[request.category])} AS g")
    if request.value is None:
        cols.append("CAST(NULL AS DOUBLE) AS v")
    else:
        number = f"CAST({q(request.value)} AS DOUBLE)"
        if kinds[request.value] == "float":
            number = f"(CASE WHEN isnan({number}) THEN NULL ELSE {number} END)"
        cols.append(f"{number} AS v")
    if request.predicate is None:
        cols.append("0 AS m")
    else:
        column, op, value = request.predicate
        cols.append(f"{_match_sql(dialect, column, kinds[column], op, value)} AS m")
    cols.append(f"{q(request.person)} AS p" if request.person else "0 AS p")
    return f"SELECT {', '.join(cols)} FROM {relation}"


def ranked_sql(
    dialect: Dialect, relation: str, request: CappedRequest, kinds: dict[str, str]
) -> str:
    """rows_sql's g, v, m and rr, each row's rank in its person's rows by seeded key: no cap
    or bound enters it, so the engine keeps it for the next change of either."""
    person_kind = kinds[request.person]
    # a missing category or value has code 0 (DuckDB's greatest() skips NULLs: test first)
    codes = [
        keys.sql_code(dialect, "p", person_kind),
        f"(CASE WHEN g IS NULL THEN 0 ELSE {keys.sql_code(dialect, 'g', 'string')} END)",
    ]
    codes += [
        f"(CASE WHEN v IS NULL THEN 0 ELSE {code} END)"
        for code in keys.sql_value_codes(dialect, "v")
    ]
    codes.append("CAST(m AS BIGINT)")
    rows = rows_sql(dialect, relation, request, kinds)
    keyed = keys.sql_hash_layers(dialect, f"({rows}) _r", ["g", "v", "m", "p"], request.seed,
                                 codes, "rk")  # fmt: skip
    order = (
        "rk, (CASE WHEN g IS NULL THEN 1 ELSE 0 END), g, "
        "(CASE WHEN v IS NULL THEN 1 ELSE 0 END), v, m"
    )
    return (
        f"SELECT g, v, m, CAST(row_number() OVER (PARTITION BY p ORDER BY {order}) AS INTEGER) "
        f"AS rr FROM ({keyed}) _k"
    )


def totals_sql(dialect: Dialect, rows: str, request: CappedRequest, *, ranked: bool) -> str:
    """Per category: kept rows, rows with a value, clipped and raw sums, predicate matches,
    from ``rows`` (rows_sql's relation, or with ``ranked`` ranked_sql's: a row is kept when
    rr <= cap; categories with no row kept are left out). The cap is a condition inside the
    sums, not a WHERE: DuckDB turns "WHERE row_number() <= k" into a top-k aggregation,
    five times slower on 10^7 rows."""
    kept = f"rr <= {int(request.cap)}" if ranked else "TRUE"
    lower, upper = (f"CAST({float(x)!r} AS DOUBLE)" for x in (request.lower, request.upper))
    clipped = f"least(greatest(v, {lower}), {upper})"
    having = f" HAVING sum(CASE WHEN {kept} THEN 1 ELSE 0 END) > 0" if ranked else ""
    return (
        f"SELECT g, sum(CASE WHEN {kept} THEN 1 ELSE 0 END) AS rows, "
        f"count(CASE WHEN {kept} THEN v END) AS value_rows, "
        f"sum(CASE WHEN {kept} AND v IS NOT NULL THEN {clipped} END) AS clipped_sum, "
        f"sum(CASE WHEN {kept} THEN v END) AS raw_sum, "
        f"sum(CASE WHEN {kept} THEN m ELSE 0 END) AS matches FROM {rows} GROUP BY g{having}"
    )
