"""The shared data settings in the address: a copied link opens the same data and query.

The data picker, the query picker, the categories, the cap and the secure toggle keep their
settings in the page's address under their widgets' keys, so a link opened in a new session
shows the same view. A link made with an own CSV file cannot carry the file: the page asks
for it again and keeps every other setting, applied once the file is there.
"""

from __future__ import annotations

import io

import pandas as pd
from apptest_helpers import chart_data, metric, open_page, rerun, widget

CENSUS_LINK = {
    "laplace_dataset": "census",
    "laplace_kind": "sum",
    "laplace_category": "marital_status",
    "laplace_value": "hours_per_week",
    "laplace_epsilon": "0.5",
}


def _truth(at) -> dict[str, float]:
    bars = chart_data(at, "bars")
    return bars[bars["series"].str.startswith("True")].set_index("group")["value"].to_dict()


def test_a_link_opens_the_census_data_with_its_query_and_epsilon() -> None:
    linked = open_page("laplace", query=CENSUS_LINK)
    assert widget(linked.selectbox, "laplace_dataset").value == "census"
    assert widget(linked.radio, "laplace_kind").value == "sum"
    assert widget(linked.selectbox, "laplace_category").value == "marital_status"
    assert widget(linked.selectbox, "laplace_value").value == "hours_per_week"
    # The same view reached by moving the controls by hand.
    moved = open_page("laplace")
    widget(moved.selectbox, "laplace_dataset").set_value("census")
    rerun(moved)
    widget(moved.radio, "laplace_kind").set_value("sum")
    rerun(moved)
    widget(moved.selectbox, "laplace_category").set_value("marital_status")
    widget(moved.selectbox, "laplace_value").set_value("hours_per_week")
    widget(moved.select_slider, "laplace_epsilon").set_value(0.5)
    rerun(moved)
    assert _truth(linked) == _truth(moved)
    assert len(_truth(linked)) == 7  # the seven published marital statuses
    assert metric(linked, "Noise scale") == metric(moved, "Noise scale")
    for name in ("laplace_dataset", "laplace_kind", "laplace_epsilon"):
        assert linked.query_params[name] == CENSUS_LINK[name], name


def test_an_invalid_value_in_a_link_is_dropped_and_the_default_used() -> None:
    at = open_page("laplace", query={"laplace_dataset": "nonsense", "laplace_kind": "sum"})
    assert widget(at.selectbox, "laplace_dataset").value == "diseases"
    assert "laplace_dataset" not in at.query_params
    # Counting diseases offers no sum: the linked kind falls back to the first one.
    assert widget(at.radio, "laplace_kind").value == "count"


# customer_id is proposed as the person (its name says so); the link says `member`.
SHOPS = b"customer_id,member,shop\n" + b"".join(
    f"{i},m{i % 20},{'ABC'[i % 3]}\n".encode() for i in range(120)
)
OWN_LINK = {
    "laplace_dataset": "own_csv",
    "laplace_person_own": "member",
    "laplace_category": "shop",
    "laplace_cats": "A\nB",
    "laplace_cap": "2",
    "laplace_epsilon": "0.5",
}


def test_a_link_with_an_own_csv_asks_for_the_file_and_keeps_the_rest() -> None:
    at = open_page("laplace", query=OWN_LINK)
    assert widget(at.selectbox, "laplace_dataset").value == "own_csv"
    assert any("Upload the CSV file again" in w.value for w in at.warning)
    assert not at.metric and not at.exception
    for name, value in OWN_LINK.items():  # nothing of the link is lost while it waits
        assert at.query_params[name] == value, name
    at.file_uploader(key="laplace_upload").set_value(("shops.csv", SHOPS, "text/csv"))
    rerun(at)
    assert not at.warning and not at.error
    assert widget(at.selectbox, "laplace_person_own").value == "member"
    assert widget(at.selectbox, "laplace_category").value == "shop"
    assert at.text_area(key="laplace_cats").value == "A\nB"
    assert widget(at.number_input, "laplace_cap").value == 2
    assert at.session_state["laplace_epsilon"] == 0.5
    # 20 members with 6 rows each, the first 2 of each kept: one member moves the counts
    # by at most 2, and only the declared shops A and B are released.
    assert metric(at, "Sensitivity") == "2"
    kept = pd.read_csv(io.BytesIO(SHOPS)).groupby("member").head(2)
    assert _truth(at) == kept["shop"].value_counts().reindex(["A", "B"]).to_dict()


def test_the_secure_toggle_and_the_cap_open_from_a_link() -> None:
    at = open_page(
        "laplace",
        query={"laplace_dataset": "restaurant", "laplace_cap": "3",
               "laplace_secure": "true"},
    )  # fmt: skip
    assert widget(at.toggle, "laplace_secure").value is True
    assert widget(at.number_input, "laplace_cap").value == 3
    assert metric(at, "Sensitivity") == "3"


def test_the_same_link_in_german_asks_in_german_and_the_choices_survive_a_rerun() -> None:
    at = open_page("laplace", query={**OWN_LINK, "lang": "de"})
    assert any("Laden Sie die CSV-Datei erneut hoch" in w.value for w in at.warning)
    assert widget(at.selectbox, "laplace_dataset").options[-2] == "Ihre eigene CSV-Datei …"
    at.file_uploader(key="laplace_upload").set_value(("shops.csv", SHOPS, "text/csv"))
    rerun(at)  # the translated choices are sent back as the labels shown
    assert widget(at.selectbox, "laplace_person_own").value == "member"
    assert metric(at, "Sensitivität") == "2"
