"""The contribution-bounding page through AppTest: the published figures appear on the page."""

from __future__ import annotations

import numpy as np
import pytest
from apptest_helpers import metric, open_page, plotly_figures, rerun, texts, trace_array, widget

CAP = "bounding_max_groups_restaurant"
BOUNDS = "bounding_bounds_restaurant_money_spent"
TRUE_VISITS = [300, 300, 400, 400, 450, 500, 500]
TRUE_REVENUE = [8678, 8696, 12088, 12079, 13765, 16576, 16500]


@pytest.fixture
def at():
    return open_page("bounding")


def bars(at, index: int) -> dict[str, np.ndarray]:
    """The bar traces of the index-th figure, by name."""
    figure = plotly_figures(at)[index]
    return {t["name"]: trace_array(t["y"]) for t in figure["data"] if t["type"] == "bar"}


def figure_with_axis(at, title: str) -> dict:
    for figure in plotly_figures(at):
        if figure["layout"].get("xaxis", {}).get("title", {}).get("text") == title:
            return figure
    raise AssertionError(f"no figure with x axis {title!r}")


def test_defaults_are_the_teaching_settings(at):
    assert metric(at, "Visits dropped") == "25"  # cap of 4 days
    assert metric(at, "Visitors with more than 4 days") == "23"
    assert metric(at, "Sensitivity of one day's sum") == "50"
    assert metric(at, "Sensitivity of all days' sums (L1)") == "200"  # 4 x 50
    visits = bars(at, 0)
    np.testing.assert_array_equal(visits["True, all records"], TRUE_VISITS)
    revenue = bars(at, 1)
    np.testing.assert_array_equal(revenue["True, all records"], TRUE_REVENUE)
    assert "7 days at ε = 0.5 each cost 3.5" in texts(at)


def test_capping_at_three_days_drops_157_visits(at):
    widget(at.slider, CAP).set_value(3)
    rerun(at)
    assert metric(at, "Visits dropped") == "157"
    assert metric(at, "Visitors with more than 3 days") == "132"
    assert bars(at, 0)["True after bounding"].sum() == 2850 - 157
    assert metric(at, "Sensitivity of all days' sums (L1)") == "150"


@pytest.mark.parametrize(
    ("cap", "dropped", "visitors"),
    [
        (1, 2850 - 1360, "Visitors with more than 1 day: 920"),
        (6, 0, "Visitors with more than 6 days: 0"),
    ],
)
def test_cap_slider_ends(at, cap, dropped, visitors):
    widget(at.slider, CAP).set_value(cap)
    rerun(at)
    assert metric(at, "Visits dropped") == f"{dropped:,}"
    assert visitors in texts(at)
    histogram = figure_with_axis(at, "days per visitor")
    colors = histogram["data"][0]["marker"]["color"]
    assert colors.count("#d1495b") == 6 - cap  # bars above the cap are highlighted


def test_four_visits_per_day_at_50_is_200(at):
    widget(at.slider, "bounding_max_per_group_restaurant").set_value(4)
    rerun(at)
    assert metric(at, "Sensitivity of one day's sum") == "200"  # 4 x 50
    assert metric(at, "Sensitivity of all days' sums (L1)") == "800"
    assert metric(at, "Visits dropped") == "25"  # nobody visits twice a day: nothing more
    assert "scale 4 / 0.5 = 8 on every day" in texts(at)  # the count's noise grows


def test_pre_aggregation_bounds_65(at):
    widget(at.toggle, "bounding_pre_aggregate").set_value(True)
    widget(at.slider, BOUNDS).set_value((0.0, 65.0))
    widget(at.slider, "bounding_max_per_group_restaurant").set_value(5)
    rerun(at)
    assert metric(at, "Sensitivity of one day's sum") == "65"  # linf no longer matters
    assert metric(at, "Sensitivity of all days' sums (L1)") == "260"


def test_clipping_at_50_with_every_visit_kept(at):
    widget(at.slider, CAP).set_value(6)
    rerun(at)
    revenue = bars(at, 1)["True after bounding"]
    np.testing.assert_array_equal(revenue, [8642, 8696, 11998, 12054, 13765, 16576, 16500])


def test_first_days_keep_the_start_of_the_week(at):
    widget(at.radio, "bounding_selection").set_value("first")
    widget(at.slider, CAP).set_value(3)
    rerun(at)
    after = bars(at, 0)["True after bounding"]
    np.testing.assert_array_equal(after[:3], [300, 300, 400])
    assert after.sum() == 2850 - 157


def test_budget_bar(at):
    budget = figure_with_axis(at, "total ε, one statistic")
    segments = np.array([trace_array(trace["x"]) for trace in budget["data"]])
    rows = budget["data"][0]["y"]  # segment k of every row is in trace k
    totals = dict(zip(rows, segments.sum(axis=0), strict=True))
    assert totals == pytest.approx(
        {"Day by day": 3.5, "Same noise, with the cap of 4": 2.0, "All days at once": 3.5}
    )
    assert (segments[:, 0] == 0.5).sum() == 7  # one block of 0.5 per day
    assert "ε = 0.875 per day" in texts(at)


def test_best_cap_for_one_release_of_the_week(at):
    widget(at.text_input, "bounding_epsilon__text").set_value("0.05")
    rerun(at)
    widget(at.radio, "bounding_plan").set_value("whole week at once")
    widget(at.radio, "bounding_tradeoff_statistic").set_value("count")
    rerun(at)
    page = texts(at)
    assert "Best cap on days: 4" in page  # exact bias + Laplace noise, see test_bounding
    tradeoff = figure_with_axis(at, "cap on days per visitor")
    star = next(t for t in tradeoff["data"] if t["name"].startswith("best"))
    assert star["x"] == [4]
    rmse = trace_array(next(t["y"] for t in tradeoff["data"] if t["name"].startswith("expected")))
    assert int(np.argmin(rmse)) + 1 == 4


def week_selection_sd(cap: int) -> np.ndarray:
    """Per day: sqrt(sum over that day's visits of p(1 - p)), p = min(1, cap / days of visitor).

    A visitor comes at most once a day, so each visit is kept or dropped on its own.
    """
    from data.registry import load_dataset

    week = load_dataset("restaurant")
    days = week.groupby("visitor_id")["day"].transform("size").to_numpy()
    p = np.minimum(1, cap / days)
    return np.sqrt(np.bincount(week["day"].to_numpy() - 1, p * (1 - p)))


def week_selection_sd_all() -> np.ndarray:
    """week_selection_sd for every cap 1..6: shape (caps, days)."""
    return np.array([week_selection_sd(cap) for cap in range(1, 7)])


def test_table_adds_the_spread_of_the_random_choice(at):
    counts = at.dataframe[0].value
    np.testing.assert_allclose(counts["selection sd"], week_selection_sd(4).round(1), atol=0.051)
    assert counts["selection sd"].max() > counts["noise sd"].max() / 2  # 1.8 against 2.8
    rmse = np.sqrt(counts["expected bias"] ** 2 + counts["selection sd"] ** 2 + 2.83**2)
    np.testing.assert_allclose(counts["expected RMSE"], rmse, atol=0.15)
    assert "Expected RMSE = √(bias² + selection sd² + noise sd²), computed exactly" in texts(at)
    assert "Neighbouring datasets on this page: one visitor added or removed" in texts(at)
    widget(at.slider, CAP).set_value(1)
    rerun(at)
    sd = at.dataframe[0].value["selection sd"]
    assert sd.min() > 7.4 and sd.max() < 9.8  # far more than the Laplace sd of 2.8
    widget(at.radio, "bounding_selection").set_value("first")
    rerun(at)
    assert not at.dataframe[0].value["selection sd"].any()
    tradeoff = figure_with_axis(at, "cap on days per visitor")
    assert not any(t["name"].startswith("random choice") for t in tradeoff["data"])


def test_the_star_counts_the_spread_of_the_random_choice(at):
    """At 1.5 per day in one release, bias + noise alone would star cap 5; the spread makes it 6."""
    widget(at.text_input, "bounding_epsilon__text").set_value("1.5")
    widget(at.radio, "bounding_plan").set_value("whole week at once")
    widget(at.radio, "bounding_tradeoff_statistic").set_value("count")
    rerun(at)
    assert "Best cap on days: 6" in texts(at)
    tradeoff = figure_with_axis(at, "cap on days per visitor")
    lines = {t["name"]: trace_array(t["y"]) for t in tradeoff["data"]}
    selection = lines["random choice of kept records (sd)"]
    np.testing.assert_allclose(selection, np.sqrt(np.mean(week_selection_sd_all() ** 2, axis=1)))
    bias, noise = lines["bias from dropped and clipped data"], lines["noise (standard deviation)"]
    assert int(np.argmin(np.hypot(bias, noise))) + 1 == 5
    np.testing.assert_allclose(
        lines["expected error (RMSE)"], np.sqrt(bias**2 + selection**2 + noise**2)
    )


def test_widest_bounds_and_every_visit(at):
    widget(at.slider, CAP).set_value(6)
    widget(at.slider, BOUNDS).set_value((0.0, 100.0))
    rerun(at)
    revenue = bars(at, 1)["True after bounding"]
    assert revenue.sum() == 88382 - 20  # only the visit of 120 is clipped, to 100
    assert metric(at, "Sensitivity of all days' sums (L1)") == "600"


@pytest.mark.parametrize(("epsilon", "scale"), [(0.01, "100"), (10.0, "0.1")])
def test_epsilon_slider_ends(at, epsilon, scale):
    widget(at.select_slider, "bounding_epsilon__slider").set_value(epsilon)
    rerun(at)
    assert f"Laplace noise with scale 1 / {epsilon:g} = {scale} on every day" in texts(at)


def test_try_this_best_cap_falls_to_three(at):
    widget(at.radio, "bounding_plan").set_value("whole week at once")
    widget(at.text_input, "bounding_epsilon__text").set_value("0.02")
    rerun(at)
    assert "Best cap on days: 3" in texts(at)


def test_upper_bound_tradeoff(at):
    tradeoff = figure_with_axis(at, "upper clipping bound U for money_spent")
    x = trace_array(tradeoff["data"][0]["x"])
    assert x.min() > 0 and x.max() == pytest.approx(100)
    assert "Best upper bound" in texts(at)


def test_bad_inputs_show_messages(at):
    widget(at.slider, BOUNDS).set_value((50.0, 50.0))
    rerun(at)
    assert any("lower bound must be below" in e.value for e in at.error)
    assert metric(at, "Visits dropped") == "25"  # the counts still work
    widget(at.slider, BOUNDS).set_value((0.0, 50.0))
    widget(at.selectbox, "bounding_value_restaurant").set_value("time_entered")
    rerun(at)
    assert any("not numeric" in e.value for e in at.error)
    assert metric(at, "Visits dropped") == "25"
    widget(at.text_input, "bounding_epsilon__text").set_value("0")
    rerun(at)
    assert any("greater than 0" in e.value for e in at.error)


def test_census_group_with_missing_values(at):
    widget(at.selectbox, "bounding_dataset").set_value("census")
    rerun(at)
    assert metric(at, "Rows dropped") == "0"
    widget(at.selectbox, "bounding_group_census").set_value("occupation")
    rerun(at)
    assert any("missing value" in e.value for e in at.error)


@pytest.mark.parametrize("key", ["census", "tips"])
def test_one_row_per_person(at, key):
    widget(at.selectbox, "bounding_dataset").set_value(key)
    rerun(at)
    assert "caps on records remove nothing" in texts(at)
    if key == "tips":
        assert "That is an assumption, not a fact: a bill is a party" in texts(at)
        assert "In this dataset each row is one" not in texts(at)
    assert metric(at, "Rows dropped" if key == "census" else "Bills dropped") == "0"
    figures = plotly_figures(at)
    true, after = bars(at, 0)["True, all records"], bars(at, 0)["True after bounding"]
    np.testing.assert_array_equal(true, after)
    assert len(figures) == 4  # counts, sums, the upper-bound trade-off, the budget
    assert "Best upper bound" in texts(at)


# --- Lower bound, Gaussian noise, the user's own CSV -------------------------------------------


def test_lower_bound_tradeoff_stars_the_brute_force_best(at):
    """Every L on the chart against cap_tradeoff run at that L alone; ties go to the largest L."""
    from data.registry import load_dataset
    from dp_core import cap_tradeoff, contribution_table

    widget(at.slider, BOUNDS).set_value((10.0, 50.0))
    widget(at.radio, "bounding_tradeoff_bound").set_value("lower")
    rerun(at)
    tradeoff = figure_with_axis(at, "lower clipping bound L for money_spent")
    lines = {t["name"]: t for t in tradeoff["data"]}
    lowers = trace_array(lines["expected error (RMSE)"]["x"])
    rmse = trace_array(lines["expected error (RMSE)"]["y"])
    np.testing.assert_allclose(np.sort(lowers), np.linspace(-30, 50, 101)[:-1])
    table = contribution_table(load_dataset("restaurant"), "visitor_id", "day", "money_spent")
    plan = {"epsilon_per_group": 0.5, "joint": False, "max_per_group": 1}
    brute = np.array(
        [
            cap_tradeoff(table, "sum", caps=[4], lower=low, upper=50.0, **plan)["rmse"].iloc[0]
            for low in lowers
        ]
    )
    np.testing.assert_allclose(rmse, brute, rtol=1e-9)
    best = lowers[np.flatnonzero(brute == brute.min())].max()
    star = next(t for t in tradeoff["data"] if t["name"].startswith("best"))
    assert star["x"] == [pytest.approx(best)]
    assert f"Best lower bound: {best:,.4g}" in texts(at)


def test_gaussian_noise_is_the_analytic_sigma(at):
    """Day by day: sigma for (0.5, 1e-6) at sensitivity 1; the week: sqrt(4) at (3.5, 7e-6)."""
    import dp_accounting

    from dp_core import analytic_gaussian_sigma

    widget(at.radio, "bounding_mechanism").set_value("gaussian")
    rerun(at)
    sigma = analytic_gaussian_sigma(1.0, 0.5, 1e-6)
    assert sigma == pytest.approx(dp_accounting.get_sigma_gaussian(0.5, 1e-6), rel=1e-6)
    counts = at.dataframe[0].value
    np.testing.assert_allclose(counts["noise sd"], round(sigma, 1))
    assert f"Gaussian noise with σ = {sigma:.3g} on every day" in texts(at)
    assert metric(at, "Sensitivity of all days' sums (L2)") == "100"  # sqrt(4) x 50
    assert "7 days at (ε, δ) = (0.5, 10⁻⁶) each cost (3.5, 7×10⁻⁶)" in texts(at)
    assert "cost at most (2, 4×10⁻⁶)" in texts(at)
    budget = figure_with_axis(at, "total ε, one statistic")
    notes = [a["text"] for a in budget["layout"]["annotations"]]
    assert any("4 × (0.5, 10⁻⁶) = (2, 4×10⁻⁶)" in note for note in notes)
    widget(at.radio, "bounding_plan").set_value("whole week at once")
    rerun(at)
    week_sigma = dp_accounting.get_sigma_gaussian(3.5, 7e-6) * 2.0  # L2 = sqrt(4) x 1
    np.testing.assert_allclose(at.dataframe[0].value["noise sd"], round(week_sigma, 1))
    widget(at.text_input, "bounding_delta__text").set_value("0.2")
    rerun(at)  # 7 x 0.2 = 1.4: no guarantee for one release of the week
    assert any("must be below 1" in e.value for e in at.error)


def test_laplace_stays_the_default(at):
    assert widget(at.radio, "bounding_mechanism").value == "laplace"
    assert not [t for t in at.text_input if t.key == "bounding_delta__text"]


# Four persons in three groups. p1 has two rows in A; p0 and p3 are in all three groups.
VISITS = b"""person,group,amount,note
p0,A,10,x
p0,B,20,x
p0,C,30,y
p1,A,5,y
p1,A,7,x
p1,B,100,y
p2,C,40,x
p3,A,1,x
p3,B,2,y
p3,C,3,x
"""


def by_prefix(elements, prefix: str):
    """The one widget whose key starts with prefix (upload widgets carry the file's id)."""
    (found,) = [e for e in elements if e.key and e.key.startswith(prefix)]
    return found


def upload(at, data: bytes, person: str | None = "person"):
    widget(at.selectbox, "bounding_dataset").set_value("own_csv")
    rerun(at)
    at.file_uploader(key="bounding_upload").set_value(("visits.csv", data, "text/csv"))
    rerun(at)
    if person:
        widget(at.selectbox, "bounding_person").set_value(person)
        rerun(at)
    return at


def test_own_csv_needs_a_person_column(at):
    upload(at, VISITS, person=None)
    assert any("Bounding needs to know whose rows are whose" in w.value for w in at.warning)
    assert not at.metric


def test_own_csv_caps_and_sensitivities_by_hand(at):
    upload(at, VISITS)
    assert by_prefix(at.selectbox, "bounding_group_own").value == "group"
    assert by_prefix(at.selectbox, "bounding_value_own").value == "amount"
    assert metric(at, "Rows dropped by the caps") == "1"  # p1's second row in A (linf = 1)
    assert metric(at, "Sensitivity of one group's sum") == "100"  # bounds [0, 100] from the data
    assert metric(at, "Sensitivity of all groups' sums (L1)") == "300"  # 3 groups x 100
    assert "These bounds start at [0, 100], read from your file" in texts(at)
    assert "a real release must fix its clipping bounds in advance" in texts(at)
    widget(at.radio, "bounding_selection").set_value("first")
    by_prefix(at.slider, "bounding_max_groups_own").set_value(1)
    rerun(at)
    # first group only: p0 drops B, C; p1 keeps one row of A, drops A and B; p3 drops B, C
    assert metric(at, "Rows dropped by the caps") == "6"
    assert metric(at, "Persons with more than 1 group") == "3"
    np.testing.assert_array_equal(bars(at, 0)["True after bounding"], [3, 0, 1])
    np.testing.assert_array_equal(bars(at, 1)["True after bounding"], [16, 0, 40])
    by_prefix(at.slider, "bounding_max_groups_own").set_value(2)
    by_prefix(at.slider, "bounding_max_per_group_own").set_value(2)
    widget(at.radio, "bounding_mechanism").set_value("gaussian")
    rerun(at)
    assert metric(at, "Sensitivity of one group's sum") == "200"  # 2 rows x 100
    assert metric(at, "Sensitivity of all groups' sums (L2)") == "282.8"  # sqrt(2) x 200
    assert "Best upper bound" in texts(at) and "Best pair: L = " in texts(at)


@pytest.mark.parametrize(
    ("data", "choose", "message"),
    [
        (b"", {}, "is empty"),
        (b"person,group\np1,A\n,B\np2,A\n", {}, "1 rows have no “person”"),
        (VISITS, {"value": "note"}, "is not numeric"),
        (VISITS.replace(b"100", b"inf"), {}, "has infinite values"),
        (VISITS.replace(b",B,", b",A,").replace(b",C,", b",A,"), {}, "has one category only"),
    ],
)
def test_own_csv_bad_input_gets_a_message(at, data, choose, message):
    upload(at, data, person=None)
    if message != "is empty":
        widget(at.selectbox, "bounding_person").set_value("person")
        rerun(at)
    if "value" in choose:
        by_prefix(at.selectbox, "bounding_value_own").set_value(choose["value"])
        rerun(at)
    assert any(message in e.value for e in at.error), [e.value for e in at.error]
    if "value" in choose:  # the counts still work
        assert metric(at, "Rows dropped by the caps") == "1"


def test_best_pair_of_bounds_is_the_brute_force_best(at):
    """The diamond: both bounds moved at once over the slider's range, 51 x 51 points."""
    from data.registry import load_dataset
    from dp_core import cap_tradeoff, contribution_table

    widget(at.text_input, "bounding_epsilon__text").set_value("0.1")
    rerun(at)
    grid = np.linspace(0.0, 100.0, 51)  # the slider's range for money_spent
    table = contribution_table(load_dataset("restaurant"), "visitor_id", "day", "money_spent")
    plan = {"epsilon_per_group": 0.1, "joint": False, "caps": [4]}
    pairs = [(low, up) for low in grid[::5] for up in grid[::5] if low < up]  # brute force
    brute = [
        cap_tradeoff(table, "sum", lower=lo, upper=up, **plan)["rmse"].iloc[0] for lo, up in pairs
    ]
    tradeoff = figure_with_axis(at, "upper clipping bound U for money_spent")
    diamond = next(t for t in tradeoff["data"] if t["name"].startswith("best pair"))
    star = next(t for t in tradeoff["data"] if t["name"].startswith("best:"))
    assert diamond["y"][0] <= star["y"][0] + 1e-9  # moving L too never does worse
    assert diamond["y"][0] <= min(brute) + 1e-9  # the full grid beats its every fifth point
    low = float(diamond["name"].split("L = ")[1].split(" ")[0])
    best = cap_tradeoff(table, "sum", lower=low, upper=diamond["x"][0], **plan)["rmse"].iloc[0]
    assert diamond["y"][0] == pytest.approx(best)
    assert f"Best pair: L = {low:,.4g}, U = {diamond['x'][0]:,.4g}" in texts(at)
