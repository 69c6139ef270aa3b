"""Write the DP-SGD page's noise multipliers and default curve: data/precomputed/dp_sgd_sigmas.csv
and data/precomputed/dp_sgd_census.csv.

    python3 scripts/precompute_dp_sgd.py

The census at the page's default inputs and training (ui.dp_sgd.declared), seed 2026 and
draw 0: three trainings at each ε of ui.dp_sgd.training.EPSILONS and three without DP, each
row one training (its held-out accuracy, loss-threshold advantage and share of gradients
clipped). The page reads the file when its settings are the defaults, so it opens at once;
tests/test_page_dp_sgd.py trains the curve again and compares it with the file.

The noise multipliers: σ at the default training's δ, rows, batch and epochs for every stop of
the ε slider, by both accountants (dp-accounting's calibration; PLD's takes 2-10 s an ε), so
that choosing PLD or moving ε at the defaults waits for no calibration. Written first: the
curve reads them.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ui.dp_sgd.curves import default_curve, default_problem  # noqa: E402
from ui.dp_sgd.declared import DEFAULT_TRAINING, EPSILON  # noqa: E402
from ui.dp_sgd.training import PRECOMPUTED, SIGMAS, sigma_table, stored_sigmas  # noqa: E402


def main() -> None:
    start = time.perf_counter()
    sigmas = sigma_table(EPSILON.stops, DEFAULT_TRAINING, default_problem().train_rows)
    SIGMAS.parent.mkdir(parents=True, exist_ok=True)
    sigmas.to_csv(SIGMAS, index=False)  # shortest round-trip text: the same floats back
    stored_sigmas.cache_clear()
    print(f"{SIGMAS.relative_to(ROOT)}: {len(sigmas)} noise multipliers")
    found = default_curve()
    PRECOMPUTED.parent.mkdir(parents=True, exist_ok=True)
    found.to_csv(PRECOMPUTED, index=False, float_format="%.10g")
    print(
        f"{PRECOMPUTED.relative_to(ROOT)}: {len(found)} trainings in "
        f"{time.perf_counter() - start:.1f} s"
    )


if __name__ == "__main__":
    main()
