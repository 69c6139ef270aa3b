"""What may import what: the shared pieces (ui.common) import no page package and not the room;
a page or the room plugs into them (ui.common.exercises.below_each_answer; the room's tests
click the "ask the room" button it adds to an exercise)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_ui_common_imports_no_page_and_not_the_room() -> None:
    reached = {
        f"{path.relative_to(ROOT)} imports {module}"
        for path in sorted((ROOT / "ui" / "common").glob("*.py"))
        for module in _imported(path)
        if module.startswith("ui.") and not module.startswith("ui.common")
    }
    assert not reached, sorted(reached)
