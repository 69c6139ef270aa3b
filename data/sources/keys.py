"""The seeded order of "random" selection, computed identically by numpy, DuckDB and Spark.

A capped person keeps the units (person x group) with the smallest keys, and in a unit the
rows with the smallest keys. A key is a hash of the seed and the row's values:

    h = seed mod P;  for each field f:  h = mix(mix((h + code(f)) mod P, K1), K2)
    mix(h, K):  y = (h * K) mod P;  h = y xor (y >> 15)            P = 2^31 - 1

Every intermediate is below 2^62, so no engine overflows (Spark's ANSI mode raises on
overflow, DuckDB always does) and all three compute the same integers. ``code(f)`` maps a
value to [0, P): whole numbers (and booleans, dates as days, timestamps as microseconds since
1970) modulo P; decimals by their floor, and for row keys also their first 24 binary
fraction digits; text by the first 8 hex digits of its MD5 (a function DuckDB, Spark and
Python's hashlib share). Ties in the hash are broken by the values themselves (the group,
then the value), so the order is total on everything the statistics use: rows that tie are
identical on every used column, hence interchangeable, and the statistics cannot depend on
which of them an engine puts first.

Sources: the xorshift-multiply mixing of MurmurHash3's finaliser (Appleby 2011), here modulo
the Mersenne prime 2^31 - 1 so that it stays in 64-bit integers.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd

from data.sources.coded import coded_error

P = 2**31 - 1
K1 = 1_103_515_245
K2 = 1_597_334_677
SHIFT = 15
FRACTION_BITS = 24
CLAMP = 4.0e18  # decimals beyond +-CLAMP share one code (ties broken by the value)

# Column kinds the statistics understand (data.sources.results.kind_of maps engine types).
KEY_KINDS = ("integer", "boolean", "string", "date", "timestamp", "float")


def seed_code(seed: int) -> int:
    """The seed as a number in [0, P)."""
    return int(seed) % P


# ---------------------------------------------------------------------------------------
# numpy (the pandas engine)
# ---------------------------------------------------------------------------------------


def _mix(h: np.ndarray, k: int) -> np.ndarray:
    y = (h * k) % P
    return y ^ (y >> SHIFT)


def absorb(h: np.ndarray | int, code: np.ndarray) -> np.ndarray:
    """One field's code mixed into the running hash ``h`` (int64 arrays in [0, P))."""
    h = (np.asarray(h, dtype=np.int64) + code) % P
    return _mix(_mix(h, K1), K2)


def hash_codes(seed: int, codes: list[np.ndarray]) -> np.ndarray:
    """The key of each row from its fields' codes."""
    h: np.ndarray | int = seed_code(seed)
    for code in codes:
        h = absorb(h, code)
    return np.asarray(h, dtype=np.int64)


def _md5_code(text: str) -> int:
    return int(hashlib.md5(text.encode("utf-8")).hexdigest()[:8], 16) % P


def numpy_code(values: pd.Series, kind: str) -> np.ndarray:
    """Codes in [0, P) of one column's values (text hashed once per distinct value)."""
    if kind == "string":
        codes, uniques = pd.factorize(values, use_na_sentinel=False)
        table = np.fromiter((_md5_code(str(u)) for u in uniques), np.int64, len(uniques))
        return table[codes]
    if kind == "boolean":
        return values.to_numpy(dtype=bool).astype(np.int64)
    if kind == "date":
        days = values.to_numpy(dtype="datetime64[D]").astype(np.int64)
        return np.mod(days, P)
    if kind == "timestamp":
        values = pd.Series(values)
        micros = values.dt.tz_convert("UTC").dt.tz_localize(None) if _has_tz(values) else values
        return np.mod(micros.to_numpy(dtype="datetime64[us]").astype(np.int64), P)
    if kind == "float":
        return np.mod(_floor_int(values.to_numpy(dtype=float)), P)
    if kind == "integer":
        array = values.to_numpy()
        if array.dtype == np.uint64:
            return (array % np.uint64(P)).astype(np.int64)
        return np.mod(array.astype(np.int64), P)
    choices = ", ".join(repr(known) for known in KEY_KINDS)
    raise coded_error("choice", name="kind", choices=choices, got=repr(kind))


def _has_tz(values: pd.Series) -> bool:
    return getattr(values.dtype, "tz", None) is not None


def _floor_int(numbers: np.ndarray) -> np.ndarray:
    return np.clip(np.floor(numbers), -CLAMP, CLAMP).astype(np.int64)


def numpy_value_codes(values: np.ndarray) -> list[np.ndarray]:
    """A value's codes for row keys: its floor and its first 24 binary fraction digits."""
    numbers = np.asarray(values, dtype=float)
    floor = np.clip(np.floor(numbers), -CLAMP, CLAMP)
    fraction = np.floor((numbers - np.floor(numbers)) * 2.0**FRACTION_BITS)
    return [np.mod(floor.astype(np.int64), P), fraction.astype(np.int64)]


# ---------------------------------------------------------------------------------------
# SQL (DuckDB and Spark)
# ---------------------------------------------------------------------------------------


class Dialect:
    """What differs between DuckDB's and Spark's SQL, as expression builders."""

    name = "duckdb"
    text_type = "VARCHAR"

    def quote(self, identifier: str) -> str:
        return '"' + identifier.replace('"', '""') + '"'

    def xor(self, a: str, b: str) -> str:
        return f"xor({a}, {b})"

    def shift_right(self, a: str, bits: int) -> str:
        return f"({a} >> {bits})"

    def bit(self, index: str) -> str:
        """The BIGINT with only bit ``index`` set."""
        return f"(CAST(1 AS BIGINT) << {index})"

    def md5_code(self, expr: str) -> str:
        return f"(CAST(('0x' || left(md5(CAST({expr} AS VARCHAR)), 8)) AS BIGINT) % {P})"

    def days(self, expr: str) -> str:
        return f"date_diff('day', DATE '1970-01-01', {expr})"

    def micros(self, expr: str) -> str:
        return f"epoch_us({expr})"  # an instant (TIMESTAMPTZ) or a UTC wall time

    def not_finite(self, expr: str) -> str:
        return f"(NOT isfinite({expr}))"

    def text(self, expr: str) -> str:
        return f"trim(CAST({expr} AS {self.text_type}))"

    def string_literal(self, value: str) -> str:
        return "'" + value.replace("'", "''") + "'"


class SparkDialect(Dialect):
    name = "spark"
    text_type = "STRING"

    def quote(self, identifier: str) -> str:
        return "`" + identifier.replace("`", "``") + "`"

    def xor(self, a: str, b: str) -> str:
        return f"({a} ^ {b})"

    def shift_right(self, a: str, bits: int) -> str:
        return f"shiftright({a}, {bits})"

    def bit(self, index: str) -> str:
        return f"shiftleft(CAST(1 AS BIGINT), {index})"

    def md5_code(self, expr: str) -> str:
        digits = f"substring(md5(CAST({expr} AS STRING)), 1, 8)"
        return f"(CAST(conv({digits}, 16, 10) AS BIGINT) % {P})"

    def days(self, expr: str) -> str:
        return f"unix_date(CAST({expr} AS DATE))"

    def micros(self, expr: str) -> str:
        return f"unix_micros(CAST({expr} AS TIMESTAMP))"

    def not_finite(self, expr: str) -> str:
        return f"(isnan({expr}) OR abs({expr}) = double('infinity'))"

    def string_literal(self, value: str) -> str:
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _mod_p(expr: str) -> str:
    return f"((CAST({expr} AS BIGINT) % {P} + {P}) % {P})"


def _clamped(dialect: Dialect, expr: str) -> str:
    """A number as DOUBLE within +-CLAMP (NaN and infinities as 0: such rows are rejected,
    but the query must not fail before saying so)."""
    number = f"CAST({expr} AS DOUBLE)"
    safe = f"(CASE WHEN {dialect.not_finite(number)} THEN CAST(0 AS DOUBLE) ELSE {number} END)"
    return f"least(greatest({safe}, {-CLAMP!r}), {CLAMP!r})"


def _floor_sql(dialect: Dialect, expr: str) -> str:
    return f"CAST(floor({_clamped(dialect, expr)}) AS BIGINT)"


def sql_code(dialect: Dialect, expr: str, kind: str) -> str:
    """SQL for the code in [0, P) of a column (see numpy_code)."""
    if kind == "string":
        return dialect.md5_code(expr)
    if kind == "boolean":
        return f"CAST(CASE WHEN {expr} THEN 1 ELSE 0 END AS BIGINT)"
    if kind == "date":
        return _mod_p(dialect.days(expr))
    if kind == "timestamp":
        return _mod_p(dialect.micros(expr))
    if kind == "float":
        return _mod_p(_floor_sql(dialect, expr))
    if kind == "integer":
        return _mod_p(f"CAST({expr} AS BIGINT)")
    choices = ", ".join(repr(known) for known in KEY_KINDS)
    raise coded_error("choice", name="kind", choices=choices, got=repr(kind))


def sql_value_codes(dialect: Dialect, expr: str) -> list[str]:
    """SQL for a value's two row-key codes (see numpy_value_codes)."""
    number = _clamped(dialect, expr)
    fraction = f"CAST(floor(({number} - floor({number})) * {2.0**FRACTION_BITS!r}) AS BIGINT)"
    return [_mod_p(_floor_sql(dialect, expr)), fraction]


def sql_hash_layers(
    dialect: Dialect, relation: str, keep: list[str], seed: int, codes: list[str], out: str
) -> str:
    """A query over ``relation`` selecting ``keep`` plus the key ``out``, one projection per
    step (each intermediate is computed once; nested expressions would repeat it)."""
    columns = ", ".join(keep)
    extra = "".join(f", {code} AS _c{i}" for i, code in enumerate(codes))
    query = f"SELECT {columns}, CAST({seed_code(seed)} AS BIGINT) AS _h{extra} FROM {relation}"
    carried = [f"_c{i}" for i in range(len(codes))]

    def step(expr: str, rest: list[str]) -> str:
        tail = ", ".join([*keep, *rest])
        return f"SELECT {tail}, {expr} AS _h FROM ({query}) _s"

    for i in range(len(codes)):
        rest = carried[i + 1 :]
        query = step(f"(_h + _c{i}) % {P}", rest)
        for k in (K1, K2):
            query = step(f"(_h * {k}) % {P}", rest)
            query = step(dialect.xor("_h", dialect.shift_right("_h", SHIFT)), rest)
    return f"SELECT {columns}, _h AS {out} FROM ({query}) _s"
