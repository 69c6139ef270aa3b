"""The page catalogue that app.py and the home page are built from."""

from pathlib import Path

import pytest
from streamlit.string_util import is_material_icon

from ui.common.catalog import PAGES, available_pages

ROOT = Path(__file__).resolve().parent.parent


def test_every_page_exists_and_every_page_file_is_listed() -> None:
    assert available_pages() == list(PAGES)
    assert {p.path for p in PAGES} == {f"pages/{f.name}" for f in (ROOT / "pages").glob("*.py")}


def test_url_paths_are_file_stems_so_deep_links_resolve_on_a_fresh_server() -> None:
    for page in PAGES:
        assert page.url_path == Path(page.path).stem
    assert len({p.url_path for p in PAGES}) == len(PAGES)


def test_icons_are_material_icons_streamlit_knows() -> None:
    for page in PAGES:
        name = page.icon.removeprefix(":material/").removesuffix(":")
        assert is_material_icon(name), page.icon
    assert len({p.icon for p in PAGES}) == len(PAGES)


# The Workshop page's links: each opens the page at the section that answers its exercise.
def _workshop_links() -> list[tuple[str, dict[str, str]]]:
    from urllib.parse import parse_qsl

    from apptest_helpers import open_page

    at = open_page("workshop")
    links = [link.proto for link in at.get("page_link") if link.proto.label == "Open the section"]
    # The home page is the app's default page: its link's page is the empty path.
    return [(link.page or "home", dict(parse_qsl(link.query_string))) for link in links]


@pytest.fixture(scope="module")
def workshop_links() -> list[tuple[str, dict[str, str]]]:
    return _workshop_links()


def _exercises():
    from ui.workshop.listing import all_exercises

    return all_exercises()


def _question(exercise) -> str:
    from ui.common.i18n import catalogue

    return catalogue("en").gettext(exercise.question)


@pytest.mark.parametrize("number", range(len(_exercises())))
def test_each_workshop_link_opens_the_section_of_its_exercise(number: int, workshop_links) -> None:
    from apptest_helpers import open_page, open_tab

    exercises = _exercises()
    assert len(workshop_links) == len(exercises) == 41
    exercise = exercises[number]
    page, query = workshop_links[number]
    assert page == exercise.page
    at = open_page(page, query=query)
    question = _question(exercise)
    if not exercise.section:  # a page without tabs: the exercise is on the page
        assert not at.tabs and any(question in e.label for e in at.expander)
        return
    opened = open_tab(at)
    assert any(question in e.label for e in opened.get("expander")), (
        f"link {number + 1} ({page}?{query}) opened {opened.label!r}, without {question!r}"
    )
    first = at.tabs[0].label == opened.label
    address = {k: v for k, v in at.query_params.items() if k.endswith("_section")}
    assert address == ({} if first else {next(iter(query)): exercise.section})


def test_every_explored_page_is_drawn_by_the_one_runner() -> None:
    """One page shape (ui.common.page): each page script declares nothing of its own; the
    landing page and the workshop listing have no controls or story and draw themselves."""
    from ui.common.page import Page

    runners = {}
    for path in sorted((ROOT / "pages").glob("*.py")):
        code = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        runners[path.stem] = code[-1] == "draw(PAGE)" and len(code) <= 6
    assert {name for name, drawn in runners.items() if not drawn} == {"home", "workshop"}
    import importlib

    for name in ("laplace", "gaussian", "exponential", "bounding", "planner", "attacker"):
        assert isinstance(importlib.import_module(f"ui.{name}.page").PAGE, Page)
