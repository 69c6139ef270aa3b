"""dp_core.bounding and its siblings (table, bias, spread, noise, error, search) against the
restaurant-week figures, OpenDP and brute-force references."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np
import opendp.prelude as dp
import pandas as pd
import pytest

import dp_core.bounding.caps
from data.registry import load_dataset
from dp_core.bounding import (
    Bounding,
    bounded_answers,
    cap_contributions,
    cap_summary,
    clip_values,
    contribution_histogram,
    grouped_count_sensitivity,
    grouped_sum_sensitivity,
    person_group_totals,
)
from dp_core.bounding.bias import bounded_totals_by_cap, bounded_totals_by_upper, first_answers
from dp_core.bounding.error import error_summary, group_errors
from dp_core.bounding.noise import NoisePlan, add_group_noise, group_noise
from dp_core.bounding.search import (
    best_bounds,
    best_setting,
    bounds_rmse_grid,
    cap_tradeoff,
    lower_tradeoff,
    upper_tradeoff,
)
from dp_core.bounding.spread import selection_variance_by_cap, selection_variance_by_upper
from dp_core.bounding.table import contribution_table

dp.enable_features("contrib")

DAYS = list(range(1, 8))


@pytest.fixture(params=["dense", "sorted"])
def group_caps_by(request, monkeypatch):
    """Run a test with both ways of capping groups: person x group table, and sorting."""
    if request.param == "sorted":
        monkeypatch.setattr(dp_core.bounding.caps, "_DENSE_CELLS_PER_RECORD", 0)
    return request.param


@pytest.fixture(scope="module")
def week() -> pd.DataFrame:
    return load_dataset("restaurant")


@pytest.fixture(scope="module")
def week_table(week):
    return contribution_table(week, "visitor_id", "day", "money_spent")


def random_visits(seed: int, n: int = 400) -> pd.DataFrame:
    """Persons with several records per group, values with outliers, a shuffled order column."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "person": rng.integers(0, 60, n),
            "group": rng.choice(["a", "b", "c", "d"], n),
            "value": rng.exponential(20.0, n).round(1) - 5.0,
            "when": rng.permutation(n),
        }
    )


def loop_cap(frame, *, max_per_id=None, max_groups=None, max_per_group=None, order=None):
    """Row-by-row reference: walk the records in order, keep while under every cap."""
    rows = frame.sort_values(order, kind="stable") if order else frame
    per_pair: dict = {}
    groups_of: dict = {}
    per_person: dict = {}
    kept = []
    for index, person, group in zip(rows.index, rows["person"], rows["group"], strict=True):
        if max_per_group and per_pair.get((person, group), 0) >= max_per_group:
            continue
        per_pair[(person, group)] = per_pair.get((person, group), 0) + 1
        seen = groups_of.setdefault(person, [])
        if group not in seen:
            seen.append(group)
        if max_groups and seen.index(group) >= max_groups:
            continue
        if max_per_id and per_person.get(person, 0) >= max_per_id:
            continue
        per_person[person] = per_person.get(person, 0) + 1
        kept.append(index)
    return sorted(kept)


# --- the restaurant week (shared/README.md) ------------------------------------------------


def test_histogram_of_days_per_visitor(week):
    histogram = contribution_histogram(week, "visitor_id", "day")
    assert histogram.to_dict() == {1: 440, 2: 507, 3: 281, 4: 109, 5: 21, 6: 2}
    assert histogram.sum() == 1360


def test_capping_days_drops_the_published_visits(week):
    summary = cap_summary(contribution_histogram(week, "visitor_id", "day")).set_index("cap")
    assert summary.loc[3, "records_dropped"] == 157
    assert summary.loc[3, "persons_losing_records"] == 132
    assert summary.loc[4, "records_dropped"] == 25
    assert summary.loc[6, "records_dropped"] == 0
    assert summary.loc[3, "share_records_dropped"] == pytest.approx(157 / 2850)


@pytest.mark.parametrize("rng", [None, np.random.default_rng(7)])
def test_cap_contributions_on_the_week(week, rng, group_caps_by):
    kept = cap_contributions(
        week, "visitor_id", group_column="day", max_groups_per_id=3, order_column="day", rng=rng
    )
    assert len(kept) == 2850 - 157
    assert kept.groupby("visitor_id")["day"].nunique().max() == 3
    # same visitors, no visitor lost entirely
    assert kept["visitor_id"].nunique() == 1360


def test_first_days_in_order_keep_the_early_days(week):
    kept = cap_contributions(week, "visitor_id", 3, order_column="day")
    per_day = kept.groupby("day").size().reindex(DAYS)
    assert per_day.iloc[:3].tolist() == [300, 300, 400]  # early days untouched
    assert per_day.sum() == 2850 - 157


def test_true_per_day_figures(week_table):
    assert week_table.true_totals("count").tolist() == [300, 300, 400, 400, 450, 500, 500]
    revenue = week_table.true_totals("sum")
    assert revenue.tolist() == [8678, 8696, 12088, 12079, 13765, 16576, 16500]
    assert revenue.sum() == 88382


def test_clipping_at_50_gives_the_published_revenues(week_table):
    every_day = Bounding(max_groups=7, lower=0.0, upper=50.0)
    clipped = bounded_totals_by_upper(week_table, every_day, uppers=[50.0])
    assert clipped[:, 0].tolist() == [8642, 8696, 11998, 12054, 13765, 16576, 16500]


def test_teaching_sensitivities():
    assert grouped_sum_sensitivity(0, 50, max_groups=4).l1 == 200  # 4 days x 50
    assert grouped_sum_sensitivity(0, 50, max_groups=1, max_per_group=4).per_group == 200
    assert grouped_sum_sensitivity(0, 65, max_groups=4, pre_aggregated=True).per_group == 65
    assert grouped_sum_sensitivity(0, 65, max_groups=4, max_per_group=3).per_group == 195


# --- sensitivities against OpenDP -----------------------------------------------------------


@pytest.mark.parametrize(
    ("bounds", "records"), [((0, 50), 4), ((0, 65), 1), ((-30, 20), 3), ((-80, -10), 2)]
)
def test_sum_sensitivity_matches_opendp(bounds, records):
    """A person's `records` clamped values change OpenDP's bounded sum by map(records)."""
    clamped_sum = (
        dp.t.make_clamp(
            dp.vector_domain(dp.atom_domain(T=int)), dp.symmetric_distance(), bounds=bounds
        )
        >> dp.t.then_sum()
    )
    ours = grouped_sum_sensitivity(*bounds, max_groups=5, max_per_group=records)
    assert ours.per_group == clamped_sum.map(records)
    assert ours.l1 == clamped_sum.map(5 * records)
    assert ours.l2 == pytest.approx(math.sqrt(5) * clamped_sum.map(records))


def test_pre_aggregated_sensitivity_matches_opendp():
    """One pre-aggregated total per person: d_in = 1 on the per-person totals."""
    bounded_sum = dp.t.make_sum(
        dp.vector_domain(dp.atom_domain(bounds=(0, 65))), dp.symmetric_distance()
    )
    ours = grouped_sum_sensitivity(0, 65, max_groups=4, max_per_group=9, pre_aggregated=True)
    assert ours.per_group == bounded_sum.map(1) == 65
    assert ours.l1 == 4 * 65


def test_count_sensitivity_matches_opendp():
    count = dp.t.make_count(dp.vector_domain(dp.atom_domain(T=int)), dp.symmetric_distance())
    ours = grouped_count_sensitivity(max_groups=3, max_per_group=2)
    assert ours.per_group == count.map(2)
    assert ours.l1 == count.map(6)
    assert ours.l2 == pytest.approx(math.sqrt(3) * 2)


# --- capping against the row-by-row reference ------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    "caps",
    [
        {"max_per_id": 3},
        {"max_groups": 2},
        {"max_per_group": 1},
        {"max_groups": 2, "max_per_group": 2},
        {"max_groups": 3, "max_per_group": 2, "max_per_id": 4},
    ],
)
def test_first_in_order_matches_a_loop(seed, caps, group_caps_by):
    frame = random_visits(seed)
    kept = cap_contributions(
        frame,
        "person",
        caps.get("max_per_id"),
        group_column="group",
        max_groups_per_id=caps.get("max_groups"),
        max_per_id_per_group=caps.get("max_per_group"),
        order_column="when",
    )
    assert sorted(kept.index) == loop_cap(frame, order="when", **caps)


def test_random_choice_keeps_min_of_records_and_cap():
    frame = random_visits(3)
    kept = cap_contributions(frame, "person", 4, rng=np.random.default_rng(0))
    expected = frame.groupby("person").size().clip(upper=4)
    assert kept.groupby("person").size().equals(expected)


def test_random_groups_are_a_uniform_choice(group_caps_by):
    """A person with groups a (9 records) and b (1 record), cap 1: each group half the time."""
    frame = pd.DataFrame({"person": [1] * 10, "group": ["a"] * 9 + ["b"]})
    rng = np.random.default_rng(5)
    picks = [
        cap_contributions(frame, "person", group_column="group", max_groups_per_id=1, rng=rng)[
            "group"
        ].iloc[0]
        for _ in range(2000)
    ]
    assert abs(picks.count("b") / 2000 - 0.5) < 0.04


# --- exact bias -------------------------------------------------------------------------------


@pytest.mark.parametrize("pre_aggregated", [False, True])
def test_first_selection_bias_is_the_capped_data(pre_aggregated):
    frame = random_visits(4)
    table = contribution_table(frame, "person", "group", "value", order_column="when")
    caps = np.arange(1, 5)
    bounding = Bounding(2, 2, -2.0, 30.0, pre_aggregate=pre_aggregated, selection="first")
    ours = bounded_totals_by_cap(table, "sum", bounding, caps=caps)
    for column, cap in enumerate(caps):
        kept = cap_contributions(
            frame,
            "person",
            group_column="group",
            max_groups_per_id=int(cap),
            max_per_id_per_group=None if pre_aggregated else 2,
            order_column="when",
        )
        if pre_aggregated:
            totals = person_group_totals(kept, "person", "group", "value")
            direct = totals.assign(total=clip_values(totals["total"], -2, 30))
            direct = direct.groupby("group")["total"].sum()
        else:
            direct = kept.assign(value=clip_values(kept["value"], -2, 30))
            direct = direct.groupby("group")["value"].sum()
        np.testing.assert_allclose(ours[:, column], direct.reindex(table.groups, fill_value=0))


@pytest.mark.parametrize("pre_aggregated", [False, True])
@pytest.mark.parametrize(("l0", "linf"), [(1, 1), (2, 3), (5, 2)])
def test_first_answers_from_units_are_the_rows_answers(pre_aggregated, l0, linf):
    """What a data path's page shows for "first" (from its unit profiles) is what
    bounded_answers gives from the rows themselves."""
    frame = random_visits(4)
    table = contribution_table(frame, "person", "group", "value", order_column="when")
    bounding = Bounding(l0, linf, -2.0, 30.0, pre_aggregate=pre_aggregated, selection="first")
    rows = bounded_answers(
        np.random.default_rng(0),
        frame,
        bounding,
        id_column="person",
        group_column="group",
        value_column="value",
        order_column="when",
        groups=table.groups,
    )
    ours = first_answers(table, bounding, sums=True)
    pd.testing.assert_frame_equal(ours, rows, check_dtype=False, rtol=1e-12)
    assert ours["bounded_count"].dtype == np.int64
    counts = first_answers(table, replace(bounding, lower=None, upper=None), sums=False)
    assert list(counts.columns) == ["true_count", "bounded_count"]
    with pytest.raises(ValueError, match='only "first"'):
        first_answers(table, replace(bounding, selection="random"), sums=True)


def test_random_selection_bias_is_exact_in_expectation(group_caps_by):
    """The analytic expectation against the mean of many random cappings."""
    frame = random_visits(5, n=300)
    table = contribution_table(frame, "person", "group", "value")
    exact = bounded_totals_by_cap(table, "sum", Bounding(2, 2, 0.0, 25.0), caps=[2])[:, 0]
    rng = np.random.default_rng(11)
    draws = []
    for _ in range(400):
        kept = cap_contributions(
            frame,
            "person",
            group_column="group",
            max_groups_per_id=2,
            max_per_id_per_group=2,
            rng=rng,
        )
        clipped = kept.assign(value=clip_values(kept["value"], 0, 25))
        draws.append(clipped.groupby("group")["value"].sum().reindex(table.groups, fill_value=0))
    draws = np.array(draws)
    standard_error = draws.std(axis=0) / math.sqrt(len(draws))
    assert np.all(np.abs(draws.mean(axis=0) - exact) < 4 * standard_error + 1e-9)


def test_upper_bound_sweep_matches_cap_sweep(week_table):
    uppers = np.array([20.0, 30.0, 45.0, 65.0, 130.0])
    for pre_aggregated in (False, True):
        bounding = Bounding(3, lower=0.0, upper=1.0, pre_aggregate=pre_aggregated)
        by_upper = bounded_totals_by_upper(week_table, bounding, uppers=uppers)
        for column, upper in enumerate(uppers):
            at_upper = bounding.with_bounds(0.0, upper)
            by_cap = bounded_totals_by_cap(week_table, "sum", at_upper, caps=[3])
            np.testing.assert_allclose(by_upper[:, column], by_cap[:, 0])


@pytest.mark.parametrize("joint", [False, True])
def test_tradeoff_noise_is_the_laplace_sd(week_table, joint):
    """sd = sqrt(2) * per-day sensitivity / epsilon; all at once: epsilon = 7 * 0.5 / cap."""
    uppers = np.array([30.0, 50.0, 65.0, 100.0])
    plan = NoisePlan(0.5, joint=joint)
    by_upper = upper_tradeoff(
        week_table, Bounding(4, lower=-80.0, upper=100.0), plan, uppers=uppers
    )
    per_day_epsilon = 3.5 / 4 if joint else 0.5
    expected = np.sqrt(2) * np.array([80, 80, 80, 100]) / per_day_epsilon
    np.testing.assert_allclose(by_upper["noise_std"], expected)
    caps = np.arange(1, 7)
    at_50 = Bounding(lower=0, upper=50)
    by_cap = cap_tradeoff(week_table, "sum", at_50, plan, caps=caps)
    per_day = 3.5 / caps if joint else np.full(6, 0.5)
    np.testing.assert_allclose(by_cap["noise_std"], np.sqrt(2) * 50 / per_day)
    true = week_table.true_totals("sum")
    bounded = bounded_totals_by_cap(week_table, "sum", at_50, caps=caps)
    np.testing.assert_allclose(
        by_cap["bias"], np.sqrt(np.mean((bounded - true[:, None]) ** 2, axis=0))
    )


def test_counts_at_full_cap_are_unbiased(week_table):
    counts = bounded_totals_by_cap(week_table, "count", Bounding(), caps=[6, 10])
    np.testing.assert_allclose(counts, week_table.true_totals("count")[:, None] * [1, 1])


def test_best_cap_matches_brute_force(week):
    """Brute force: cap the data for every cap, add the Laplace variance, take the minimum."""
    table = contribution_table(week, "visitor_id", "day", "money_spent", order_column="day")
    true = table.true_totals("sum")
    caps = np.arange(1, 7)
    total_epsilon = 0.7  # one release of the week; noise scale cap * 50 / total_epsilon
    noise = np.sqrt(2) * caps * 50 / total_epsilon
    first = Bounding(lower=0, upper=50, selection="first")
    bounded = bounded_totals_by_cap(table, "sum", first, caps=caps)
    spread = selection_variance_by_cap(table, "sum", first, caps=caps)
    assert not spread.any()  # keeping the first visits is deterministic
    summary = error_summary(true, bounded, noise, selection_variance=spread)
    best, best_rmse = best_setting(summary, caps)
    brute = []
    for cap, std in zip(caps, noise, strict=True):
        kept = cap_contributions(
            week, "visitor_id", group_column="day", max_groups_per_id=int(cap), order_column="day"
        )
        sums = kept["money_spent"].clip(0, 50).groupby(kept["day"]).sum().reindex(DAYS)
        brute.append(math.sqrt(np.mean((sums.to_numpy() - true) ** 2) + std**2))
    assert best == caps[int(np.argmin(brute))]
    assert best_rmse == pytest.approx(min(brute))
    assert 1 < best < 6  # a real trade-off at this budget


def test_group_errors_add_up():
    errors = group_errors(
        pd.Index(["x", "y"]),
        np.array([10.0, 20.0]),
        [7.0, 20.0],
        4.0,
        selection_variance=[0.0, 9.0],
    )
    assert errors["bias"].tolist() == [-3.0, 0.0]
    assert errors["selection_std"].tolist() == [0.0, 3.0]
    assert errors["rmse"].tolist() == [5.0, 5.0]  # sqrt(9 + 0 + 16), sqrt(0 + 9 + 16)


# --- exact variance of the random choice of kept records ---------------------------------------


def variance_is_close(draws: np.ndarray, exact: np.ndarray) -> bool:
    """Sample variance within 5 of its own standard errors (estimated from the draws)."""
    squares = (draws - draws.mean(axis=0)) ** 2
    standard_error = squares.std(axis=0) / math.sqrt(len(draws))
    return bool(np.all(np.abs(draws.var(axis=0, ddof=1) - exact) <= 5 * standard_error + 1e-9))


@pytest.mark.parametrize("cap", [1, 3])
def test_week_selection_variance_matches_many_random_cappings(week, week_table, cap):
    """2,000 random choices of days at once: person + U(0, 1) keys sorted, the cap smallest."""
    rng = np.random.default_rng(2024)
    person = pd.factorize(week["visitor_id"])[0]
    n, draws = len(week), 2_000
    order = np.argsort(person[None, :] + rng.random((draws, n)), axis=1)
    sorted_person = np.sort(person)
    rank_in_person = np.arange(n) - np.searchsorted(sorted_person, sorted_person)
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.broadcast_to(rank_in_person, order.shape), axis=1)
    kept = (rank < cap).astype(float)  # a visitor comes at most once a day: a visit is a unit
    by_day = (week["day"].to_numpy()[:, None] == np.array(DAYS)[None, :]).astype(float)
    money = clip_values(week["money_spent"], 0, 50)
    for statistic, simulated in (("count", kept @ by_day), ("sum", (kept * money) @ by_day)):
        bounding = Bounding(lower=0.0, upper=50.0) if statistic == "sum" else Bounding()
        exact = selection_variance_by_cap(week_table, statistic, bounding, caps=[cap])[:, 0]
        mean = bounded_totals_by_cap(week_table, statistic, bounding, caps=[cap])[:, 0]
        assert variance_is_close(simulated, exact)
        assert np.all(np.abs(simulated.mean(axis=0) - mean) < 5 * np.sqrt(exact / draws))
    # the reviewer's figures: per-day count sd 7.5-9.7 visits at cap 1, 3.3-4.3 at cap 3
    count_sd = np.sqrt(selection_variance_by_cap(week_table, "count", Bounding(), caps=[cap])[:, 0])
    low, high = {1: (7.45, 9.75), 3: (3.25, 4.35)}[cap]
    assert low <= count_sd.min() and count_sd.max() <= high


@pytest.mark.parametrize("pre_aggregated", [False, True])
def test_selection_variance_matches_the_page_draws_with_several_records(pre_aggregated):
    """bounded_answers (the page's own draw), many times: l0 and linf both random."""
    frame = random_visits(5, n=300)
    table = contribution_table(frame, "person", "group", "value")
    bounding = Bounding(2, 2, 0.0, 25.0, pre_aggregate=pre_aggregated)
    assert table.max_records_per_unit > 2  # the linf choice is random too
    rng = np.random.default_rng(99)
    draws = np.array(
        [
            bounded_answers(
                rng, frame, bounding, id_column="person", group_column="group", value_column="value"
            )[["bounded_count", "bounded_sum"]]
            .reindex(table.groups, fill_value=0)
            .to_numpy()
            for _ in range(1_000)
        ]
    )
    for column, statistic in ((0, "count"), (1, "sum")):
        exact = selection_variance_by_cap(table, statistic, bounding, caps=[2])[:, 0]
        assert exact.min() > 1  # nothing to compare against zero
        assert variance_is_close(draws[:, :, column], exact)


def test_selection_variance_sweep_over_upper_matches_the_cap_sweep(week_table):
    visits = contribution_table(random_visits(7), "person", "group", "value")
    uppers = np.array([5.0, 20.0, 45.0, 130.0])
    for table, max_per_group in ((week_table, 1), (visits, 1), (visits, 2)):
        for pre_aggregated in (False, True):
            bounding = Bounding(2, max_per_group, -2.0, 200.0, pre_aggregate=pre_aggregated)
            by_upper = selection_variance_by_upper(table, bounding, uppers=uppers)
            for column, upper in enumerate(uppers):
                at_upper = bounding.with_bounds(-2.0, upper)
                by_cap = selection_variance_by_cap(table, "sum", at_upper, caps=[2])
                np.testing.assert_allclose(by_upper[:, column], by_cap[:, 0], rtol=1e-12)
    first = selection_variance_by_upper(
        week_table, Bounding(lower=0.0, upper=1.0, selection="first"), uppers=uppers
    )
    assert not first.any()


def tiny_visits() -> pd.DataFrame:
    """Five persons, three groups, some with two records in a group."""
    rows = [
        (0, "a", 4), (0, "a", 10), (0, "b", 7), (0, "c", 3), (1, "a", 5), (1, "b", 2),
        (1, "b", 8), (2, "b", 6), (2, "c", 1), (2, "c", 9), (3, "a", 4), (3, "b", 5),
        (3, "c", 6), (4, "a", 12), (4, "c", 2),
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=["person", "group", "value"]).astype({"value": float})


def enumerated_mean_square_error(frame, cap, linf, statistic, lower=None, upper=None):
    """E[(answer_g - truth_g)^2] by listing every choice of every person with its probability."""
    groups = sorted(frame["group"].unique())
    by_group = frame.groupby("group")
    truth = (by_group.size() if statistic == "count" else by_group["value"].sum()).to_numpy(float)
    answers, probabilities = np.zeros((1, len(groups))), np.ones(1)
    for _, rows in frame.groupby("person"):
        units = [(groups.index(g), u["value"].tolist()) for g, u in rows.groupby("group")]
        outcomes, chances = [], []
        day_choices = list(itertools.combinations(units, min(cap, len(units))))
        for kept in day_choices:
            record_choices = [list(itertools.combinations(v, min(linf, len(v)))) for _, v in kept]
            for picks in itertools.product(*record_choices):
                answer = np.zeros(len(groups))
                for (group, _), pick in zip(kept, picks, strict=True):
                    clipped = np.clip(pick, lower, upper) if statistic == "sum" else None
                    answer[group] += len(pick) if statistic == "count" else clipped.sum()
                outcomes.append(answer)
                chances.append(1 / len(day_choices) / math.prod(map(len, record_choices)))
        answers = (answers[:, None, :] + np.array(outcomes)[None, :, :]).reshape(-1, len(groups))
        probabilities = (probabilities[:, None] * np.array(chances)[None, :]).ravel()
    assert probabilities.sum() == pytest.approx(1)
    return probabilities @ (answers - truth) ** 2


@pytest.mark.parametrize(
    ("statistic", "linf", "epsilon"), [("count", 2, 2.37), ("sum", 1, 1.16), ("sum", 2, 2.9)]
)
def test_best_random_cap_matches_exact_enumeration(statistic, linf, epsilon):
    """RMSE from bias + selection + noise against every possible random capping."""
    frame = tiny_visits()
    table = contribution_table(frame, "person", "group", "value")
    caps = np.array([1, 2, 3])
    bounds = {"lower": 0.0, "upper": 9.0} if statistic == "sum" else {}
    bounding = Bounding(max_per_group=linf, **bounds)
    summary = cap_tradeoff(table, statistic, bounding, NoisePlan(epsilon, joint=True), caps=caps)
    per_group = (9.0 if statistic == "sum" else 1.0) * linf
    noise = np.sqrt(2) * per_group * caps / (3 * epsilon)  # one release: 3 eps / cap per group
    np.testing.assert_allclose(summary["noise_std"], noise)
    brute = np.sqrt(
        [
            enumerated_mean_square_error(frame, int(cap), linf, statistic, **bounds).mean() + std**2
            for cap, std in zip(caps, noise, strict=True)
        ]
    )
    np.testing.assert_allclose(summary["rmse"], brute, rtol=1e-12)
    best, _ = best_setting(summary, caps)
    assert best == caps[np.argmin(brute)]
    # without the selection variance the star would sit elsewhere: the test can fail
    assert caps[np.argmin(np.hypot(summary["bias"], summary["noise_std"]))] != best


def test_person_per_row_has_nothing_to_cap():
    tips = load_dataset("tips")
    table = contribution_table(tips, None, "day", "total_bill")
    assert table.max_groups_per_person == 1
    counts = bounded_totals_by_cap(table, "count", Bounding(), caps=[1])[:, 0]
    np.testing.assert_array_equal(counts, tips.groupby("day").size().reindex(table.groups))


# --- bad input ---------------------------------------------------------------------------------


def test_bad_input_gives_readable_errors(week):
    with pytest.raises(ValueError, match="at least 1"):
        cap_contributions(week, "visitor_id", 0)
    with pytest.raises(ValueError, match="lower bound must be below"):
        grouped_sum_sensitivity(50, 0, max_groups=4)
    with pytest.raises(ValueError, match="lower bound must be below"):
        clip_values([1, 2], 5, 5)
    with pytest.raises(ValueError, match="not numeric"):
        contribution_table(week, "visitor_id", "day", "time_entered")
    holes = week.assign(visitor_id=week["visitor_id"].where(week.index % 100 != 0))
    with pytest.raises(ValueError, match="29 missing value"):
        cap_contributions(holes, "visitor_id", 3)
    with pytest.raises(ValueError, match="not in the table"):
        contribution_histogram(week, "nobody")
    with pytest.raises(ValueError, match="needs a group column"):
        cap_contributions(week, "visitor_id", max_groups_per_id=2)
    table = contribution_table(week, "visitor_id", "day", "money_spent")
    with pytest.raises(ValueError, match="at least 1"):
        bounded_totals_by_cap(table, "count", Bounding(), caps=[0, 1])


def _brute_force_rmse(table, bounding: Bounding, plan: NoisePlan) -> float:
    """One setting on its own: the per-group errors by the cap path, RMS over groups."""
    errors = cap_tradeoff(table, "sum", bounding, plan, caps=[bounding.max_groups])
    return float(errors["rmse"].iloc[0])


@pytest.mark.parametrize(
    ("selection", "pre_aggregate", "mechanism"),
    [("random", False, "laplace"), ("first", True, "laplace"), ("random", False, "gaussian")],
)
def test_best_lower_bound_matches_brute_force(selection, pre_aggregate, mechanism):
    """Every lower bound through the mirrored sweep = each L evaluated on its own."""
    frame = random_visits(7)
    table = contribution_table(frame, "person", "group", "value", order_column="when")
    lowers = np.linspace(-40.0, 30.0, 36)
    bounding = Bounding(2, 3, -50.0, 35.0, pre_aggregate=pre_aggregate, selection=selection)
    delta = 1e-6 if mechanism == "gaussian" else 0.0
    plan = NoisePlan(0.3, joint=True, mechanism=mechanism, delta=delta)
    by_lower = lower_tradeoff(table, bounding, plan, lowers=lowers)
    brute = np.array(
        [_brute_force_rmse(table, bounding.with_bounds(low, 35.0), plan) for low in lowers]
    )
    np.testing.assert_allclose(by_lower["rmse"], brute, rtol=1e-9)
    best, best_rmse = best_setting(by_lower, lowers)
    assert best == lowers[int(np.argmin(brute))] and best_rmse == pytest.approx(brute.min())
    if not pre_aggregate:
        assert -40.0 < best < 30.0  # an interior optimum: the search matters here


@pytest.mark.parametrize(
    ("lowers", "message"), [([5.0, 1.0], "increasing"), ([5.0, 60.0], "below")]
)
def test_lower_bounds_must_lie_below_the_upper_bound(week_table, lowers, message):
    bounding = Bounding(4, lower=0.0, upper=50.0)
    with pytest.raises(ValueError, match=message):
        lower_tradeoff(week_table, bounding, NoisePlan(1.0), lowers=lowers)


@pytest.mark.parametrize("joint", [False, True])
def test_gaussian_noise_is_dp_accountings_sigma(joint):
    """Analytic Gaussian at L2 sensitivity: per day Delta; the week sqrt(min(l0, 7)) Delta."""
    import dp_accounting

    sensitivity = grouped_sum_sensitivity(0.0, 50.0, max_groups=4, max_per_group=2)
    plan = NoisePlan(0.5, joint=joint, mechanism="gaussian", delta=1e-6)
    noise = group_noise(sensitivity, plan, max_groups=4, n_groups=7)
    epsilon, delta = (3.5, 7e-6) if joint else (0.5, 1e-6)
    l2 = sensitivity.l2 if joint else sensitivity.per_group  # sqrt(4) x 100 = 200, or 100
    assert l2 == (200.0 if joint else 100.0)
    reference = dp_accounting.get_sigma_gaussian(epsilon, delta) * l2
    assert noise.std == pytest.approx(reference, rel=1e-6)
    assert (noise.epsilon, noise.delta, noise.sensitivity) == pytest.approx((epsilon, delta, l2))
    assert noise.half_width == pytest.approx(1.959964 * noise.std, rel=1e-6)
    rng = np.random.default_rng(3)
    draws = add_group_noise(rng, np.zeros(200_000), noise)
    assert draws.std() == pytest.approx(noise.std, rel=0.01)


def test_laplace_noise_for_the_week_is_l1_over_the_total():
    sensitivity = grouped_count_sensitivity(max_groups=9, max_per_group=1)
    noise = group_noise(sensitivity, NoisePlan(0.5, joint=True), max_groups=9, n_groups=7)
    assert noise.sensitivity == 7  # a visitor is in at most 7 of the 7 days
    assert noise.scale == pytest.approx(2.0) and noise.delta == 0.0
    assert noise.half_width == pytest.approx(2.0 * math.log(20))  # P(|noise| > t) = e^(-t/b)


def test_gaussian_noise_refuses_bad_deltas():
    sensitivity = grouped_count_sensitivity(max_groups=2, max_per_group=1)
    with pytest.raises(ValueError, match="greater than 0"):
        NoisePlan(1.0, mechanism="gaussian", delta=0.0)
    with pytest.raises(ValueError, match="must be below 1"):
        plan = NoisePlan(1.0, joint=True, mechanism="gaussian", delta=0.01)
        group_noise(sensitivity, plan, max_groups=2, n_groups=200)
    with pytest.raises(ValueError, match="mechanism must be one of 'laplace', 'gaussian'"):
        NoisePlan(1.0, mechanism="uniform")
    with pytest.raises(ValueError, match="pure ε-DP"):
        NoisePlan(1.0, delta=1e-6)


def test_bad_settings_are_refused_when_made():
    with pytest.raises(ValueError, match="at least 1"):
        Bounding(max_groups=0)
    with pytest.raises(ValueError, match="both clipping bounds"):
        Bounding(lower=0.0)
    with pytest.raises(ValueError, match="lower bound must be below"):
        Bounding(lower=5.0, upper=5.0)
    with pytest.raises(ValueError, match="selection must be one of 'random', 'first'"):
        Bounding(selection="last")
    with pytest.raises(ValueError, match="greater than 0"):
        NoisePlan(0.0)
    with pytest.raises(ValueError, match="needs clipping bounds"):
        selection_variance_by_cap(
            contribution_table(random_visits(1), "person", "group"), "sum", Bounding(), caps=[1]
        )


@pytest.mark.parametrize(
    ("selection", "pre_aggregate", "max_per_group"),
    [("random", False, 3), ("random", False, 1), ("first", False, 2), ("random", True, 1)],
)
def test_every_pair_of_bounds_matches_brute_force(selection, pre_aggregate, max_per_group):
    """The (L, U) grid = cap_tradeoff run at each pair alone; persons with several records."""
    table = contribution_table(random_visits(7), "person", "group", "value", order_column="when")
    lowers, uppers = np.linspace(-40.0, 30.0, 8), np.linspace(-10.0, 60.0, 9)
    bounding = Bounding(2, max_per_group, -1.0, 1.0, pre_aggregate, selection)
    plan = NoisePlan(0.3, joint=True, mechanism="gaussian", delta=1e-6)
    grid = bounds_rmse_grid(table, bounding, plan, lowers=lowers, uppers=uppers)
    brute = np.array(
        [
            [
                _brute_force_rmse(table, bounding.with_bounds(low, up), plan)
                if low < up
                else np.inf
                for up in uppers
            ]
            for low in lowers
        ]
    )
    np.testing.assert_allclose(grid, brute, rtol=1e-9)
    best = best_bounds(table, bounding, plan, lowers=lowers, uppers=uppers)
    i, j = np.unravel_index(np.argmin(brute), brute.shape)
    assert best == pytest.approx((lowers[i], uppers[j], brute[i, j]))


def test_pairs_of_bounds_must_increase(week_table):
    with pytest.raises(ValueError, match="lower bounds to compare must be increasing"):
        bounds_rmse_grid(
            week_table,
            Bounding(lower=0.0, upper=5.0),
            NoisePlan(1.0),
            lowers=[1.0, 0.0],
            uppers=[5.0],
        )


def test_a_declared_domain_orders_the_groups_and_answers_absent_ones_with_zeros(week):
    days = ("7", "6", "5", "4", "3", "2", "1", "8")  # day 8 never happens
    table = contribution_table(week, "visitor_id", "day", "money_spent", groups=days)
    assert list(table.groups) == list(days)
    assert table.true_totals("count").tolist() == [500, 500, 450, 400, 400, 300, 300, 0]
    with pytest.raises(ValueError, match="outside the 2 released groups"):
        contribution_table(week, "visitor_id", "day", groups=("1", "2"))


@pytest.mark.parametrize("joint", [False, True])
@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_a_secure_release_uses_opendp_with_the_group_noise(joint, mechanism):
    """One OpenDP release of all groups at once, or one per group at the per-group budget."""
    from dp_core.bounding.noise import release_groups

    sensitivity = grouped_count_sensitivity(max_groups=4, max_per_group=1)
    delta = 1e-6 if mechanism == "gaussian" else 0.0
    plan = NoisePlan(0.5, joint=joint, mechanism=mechanism, delta=delta)
    noise = group_noise(sensitivity, plan, max_groups=4, n_groups=7)
    values = np.array([300.0, 300, 400, 400, 450, 500, 500])
    released = release_groups(values, noise)
    assert released.values.shape == (7,) and not released.values.flags.writeable
    assert np.all(np.abs(released.values - values) < 30 * noise.std)
    assert released.sensitivity == noise.sensitivity
    assert released.epsilon <= noise.epsilon * (1 + 1e-12)
    if mechanism == "laplace":
        assert released.scale == pytest.approx(noise.scale, rel=1e-6)
    else:
        assert released.scale > noise.scale  # OpenDP's zCDP conversion is a bound
    assert ("one per group" in released.description) != joint
