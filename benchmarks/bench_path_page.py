"""Server time of the bounding page on a data path of 10^7 or 10^8 visits (AppTest).

Run from the project root (the 10^8 table takes ~600 MB of disk and 40 s to write; a table
already in --folder is used again):

    python3 benchmarks/bench_path_page.py --rows 1e7 1e8 --folder /tmp/bench

A seeded visits table (data.sources.synthetic, as bench_engines.py) is read where it lies by
DuckDB. The page is opened with "A data path…" chosen, then each step is what a privacy
engineer does next, and one AppTest.run() (the whole script), timed:

1. the path typed: the table's summary and the person column proposed;
2. the days declared: the contribution profile, the unit profiles of the released days with
   the values of money_spent (the column the page proposes to sum: histogram, caps' ranges,
   trade-offs) and the bounded answers (the engine ranks the units once);
3. a new cap on days per visitor, 4. new clipping bounds: one aggregation over the ranked
   units the engine kept, the rest from the unit profiles in memory;
5. the first days instead of a random choice: the units ranked in that order once;
6. back to the random choice: from the caches.

Each step is also printed as a ratio to the floor, a plain GROUP BY person on the same file
in the same process (issue 38's measure). Figures are printed, not asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from apptest_helpers import open_page, widget  # noqa: E402

SEED = 1


def steps(path: Path) -> list[tuple[str, float]]:
    """Seconds of each step's page run (STEPS), in order."""
    at = open_page("bounding", timeout=1800)
    widget(at.selectbox, "bounding_dataset").set_value("data_path")
    at.run()
    figures = []
    for name, kind, key, value in STEPS:
        if kind == "text_input":
            at.text_input(key=key).set_value(str(path) if value is None else value)
        else:
            widget(getattr(at, kind), key).set_value(value)
        start = time.perf_counter()
        at.run()
        figures.append((name, time.perf_counter() - start))
        if at.exception:
            raise SystemExit(f"the page raised: {at.exception[0].message}")
        problems = [e.value for e in at.error if "differentially private" not in e.value]
        if problems:  # "not differentially private as set": the statement, not a problem
            raise SystemExit(f"the page says: {problems[0]}")
    return figures


STEPS = [  # name, widget kind, key, value set (None: the path)
    ("path typed", "text_input", "bounding_path", None),
    ("days declared", "text_area", "bounding_cats", "\n".join(str(d) for d in range(1, 8))),
    ("new cap", "slider", "bounding_max_groups", 2),
    ("new bounds", "slider", "bounding_bounds", (5.0, 40.0)),
    ("first days", "radio", "bounding_selection", "first"),
    ("random again", "radio", "bounding_selection", "random"),
]


def floor(path: Path) -> float:
    """Seconds of the floor (bench_engines.floor: a plain GROUP BY person) over the same file,
    on a DuckDB engine of its own with the app's settings."""
    from bench_engines import floor as group_by_person

    from data.sources import Source
    from data.sources.duckdb_engine import DuckDBEngine

    engine = DuckDBEngine(Source.files(str(path), engine="duckdb"))
    start = time.perf_counter()
    group_by_person(engine)
    seconds = time.perf_counter() - start
    engine.close()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", nargs="+", default=["1e7"])
    parser.add_argument("--folder", default="/tmp", help="where the tables are written")
    args = parser.parse_args()
    from data.sources.synthetic import write_visits

    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; seconds per page run")
    for text in args.rows:
        rows = int(float(text))
        path = Path(args.folder) / f"visits_{rows}_seed{SEED}.parquet"
        if not path.exists():
            write_visits(path, rows, seed=SEED)
        floor_seconds = floor(path)
        figures = steps(path)
        print(f"\n{rows:,} visits ({path.stat().st_size / 2**20:,.0f} MB of Parquet)")
        print(f"  {'floor':<14} {floor_seconds:>7.2f} s  (GROUP BY visitor_id, DuckDB)")
        for name, seconds in figures:
            print(f"  {name:<14} {seconds:>7.2f} s  {seconds / floor_seconds:>5.2f}x the floor")
        first = sum(seconds for name, seconds in figures[:2])
        print(
            f"  first read (path typed, days declared): {first:.2f} s, "
            f"{first / floor_seconds:.2f}x the floor"
        )


if __name__ == "__main__":
    main()
