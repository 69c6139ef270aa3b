"""Benchmark: the bounding statistics of 10^7 and 10^8 visits, pandas vs DuckDB vs Spark.

Run from the project root (the 10^8 table takes ~1.3 GB of disk and minutes to write):

    nice -n 19 python3 benchmarks/bench_engines.py                  # 10^7 and 10^8 rows
    python3 benchmarks/bench_engines.py --rows 1e7 --engines duckdb pandas
    python3 benchmarks/bench_engines.py --rows 1e9 --engines duckdb --memory 4GB --spill-limit 40GB

A seeded visits table shaped like data/restaurant_week.csv scaled up (visitor_id, day,
money_spent; data.sources.synthetic) is written as Parquet to a temporary folder (or to
--folder, where a table of the same size is read again). Each engine then runs in a fresh
process (DuckDB embedded; Spark with a local master, its JVM started in that process) and
times two references, the floor (a plain GROUP BY person on the same table, against which
the first two steps are printed as a ratio) and the cheapest ranking of each person's rows
(the least a capped statistic costs on a SQL engine; past DuckDB's working memory it may
run out), then the statistics in the order a page asks for them once the person and group
columns are known:

1. per-day capped counts and clipped sums: l0 = 3 days per visitor chosen at random
   (seeded), linf = 1 visit per day, money clipped to [0, 50]. The SQL engines make one
   pass over the persons (data.sources.sql.persons_sql: one window over person ranks each
   visitor's visits, counted by day, rank and amount into a table the engine keeps), which
   also finds that no visitor comes twice a day and gives the contribution profile;
2. the contribution histogram: persons by number of days visited, from the pass of step 1
   (pandas: its own group-by);
3. new cap: the same statistics for l0 = 2 days and money clipped to [5, 40], as after a
   slider moves: one aggregation over the table the engine kept in step 1.

Every engine must return identical statistics (checked). pandas is skipped where its
working set (about 120 bytes a row) would not fit in half the free memory, and any engine
that has not finished within --timeout seconds is reported as such.

With --memory and --spill-limit DuckDB gets that much working memory and may write that much
to its spill folder (under TMPDIR): a table several times the memory (10^9 visits) is then
read in bounded memory, and the bench prints the peak RSS and the most the folder held. A
spill past the limit stops the statistic with the sentence a page shows.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ENGINES = ("pandas", "duckdb", "spark")
PANDAS_BYTES_PER_ROW = 120
SEED = 1


def free_memory() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    return 0


def peak_memory() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def tree_cpu() -> float:
    """CPU seconds (user + system) used so far by this process and its descendants (Spark's
    JVM included), read from /proc: on a shared machine, CPU time says what the work costs
    when wall time also counts other people's jobs."""
    parents, times = {}, {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    mine, grew = {os.getpid()}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in mine} - mine
        mine |= more
        grew = bool(more)
    return sum(times.get(pid, 0.0) for pid in mine)


def floor(runner) -> int:
    """The floor: a plain GROUP BY person over the same table on the same engine, its rows
    counted where they are (no statistic can do less: each needs every row partitioned by
    person at least once). Returns the number of persons."""
    if runner.name == "pandas":
        return int(runner._frame(["visitor_id"]).groupby("visitor_id").size().size)
    grouped = f"SELECT visitor_id, count(*) AS n FROM {runner.relation} GROUP BY visitor_id"
    return int(runner._query(f"SELECT count(*) AS persons FROM ({grouped}) _g")["persons"].iloc[0])


def ranking_floor(runner) -> None:
    """The cheapest ranking of each person's rows: row_number() over person by day, no seeded
    key and no value, each day's rows of rank <= 3 counted (a SQL engine's capped counts
    cannot do less: they rank every person's units). Counted with CASE, not WHERE: DuckDB
    turns "WHERE r <= 3" into a top-3 per person held in memory, slower and out of memory on
    10^8 rows."""
    if runner.name == "pandas":
        return
    ranked = (
        "SELECT day, row_number() OVER (PARTITION BY visitor_id ORDER BY day) AS r "
        f"FROM {runner.relation}"
    )
    kept = "sum(CASE WHEN r <= 3 THEN 1 ELSE 0 END)"
    runner._query(f"SELECT day, {kept} AS n FROM ({ranked}) _r GROUP BY day")


class SpillWatch:
    """The largest size DuckDB's spill folder reached, polled every half second."""

    def __init__(self, folder: str) -> None:
        import threading

        self.folder, self.peak, self._done = Path(folder), 0, threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _size(self) -> int:
        total = 0
        for entry in self.folder.glob("*") if self.folder.exists() else ():
            with contextlib.suppress(OSError):  # removed meanwhile
                total += entry.stat().st_size
        return total

    def _watch(self) -> None:
        while not self._done.wait(0.5):
            self.peak = max(self.peak, self._size())

    def stop(self) -> int:
        self._done.set()
        self._thread.join()
        return self.peak


SETTINGS = (
    "SELECT name || ' ' || value FROM duckdb_settings() WHERE name IN "
    "('memory_limit', 'max_temp_directory_size', 'temp_directory', 'threads') ORDER BY name"
)


def worker(engine: str, path: str) -> None:
    """Time the two statistics on one engine (in this fresh process); print JSON."""
    import hashlib

    from data import sources
    from data.sources.duckdb_engine import duckdb_config
    from data.sources.engine_cache import engine_for
    from dp_core.bounding import Bounding

    spill = SpillWatch(duckdb_config()["temp_directory"]) if engine == "duckdb" else None

    source = sources.Source.files(path, engine=engine, spark="local[2]")
    start = time.perf_counter()
    runner = engine_for(source)
    runner.schema()
    opened = time.perf_counter() - start
    floor(runner)  # once first: the table's bytes into the page cache, for every step alike
    start, cpu = time.perf_counter(), tree_cpu()
    persons = floor(runner)
    floor_seconds, floor_cpu = time.perf_counter() - start, tree_cpu() - cpu
    start, cpu = time.perf_counter(), tree_cpu()
    try:
        ranking_floor(runner)
        ranking_failed = None
    except ValueError as error:  # a bare window holds the table: out of memory at 10^9
        ranking_failed = str(error).splitlines()[0][:60]
    ranking_seconds, ranking_cpu = time.perf_counter() - start, tree_cpu() - cpu

    def bounded(bounding: Bounding):
        return sources.bounded_statistics(
            source, bounding, person="visitor_id", group="day", value="money_spent", seed=SEED
        )

    start, cpu = time.perf_counter(), tree_cpu()
    stats = bounded(Bounding(3, 1, 0.0, 50.0))
    capped_seconds, capped_cpu = time.perf_counter() - start, tree_cpu() - cpu
    start, cpu = time.perf_counter(), tree_cpu()
    histogram = runner.profile("visitor_id", "day").histogram
    histogram_seconds, histogram_cpu = time.perf_counter() - start, tree_cpu() - cpu
    start, cpu = time.perf_counter(), tree_cpu()
    bounded(Bounding(2, 1, 5.0, 40.0))  # a new cap and new bounds: the table kept by step 1
    again_seconds, again_cpu = time.perf_counter() - start, tree_cpu() - cpu
    digest = hashlib.sha256(
        histogram.to_json().encode() + stats.answers.to_json().encode()
    ).hexdigest()[:12]
    print(
        json.dumps(
            {
                "open": opened,
                "floor": floor_seconds,
                "floor_cpu": floor_cpu,
                "floor_persons": persons,
                "ranking": ranking_seconds if engine != "pandas" and not ranking_failed else None,
                "ranking_failed": ranking_failed,
                "ranking_cpu": ranking_cpu,
                "histogram": histogram_seconds,
                "capped": capped_seconds,
                "histogram_cpu": histogram_cpu,
                "capped_cpu": capped_cpu,
                "again": again_seconds,
                "again_cpu": again_cpu,
                "peak": peak_memory(),
                "spill": spill.stop() if spill else 0,
                "settings": runner._query(SETTINGS).iloc[:, 0].tolist() if spill else [],
                "digest": digest,
                "persons": int(histogram.sum()),
                "kept": stats.rows_kept,
            }
        )
    )
    if engine == "spark":
        sources.stop_spark()


def run_engine(engine: str, path: Path, timeout: float, threads: str | None) -> dict:
    env = dict(os.environ)
    env.pop("DP_EXPLORER_SPARK", None)
    env.setdefault("DP_EXPLORER_SPARK_MEMORY", "6g")  # Spark's local driver does the work
    env.setdefault("DP_EXPLORER_SPARK_PARTITIONS", "16")
    if threads:
        env["DP_EXPLORER_DUCKDB_THREADS"] = threads
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--worker", engine, str(path)],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        return {"skipped": f"did not finish within {timeout:.0f} s"}
    wall = time.perf_counter() - start
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        return {"skipped": "failed: " + (done.stderr.strip().splitlines() or ["?"])[-1][:200]}
    return {**json.loads(lines[-1]), "process": wall}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", nargs="+", default=["1e7", "1e8"])
    parser.add_argument("--engines", nargs="+", default=list(ENGINES), choices=ENGINES)
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per engine")
    parser.add_argument("--threads", default=None, help="DuckDB threads (default: all cores)")
    parser.add_argument(
        "--folder", default=None, help="keep the tables here and read them again (default: temp)"
    )
    parser.add_argument("--memory", default=None, help='DuckDB working memory, e.g. "4GB"')
    parser.add_argument("--spill-limit", default=None, help='what DuckDB may spill, e.g. "40GB"')
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return

    from data.sources.synthetic import write_visits

    print(f"{os.cpu_count()} cores; DuckDB threads: {args.threads or 'all cores'}")
    with tempfile.TemporaryDirectory(prefix="bench_engines_") as scratch:
        folder = Path(args.folder or scratch)
        if args.memory:
            os.environ["DP_EXPLORER_DUCKDB_MEMORY"] = args.memory
        if args.spill_limit:
            os.environ["DP_EXPLORER_DUCKDB_SPILL"] = args.spill_limit
        for text in args.rows:
            rows = int(float(text))
            path = folder / f"visits_{rows}_seed{SEED}.parquet"  # as bench_path_page's
            start = time.perf_counter()
            made = "read again from --folder"
            if not path.exists():
                write_visits(path, rows, seed=SEED)
                made = f"written in {time.perf_counter() - start:.1f} s"
            print(
                f"\n{rows:,} visits: {made}, "
                f"{path.stat().st_size / 2**20:,.0f} MB of Parquet (row groups of 2^20 rows)"
            )
            print(
                f"{'engine':<8} {'floor':>18} {'ranking':>18} {'capped':>18} {'histogram':>18} "
                f"{'both':>18} {'new cap':>18} {'both/floor':>10} {'/ranking':>8} {'start':>7} "
                f"{'peak RSS':>9} {'spill':>8}  check"
            )
            digests = {}
            for engine in args.engines:
                need = rows * PANDAS_BYTES_PER_ROW
                if engine == "pandas" and need > free_memory() / 2:
                    print(
                        f"{engine:<8} skipped: its working set (~{need / 2**30:.0f} GB) is more "
                        f"than half of the {free_memory() / 2**30:.0f} GB of free memory"
                    )
                    continue
                result = run_engine(engine, path, args.timeout, args.threads)
                if "skipped" in result:
                    print(f"{engine:<8} {result['skipped']}")
                    continue
                digests[engine] = result["digest"]
                both = result["histogram"] + result["capped"]
                both_cpu = result["histogram_cpu"] + result["capped_cpu"]
                ranking = result["ranking"]
                print(
                    f"{engine:<8} {timing(result['floor'], result['floor_cpu'])} "
                    f"{timing(ranking, result['ranking_cpu']) if ranking else '':>18} "
                    f"{timing(result['capped'], result['capped_cpu'])} "
                    f"{timing(result['histogram'], result['histogram_cpu'])} "
                    f"{timing(both, both_cpu)} "
                    f"{timing(result['again'], result['again_cpu'])} "
                    f"{both / result['floor']:>9.2f}x "
                    f"{f'{both / ranking:.2f}x' if ranking else '':>8} "
                    f"{result['open']:>6.1f}s {result['peak'] / 2**20:>7.0f}MB "
                    f"{result['spill'] / 2**30:>6.2f}GB  "
                    f"{result['persons']:,} visitors, {result['kept']:,} visits kept"
                )
                if result["ranking_failed"]:
                    print(f"{'':<8} ranking: {result['ranking_failed']}")
                if result["settings"]:
                    print(f"{'':<8} DuckDB: {'; '.join(result['settings'])}")
            if len(set(digests.values())) > 1:
                print(f"MISMATCH between engines: {digests}")
            elif len(digests) > 1:
                print(f"identical statistics from {', '.join(digests)}")
    print(
        "\nfloor: a plain GROUP BY person on the same engine and table, in the same process "
        "(issue 38's measure: every statistic needs each row partitioned by person once); "
        "both/floor: the histogram and the capped statistics together, as a ratio to it "
        "(wall time). ranking: the cheapest ranking of each person's rows on a SQL engine "
        "(row_number() over person by day, no seeded key, no value); /ranking: both as a "
        "ratio to it.\nwall s (cpu s): wall time, and in brackets the CPU time of the "
        "process and its children (Spark's JVM); on a machine shared with other jobs, CPU "
        "time / cores is what the wall time would be on idle cores. start: opening the "
        "source (Spark: starting its JVM). peak RSS: the Python process (Spark's JVM is a "
        "separate process). spill: the most DuckDB's spill folder held at once (polled "
        "every 0.5 s)."
    )


def timing(wall: float, cpu: float) -> str:
    return f"{wall:>8.2f}s ({cpu:>5.1f}s)"


if __name__ == "__main__":
    main()
