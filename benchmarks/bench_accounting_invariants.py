"""A long run of the accounting invariants (tests/test_accounting_invariants.py) on many more
random plans than the suite draws: every accountant's total against dp-accounting's
optimistic PLD and each release's own exact epsilon, optimal <= basic, labels met.

    python3 benchmarks/bench_accounting_invariants.py [EXAMPLES]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_accounting_invariants import check_labels, check_totals, plans, read_delta  # noqa: E402


def main(examples: int) -> None:
    seen = {"plans": 0, "releases": 0}

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(plans(), st.data())
    def run(plan, data):
        check_labels(plan)
        check_totals(plan, read_delta(data.draw, plan))
        seen["plans"] += 1
        seen["releases"] += len(plan.releases)

    start = time.perf_counter()
    run()
    took = time.perf_counter() - start
    print(f"{seen['plans']} plans ({seen['releases']} releases) hold every invariant, {took:.1f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
