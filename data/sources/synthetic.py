"""A visits table of any size, shaped like data/restaurant_week.csv, written as Parquet.

    write_visits(path, rows=10**8, seed=0)   # visitor_id, day, money_spent (int64 each)
    write_visits(path, rows, full=True)      # also time_entered ("9:27:00 AM"), time_spent

For benchmarks and the bounded-memory test: the rows are generated and written in chunks
of ``chunk_rows`` (one chunk never holds more than that in memory), each chunk a week of its
own visitors in day order, like a visits log. Per visitor the number of days visited follows
the restaurant week's published shares (1 day: 440 of 1,360 visitors ... 6 days: 2), the days
are drawn without repeats in proportion to the week's visits per day (300, 300, 400, 400, 450,
500, 500), and money spent is a rounded normal (mean 31, sd 9.8) clipped to [10, 50], with one
visit in 500 a big spend of 51 to 120 euros. A visitor comes at most once a day.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

DAYS_VISITED = np.array([440, 507, 281, 109, 21, 2])  # visitors with 1 .. 6 days
VISITS_PER_DAY = np.array([300, 300, 400, 400, 450, 500, 500])
MEAN_DAYS = float(DAYS_VISITED @ np.arange(1, 7) / DAYS_VISITED.sum())  # 2.1 visits each


def _clock_texts() -> pa.Array:
    """Text for each minute from 9:00 AM to 8:59 PM, like restaurant_week.csv's."""
    minutes = np.arange(9 * 60, 21 * 60)
    hour, minute = np.divmod(minutes, 60)
    return pa.array(
        [
            f"{(h - 1) % 12 + 1}:{m:02d}:00 {'AM' if h < 12 else 'PM'}"
            for h, m in zip(hour, minute, strict=True)
        ]
    )


def visits_chunk(
    rng: np.random.Generator, rows: int, first_visitor: int, *, full: bool = False
) -> pa.Table:
    """``rows`` visits by visitors numbered from ``first_visitor``, in day order (and with
    ``full``, in time order within a day, with time_entered and time_spent)."""
    visitors = int(rows / MEAN_DAYS) + 16
    days_visited = rng.choice(np.arange(1, 7), visitors, p=DAYS_VISITED / DAYS_VISITED.sum())
    while int(days_visited.sum()) < rows:  # rare: top up with more visitors
        days_visited = np.append(days_visited, days_visited[: max(1, visitors // 8)])
    days_visited = days_visited[: np.searchsorted(np.cumsum(days_visited), rows) + 1]
    # k days without repeats, weighted (Efraimidis & Spirakis 2006: the k largest u^(1/w))
    keys = rng.random((days_visited.size, 7)) ** (1.0 / VISITS_PER_DAY)
    ranked = np.argsort(-keys, axis=1).astype(np.int8)
    chosen = np.arange(7)[None, :] < days_visited[:, None]
    visitor = np.repeat(np.arange(days_visited.size, dtype=np.int64), days_visited)[:rows]
    day = ranked[chosen][:rows].astype(np.int64) + 1
    visitor = first_visitor + rng.permutation(days_visited.size)[visitor]
    money = np.clip(np.rint(rng.normal(31.0, 9.8, rows)), 10, 50).astype(np.int64)
    big = rng.random(rows) < 1 / 500
    money[big] = rng.integers(51, 121, int(big.sum()))
    if not full:
        order = np.argsort(day, kind="stable")
        columns = {"visitor_id": visitor, "day": day, "money_spent": money}
        return pa.table({name: values[order] for name, values in columns.items()})
    time_spent = np.clip(np.rint(20 + 1.3 * money + rng.normal(0, 14, rows)), 10, 120)
    entered = rng.integers(0, 12 * 60 - time_spent.astype(np.int64) + 1)  # leave by 9 PM
    order = np.lexsort((entered, day))
    return pa.table(
        {
            "visitor_id": visitor[order],
            "day": day[order],
            "time_entered": _clock_texts().take(pa.array(entered[order])),
            "time_spent": time_spent.astype(np.int64)[order],
            "money_spent": money[order],
        }
    )


def write_visits(
    path: str | Path,
    rows: int,
    *,
    seed: int = 0,
    chunk_rows: int = 10**7,
    row_group_rows: int = 2**20,
    full: bool = False,
) -> Path:
    """Write ``rows`` generated visits to the Parquet file ``path``; return the path."""
    path = Path(path)
    rng = np.random.default_rng(seed)
    schema = visits_chunk(np.random.default_rng(0), 16, 1, full=full).schema
    first_visitor = 1
    with pq.ParquetWriter(path, schema, compression="snappy") as writer:
        for start in range(0, rows, chunk_rows):
            chunk = visits_chunk(rng, min(chunk_rows, rows - start), first_visitor, full=full)
            first_visitor = int(pa.compute.max(chunk["visitor_id"]).as_py()) + 1
            writer.write_table(chunk, row_group_size=row_group_rows)
    return path
