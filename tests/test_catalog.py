"""The page catalogue that app.py and the home page are built from."""

from pathlib import Path

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
