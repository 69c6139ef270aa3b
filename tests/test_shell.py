"""The shared shell: presenter mode, seeds from links, and the log epsilon grid."""

from apptest_helpers import charts, open_page, rerun, widget

from ui.common.widgets import log_grid


def _label_sizes(at) -> set[int]:
    return {spec["config"]["axis"]["labelFontSize"] for spec, _ in charts(at)}


def test_presenter_mode_enlarges_text_and_charts_and_is_kept_in_the_link() -> None:
    at = open_page("laplace", query={"present": "1"})
    assert widget(at.sidebar.toggle, "presenter").value is True
    assert _label_sizes(at) == {22}  # tick labels of at least 20 px on a projector
    css = "".join(h.proto.body for h in at.get("html"))
    assert "font-size: 22px" in css and 'section[data-testid="stSidebar"]' in css
    assert at.query_params["present"] == "1"
    assert at.button(key="presenter_leave")  # the way back, since the sidebar is hidden
    assert at.button(key="laplace__section__next").proto.shortcut == "pagedown"
    at.button(key="laplace__section__next").click()
    rerun(at)
    assert at.session_state["laplace__section"] == "2. The noise itself"
    at.button(key="presenter_leave").click()
    rerun(at)
    assert _label_sizes(at) == {15}
    assert "present" not in at.query_params
    assert not at.get("html")


def test_log_grid_steps_evenly_through_each_decade() -> None:
    grid = log_grid(0.01, 10)
    assert grid[0] == 0.01 and grid[-1] == 10
    assert grid[:11] == [0.01, 0.012, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.06, 0.08, 0.1]
    assert len(grid) == 31
    assert grid == sorted(set(grid))


def test_typed_epsilon_outside_the_meaningful_range_is_refused_on_every_page() -> None:
    from ui.common.catalog import PAGES

    for page in PAGES:
        at = open_page(page.url_path)
        boxes = [t for t in at.text_input if t.key and t.key.endswith("epsilon__text")]
        if not boxes:  # the page shows epsilon only in another mode
            continue
        for typed in ("1e-5", "1e300"):
            boxes[0].set_value(typed)
            rerun(at)
            assert any("type an ε between 0.0001 and 100" in e.value for e in at.error), page
