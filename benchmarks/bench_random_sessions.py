"""More random sessions than the suite plays (tests/test_random_sessions.py), with new random
sequences on every run; prints how many were played, how long they took and what failed.

Run from the project root: python3 benchmarks/bench_random_sessions.py [--sequences 1000]
(per page; the suite plays 70 per page, the same ones each run). A failure prints the steps
that led to it, as the test does.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_random_sessions import PAGES  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sequences", type=int, default=1000, help="per page")
    parser.add_argument("--workers", default="2", help="pytest-xdist workers")
    args = parser.parse_args()
    print(f"Random sessions: {args.sequences} sequences per page, load {os.getloadavg()[0]:.2f}")
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", args.workers, "-p", "no:cacheprovider",
         "tests/test_random_sessions.py"],
        cwd=ROOT,
        env={**os.environ, "DP_EXPLORER_SESSIONS": str(args.sequences)},
        check=False,
    )  # fmt: skip
    took, played = time.perf_counter() - start, len(PAGES) * args.sequences
    print(
        f"{played} sequences in {took:.0f} s ({took / played:.2f} s each): "
        f"{'all held' if result.returncode == 0 else 'FAILED (above)'}"
    )
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
