"""The address round trip: move a control, open the page again with only the address, and
find the control as it was.

Every setting reaches the address through the server (ui.common.address.publish), so
AppTest's ``query_params`` is the address a browser shows, and the round trip is tested here
without a browser.
"""

import ast
from pathlib import Path

import pytest
from apptest_helpers import browser_address, open_page, rerun

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("toggle", "selectbox", "radio", "number_input", "text_input", "slider", "select_slider")
OTHER = object()  # set an option other than the control's current one


def control(at, key: str):
    """The widget with this key, of whichever kind."""
    for kind in KINDS:
        for element in getattr(at, kind):
            if element.key == key:
                return element
    raise AssertionError(f"no control with key {key!r}")


def move(at, steps: list[tuple[str, object]]) -> dict[str, object]:
    """Set each control in turn (rerunning after each); the values set, by key."""
    chosen = {}
    for key, value in steps:
        element = control(at, key)
        if value is OTHER:  # options shown as they are (a column's name)
            value = next(o for o in element.options if o != element.value)
        element.set_value(value)
        rerun(at)
        assert control(at, key).value == value, key
        chosen[key] = value
    return chosen


# The pages with a "Secure release" toggle (ui.common.release.secure_toggle), and the pages
# with a category or column choice.
SECURE = {
    "laplace": [("laplace_secure", True)],
    "gaussian": [("gaussian_secure", True)],
    "bounding": [("bounding_secure", True)],
}
COLUMNS = {
    "laplace": [("laplace_dataset", "census"), ("laplace_category", "occupation")],
    "gaussian": [("gaussian_dataset", "census"), ("gaussian_category", "occupation")],
    "exponential": [("exponential_dataset", "census"), ("exponential_column", OTHER)],
    "randomized_response": [("rr_column", "sex")],
    "local_frequencies": [("lf_column", "sex")],
    "bounding": [("bounding_value", "time_spent")],
}


def test_the_secure_toggle_pages_are_every_page_that_draws_one() -> None:
    drawn = {
        path.parent.name
        for path in ROOT.glob("ui/*/*.py")
        if "secure_toggle(" in path.read_text(encoding="utf-8") and path.parent.name != "common"
    }
    assert drawn == set(SECURE)


@pytest.mark.parametrize(
    "page, steps",
    [pytest.param(p, s, id=f"secure-{p}") for p, s in SECURE.items()]
    + [pytest.param(p, s, id=f"column-{p}") for p, s in COLUMNS.items()],
)
def test_a_control_survives_the_address_round_trip(page: str, steps) -> None:
    at = open_page(page)
    chosen = move(at, steps)
    address = browser_address(at)
    reopened = open_page(page, query=address)
    for key, value in chosen.items():
        assert control(reopened, key).value == value, (key, address)
    assert browser_address(reopened) == address  # and the address stays as it was


def test_one_module_reads_and_writes_the_address() -> None:
    """ui.common.address alone touches ``st.query_params``, and no widget is bound to the
    address by Streamlit (a page reads its settings through the settings layer). It alone
    forgets a session's settings too (a room's view): no other module reads the register of
    declared settings that ui.common.setting fills."""
    touching, forgetting = set(), set()
    for path in [*ROOT.glob("ui/**/*.py"), *ROOT.glob("pages/*.py"), ROOT / "app.py",
                 ROOT / "serve.py"]:  # fmt: skip
        text = path.read_text(encoding="utf-8")
        nodes = list(ast.walk(ast.parse(text)))
        name = path.relative_to(ROOT).as_posix()
        if 'bind="query-params"' in text or any(
            isinstance(node, ast.Attribute) and node.attr == "query_params" for node in nodes
        ):
            touching.add(name)
        if any(isinstance(node, ast.Name) and node.id == "DECLARED" for node in nodes):
            forgetting.add(name)
    assert touching == {"ui/common/address.py"}
    assert forgetting == {"ui/common/address.py", "ui/common/setting.py"}


def _presets() -> list[tuple[str, tuple]]:
    """The pages whose presets set something a section draws. (The DP-SGD presets set only
    the controls above its sections, drawn on every run; reopening that page after each preset
    took 50 s.)"""
    from ui.bounding.presets import PRESETS as BOUNDING
    from ui.exponential.presets import PRESETS as EXPONENTIAL
    from ui.gaussian.presets import PRESETS as GAUSSIAN
    from ui.laplace.presets import PRESETS as LAPLACE
    from ui.local.lf_presets import PRESETS as LOCAL_FREQUENCIES
    from ui.local.rr_presets import PRESETS as RANDOMIZED_RESPONSE
    from ui.synthetic.presets import PRESETS as SYNTHETIC

    return [("laplace", LAPLACE), ("gaussian", GAUSSIAN), ("exponential", EXPONENTIAL),
            ("randomized_response", RANDOMIZED_RESPONSE), ("bounding", BOUNDING),
            ("local_frequencies", LOCAL_FREQUENCIES), ("synthetic", SYNTHETIC)]  # fmt: skip


def _value_in_some_section(at, prefix: str, key: str):
    """The setting's value where the page draws it: in the open section, else in the first
    other section that does (a closed tab runs nothing)."""
    if key in at.session_state:
        return at.session_state[key]
    for label in [tab.label for tab in at.tabs]:
        at.session_state[f"{prefix}__section"] = label
        rerun(at)
        if key in at.session_state:
            return at.session_state[key]
    raise AssertionError(f"no section draws {key}")


@pytest.mark.parametrize(("page", "presets"), _presets(), ids=[p for p, _ in _presets()])
def test_after_each_preset_its_link_opens_with_its_values(page: str, presets) -> None:
    """Click every preset in turn, then the first again: after each, the address opens the
    preset's values, those of a section the preset leaves closed included (the exponential
    page's 10 draws used to stay in the address after the 1,000-run preset)."""
    at = open_page(page)
    for preset in (*presets, presets[0]):
        button = next(b for b in at.button if b.key.endswith(f"__preset_{preset.key}"))
        prefix = button.key.split("__preset_")[0]
        button.click()
        rerun(at)
        reopened = open_page(page, query=browser_address(at))
        for setting, value in preset.values.items():
            found = _value_in_some_section(reopened, prefix, setting.key)
            found = tuple(found) if isinstance(found, list) else found
            assert found == value, (preset.key, setting.key, found, value)
