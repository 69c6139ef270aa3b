"""The contribution-bounding page through AppTest: the published figures appear on the page."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import (
    READ_BOUNDS,
    READ_CAP,
    READ_CATEGORIES,
    chart_data,
    charts,
    click_preset,
    metric,
    not_private,
    open_page,
    problems,
    rerun,
    successes,
    texts,
    upload_file,
    widget,
)
from fragment_helpers import fragment_of, parent_fragment, run_fragment

CAP = "bounding_max_groups"
LINF = "bounding_max_per_group"
BOUNDS = "bounding_bounds"
TRUE_VISITS = [300, 300, 400, 400, 450, 500, 500]
TRUE_REVENUE = [8678, 8696, 12088, 12079, 13765, 16576, 16500]
ANSWERS, CONTRIBUTIONS, TRADEOFF, BUDGET = (
    "1. Noisy answers, before and after bounding",
    "2. Contributions per person",
    "3. Bias against noise",
    "4. What the week costs",
)


@pytest.fixture
def at():
    return open_page("bounding")


def section(at, label: str):
    at.session_state["bounding__section"] = label
    return rerun(at)


def bars(at, index: int) -> dict[str, np.ndarray]:
    """The index-th before/after/noisy chart (0: counts, 1: sums): values by series, in order."""
    frame = [data for _, data in charts(at) if "bars" in data][index]["bars"]
    return {name: rows["value"].to_numpy() for name, rows in frame.groupby("series", sort=False)}


def groups_shown(at) -> list[str]:
    return list(dict.fromkeys(chart_data(at, "bars")["group"]))


def table(at, statistic: str = "count") -> pd.DataFrame:
    """The expected errors per group (opening the table's expander)."""
    at.session_state[f"bounding_table_{statistic}"] = True
    return rerun(at).dataframe[0].value


def lines(at, prefix: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """A trade-off chart's lines: series name -> (settings, values), as drawn (left to right)."""
    frame = chart_data(at, f"{prefix}_lines")
    return {
        name: (rows["x"].to_numpy(), rows["value"].to_numpy())
        for name, rows in frame.groupby("series", sort=False)
    }


def best(at, prefix: str) -> float:
    return float(chart_data(at, f"{prefix}_best")["x"].iloc[0])


def typed_epsilon(at, value: str):
    widget(at.text_input, "bounding_epsilon__text").set_value(value)
    return rerun(at)


def test_defaults_are_the_teaching_settings(at):
    assert metric(at, "Visits dropped") == "25"  # cap of 4 days
    assert metric(at, "Visitors with more than 4 days") == "23"
    assert metric(at, "Sensitivity of one day's sum") == "50"
    assert metric(at, "Sensitivity of all days' sums (L1)") == "200"  # 4 x 50
    np.testing.assert_array_equal(bars(at, 0)["True, all records"], TRUE_VISITS)
    np.testing.assert_array_equal(bars(at, 1)["True, all records"], TRUE_REVENUE)
    assert groups_shown(at) == ["1", "2", "3", "4", "5", "6", "7"]  # the public domain
    box = successes(at)[0]  # counts and sums, 4 days a visitor at 0.5 each: 2 x 2
    assert "Guarantee: 4-DP" in box and "each person (`visitor_id`, with all their rows)" in box
    assert "the noisy counts and sums of the 7 days (ε = 4)" in box
    assert "numpy's floating-point draws from the seed" in box
    section(at, BUDGET)
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
        (7, 0, "Visitors with more than 7 days: 0"),  # the slider runs over the 7 public days
    ],
)
def test_cap_slider_ends(at, cap, dropped, visitors):
    assert widget(at.slider, CAP).max == 7
    widget(at.slider, CAP).set_value(cap)
    rerun(at)
    assert metric(at, "Visits dropped") == f"{dropped:,}"
    assert visitors in texts(at)
    section(at, CONTRIBUTIONS)
    histogram = chart_data(at, "histogram")
    assert histogram["persons"].tolist() == [440, 507, 281, 109, 21, 2]
    assert (histogram["color"] == "#d1495b").sum() == max(0, 6 - cap)  # bars above the cap
    assert chart_data(at, "cap")["label"].tolist() == [f"cap = {cap}"]
    caps = at.dataframe[0].value.set_index("cap on days")
    assert caps.loc[3, "visits dropped"] == 157 and caps.loc[4, "visits dropped"] == 25


def test_four_visits_per_day_at_50_is_200(at):
    widget(at.slider, LINF).set_value(4)
    rerun(at)
    assert metric(at, "Sensitivity of one day's sum") == "200"  # 4 x 50
    assert metric(at, "Sensitivity of all days' sums (L1)") == "800"
    assert metric(at, "Visits dropped") == "25"  # nobody visits twice a day: nothing more
    assert "scale 4 / 0.5 = 8 on every day" in texts(at)  # the count's noise grows


def test_pre_aggregation_bounds_65(at):
    widget(at.toggle, "bounding_pre_aggregate").set_value(True)
    widget(at.slider, BOUNDS).set_value((0.0, 65.0))
    widget(at.slider, LINF).set_value(5)
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
    section(at, BUDGET)
    segments = chart_data(at, "segments")
    totals = segments.groupby("plan", sort=False)["epsilon"].sum().to_dict()
    assert totals == pytest.approx(
        {"Day by day": 3.5, "Same noise, with the cap of 4": 2.0, "All days at once": 3.5}
    )
    by_day = segments[segments["plan"] == "Day by day"]
    assert (by_day["epsilon"] == 0.5).sum() == 7  # one block of 0.5 per day
    assert "ε = 0.875 per day" in texts(at)
    assert chart_data(at, "totals")["note"].tolist()[:2] == ["7 × 0.5 = 3.5", "4 × 0.5 = 2"]


def test_best_cap_for_one_release_of_the_week(at):
    typed_epsilon(at, "0.05")
    widget(at.radio, "bounding_plan").set_value("whole week at once")
    rerun(at)
    section(at, TRADEOFF)
    widget(at.radio, "bounding_tradeoff_statistic").set_value("count")
    rerun(at)
    assert "Best cap on days: 4" in texts(at)  # exact bias + Laplace noise, see test_bounding
    assert best(at, "cap") == 4
    caps, rmse = lines(at, "cap")["expected error (RMSE)"]
    assert caps.tolist() == list(range(1, 8))
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
    """week_selection_sd for every cap 1..7: shape (caps, days)."""
    return np.array([week_selection_sd(cap) for cap in range(1, 8)])


def test_table_adds_the_spread_of_the_random_choice(at):
    counts = table(at, "count")
    np.testing.assert_allclose(counts["selection sd"], week_selection_sd(4).round(1), atol=0.051)
    assert counts["selection sd"].max() > counts["noise sd"].max() / 2  # 1.8 against 2.8
    rmse = np.sqrt(counts["expected bias"] ** 2 + counts["selection sd"] ** 2 + 2.83**2)
    np.testing.assert_allclose(counts["expected RMSE"], rmse, atol=0.15)
    assert "Expected RMSE = √(bias² + selection sd² + noise sd²), computed exactly" in texts(at)
    at.session_state["bounding_formula"] = True  # the formula box draws only when open
    assert "Neighbouring datasets on this page: one visitor added or removed" in texts(rerun(at))
    widget(at.slider, CAP).set_value(1)
    rerun(at)
    sd = at.dataframe[0].value["selection sd"]
    assert sd.min() > 7.4 and sd.max() < 9.8  # far more than the Laplace sd of 2.8
    widget(at.radio, "bounding_selection").set_value("first")
    rerun(at)
    assert not at.dataframe[0].value["selection sd"].any()
    section(at, TRADEOFF)
    assert not any(name.startswith("random choice") for name in lines(at, "cap"))


def test_the_star_counts_the_spread_of_the_random_choice(at):
    """At 1.5 per day in one release, bias + noise alone would star cap 5; the spread makes it 6."""
    typed_epsilon(at, "1.5")
    widget(at.radio, "bounding_plan").set_value("whole week at once")
    section(at, TRADEOFF)
    widget(at.radio, "bounding_tradeoff_statistic").set_value("count")
    rerun(at)
    assert "Best cap on days: 6" in texts(at)
    drawn = {name: values for name, (_, values) in lines(at, "cap").items()}
    selection = drawn["random choice of kept records (sd)"]
    np.testing.assert_allclose(selection, np.sqrt(np.mean(week_selection_sd_all() ** 2, axis=1)))
    assert selection[-1] == 0  # cap 7 keeps every visit: no choice to make
    bias, noise = drawn["bias from dropped and clipped data"], drawn["noise (standard deviation)"]
    assert int(np.argmin(np.hypot(bias, noise))) + 1 == 5
    np.testing.assert_allclose(
        drawn["expected error (RMSE)"], np.sqrt(bias**2 + selection**2 + noise**2)
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
    widget(at.select_slider, "bounding_epsilon").set_value(epsilon)
    rerun(at)
    assert f"Laplace noise with scale 1 / {epsilon:g} = {scale} on every day" in texts(at)
    section(at, BUDGET)
    assert f"7 days at ε = {epsilon:g} each cost {7 * epsilon:g}" in texts(at)


def test_try_this_best_cap_falls_to_three(at):
    widget(at.radio, "bounding_plan").set_value("whole week at once")
    typed_epsilon(at, "0.02")
    section(at, TRADEOFF)
    assert "Best cap on days: 3" in texts(at)


def test_upper_bound_tradeoff(at):
    section(at, TRADEOFF)
    uppers, _ = lines(at, "bound")["expected error (RMSE)"]
    assert uppers.min() > 0 and uppers.max() == pytest.approx(100)
    assert "Best upper bound" in texts(at)
    assert chart_data(at, "bound_now")["label"].tolist() == ["yours: 50"]


def test_bad_inputs_show_messages(at):
    widget(at.slider, BOUNDS).set_value((50.0, 50.0))
    rerun(at)
    assert any("lower bound must be below" in e.value for e in at.error)
    assert metric(at, "Visits dropped") == "25"  # the counts still work
    widget(at.slider, BOUNDS).set_value((0.0, 50.0))
    widget(at.selectbox, "bounding_value").set_value("time_entered")
    rerun(at)
    assert any("not numeric" in e.value for e in at.error)
    assert metric(at, "Visits dropped") == "25"
    typed_epsilon(at, "0")
    assert any("greater than 0" in e.value for e in at.error)


def test_census_group_with_missing_values(at):
    widget(at.selectbox, "bounding_dataset").set_value("census")
    rerun(at)
    assert metric(at, "Rows dropped") == "0"
    widget(at.selectbox, "bounding_group").set_value("occupation")
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
        assert groups_shown(at) == ["Thur", "Fri", "Sat", "Sun"]  # the public domain's order
    assert metric(at, "Rows dropped" if key == "census" else "Bills dropped") == "0"
    true, after = bars(at, 0)["True, all records"], bars(at, 0)["True after bounding"]
    np.testing.assert_array_equal(true, after)
    assert len(charts(at)) == 2  # counts and sums
    section(at, CONTRIBUTIONS)
    assert not charts(at) and "nothing to cap" in " ".join(i.value for i in at.info)
    section(at, TRADEOFF)
    assert [next(iter(data)) for _, data in charts(at)] == ["bound_lines"]  # no cap to trade off
    assert "Best upper bound" in texts(at)


# --- Lower bound, Gaussian noise ------------------------------------------------------------------


def test_lower_bound_tradeoff_stars_the_brute_force_best(at):
    """Every L on the chart against cap_tradeoff run at that L alone; ties go to the largest L."""
    from data.registry import load_dataset
    from dp_core import Bounding, NoisePlan, cap_tradeoff, contribution_table

    widget(at.slider, BOUNDS).set_value((10.0, 50.0))
    section(at, TRADEOFF)
    widget(at.radio, "bounding_tradeoff_bound").set_value("lower")
    rerun(at)
    lowers, rmse = lines(at, "bound")["expected error (RMSE)"]
    np.testing.assert_allclose(np.sort(lowers), np.linspace(-30, 50, 101)[:-1])
    table = contribution_table(load_dataset("restaurant"), "visitor_id", "day", "money_spent")
    plan = NoisePlan(0.5, joint=False)
    brute = np.array(
        [
            cap_tradeoff(table, "sum", Bounding(4, 1, low, 50.0), plan, caps=[4])["rmse"].iloc[0]
            for low in lowers
        ]
    )
    np.testing.assert_allclose(rmse, brute, rtol=1e-9)
    lowest = lowers[np.flatnonzero(brute == brute.min())].max()
    assert best(at, "bound") == pytest.approx(lowest)
    assert f"Best lower bound: {lowest:,.4g}" in texts(at)


def test_gaussian_noise_is_the_analytic_sigma(at):
    """Day by day: sigma for (0.5, 1e-6) at sensitivity 1; the week: sqrt(4) at (3.5, 7e-6)."""
    import dp_accounting

    from dp_core import analytic_gaussian_sigma

    widget(at.radio, "bounding_mechanism").set_value("gaussian")
    rerun(at)
    sigma = analytic_gaussian_sigma(1.0, 0.5, 1e-6)
    assert sigma == pytest.approx(dp_accounting.get_sigma_gaussian(0.5, 1e-6), rel=1e-6)
    np.testing.assert_allclose(table(at, "count")["noise sd"], round(sigma, 1))
    assert f"Gaussian noise with σ = {sigma:.3g} on every day" in texts(at)
    assert metric(at, "Sensitivity of all days' sums (L2)") == "100"  # sqrt(4) x 50
    assert "Guarantee: (4, 8×10⁻⁶)-DP" in successes(at)[0]  # 2 x (4 x 0.5, 4 x 1e-6)
    section(at, BUDGET)
    assert "7 days at (ε, δ) = (0.5, 10⁻⁶) each cost (3.5, 7×10⁻⁶)" in texts(at)
    assert "cost at most (2, 4×10⁻⁶)" in texts(at)
    notes = chart_data(at, "totals")["note"].tolist()
    assert any("4 × (0.5, 10⁻⁶) = (2, 4×10⁻⁶)" in note for note in notes)
    widget(at.radio, "bounding_plan").set_value("whole week at once")
    section(at, ANSWERS)
    week_sigma = dp_accounting.get_sigma_gaussian(3.5, 7e-6) * 2.0  # L2 = sqrt(4) x 1
    np.testing.assert_allclose(table(at, "count")["noise sd"], round(week_sigma, 1))
    widget(at.text_input, "bounding_delta__text").set_value("0.2")
    rerun(at)  # 7 x 0.2 = 1.4: no guarantee for one release of the week
    assert any("must be below 1" in e.value for e in at.error)


def test_laplace_stays_the_default(at):
    assert widget(at.radio, "bounding_mechanism").value == "laplace"
    assert not [t for t in at.text_input if t.key == "bounding_delta__text"]


# --- Secure release, DP cap and bounds ------------------------------------------------------------


def test_a_secure_release_uses_opendp_and_is_held_until_released_again(at):
    teaching = bars(at, 0)["Noisy (± 95% of noise)"]
    widget(at.toggle, "bounding_secure").set_value(True)
    rerun(at)
    box = successes(at)[0]
    assert "OpenDP make_laplace: discrete Laplace" in box
    released = bars(at, 0)["Released (OpenDP)"]
    assert not np.array_equal(released, teaching)
    assert np.all(np.abs(released - TRUE_VISITS) < 60)  # b = 2: far inside the tail
    assert "Released by OpenDP with b = 2" in texts(at)
    rerun(at)  # a rerun shows the same release: redrawing would publish again
    np.testing.assert_array_equal(bars(at, 0)["Released (OpenDP)"], released)
    at.button(key="bounding__release_again_button").click()
    rerun(at)
    assert not np.array_equal(bars(at, 0)["Released (OpenDP)"], released)
    widget(at.radio, "bounding_mechanism").set_value("gaussian")
    widget(at.radio, "bounding_plan").set_value("whole week at once")
    rerun(at)
    assert "OpenDP make_gaussian" in successes(at)[0]
    assert len(bars(at, 1)["Released (OpenDP)"]) == 7
    assert "needs more than the analytic σ" in texts(at)


def test_the_cap_and_bounds_chosen_with_dp_count_in_the_guarantee(at):
    from dp_core import private_quantile

    widget(at.toggle, "bounding_private").set_value(True)
    rerun(at)
    assert not [s for s in at.slider if s.key in (CAP, BOUNDS)]  # no longer read off the data
    box = successes(at)[0]
    assert "the cap on contributions (ε = 0.1)" in box
    assert "the clipping bounds (ε = 0.2)" in box
    chosen = next(m.label for m in at.metric if m.label.startswith("Visitors with more than"))
    cap = int(chosen.split()[-2])
    assert 1 <= cap <= 7
    values = 2 * min(cap, 7) * 0.5  # counts and sums, the cap's accounting
    assert f"Guarantee: {values + 0.3:g}-DP" in box
    section(at, TRADEOFF)
    assert chart_data(at, "cap_now")["x"].tolist() == [cap]  # the DP choice on the chart
    assert chart_data(at, "cap_now")["label"].tolist() == [f"DP choice: {cap}"]
    exact = private_quantile.quantile_spread(  # where such draws land: 3, 90% of the time
        np.repeat([1, 2, 3, 4, 5, 6], [440, 507, 281, 109, 21, 2]), range(1, 8), alpha=0.9,
        epsilon=0.1,
    )  # fmt: skip
    spread = chart_data(at, "cap_spread")
    assert (exact.low, exact.high) == (3, 3)
    assert spread[["low", "high"]].iloc[0].tolist() == [2.5, 3.5]  # a band around cap 3
    assert "the DP choice" in texts(at)
    upper = chart_data(at, "bound_now")["x"].iloc[0]
    spread = chart_data(at, "bound_spread")
    assert spread["low"].iloc[0] <= upper <= spread["high"].iloc[0]
    assert upper in np.linspace(0, 100, 101)  # from the public grid
    section(at, BUDGET)
    segments = chart_data(at, "segments")
    assert segments.groupby("plan", sort=False)["epsilon"].sum().tolist() == pytest.approx(
        [3.5 + 0.3, min(cap, 7) * 0.5 + 0.3, 3.5 + 0.3]
    )
    widget(at.text_input, "bounding_cap_epsilon__text").set_value("1")
    rerun(at)
    assert "the cap on contributions (ε = 1)" in successes(at)[0]


@pytest.mark.parametrize(
    ("cap_quantile", "bound_quantiles", "cap"), [(0.5, (0.01, 0.02), 2), (0.99, (0.98, 0.99), 4)]
)
def test_dp_quantile_sliders_at_their_ends(at, cap_quantile, bound_quantiles, cap):
    widget(at.toggle, "bounding_private").set_value(True)
    rerun(at)
    widget(at.select_slider, "bounding_cap_quantile").set_value(cap_quantile)
    widget(at.select_slider, "bounding_bounds_quantiles").set_value(bound_quantiles)
    widget(at.text_input, "bounding_cap_epsilon__text").set_value("10")
    widget(at.text_input, "bounding_bounds_epsilon__text").set_value("10")
    rerun(at)
    assert metric(at, f"Visitors with more than {cap} days")  # the quantile, almost surely
    lower, upper = (float(v) for v in texts(at).split("[L, U] = [")[1].split("]")[0].split(","))
    assert lower < upper  # the draws are put in order, never equal
    assert lower >= 0 and upper <= 100
    widget(at.select_slider, "bounding_bounds_quantiles").set_value((0.5, 0.5))
    rerun(at)
    assert any("lower quantile below the upper one" in e.value for e in at.error)


def test_one_row_per_person_chooses_only_the_bounds_with_dp(at):
    widget(at.selectbox, "bounding_dataset").set_value("census")
    widget(at.toggle, "bounding_private").set_value(True)
    rerun(at)
    box = successes(at)[0]
    assert "the clipping bounds (ε = 0.2)" in box and "cap on contributions" not in box
    assert "Guarantee: 1.2-DP" in box  # one group per person: 2 statistics x 0.5, plus 0.2
    widget(at.selectbox, "bounding_value").set_value("sex")
    rerun(at)
    assert "Nothing to choose with DP here" in texts(at)
    assert "Guarantee: 0.5-DP" in successes(at)[0]  # the counts alone


def test_a_secure_dp_choice_is_drawn_once_per_setting(at):
    widget(at.toggle, "bounding_secure").set_value(True)
    widget(at.toggle, "bounding_private").set_value(True)
    rerun(at)
    chosen = next(m.value for m in at.markdown if m.value.startswith("Chosen with DP"))
    rerun(at)
    assert next(m.value for m in at.markdown if m.value.startswith("Chosen with DP")) == chosen


# --- The user's own file ------------------------------------------------------------------------
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


def upload(at, data: bytes, declare: str | None = "A\nB\nC"):
    upload_file(at, "bounding", data, "visits.csv")
    if declare is not None and at.text_area:
        widget(at.text_area, "bounding_cats").set_value(declare)
        rerun(at)
    return at


def test_own_csv_needs_a_person_column(at):
    upload(at, VISITS, declare=None)
    assert by_prefix(at.selectbox, "bounding_person_").value == "person"  # proposed
    by_prefix(at.selectbox, "bounding_person_").set_value("(each row is a different person)")
    rerun(at)
    assert any("Bounding needs to know whose rows are whose" in w.value for w in at.warning)
    assert not at.metric


def test_own_csv_caps_and_sensitivities_by_hand(at):
    upload(at, VISITS)
    assert widget(at.selectbox, "bounding_group").value == "group"
    assert widget(at.selectbox, "bounding_value").value == "amount"
    assert metric(at, "Rows dropped by the caps") == "1"  # p1's second row in A (linf = 1)
    assert metric(at, "Sensitivity of one group's sum") == "100"  # bounds [0, 100] from the data
    assert metric(at, "Sensitivity of all groups' sums (L1)") == "300"  # 3 groups x 100
    assert "These bounds start at [0, 100], read from your file" in texts(at)
    assert "a real release must fix its clipping bounds in advance" in texts(at)
    assert "The cap started at 3, the most groups anyone has in your file" in texts(at)
    widget(at.radio, "bounding_selection").set_value("first")
    widget(at.slider, CAP).set_value(1)
    rerun(at)
    # first group only: p0 drops B, C; p1 keeps one row of A, drops A and B; p3 drops B, C
    assert metric(at, "Rows dropped by the caps") == "6"
    assert metric(at, "Persons with more than 1 group") == "3"
    np.testing.assert_array_equal(bars(at, 0)["True after bounding"], [3, 0, 1])
    np.testing.assert_array_equal(bars(at, 1)["True after bounding"], [16, 0, 40])
    widget(at.slider, CAP).set_value(2)
    widget(at.slider, LINF).set_value(2)
    widget(at.radio, "bounding_mechanism").set_value("gaussian")
    rerun(at)
    assert metric(at, "Sensitivity of one group's sum") == "200"  # 2 rows x 100
    assert metric(at, "Sensitivity of all groups' sums (L2)") == "282.8"  # sqrt(2) x 200
    section(at, TRADEOFF)
    assert "Best upper bound" in texts(at) and "Best pair: L = " in texts(at)


def test_own_csv_dp_bounds_on_a_grid_over_its_own_range_are_named_as_read(at):
    """The DP bounds' grid spans the bounds slider's range, which an own file's values set:
    read from the data, so the guarantee says so, not a caption alone."""
    upload(at, VISITS)
    widget(at.toggle, "bounding_private").set_value(True)
    rerun(at)
    assert "Chosen with DP" in texts(at)
    (box,) = not_private(at)
    assert READ_BOUNDS in box


@pytest.mark.parametrize(
    ("data", "declare", "value", "message"),
    [
        (b"", None, None, "is empty"),
        (VISITS, "A\nB\nC", "note", "is not numeric"),
        (VISITS.replace(b"100", b"inf"), "A\nB\nC", None, "has infinite values"),
        (VISITS, "A", None, "has one category only"),
    ],
)
def test_own_csv_bad_input_gets_a_message(at, data, declare, value, message):
    upload(at, data, declare=declare)
    if value:
        widget(at.selectbox, "bounding_value").set_value(value)
        rerun(at)
    assert any(message in e.value for e in at.error), [e.value for e in at.error]
    if value:  # the counts still work
        assert metric(at, "Rows dropped by the caps") == "1"


# 301 persons: p1..p300 each have a row in X or Y (p1..p150 in both); p301 alone is in Rare.
RARE = (
    "person,group,amount\n"
    + "".join(f"p{i},{'X' if i % 2 else 'Y'},{i % 40}\n" for i in range(1, 301))
    + "".join(f"p{i},{'Y' if i % 2 else 'X'},{i % 30}\n" for i in range(1, 151))
    + "p301,Rare,35\n"
).encode()


def test_declared_groups_keep_the_one_person_group(at):
    upload(at, RARE, declare="X\nY\nRare")
    (statement,) = not_private(at)  # l0 and the bounds start at the file's own 2 and (0, 39)
    assert READ_CAP in statement and READ_BOUNDS in statement and not problems(at)
    widget(at.slider, BOUNDS).set_value((0.0, 50.0))  # a public range
    rerun(at)
    assert groups_shown(at) == ["X", "Y", "Rare"]
    assert bars(at, 0)["True, all records"].tolist() == [225, 225, 1]
    # l0 = 2, the most groups anyone has, below the 3 declared: still read from the data
    (statement,) = not_private(at)
    assert READ_CAP in statement and READ_BOUNDS not in statement and not problems(at)
    assert READ_CATEGORIES not in statement  # the groups were typed
    assert "the release would be 2-DP" in statement  # 2 statistics x 0.5 x a cap of 2 groups
    widget(at.slider, CAP).set_value(3)  # every declared group
    rerun(at)
    assert not at.error
    assert "Guarantee: 3-DP" in successes(at)[0]  # 2 statistics x 0.5 x 3 groups


def test_dp_selected_groups_suppress_the_one_person_group_and_count_the_cost(at):
    upload(at, RARE, declare=None)
    by_prefix(at.radio, "bounding_cats_").set_value("selected")
    rerun(at)
    # the bounds start at the file's own (0, 39); l0 = 2 is every released group, public
    (statement,) = not_private(at)
    assert READ_BOUNDS in statement and not problems(at)
    assert READ_CAP not in statement and READ_CATEGORIES not in statement  # groups: with DP
    widget(at.slider, BOUNDS).set_value((0.0, 50.0))  # a public range
    rerun(at)
    assert not at.error
    assert groups_shown(at) == ["X", "Y"]  # one person: kept with probability at most δ
    assert "Rare" not in texts(at)
    box = successes(at)[0]
    assert "which categories are shown (ε = 0.5, δ = 10⁻⁶)" in box
    assert "Guarantee: (2.5, 10⁻⁶)-DP" in box  # 2 statistics x 2 groups x 0.5, plus 0.5
    assert "suppressed" in texts(at) and "l0 = 1" in texts(at)
    section(at, "4. What all groups cost")
    segments = chart_data(at, "segments")
    assert segments.groupby("plan", sort=False)["epsilon"].sum().tolist() == pytest.approx(
        [1.5, 1.5, 1.5]  # 2 groups x 0.5, plus 0.5 for choosing them, on every row
    )
    assert "choosing the categories ε = 0.5" in texts(at)


# --- Fragments ----------------------------------------------------------------------------------


def test_an_epsilon_step_reruns_the_fragment_not_the_page(at):
    outer = fragment_of(at, "bounding_epsilon")
    assert outer is not None
    assert fragment_of(at, "bounding_dataset") is None  # the data controls rerun the page
    for key in (CAP, LINF, BOUNDS, "bounding__section"):
        assert fragment_of(at, key) == outer
    widget(at.select_slider, "bounding_epsilon").set_value(1.0)
    run_fragment(at, outer)
    assert not at.title  # the page header did not run
    assert not [s for s in at.selectbox if s.key == "bounding_dataset"]
    assert metric(at, "Visits dropped") == "25"
    assert "Laplace noise with scale 1 / 1 = 1 on every day" in texts(at)
    assert "Guarantee: 8-DP" in successes(at)[0]
    rerun(at)
    assert at.title and "Guarantee: 8-DP" in successes(at)[0]


def test_the_trade_off_controls_rerun_only_their_section(at):
    section(at, TRADEOFF)
    outer, own = (
        fragment_of(at, "bounding_epsilon"),
        fragment_of(at, "bounding_tradeoff_statistic"),
    )
    assert own not in (None, outer) and parent_fragment(at, own) == outer
    assert fragment_of(at, "bounding_tradeoff_bound") == own
    widget(at.radio, "bounding_tradeoff_statistic").set_value("count")
    run_fragment(at, own)
    assert not at.metric and not successes(at) and not at.slider  # nothing else was redrawn
    assert [next(iter(data)) for _, data in charts(at)] == ["cap_lines"]
    assert "Best cap on days: 6" in texts(at)


# --- Presets: the Japanese notebook's restaurant week in one click (ui/bounding/presets.py) ------


def restaurant_week_shown(at) -> None:
    """The settings both examples share, on the widgets."""
    assert widget(at.selectbox, "bounding_dataset").value == "restaurant"
    assert widget(at.selectbox, "bounding_group").value == "day"
    assert widget(at.selectbox, "bounding_value").value == "money_spent"
    assert widget(at.radio, "bounding_mechanism").value == "laplace"
    assert widget(at.radio, "bounding_plan").value == "day by day"
    assert widget(at.toggle, "bounding_private").value is False
    assert widget(at.select_slider, "bounding_epsilon").value == 0.5
    assert widget(at.slider, CAP).value == 4 and widget(at.slider, LINF).value == 4


def test_the_restaurant_week_preset_from_another_dataset(at):
    # shared/README (Japanese notebook): eps = 0.5 per day, at most 4 visits of a visitor in a
    # day: count sensitivity 4, Laplace scale 4 / 0.5 = 8; spend bounded to [0, 50]: the day's
    # sum has sensitivity 4 x 50 = 200
    widget(at.selectbox, "bounding_dataset").set_value("tips")
    rerun(at)
    widget(at.radio, "bounding_mechanism").set_value("gaussian")
    widget(at.radio, "bounding_plan").set_value("whole week at once")
    widget(at.select_slider, "bounding_epsilon").set_value(2.0)
    rerun(at)
    moved = {"bounding_dataset": "tips", "bounding_mechanism": "gaussian", "bounding_epsilon": "2"}
    assert {k: at.query_params.get(k) for k in moved} == moved
    assert at.button(key="bounding__preset_restaurant").label == (
        "Restaurant week, ε = 0.5, cap 4, [0, 50] (Japanese notebook)"
    )
    click_preset(at, "bounding", "restaurant")
    restaurant_week_shown(at)
    assert widget(at.toggle, "bounding_pre_aggregate").value is False
    assert widget(at.slider, BOUNDS).value == (0.0, 50.0)
    assert at.query_params["bounding_epsilon"] == "0.5"  # ε is always in the address
    assert at.query_params["bounding_max_per_group"] == "4"
    defaults = ("bounding_dataset", "bounding_mechanism", "bounding_plan", CAP, BOUNDS)
    for key in (*defaults, "bounding_pre_aggregate"):  # at their defaults: left out
        assert key not in at.query_params, key
    page = texts(at)
    assert "Laplace noise with scale 4 / 0.5 = 8 on every day." in page  # the count
    assert metric(at, "Sensitivity of one day's sum") == "200"  # 4 x 50
    assert "Laplace noise with scale 200 / 0.5 = 400 on every day." in page
    np.testing.assert_array_equal(bars(at, 0)["True, all records"], TRUE_VISITS)
    section(at, BUDGET)
    assert "7 days at ε = 0.5 each cost 3.5" in texts(at)
    restaurant_week_shown(at)  # opening a section keeps the example
    assert widget(at.slider, BOUNDS).value == (0.0, 50.0)
    assert at.query_params["bounding_epsilon"] == "0.5"
    assert at.query_params["bounding_max_per_group"] == "4"


def test_the_pre_aggregated_preset_has_sensitivity_65(at):
    # shared/README (Japanese notebook): pre-aggregated per visitor and day, bounds [0, 65]:
    # the day's sum has sensitivity 65
    click_preset(at, "bounding", "restaurant")
    restaurant_week_shown(at)
    assert widget(at.toggle, "bounding_pre_aggregate").value is False
    assert at.button(key="bounding__preset_pre_aggregated").label == (
        "Pre-aggregated per visitor and day, [0, 65] (Japanese notebook)"
    )
    click_preset(at, "bounding", "pre_aggregated")
    restaurant_week_shown(at)
    assert widget(at.toggle, "bounding_pre_aggregate").value is True
    assert widget(at.slider, BOUNDS).value == (0.0, 65.0)
    assert at.query_params["bounding_pre_aggregate"] == "true"
    assert at.query_params[BOUNDS] == "0,65" and at.query_params["bounding_max_per_group"] == "4"
    assert metric(at, "Sensitivity of one day's sum") == "65"  # not 4 x 65: one total a day
    assert metric(at, "Sensitivity of all days' sums (L1)") == "260"  # 4 days x 65
    assert "Laplace noise with scale 65 / 0.5 = 130 on every day." in texts(at)
    reopened = rerun(open_page("bounding", query=dict(at.query_params)))  # a link keeps it
    restaurant_week_shown(reopened)
    assert widget(reopened.toggle, "bounding_pre_aggregate").value is True
    assert widget(reopened.slider, BOUNDS).value == (0.0, 65.0)
    assert dict(reopened.query_params) == dict(at.query_params)
    assert metric(reopened, "Sensitivity of one day's sum") == "65"
    widget(at.slider, BOUNDS).set_value((0.0, 60.0))
    rerun(at)
    assert at.query_params[BOUNDS] == "0,60"  # other bounds: no longer the example
    assert metric(at, "Sensitivity of one day's sum") == "60"
