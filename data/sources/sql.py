"""The statistics as SQL, for DuckDB and Spark alike (their differences in keys.Dialect).

Only sufficient statistics leave the engine: a few rows per group or per number of
contributions. The plan for bounded statistics (the same units, keys and ties as
data.sources.frame_statistics), in two steps so that a change of cap or bound redoes only the
second:

1. ``ranked_sql``: the units (or, when a unit's records are capped one by one, the rows)
   with their ranks: each unit's rank among its person's units by seeded key (one window
   over person), each row's rank in its unit (one window over person x group). No cap or
   bound enters it, so the engine keeps it (a temporary table) for the next change;
2. ``answers_sql``: per group (GROUP BY over the kept ranks): true and bounded counts,
   distinct persons and sums, for the caps and bounds asked.

``persons_sql`` is step 1 in one pass over the persons, for counts whatever the units and
for sums when every unit is one row (a visit a day): each row ranked among its person's rows,
and the rows equal in group, rank and value counted together. The answers of every cap and
bound, and the contribution histogram, come from that one result.

A separate scan (``checks_sql``) counts the missing or infinite values that make a request
invalid, so that the units carry nothing but what the statistics need.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from data.sources.keys import Dialect, sql_code, sql_hash_layers, sql_value_codes
from data.sources.results import Request


def _double(number: float) -> str:
    return f"CAST({float(number)!r} AS DOUBLE)"


def _clip(dialect: Dialect, expr: str, lower: float, upper: float) -> str:
    return f"least(greatest({expr}, {_double(lower)}), {_double(upper)})"


def text_key_sql(dialect: Dialect, expr: str, kind: str) -> str:
    """The text a category is compared as (as frame_statistics.text_keys)."""
    text = dialect.text_type
    if kind == "float":
        whole = f"{expr} = floor({expr}) AND abs({expr}) < {2.0**53!r}"
        return (
            f"(CASE WHEN {whole} THEN CAST(CAST({expr} AS BIGINT) AS {text}) "
            f"ELSE CAST({expr} AS {text}) END)"
        )
    if kind == "boolean":
        return f"(CASE WHEN {expr} THEN 'True' ELSE 'False' END)"
    return dialect.text(expr)


def domain_sql(dialect: Dialect, expr: str, kind: str, labels: Sequence[str]) -> str:
    """A condition: the group's text is one of ``labels`` (numbers compared as numbers)."""
    if not labels:
        return "FALSE"
    if kind == "integer" and all(_is_int(label) for label in labels):
        return f"({expr} IN ({', '.join(str(int(label)) for label in labels)}))"
    quoted = ", ".join(dialect.string_literal(label) for label in labels)
    return f"({text_key_sql(dialect, expr, kind)} IN ({quoted}))"


def _is_int(label: str) -> bool:
    try:
        return str(int(label)) == label
    except ValueError:
        return False


def schema_rows_sql(relation: str) -> str:
    return f"SELECT count(*) AS n FROM {relation}"


def profile_sql(dialect: Dialect, relation: str, person: str, group: str | None) -> str:
    """Rows per k (contributions per person), and what validity needs."""
    q = dialect.quote
    p = q(person)
    if group is None:
        persons = (
            f"SELECT {p} IS NULL AS missing_person, count(*) AS k, count(*) AS n_rows, "
            f"count(*) AS max_unit, 0 AS missing_group FROM {relation} GROUP BY {p}"
        )
    else:
        g = q(group)
        units = f"SELECT {p} AS p, {g} AS g, count(*) AS n FROM {relation} GROUP BY {p}, {g}"
        persons = (
            "SELECT p IS NULL AS missing_person, count(*) AS k, sum(n) AS n_rows, "
            "max(n) AS max_unit, sum(CASE WHEN g IS NULL THEN n ELSE 0 END) AS missing_group "
            f"FROM ({units}) _u GROUP BY p"
        )
    return (
        "SELECT missing_person, k, count(*) AS persons, sum(n_rows) AS n_rows, "
        "max(n_rows) AS max_rows, max(max_unit) AS max_unit, "
        "sum(missing_group) AS missing_group "
        f"FROM ({persons}) _p GROUP BY missing_person, k"
    )


MASK_GROUPS = 64  # groups a person's set of groups can be a bitmask of (one BIGINT)


def distinct_groups_sql(dialect: Dialect, relation: str, group: str) -> str:
    """The group column's distinct values, one more than MASK_GROUPS at most."""
    g = dialect.quote(group)
    return f"SELECT DISTINCT {g} AS g FROM {relation} LIMIT {MASK_GROUPS + 1}"


def mask_profile_sql(
    dialect: Dialect, relation: str, person: str, group: str, literals: Sequence[str]
) -> str:
    """``profile_sql`` in one GROUP BY person instead of two: each person's groups as a
    bitmask over the ``literals`` (the column's distinct values, none missing), k = its
    bits. ``max_unit`` is 1 where a person's rows equal their groups (every unit one row),
    else 2, meaning "more than one": the caller then asks ``profile_sql`` for the exact
    figure. One hash aggregation over 10^7 visits took 0.7 s against 1.4-2.0 s."""
    q = dialect.quote
    p, g = q(person), q(group)
    index = " ".join(f"WHEN {value} THEN {i}" for i, value in enumerate(literals))
    persons = (
        f"SELECT {p} AS p, bit_or({dialect.bit(f'CASE {g} {index} END')}) AS m, "
        f"count(*) AS n FROM {relation} GROUP BY {p}"
    )
    return (
        "SELECT missing_person, k, count(*) AS persons, sum(n) AS n_rows, max(n) AS max_rows, "
        "max(CASE WHEN n = k THEN 1 ELSE 2 END) AS max_unit, 0 AS missing_group FROM ("
        f"SELECT p IS NULL AS missing_person, bit_count(m) AS k, n FROM ({persons}) _p) _k "
        "GROUP BY missing_person, k"
    )


def category_sql(dialect: Dialect, relation: str, column: str, person: str | None) -> str:
    """Rows and distinct persons per category."""
    q = dialect.quote
    c = q(column)
    if person is None:
        return (
            f"SELECT {c} AS g, count(*) AS n_rows, count(*) AS persons, 0 AS missing_person "
            f"FROM {relation} GROUP BY {c}"
        )
    p = q(person)
    units = f"SELECT {p} AS p, {c} AS g, count(*) AS n FROM {relation} GROUP BY {p}, {c}"
    return (
        "SELECT g, sum(n) AS n_rows, count(*) AS persons, "
        "sum(CASE WHEN p IS NULL THEN n ELSE 0 END) AS missing_person "
        f"FROM ({units}) _u GROUP BY g"
    )


Shape = Literal["rows_are_units", "units", "rows"]  # what ranked_sql's rows stand for


def ranked_sql(
    dialect: Dialect, relation: str, request: Request, kinds: dict[str, str], *, shape: Shape,
    unit_window: bool,
) -> str:  # fmt: skip
    """The request's units (or rows) with their ranks: what the caps choose from, the same for
    every cap and bound, so the engine keeps it (a change of cap on 10^8 rows then reads it
    instead of ranking them again). Columns: g, d (in the requested groups), ur (the unit's
    rank in its person's units of the same d), v (the value: the unit's total in shape
    "units"; absent without a value column), and by ``shape``:

    - "rows_are_units": one row per row, which the profile says is its unit (n = 1, rr = 1);
    - "units": one row per unit (GROUP BY person x group), n its rows (rr = 1): counts and
      pre-aggregated sums;
    - "rows": one row per row, rr its rank in its unit (n = 1): sums of the records kept,
      one by one, when a unit may have several.

    ``unit_window``: some person may have more than one unit (else ur = 1). The ranks are
    the seeded keys of data.sources.keys, ties by group then value ("random"), or the
    earliest order value, ties by group then value ("first"), as frame_statistics.bounded.
    """
    rows = _request_rows(dialect, relation, request, kinds)
    unit_codes = _unit_codes(dialect, request, kinds)
    if shape == "rows":
        return _ranked_rows(dialect, rows, request, unit_codes, unit_window=unit_window)
    return _ranked_units(dialect, rows, request, unit_codes, shape=shape, unit_window=unit_window)


def _unit_codes(dialect: Dialect, request: Request, kinds: dict[str, str]) -> list[str]:
    """The codes a unit's seeded key hashes: its person's, then its group's."""
    return [
        sql_code(dialect, "p", kinds[request.person]),
        sql_code(dialect, "g", kinds[request.group]),
    ]


def _request_rows(dialect: Dialect, relation: str, request: Request, kinds: dict[str, str]) -> str:
    """The request's rows as g, p, v (the value, else 0), o (the order with "first", else 0)
    and d (in the requested groups)."""
    q = dialect.quote
    first = request.bounding.selection == "first"
    cols = [f"{q(request.group)} AS g", f"{q(request.person)} AS p"]
    cols.append(f"CAST({q(request.value)} AS DOUBLE) AS v" if request.value else "0 AS v")
    cols.append(f"{q(request.order)} AS o" if first and request.order else "0 AS o")
    cols.append(f"{_requested(dialect, request, kinds)} AS d")
    return f"SELECT {', '.join(cols)} FROM {relation}"


def _ranked_rows(
    dialect: Dialect, rows: str, request: Request, unit_codes: list[str], *, unit_window: bool
) -> str:
    """Shape "rows": every row with ur, its unit's rank, and rr, its rank in its unit."""
    first = request.bounding.selection == "first"
    v = ", v" if request.value else ""
    if first:
        keyed = f"SELECT *, min(o) OVER (PARTITION BY p, g) AS uk FROM ({rows}) _r"
        row_order, unit_order = "o, v", "uk, g"
    else:
        codes = unit_codes + sql_value_codes(dialect, "v")
        keyed = sql_hash_layers(dialect, f"({rows}) _r", ["g", "p", "v", "d"],
                                request.seed, codes, "rk")  # fmt: skip
        keyed = sql_hash_layers(dialect, f"({keyed}) _k", ["g", "p", "v", "d", "rk"],
                                request.seed, unit_codes, "uk")  # fmt: skip
        row_order, unit_order = "rk, v", "uk, g"
    ur = f"dense_rank() OVER (PARTITION BY p, d ORDER BY {unit_order})" if unit_window else "1"
    rr = f"row_number() OVER (PARTITION BY p, g ORDER BY {row_order})"
    return (
        f"SELECT g, d, CAST({ur} AS INTEGER) AS ur, CAST({rr} AS INTEGER) AS rr{v} "
        f"FROM ({keyed}) _k"
    )


def _ranked_units(
    dialect: Dialect,
    rows: str,
    request: Request,
    unit_codes: list[str],
    *,
    shape: Shape,
    unit_window: bool,
) -> str:
    """Shapes "units" (GROUP BY person x group, n its rows) and "rows_are_units": every unit
    with ur, its rank in its person's units."""
    first = request.bounding.selection == "first"
    v = ", v" if request.value else ""
    if shape == "units":
        first_o = ", min(o) AS o" if first else ""
        rows = (
            f"SELECT g, p, d, count(*) AS n, sum(v) AS v{first_o} FROM ({rows}) _r GROUP BY g, p, d"
        )
    n = ", n" if shape == "units" else ""
    if not unit_window:
        return f"SELECT g, d, 1 AS ur{n}{v} FROM ({rows}) _u"
    if first:
        keyed, unit_order = rows, "o, g"
    else:
        keep = ["g", "p", "d", "v"] + (["n"] if n else [])
        keyed = sql_hash_layers(dialect, f"({rows}) _u", keep, request.seed, unit_codes, "uk")
        unit_order = "uk, g"
    ur = f"CAST(row_number() OVER (PARTITION BY p, d ORDER BY {unit_order}) AS INTEGER)"
    return f"SELECT g, d, {ur} AS ur{n}{v} FROM ({keyed}) _k"


def persons_sql(
    dialect: Dialect, relation: str, request: Request, kinds: dict[str, str], *, counted: bool
) -> str:
    """One pass over the persons: one window over person (and d) orders each person's rows
    by the seeded unit key or the order, ties by group, as ranked_sql does, so that a unit's
    rows tie. ur is the unit's rank, rr the row's place in its unit (1 for the first).
    Columns g, d, ur, rr, v (absent without a value column), most and w.
    ``counted``: rows equal in g, d, ur, rr and v are one row, w of them (a few thousand
    for whole numbers; decimals keep a row each, w = 1); most is the most rows a person (of
    those rows) has in d.

    Exact for counts whatever the units (min(n, linf) of a unit's rows are any linf of
    them), and for sums when every unit is one row (rr = 1 throughout; else the rows a
    unit keeps are the seeded ones of ranked_sql). Persons with exactly k units are the
    units of rank k less those of rank k + 1: the contribution profile comes with it."""
    rows = _request_rows(dialect, relation, request, kinds)
    if request.bounding.selection == "first":
        keyed, order = f"({rows}) _r", "o, g"
    else:
        codes = _unit_codes(dialect, request, kinds)
        keyed = sql_hash_layers(dialect, f"({rows}) _r", ["g", "p", "v", "d"], request.seed,
                                codes, "uk")  # fmt: skip
        keyed, order = f"({keyed}) _k", "uk, g"
    partition = "p" if request.groups is None else "p, d"  # d is TRUE for every row
    # With a value the pass answers only where every unit is a row: ur is then the row's
    # rank, and the most rows of a person the highest. Each window column is spilled with
    # the rows on a table larger than memory.
    if request.value:
        ranks, most = "CAST(row_number() OVER w AS INTEGER) AS ur", "ur"
    else:
        ranks = (
            "CAST(dense_rank() OVER w AS INTEGER) AS ur, CAST(row_number() OVER w AS INTEGER) AS rn"
        )
        most = "rn"
    ranked = (
        f"SELECT g, d, v, {ranks}, "
        f"CAST(row_number() OVER w - rank() OVER w + 1 AS INTEGER) AS rr FROM {keyed} "
        f"WINDOW w AS (PARTITION BY {partition} ORDER BY {order})"
    )
    keys = "g, d, ur, rr" + (", v" if request.value else "")
    if not counted:
        return f"SELECT {keys}, {most} AS most, 1 AS w FROM ({ranked}) _u"
    return f"SELECT {keys}, max({most}) AS most, count(*) AS w FROM ({ranked}) _u GROUP BY {keys}"


def pass_ranks_sql(kept: str) -> str:
    """Per d, unit rank and place in the unit, the rows of a persons_sql table and the most
    rows of one person (rows of one person and d)."""
    return f"SELECT d, ur, rr, sum(w) AS w, max(most) AS most FROM {kept} GROUP BY d, ur, rr"


def _requested(dialect: Dialect, request: Request, kinds: dict[str, str]) -> str:
    """The condition that a row's group is one of the request's groups (TRUE: all are)."""
    if request.groups is None:
        return "TRUE"
    return domain_sql(dialect, dialect.quote(request.group), kinds[request.group], request.groups)


def answers_sql(
    dialect: Dialect, ranked: str, request: Request, shape: Shape, *, counted: bool = False
) -> str:
    """Per group and in/out of the requested groups, from ``ranked`` (ranked_sql's columns,
    or with ``counted`` persons_sql's, each row standing for w): true and bounded counts,
    persons and sums under the request's caps and bounds. Every unit is a row of ``ranked``
    with rr = 1; a unit is kept when ur <= l0, and of its rows the first linf (shape "rows")
    or min(n, linf) (shape "units")."""
    b = request.bounding
    w = "w * " if counted else ""
    n = "n" if shape == "units" else "1"
    first_row = "rr = 1" if shape == "rows" else "TRUE"
    kept = f"ur <= {b.max_groups}" + (f" AND rr <= {b.max_per_group}" if shape == "rows" else "")
    v = "v" if request.value else "0"
    clipped = _clip(dialect, v, b.lower, b.upper) if request.value else "0"
    return (
        f"SELECT g, d, sum({w}{n}) AS true_count, "
        f"sum(CASE WHEN {kept} THEN {w}least({n}, {b.max_per_group}) ELSE 0 END) "
        f"AS bounded_count, sum(CASE WHEN {first_row} THEN {w}1 ELSE 0 END) AS true_persons, "
        f"sum(CASE WHEN {first_row} AND ur <= {b.max_groups} THEN {w}1 ELSE 0 END) "
        f"AS bounded_persons, sum({w}{v}) AS true_sum, "
        f"sum(CASE WHEN {kept} THEN {w}{clipped} ELSE 0 END) AS bounded_sum "
        f"FROM {ranked} GROUP BY g, d"
    )


def checks_sql(dialect: Dialect, relation: str, request: Request, kinds: dict[str, str]) -> str:
    """One scan counting what makes a request invalid: missing persons, groups, values or
    order values, and values that are not finite numbers."""
    q = dialect.quote
    parts = []
    for name, column in (("person", request.person), ("group", request.group),
                         ("value", request.value)):  # fmt: skip
        parts.append(f"count(*) - count({q(column)}) AS missing_{name}" if column else
                     f"0 AS missing_{name}")  # fmt: skip
    if request.order is not None and request.bounding.selection == "first":
        parts.append(f"count(*) - count({q(request.order)}) AS missing_order")
    else:
        parts.append("0 AS missing_order")
    if request.value is not None and kinds.get(request.value) == "float":
        number = f"CAST({q(request.value)} AS DOUBLE)"
        parts.append(f"sum(CASE WHEN {dialect.not_finite(number)} THEN 1 ELSE 0 END) AS bad_value")
    else:
        parts.append("0 AS bad_value")
    return f"SELECT {', '.join(parts)} FROM {relation}"


def rows_are_persons_sql(
    dialect: Dialect, relation: str, request: Request, kinds: dict[str, str]
) -> str:
    """Per group, when each row is a different person: every cap keeps every row; sums clip
    each row."""
    q = dialect.quote
    b = request.bounding
    v = f"CAST({q(request.value)} AS DOUBLE)" if request.value else "0"
    clipped = _clip(dialect, "v", b.lower, b.upper) if request.value else "0"
    d = _requested(dialect, request, kinds)
    rows = f"SELECT {q(request.group)} AS g, {v} AS v, {d} AS d FROM {relation}"
    return (
        "SELECT g, d, count(*) AS true_count, count(*) AS bounded_count, "
        "count(*) AS true_persons, count(*) AS bounded_persons, sum(v) AS true_sum, "
        f"sum({clipped}) AS bounded_sum FROM ({rows}) _r GROUP BY g, d"
    )
