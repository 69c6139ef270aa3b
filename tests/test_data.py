"""The shipped CSVs: exactly what data/generate.py writes, and every published figure holds.

Figures from /work/shared/README.md and industry_group_counts.md, typed here by hand so the
test does not trust the generator's own tables.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest

from data import generate

DATA_DIR = generate.DATA_DIR


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory):
    out = tmp_path_factory.mktemp("regenerated")
    start = time.perf_counter()
    paths = generate.generate(out)
    return paths, time.perf_counter() - start


def _read(name: str) -> pd.DataFrame:
    return pd.read_csv(DATA_DIR / name)


def test_generator_writes_the_committed_files_byte_for_byte(regenerated):
    paths, _ = regenerated
    assert sorted(p.name for p in paths) == [
        "census.csv",
        "diseases.csv",
        "industry_groups.csv",
        "restaurant_week.csv",
    ]
    for path in paths:
        assert path.read_bytes() == (DATA_DIR / path.name).read_bytes(), path.name


def test_generation_takes_a_few_seconds_at_most(regenerated):
    assert regenerated[1] < 5.0


# --- diseases -------------------------------------------------------------------------------
def test_diseases_counts():
    frame = _read("diseases.csv")
    assert list(frame.columns) == ["person_id", "disease"]
    assert len(frame) == 65 and frame["person_id"].is_unique
    assert frame["disease"].value_counts().to_dict() == {
        "Flu": 28,
        "Diabetes": 24,
        "Hepatitis": 8,
        "HIV": 5,
    }
    assert frame["disease"].iloc[:8].nunique() > 1  # shuffled, not in blocks


# --- census ---------------------------------------------------------------------------------
ADULT_OCCUPATIONS = {
    "Prof-specialty": 4140,
    "Craft-repair": 4099,
    "Exec-managerial": 4066,
    "Adm-clerical": 3770,
    "Sales": 3650,
    "Other-service": 3295,
    "Machine-op-inspct": 2002,
    "Transport-moving": 1597,
    "Handlers-cleaners": 1370,
    "Farming-fishing": 994,
    "Tech-support": 928,
    "Protective-serv": 649,
    "Priv-house-serv": 149,
    "Armed-Forces": 9,
}


@pytest.fixture(scope="module")
def census():
    return _read("census.csv")


def test_census_columns_and_size(census):
    assert list(census.columns) == [
        "person_id",
        "age",
        "sex",
        "education_years",
        "marital_status",
        "occupation",
        "hours_per_week",
        "income",
    ]
    assert len(census) == 32_561 and census["person_id"].is_unique


def test_census_published_counts(census):
    assert census["occupation"].value_counts().to_dict() == ADULT_OCCUPATIONS
    assert census["occupation"].isna().sum() == 1_843
    assert census["sex"].value_counts().to_dict() == {"Male": 21_790, "Female": 10_771}
    assert census["income"].value_counts().to_dict() == {"<=50K": 24_720, ">50K": 7_841}
    assert (census["marital_status"] == "Never-married").sum() == 10_683
    assert (census["age"] >= 40).sum() == 14_237


def test_census_ranges_are_plausible(census):
    assert census["age"].between(17, 90).all()
    assert census["education_years"].between(1, 16).all()
    assert census["hours_per_week"].between(1, 99).all()
    assert census["hours_per_week"].mode().tolist() == [40]
    assert set(census["marital_status"]) == {
        "Married-civ-spouse",
        "Never-married",
        "Divorced",
        "Separated",
        "Widowed",
        "Married-spouse-absent",
        "Married-AF-spouse",
    }
    assert 35 <= census["age"].mean() <= 42
    assert census.select_dtypes("number").notna().all().all()


def test_census_dependence_is_plausible(census):
    rich = census["income"] == ">50K"
    assert (
        rich[census["education_years"] >= 13].mean()
        > 2 * rich[census["education_years"] <= 9].mean()
    )
    by_sex = pd.crosstab(census["occupation"], census["sex"])
    assert by_sex.loc["Craft-repair", "Male"] > 0.9 * by_sex.loc["Craft-repair"].sum()
    assert by_sex.loc["Adm-clerical", "Female"] > by_sex.loc["Adm-clerical", "Male"]
    never = census["marital_status"] == "Never-married"
    assert census.loc[never, "age"].mean() + 10 < census.loc[~never, "age"].mean()


# --- restaurant week ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def restaurant():
    return _read("restaurant_week.csv")


def test_restaurant_columns_and_visits(restaurant):
    assert list(restaurant.columns) == [
        "visitor_id",
        "day",
        "time_entered",
        "time_spent",
        "money_spent",
    ]
    assert len(restaurant) == 2_850
    assert restaurant["visitor_id"].nunique() == 1_360
    assert not restaurant.duplicated(["visitor_id", "day"]).any()  # at most once a day
    assert restaurant["day"].between(1, 7).all()
    assert restaurant["time_spent"].between(10, 120).all()


def test_restaurant_time_entered_is_clock_text_between_9am_and_9pm(restaurant):
    entered = pd.to_datetime(restaurant["time_entered"], format="%I:%M:%S %p")
    minutes = entered.dt.hour * 60 + entered.dt.minute
    assert minutes.between(9 * 60, 21 * 60).all()
    assert restaurant["time_entered"].str.fullmatch(r"\d{1,2}:\d{2}:\d{2} [AP]M").all()


def test_restaurant_days_visited_and_caps(restaurant):
    days = restaurant.groupby("visitor_id").size()
    assert days.value_counts().to_dict() == {1: 440, 2: 507, 3: 281, 4: 109, 5: 21, 6: 2}
    assert (days - 3).clip(lower=0).sum() == 157
    assert (days > 3).sum() == 132
    assert (days - 4).clip(lower=0).sum() == 25


def test_restaurant_daily_visits_and_revenue(restaurant):
    by_day = restaurant.groupby("day")["money_spent"]
    assert by_day.size().tolist() == [300, 300, 400, 400, 450, 500, 500]
    assert by_day.sum().tolist() == [8678, 8696, 12088, 12079, 13765, 16576, 16500]
    assert restaurant["money_spent"].sum() == 88_382
    clipped = restaurant["money_spent"].clip(upper=50).groupby(restaurant["day"]).sum()
    assert clipped.tolist() == [8642, 8696, 11998, 12054, 13765, 16576, 16500]


def test_restaurant_money_statistics(restaurant):
    money = restaurant["money_spent"]
    assert money.min() == 10 and money.max() == 120
    assert round(money.mean(), 1) == 31.0
    assert money.median() == 30
    assert round(money.std(ddof=1), 1) == 9.8  # sample sd
    assert round(money.std(ddof=0), 1) == 9.8  # population sd
    big = restaurant[money > 50]
    assert sorted(big["money_spent"]) == sorted([70, 66, 60, 120, 60, 75])
    by_day = {day: sorted(group) for day, group in big.groupby("day")["money_spent"]}
    assert by_day == {1: [66, 70], 3: [60, 60, 120], 4: [75]}


def test_restaurant_multi_day_visitors_are_scattered(restaurant):
    days = restaurant.groupby("visitor_id").size()
    frequent = days[days >= 4].index.to_numpy()
    assert frequent.min() < 300 and frequent.max() > 1_000  # not a block of ids
    # each day is shared by visitors with every number of days, not filled greedily in blocks
    per_day = restaurant.assign(n_days=restaurant["visitor_id"].map(days))
    assert (pd.crosstab(per_day["day"], per_day["n_days"]).iloc[:, :4] > 0).all().all()
    assert np.corrcoef(restaurant["money_spent"], restaurant["time_spent"])[0, 1] > 0.3


# --- industry groups ------------------------------------------------------------------------
def test_industry_groups_published_figures():
    frame = _read("industry_groups.csv")
    assert list(frame.columns) == ["industry_group", "count"]
    assert len(frame) == 119 and frame["industry_group"].is_unique
    assert frame["count"].sum() == 37_080
    ordered = frame["count"].sort_values(ascending=False).tolist()
    assert ordered[0] == 682
    assert ordered[1:11] == [576] * 10 and ordered[11] < 576
    top = frame.loc[frame["count"].idxmax(), "industry_group"]
    assert top == "Public Order, Safety and Regulatory Services"
    # exponential mechanism, score = count, sensitivity 1, eps = 0.1: P(top group) = 0.9501
    scores = 0.1 * frame["count"].to_numpy() / 2
    weights = np.exp(scores - scores.max())
    assert round(weights.max() / weights.sum(), 4) == 0.9501
