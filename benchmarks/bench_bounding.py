"""Benchmark: capping 10^7 visits per person, vectorised, beside a row-by-row loop.

Run from the project root: python3 benchmarks/bench_bounding.py
Two row-by-row loops stand beside it, both timed on fewer rows and extrapolated linearly to
10^7 (the output says so):
- the teaching-notebook pattern (PyDP restaurant demo's bound_visits_per_week): look each row
  up with frame.loc, count per visitor in a dict, append kept rows to a new frame with .loc;
  timed on 2,000 rows. Appending grows the frame, so linear extrapolation flatters it.
- a lean loop over a Python list with a dict of counts (the fastest a row loop gets),
  timed on 10^6 rows.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import best_of
from data.registry import load_dataset
from dp_core.bounding import Bounding, cap_contributions
from dp_core.bounding.bias import bounded_totals_by_cap, bounded_totals_by_upper
from dp_core.bounding.table import contribution_table

ROWS = 10**7
LOOP_ROWS = 10**6
NOTEBOOK_ROWS = 2_000
CAP = 3


def visits(rows: int, seed: int = 0) -> pd.DataFrame:
    """Visits by 2 * rows / 7 visitors over 7 days, in time order."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "visitor_id": rng.integers(0, 2 * rows // 7, rows),
            "day": np.sort(rng.integers(1, 8, rows)),
            "money_spent": rng.integers(10, 121, rows),
        }
    )


def notebook_loop_cap(frame: pd.DataFrame, cap: int) -> pd.DataFrame:
    """Row by row with frame.loc, as the teaching notebook does it."""
    kept = pd.DataFrame(columns=frame.columns)
    visits_of: dict[int, int] = {}
    for index in frame.index:
        visitor = frame.loc[index]["visitor_id"]
        if visits_of.get(visitor, 0) < cap:
            kept.loc[len(kept)] = frame.loc[index]
            visits_of[visitor] = visits_of.get(visitor, 0) + 1
    return kept


def loop_cap(frame: pd.DataFrame, cap: int) -> pd.DataFrame:
    """Row by row over a plain list: the fastest loop."""
    seen: dict[int, int] = {}
    keep = []
    for visitor in frame["visitor_id"].tolist():
        count = seen.get(visitor, 0)
        keep.append(count < cap)
        seen[visitor] = count + 1
    return frame[keep]


def main() -> None:
    frame = visits(ROWS)
    small = frame.iloc[:LOOP_ROWS]
    vectorised_small = cap_contributions(small, "visitor_id", CAP)
    assert vectorised_small.index.equals(loop_cap(small, CAP).index), "results differ"

    first = best_of(lambda: cap_contributions(frame, "visitor_id", CAP))
    rng = np.random.default_rng(1)
    shuffled = best_of(lambda: cap_contributions(frame, "visitor_id", CAP, rng=rng))
    days = best_of(
        lambda: cap_contributions(
            frame, "visitor_id", group_column="day", max_groups_per_id=CAP, rng=rng
        )
    )
    all_caps = best_of(
        lambda: cap_contributions(
            frame,
            "visitor_id",
            CAP,
            group_column="day",
            max_groups_per_id=CAP,
            max_per_id_per_group=1,
            rng=rng,
        )
    )
    loop_small = best_of(lambda: loop_cap(small, CAP), repeats=1)
    loop_full = loop_small * ROWS / LOOP_ROWS
    tiny = frame.iloc[:NOTEBOOK_ROWS]
    notebook_kept = notebook_loop_cap(tiny, CAP)
    assert len(notebook_kept) == len(cap_contributions(tiny, "visitor_id", CAP)), "differ"
    notebook_small = best_of(lambda: notebook_loop_cap(tiny, CAP), repeats=1)
    notebook_full = notebook_small * ROWS / NOTEBOOK_ROWS

    print(f"Capping {ROWS:,} visits at {CAP} per visitor (best of 3 runs)")
    print(f"  vectorised, first in table order:          {first:6.2f} s")
    print(f"  vectorised, random choice (Generator):     {shuffled:6.2f} s")
    print(f"  vectorised, at most {CAP} days per visitor:     {days:6.2f} s  (random days)")
    print(f"  vectorised, l0 + linf + total caps:        {all_caps:6.2f} s  (random)")
    print(
        f"  notebook loop (frame.loc per row): {notebook_small:.2f} s on {NOTEBOOK_ROWS:,} rows,"
        f" extrapolated x{ROWS // NOTEBOOK_ROWS:,} to {notebook_full / 3600:.1f} h"
    )
    print(
        f"  lean list loop: {loop_small:.2f} s on {LOOP_ROWS:,} rows, "
        f"extrapolated x{ROWS // LOOP_ROWS} to {loop_full:.1f} s"
    )
    print(f"  ratio notebook loop / vectorised (first in order): {notebook_full / first:,.0f}x")
    print(f"  ratio lean loop / vectorised (first in order):     {loop_full / first:.1f}x")

    week = load_dataset("restaurant")
    table = contribution_table(week, "visitor_id", "day", "money_spent")
    caps = np.arange(1, table.max_groups_per_person + 1)
    uppers = np.linspace(5, 120, 116)
    bounding = Bounding(max_groups=4, lower=0, upper=50)
    sweep_caps = best_of(
        lambda: bounded_totals_by_cap(table, "sum", bounding, caps=caps), repeats=20
    )
    sweep_uppers = best_of(
        lambda: bounded_totals_by_upper(table, bounding, uppers=uppers), repeats=20
    )
    build = best_of(lambda: contribution_table(week, "visitor_id", "day", "money_spent"), repeats=5)
    print("Restaurant week (2,850 visits): exact expected bias for every setting at once")
    print(f"  contribution table:            {build * 1e3:6.2f} ms")
    print(f"  all {len(caps)} day caps x 7 days:       {sweep_caps * 1e3:6.2f} ms")
    print(f"  all {len(uppers)} upper bounds x 7 days: {sweep_uppers * 1e3:6.2f} ms")


if __name__ == "__main__":
    main()
