"""The address round trip: move a control, open the page again with only the address, and
find the control as it was.

Every setting reaches the address through the server (ui.common.address.publish), so
AppTest's ``query_params`` is the address a browser shows, and the round trip is tested here
without a browser.
"""

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


def test_no_widget_writes_the_address_but_the_settings_layer() -> None:
    """One writer of the address: no widget bound by Streamlit, no direct write elsewhere."""
    writers = {
        path.relative_to(ROOT).as_posix()
        for path in [*ROOT.glob("ui/**/*.py"), *ROOT.glob("pages/*.py"), ROOT / "app.py"]
        for text in [path.read_text(encoding="utf-8")]
        if any(
            writer in text
            for writer in (
                'bind="query-params"',
                "st.query_params[",
                "= st.query_params\n",  # an alias, written through
                *(f"query_params.{verb}(" for verb in ("pop", "update", "clear", "from_dict")),
                "del st.query_params",
            )
        )
    }
    assert writers == {"ui/common/address.py"}
