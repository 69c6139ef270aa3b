"""Files a reader takes in at once (issue 36): no ui module over 400 lines, no dp_core module
over 600, and at most 3 functions over 60 lines in ui, dp_core and data together."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULE_LIMITS = {"ui": 400, "dp_core": 600}
FUNCTION_LIMIT, LONG_FUNCTIONS_ALLOWED = 60, 3


def _modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def test_no_module_is_longer_than_its_folder_allows() -> None:
    too_long = {
        str(path.relative_to(ROOT)): lines
        for folder, limit in MODULE_LIMITS.items()
        for path in _modules(folder)
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > limit
    }
    assert not too_long, f"over {MODULE_LIMITS} lines: {too_long}"


def test_at_most_three_functions_run_over_sixty_lines() -> None:
    long_ones = {}
    for folder in ("ui", "dp_core", "data"):
        for path in _modules(folder):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = node.end_lineno - node.lineno + 1  # from its def, decorators aside
                    if lines > FUNCTION_LIMIT:
                        long_ones[f"{path.relative_to(ROOT)}:{node.name}"] = lines
    assert len(long_ones) <= LONG_FUNCTIONS_ALLOWED, long_ones
