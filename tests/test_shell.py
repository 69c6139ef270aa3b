"""The shared shell: presenter mode, seeds from links, and the log epsilon grid."""

import re

import pytest
from apptest_helpers import charts, open_page, open_tab, rerun, shown_label, widget

from ui.common.widgets import log_grid


def _label_sizes(at) -> set[int]:
    return {spec["config"]["axis"]["labelFontSize"] for spec, _ in charts(at)}


def test_presenter_mode_enlarges_text_and_charts_and_is_kept_in_the_link() -> None:
    at = open_page("laplace", query={"present": "1"})
    assert widget(at.sidebar.toggle, "present").value is True
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


def _choices(at) -> dict:
    """The page's radios and selectboxes with a key (the sidebar's language picker aside)."""
    found = [*at.radio, *at.selectbox]
    return {w.key: w for w in found if w.key and w.key != "lang" and "exercise_" not in w.key}


@pytest.mark.parametrize(
    ("page", "choices", "section"),
    [
        ("laplace", {"laplace_dataset": "census", "laplace_kind": "sum"}, ("noise", 2)),
        (
            "gaussian",
            {"gaussian_dataset": "census", "gaussian_kind": "sum", "gaussian_mechanism": "classic"},
            ("noise", 3),
        ),
    ],
)
def test_a_new_language_keeps_the_open_section_the_data_and_every_choice(
    page: str, choices: dict[str, str], section: tuple[str, int]
) -> None:
    at = open_page(page)
    for key, value in choices.items():
        widget(_choices(at).values(), key).set_value(value)
        rerun(at)
    key, number = section
    at.session_state[f"{page}__section"] = at.tabs[number - 1].label
    rerun(at)
    before = {k: (w.value, w.options[w.index]) for k, w in _choices(at).items()}
    assert {k: before[k][0] for k in choices} == choices

    widget(at.sidebar.selectbox, "lang").set_value("de")  # the sidebar's language picker
    rerun(at)

    assert open_tab(at).label == at.tabs[number - 1].label  # the section, now in German
    assert at.session_state[f"{page}__section"].startswith(f"{number}. ")
    assert at.query_params[f"{page}_section"] == key
    after = _choices(at)
    assert set(after) == set(before)
    for k, (value, label) in before.items():
        w = after[k]
        assert w.value == value, k
        # The option the browser shows: the same one, in German (not the English label it
        # held, which matches none of the German options: a radio would show none chosen).
        assert shown_label(w, label) == w.options[w.index], (k, label, w.options)
    assert widget(at.selectbox, f"{page}_dataset").options[1].startswith("Volkszählung")


def test_a_phone_is_the_same_width_in_the_stylesheet_and_the_report() -> None:
    """accessible.css's phone layout and accessible.js's report of a phone (given the width
    by accessible.py) start at one width."""
    from ui.common.accessible import _HERE, PHONE_WIDTH

    css = (_HERE / "accessible.css").read_text(encoding="utf-8")
    assert re.findall(r"@media \(max-width: (\d+)px\)", css) == [str(PHONE_WIDTH)]


def test_a_phone_folds_the_data_controls_away_as_a_projector_does() -> None:
    """Once the browser said its screen is a phone's (accessible.js), the data controls are
    in a closed box: ε comes on the first screen."""
    at = open_page("laplace")
    assert at.expander[0].label.startswith("About the data")
    assert at.button(key="laplace__preset_diseases_0_1")
    at.session_state["accessible"] = {"narrow": True}  # as the component's report sets it
    rerun(at)
    assert at.expander[0].label == "Data, query and noise"
    assert not [b for b in at.button if b.key.startswith("laplace__preset")]
