"""Write the synthetic-data page's census releases: data/precomputed/synthetic_census/.

    python3 scripts/precompute_synthetic.py      # needs pip install "opendp[mbi]==0.16.0"

For each ε of ui.synthetic.declared.EPSILONS at δ = 10⁻⁵: the census' default columns and
public domain (ui.synthetic.declared.CENSUS_DOMAIN), the training four fifths of the persons
at seed 2026 and draw 0 (ui.synthetic.release.split), OpenDP's MST at the ρ that ε needs
(dp_core.accountants.zcdp_rho_for). Written: the synthetic rows, the noisy marginals they
were fitted to, and what was used (meta_*.json). OpenDP's noise is its secure sampler, which
takes no seed: running this again gives other releases of the same quality
(tests/test_page_synthetic.py checks the stored ones against their settings).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from data.registry import load_dataset  # noqa: E402
from dp_core.accountants import zcdp_rho_for  # noqa: E402
from ui.synthetic.declared import CENSUS_DOMAIN, DELTA_DEFAULT, EPSILONS  # noqa: E402
from ui.synthetic.release import make_release, save, split  # noqa: E402

SEED = (2026, 0)  # the page's seed and draw when it opens (ui.common.shell.DEFAULT_SEED)


def main() -> None:
    train, _test = split(load_dataset("census"), person="person_id", seed=SEED)
    for epsilon in EPSILONS:
        rho = zcdp_rho_for(epsilon, DELTA_DEFAULT)
        start = time.perf_counter()
        found = make_release(train, CENSUS_DOMAIN, rho, "mst")
        meta = {"epsilon": epsilon, "delta": DELTA_DEFAULT, "rho": rho, "algorithm": "mst",
                "seed": list(SEED), "columns": list(CENSUS_DOMAIN.columns),
                "seconds": round(found.seconds, 1)}  # fmt: skip
        save(found, epsilon, meta)
        seconds = time.perf_counter() - start
        print(f"ε = {epsilon:g}: ρ = {rho:.5f}, {len(found.synthesis.synthetic)} rows in "
              f"{seconds:.1f} s; mean TVD one-way {found.oneway:.4f}, two-way measured "
              f"{found.twoway(True):.4f}, not {found.twoway(False):.4f}")  # fmt: skip


if __name__ == "__main__":
    main()
