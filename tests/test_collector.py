"""The modules' objects left out of the collector's scans (ui.common.collector): frozen once
enough new modules are imported, never for a few or for nothing, no garbage kept for good,
nothing left at exit."""

from __future__ import annotations

import gc
import subprocess
import sys
import types
import weakref
from pathlib import Path
from unittest import mock

import pytest

from ui.common import collector
from ui.common.collector import leave_modules_out_of_collections

ROOT = Path(__file__).resolve().parent.parent


class _Node:
    """An object in a reference cycle: only a collection frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def a_new_module():
    """A module imported, the FREEZE_AFTER-th since the last freeze."""
    name = "dp_explorer_test_collector_module"
    sys.modules[name] = types.ModuleType(name)
    try:
        with mock.patch.object(collector, "_frozen_at", len(sys.modules) - collector.FREEZE_AFTER):
            yield
    finally:
        del sys.modules[name]
        gc.unfreeze()


def test_a_run_that_imported_modules_freezes_the_heap(a_new_module):
    gc.unfreeze()
    leave_modules_out_of_collections()
    assert gc.get_freeze_count() > 0
    assert collector._frozen_at == len(sys.modules)


def test_a_run_that_imported_nothing_neither_collects_nor_freezes(a_new_module):
    leave_modules_out_of_collections()
    with mock.patch.object(gc, "collect") as collect, mock.patch.object(gc, "freeze") as freeze:
        leave_modules_out_of_collections()
    assert not collect.called and not freeze.called


def test_a_run_that_imported_fewer_modules_neither_collects_nor_freezes(a_new_module):
    with (
        mock.patch.object(collector, "_frozen_at", collector._frozen_at + 1),
        mock.patch.object(gc, "collect") as collect,
        mock.patch.object(gc, "freeze") as freeze,
    ):
        leave_modules_out_of_collections()
    assert not collect.called and not freeze.called


def test_no_garbage_is_kept_for_good(a_new_module):
    frozen = _Node()  # garbage that an earlier freeze kept: taken back and collected
    frozen_gone = weakref.ref(frozen)
    del frozen
    gc.freeze()
    young = _Node()  # garbage since: collected before it could be frozen
    young_gone = weakref.ref(young)
    del young
    leave_modules_out_of_collections()
    assert frozen_gone() is None
    assert young_gone() is None


def test_nothing_frozen_is_left_at_exit():
    """DuckDB's bindings name every object of theirs still alive at exit as leaked."""
    script = (
        "import duckdb, sys\n"
        "from ui.common.collector import leave_modules_out_of_collections\n"
        "connection = duckdb.connect()\n"
        "connection.sql('select 1').fetchall()\n"
        "sys.modules['dp_explorer_test_exit'] = type(sys)('dp_explorer_test_exit')\n"
        "leave_modules_out_of_collections()\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
        cwd=ROOT,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert "leaked" not in ran.stderr, ran.stderr
