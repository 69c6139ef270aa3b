"""One list of pages (issue 36): ui.common.catalog. A page carries its path, group, icon, prefix
and exercises; the navigation, the Workshop's listing and the room read that list, and no
other module keeps a list of pages of its own."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

from ui.common.catalog import PAGES, entry
from ui.common.page import Page
from ui.common.sections import address_key

ROOT = Path(__file__).resolve().parent.parent
URLS = {page.url_path for page in PAGES}
# Not lists of pages: the message catalogues by source files, for the translators' script
# (one catalogue holds the common messages, one both local pages').
NOT_PAGES = {("ui/common/i18n.py", "DOMAINS")}


def _sources() -> Iterator[tuple[str, ast.Module]]:
    """Every module of the app but the catalogue: ui/, app.py, pages/."""
    for path in sorted(
        [*(ROOT / "ui").rglob("*.py"), ROOT / "app.py", *(ROOT / "pages").glob("*.py")]
    ):
        name = path.relative_to(ROOT).as_posix()
        if name != "ui/common/catalog.py":
            yield name, ast.parse(path.read_text(encoding="utf-8"), name)


def _module(name: str) -> str:
    return name.removesuffix(".py").replace("/", ".")


def _assigned(tree: ast.Module, target: str) -> Iterator[ast.expr]:
    """The values given to ``target`` at the top of a module."""
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == target for t in targets):
                yield node.value


def test_the_catalogue_lists_exactly_the_page_scripts() -> None:
    assert sorted(page.path for page in PAGES) == sorted(
        f"pages/{path.name}" for path in (ROOT / "pages").glob("*.py")
    )
    assert len(URLS) == len(PAGES) == len({page.prefix for page in PAGES})


def test_each_page_shape_is_keyed_by_its_catalogue_entry() -> None:
    """Every Page in ui/ (ui.common.page) names a catalogue url path, and each script that
    draws one draws its own entry's."""
    shapes = [
        importlib.import_module(_module(name)).PAGE
        for name, tree in _sources()
        for value in _assigned(tree, "PAGE")
        if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "Page"
    ]
    assert all(isinstance(shape, Page) for shape in shapes)
    drawn = {
        Path(name).stem: importlib.import_module(node.module or "").PAGE.key
        for name, tree in _sources()
        if name.startswith("pages/")
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and any(a.name == "PAGE" for a in node.names)
    }
    assert all(stem == key for stem, key in drawn.items()), drawn
    assert sorted(shape.key for shape in shapes) == sorted(drawn)
    assert set(drawn) <= URLS


def test_every_exercise_is_found_through_the_catalogue() -> None:
    """Every module's EXERCISES are reached through their page's entry, and the Workshop's
    listing lists exactly them, linked under the page's catalogue prefix."""
    from ui.workshop.listing import all_exercises, section_link

    found = {}
    for name, tree in _sources():
        if any(_assigned(tree, "EXERCISES")):
            module = _module(name)
            for exercise in importlib.import_module(module).EXERCISES:
                assert entry(exercise.page).exercises == module, exercise.key
                found[exercise.key] = exercise
    listed = all_exercises()
    assert sorted(e.key for e in listed) == sorted(found)
    assert {e.page for e in listed} == {page.url_path for page in PAGES if page.exercises}
    for exercise in listed:
        expected = {address_key(entry(exercise.page).prefix): exercise.section}
        assert section_link(exercise) == (expected if exercise.section else None)


def test_prefixes_are_read_from_the_catalogue() -> None:
    """No module restates a page's prefix: no PAGE = "..." and no story("...")."""
    constants = [
        name
        for name, tree in _sources()
        for value in _assigned(tree, "PAGE")
        if isinstance(value, ast.Constant)
    ]
    stories = [
        f"{name}:{node.lineno}"
        for name, tree in _sources()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") == "story"
        and isinstance(node.args[0], ast.Constant)
    ]
    restated = constants + stories
    assert not restated, restated


def test_no_other_module_keeps_a_list_of_pages() -> None:
    """No dict, set, list or tuple outside the catalogue names three or more pages."""
    lists = []
    for name, tree in _sources():
        skipped = {
            id(node)
            for target in {t for n, t in NOT_PAGES if n == name}
            for value in _assigned(tree, target)
            for node in ast.walk(value)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Dict | ast.Set | ast.List | ast.Tuple)
                and id(node) not in skipped
            ):
                items = [*node.keys, *node.values] if isinstance(node, ast.Dict) else node.elts
                pages = {i.value for i in items if isinstance(i, ast.Constant) and i.value in URLS}
                if len(pages) >= 3:
                    lists.append(f"{name}:{node.lineno} {sorted(pages)}")
    assert not lists, lists
