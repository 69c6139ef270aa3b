"""What the app's modules hold is left out of the garbage collector's scans.

    leave_modules_out_of_collections()   # app.py, after every whole run

A worker's heap is mostly the modules it has imported (the app's, pandas, SciPy, OpenDP,
Plotly…): some 200,000 objects that live as long as the process. Python's collector scans
them all at each full collection, once every twenty-odd runs, and every session of the worker
waits for it. After a run that imported modules (the first run, a page's first visit: some
hundreds of modules), they are collected once and moved to the permanent generation
(``gc.freeze``), which collections skip (bench_pages, AppTest, 24 runs after an ε step: the
collector took 186-222 ms of the attacker page's runs, 23-25 ms once frozen, and its median
run fell from 49-52 to 36-38 ms).
Each freeze first takes back what was frozen before and collects everything, so a session
alive at one freeze and closed by the next leaves nothing behind; at most the sessions alive
at a process's last freeze keep what they held in reference cycles. At exit the frozen objects
are given back, for the interpreter's last collection (DuckDB's bindings report any object
left then as leaked).
"""

from __future__ import annotations

import atexit
import gc
import sys
import threading

_LOCK = threading.Lock()
FREEZE_AFTER = 50  # modules imported since the last freeze that make a new one worth its cost
_frozen_at = 0  # how many modules were imported at the last freeze
atexit.register(gc.unfreeze)


def leave_modules_out_of_collections() -> None:
    """Once FREEZE_AFTER more modules are imported than at the last freeze: collect
    everything, then freeze what is left. A freeze costs a full collection, longer the more
    the heap holds (0.13 s in a fresh process, 0.5 s in a test process after a few hundred
    runs), and a module or two (a lazy import) add too few objects to repay it."""
    global _frozen_at
    if len(sys.modules) < _frozen_at + FREEZE_AFTER:
        return
    with _LOCK:
        if len(sys.modules) >= _frozen_at + FREEZE_AFTER:
            _frozen_at = len(sys.modules)
            gc.unfreeze()
            gc.collect()
            gc.freeze()
