"""The address round trip: move a control, open the page again with only the address, and
find the control as it was.

The address is read as the browser shows it (apptest_helpers.browser_address): AppTest's own
``query_params`` holds only what the server writes, and misses every widget bound to the
address (``bind="query-params"``), which the browser writes itself.
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
    "laplace": [("laplace_dataset", "census"), ("laplace_category_census", "occupation")],
    "gaussian": [("gaussian_dataset", "census"), ("gaussian_category_census", "occupation")],
    "exponential": [("exponential_dataset", "census"), ("exponential_column_census", OTHER)],
    "randomized_response": [("rr_column_census", "sex")],
    "local_frequencies": [("lf_column_census", "sex")],
    "bounding": [("bounding_value_restaurant", "time_spent")],
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


def test_bound_widgets_are_in_the_browsers_address_but_not_in_apptests() -> None:
    """Why browser_address: a bound widget's parameter is written by the browser, so AppTest's
    query_params lacks it (if Streamlit starts writing it on the server, this fails and
    browser_address can become at.query_params)."""
    at = open_page("laplace")
    move(at, SECURE["laplace"])
    assert "laplace_secure" not in at.query_params
    assert browser_address(at)["laplace_secure"] == "true"
    reopened = open_page("laplace", query=dict(at.query_params))
    assert control(reopened, "laplace_secure").value is False
