"""Write the CSV datasets shipped in data/, reproducing published aggregates exactly.

Run from the project root:  python3 -m data.generate [OUT_DIR]   (default: data/)

Every dataset is drawn from a numpy Generator with a fixed seed and written with a fixed
CSV format, so a re-run writes byte-identical files (tests/test_data.py checks this).
The published figures each dataset reproduces are stated next to its generator; the
figures come from /work/shared/README.md (facts about public sources, no data copied).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

DATA_DIR = Path(__file__).resolve().parent
SEED = 20_260_101


def _rng(salt: int) -> np.random.Generator:
    """One independent, seeded stream per dataset, so editing one leaves the others alone."""
    return np.random.default_rng([SEED, salt])


def _labels(rng: np.random.Generator, counts: dict[str, int]) -> np.ndarray:
    """A shuffled vector holding each label exactly ``counts[label]`` times."""
    return rng.permutation(np.repeat(list(counts), list(counts.values())))


# --- diseases ------------------------------------------------------------------------------
# Published (Swiss DP teaching notebooks, exponential mechanism): 65 persons,
# Diabetes 24, Hepatitis 8, Flu ("Grippe") 28, HIV 5.
DISEASE_COUNTS = {"Diabetes": 24, "Hepatitis": 8, "Flu": 28, "HIV": 5}


def make_diseases() -> pd.DataFrame:
    """65 persons, one disease each, in a seeded random order."""
    disease = _labels(_rng(1), DISEASE_COUNTS)
    return pd.DataFrame({"person_id": np.arange(1, disease.size + 1), "disease": disease})


# --- industry groups -----------------------------------------------------------------------
# Published (Swiss DP teaching notebooks' industry-group table, New Zealand industry names):
# rows per industry group; 37,080 rows in 119 groups, most common 682, next ten 576 each.
# The two lower-case names at the end are separate groups in the source.
INDUSTRY_GROUP_COUNTS: tuple[tuple[str, int], ...] = (
    ("Public Order, Safety and Regulatory Services", 682),
    ("Beverage and Tobacco Product Manufacturing", 576),
    ("Fabricated Metal Product Manufacturing", 576),
    ("Non-Metallic Mineral Product Manufacturing", 576),
    ("Petroleum and Coal Product Manufacturing", 576),
    ("Polymer Product and Rubber Product Manufacturing", 576),
    ("Primary Metal and Metal Product Manufacturing", 576),
    ("Printing", 576),
    ("Pulp, Paper and Converted Paper Product Manufacturing", 576),
    ("Transport Equipment Manufacturing", 576),
    ("Wood Product Manufacturing", 576),
    ("Rental and Hiring Services (except Real Estate)", 544),
    ("Construction Services", 528),
    ("Heavy and Civil Engineering Construction", 528),
    ("Road Transport", 528),
    ("Forestry and Logging", 496),
    ("Dairy Cattle Farming", 480),
    ("Horticulture and Fruit Growing", 480),
    ("Poultry, Deer and Other Livestock Farming", 480),
    ("Sheep, Beef Cattle and Grain Farming", 480),
    ("Auxiliary Finance and Insurance Services", 400),
    ("Accommodation", 288),
    ("Accommodation and Food Services", 288),
    ("Basic Chemical and Chemical Product Manufacturing", 288),
    ("Basic Material Wholesaling", 288),
    ("Clothing, Knitted Products and Footwear Manufacturing", 288),
    ("Commission Based Wholesaling", 288),
    ("Department Stores", 288),
    ("Electronic and Electrical Equipment Manufacturing", 288),
    ("Food and Beverage Services", 288),
    ("Furniture Manufacturing", 288),
    ("Furniture and Other Manufacturing", 288),
    ("Furniture, Electrical and Hardware Retailing", 288),
    ("Grocery, Liquor and Tobacco Product Wholesaling", 288),
    ("Machinery Manufacturing", 288),
    ("Machinery and Equipment Wholesaling", 288),
    ("Machinery and Other Equipment Manufacturing", 288),
    ("Manufacturing", 288),
    ("Motor Vehicle and Motor Vehicle Parts Wholesaling", 288),
    ("Motor Vehicle and Motor Vehicle Parts and Fuel Retailing", 288),
    ("Non-Store and Commission Based Retailing", 288),
    ("Other Goods Wholesaling", 288),
    ("Other Manufacturing", 288),
    ("Other Store-Based Retailing and Non Store Retailing", 288),
    ("Pharmaceutical and Other Store Based Retailing", 288),
    ("Pharmaceutical, Cleaning and Other Chemical Manufacturing", 288),
    ("Recreational, Clothing, Footwear and Personal Accessory Retailing", 288),
    ("Retail Trade and Accommodation", 288),
    ("Supermarket, Grocery Stores and Specialised Food Retailing", 288),
    ("Textile and Leather Manufacturing", 288),
    ("Textile, Leather, Clothing and Footwear Manufacturing", 288),
    ("Wholesale Trade", 288),
    ("Banking and Financing", 272),
    ("Finance", 272),
    ("Financial Asset Investing", 272),
    ("Financial and Insurance Services", 272),
    ("Non-Financial Asset Leasing", 272),
    ("Non-Residential Property Operation", 272),
    ("Property Operators and Real Estate Services", 272),
    ("Real Estate Services", 272),
    ("Rental, Hiring and Real Estate Services", 272),
    ("Administrative and Support Services", 264),
    ("Advertising, Market Research and Management Services", 264),
    ("Basic Chemical and Basic Polymer Manufacturing", 264),
    ("Building Cleaning, Pest Control and Other Support Services", 264),
    ("Building Construction", 264),
    ("Computer System Design and Related Services", 264),
    ("Construction", 264),
    ("Electricity and Gas Supply", 264),
    ("Electricity, Gas, Water and Waste Services", 264),
    ("Employment and Other Administrative Services", 264),
    ("Fertiliser and Pesticide Manufacturing", 264),
    ("Information Media Services", 264),
    ("Information Media and Telecommunications", 264),
    ("Legal and Accounting Services", 264),
    ("Mining", 264),
    ("Non-Residential Building Construction", 264),
    ("Postal and Courier Pick Up and Delivery Services", 264),
    ("Postal, Courier, Transport Support, and Warehousing Services", 264),
    ("Professional, Scientific and Technical Services", 264),
    ("Professional, Scientific, Technical, Administrative and Support Services", 264),
    ("Rail, Water, Air and Other Transport", 264),
    ("Residential Building Construction", 264),
    ("Scientific, Architectural and Engineering Services", 264),
    ("Telecommunications, Internet and Library Services", 264),
    ("Transport Support Services", 264),
    ("Transport, Postal and Warehousing", 264),
    ("Travel Agency and Tour Arrangement Services", 264),
    ("Veterinary and Other Professional Services", 264),
    ("Warehousing and Storage Services", 264),
    ("Water, Sewerage, Drainage and Waste Services", 264),
    ("Arts and Recreation Services", 256),
    ("Arts, Recreation and Other Services", 256),
    ("Civil, Professional and Other Interest Groups", 256),
    ("Gambling Activities", 256),
    ("Heritage and Artistic Activities", 256),
    ("Other Services", 256),
    ("Personal Care, Funeral and Other Personal Services", 256),
    ("Repair and Maintenance", 256),
    ("Sport and Recreation Activities", 256),
    ("Food Product Manufacturing", 252),
    ("Agriculture, Forestry and Fishing", 248),
    ("Agriculture, Forestry and Fishing Support Services and Hunting", 248),
    ("All industries", 248),
    ("Adult, Community and Other Education", 240),
    ("Education and Training", 240),
    ("Fishing and Aquaculture", 240),
    ("Health Care and Social Assistance", 240),
    ("Hospitals", 240),
    ("Medical and Other Health Care Services", 240),
    ("Preschool Education", 240),
    ("Residential Care Services and Social Assistance", 240),
    ("School Education", 240),
    ("Tertiary Education", 240),
    ("Health and General Insurance", 200),
    ("Insurance", 200),
    ("Life Insurance", 200),
    ("Public order, safety and regulatory services", 62),
    ("Food product manufacturing", 36),
)


def make_industry_groups() -> pd.DataFrame:
    """The published count table as it stands (no randomness)."""
    names, counts = zip(*INDUSTRY_GROUP_COUNTS, strict=True)
    return pd.DataFrame({"industry_group": names, "count": counts})


# --- census --------------------------------------------------------------------------------
# Published (UCI Adult, 32,561 persons): occupation counts below (1,843 missing), Male 21,790 /
# Female 10,771, income <=50K 24,720 / >50K 7,841, Never-married 10,683, age >= 40: 14,237
# (one published altered copy). Every other number in this section is a plausible choice.
CENSUS_SIZE = 32_561
AGE_40_PLUS = 14_237
SEX_COUNTS = {"Male": 21_790, "Female": 10_771}
INCOME_OVER_50K = 7_841
# occupation: (published count, women among them: plausible, summing to the 10,771 women)
OCCUPATIONS: dict[str, tuple[int, int]] = {
    "Prof-specialty": (4140, 1515),
    "Craft-repair": (4099, 222),
    "Exec-managerial": (4066, 1159),
    "Adm-clerical": (3770, 2537),
    "Sales": (3650, 1263),
    "Other-service": (3295, 1800),
    "Machine-op-inspct": (2002, 550),
    "Transport-moving": (1597, 90),
    "Handlers-cleaners": (1370, 164),
    "Farming-fishing": (994, 65),
    "Tech-support": (928, 348),
    "Protective-serv": (649, 76),
    "Priv-house-serv": (149, 141),
    "Armed-Forces": (9, 0),
    "": (1843, 841),  # missing occupation: an empty field in the CSV
}
# marital status counts in the order they are cut; Never-married is published, the rest
# plausible and summing to 32,561 with it.
MARITAL_COUNTS = {
    "Never-married": 10_683,
    "Widowed": 993,
    "Married-AF-spouse": 23,
    "Divorced": 4_443,
    "Separated": 1_025,
    "Married-spouse-absent": 418,
    "Married-civ-spouse": 14_976,
}
# education_years 1..16: relative frequencies shaped like Adult's (9 = high school, 13 = BA)
EDUCATION_WEIGHTS = np.array(
    [51, 168, 333, 646, 514, 933, 1175, 433, 10501, 7291, 1382, 1067, 5355, 1723, 576, 413]
)
# per occupation: (tilt of education towards more years, effect on the chance of income >50K)
OCCUPATION_EFFECTS: dict[str, tuple[float, float]] = {
    "Prof-specialty": (0.45, 0.7),
    "Craft-repair": (-0.1, 0.0),
    "Exec-managerial": (0.25, 0.9),
    "Adm-clerical": (0.05, -0.3),
    "Sales": (0.05, 0.2),
    "Other-service": (-0.2, -1.0),
    "Machine-op-inspct": (-0.2, -0.4),
    "Transport-moving": (-0.15, -0.2),
    "Handlers-cleaners": (-0.25, -0.7),
    "Farming-fishing": (-0.25, -0.7),
    "Tech-support": (0.15, 0.3),
    "Protective-serv": (0.05, 0.3),
    "Priv-house-serv": (-0.35, -1.5),
    "Armed-Forces": (0.0, 0.0),
    "": (-0.05, -0.8),
}


def _top(score: np.ndarray, eligible: np.ndarray, count: int) -> np.ndarray:
    """Boolean mask of the ``count`` eligible entries with the highest score."""
    masked = np.where(eligible, score, -np.inf)
    chosen = np.zeros(score.size, dtype=bool)
    chosen[np.argsort(-masked, kind="stable")[:count]] = True
    return chosen


def _census_ages(rng: np.random.Generator, latent: np.ndarray) -> np.ndarray:
    """Ages 17-90, exactly AGE_40_PLUS of them >= 40, ordered like ``latent``."""
    ages = np.arange(17, 91)
    # two-piece normal: peak at 35, longer right tail; 14.5 makes about the published
    # share 40 or over, so the exact cut at 40 leaves no step in the age histogram
    spread = np.where(ages <= 35, 12.0, 14.5)
    weights = np.exp(-0.5 * ((ages - 35) / spread) ** 2)
    young, old = ages < 40, ages >= 40
    drawn = np.concatenate(
        [
            rng.choice(
                ages[young], latent.size - AGE_40_PLUS, p=weights[young] / weights[young].sum()
            ),
            rng.choice(ages[old], AGE_40_PLUS, p=weights[old] / weights[old].sum()),
        ]
    )
    result = np.empty(latent.size, dtype=np.int64)
    result[np.argsort(latent, kind="stable")] = np.sort(drawn)
    return result


def _census_occupations(rng: np.random.Generator, female: np.ndarray) -> np.ndarray:
    """Each person's occupation, drawn within each sex to OCCUPATIONS' (total, women) counts."""
    occupation = np.empty(female.size, dtype=object)
    for is_female, size in ((True, SEX_COUNTS["Female"]), (False, SEX_COUNTS["Male"])):
        counts = {
            job: women if is_female else total - women
            for job, (total, women) in OCCUPATIONS.items()
        }
        assert sum(counts.values()) == size
        occupation[female == is_female] = _labels(rng, counts)
    return occupation


def _census_marital(rng: np.random.Generator, age: np.ndarray, female: np.ndarray) -> np.ndarray:
    """Marital status to MARITAL_COUNTS: persons ranked by a random score are cut, one status
    after another; the rest are Married-civ-spouse."""
    n = age.size
    marital = np.full(n, "Married-civ-spouse", dtype=object)
    free = np.ones(n, dtype=bool)
    gumbel = rng.gumbel(size=(4, n))
    scores = {
        "Never-married": -0.13 * (age - 17) + 0.3 * female + gumbel[0],
        "Widowed": 0.09 * age + 2.0 * female + gumbel[1],
        "Married-AF-spouse": -0.1 * age + gumbel[2],
    }
    for status, score in scores.items():
        chosen = _top(score, free, MARITAL_COUNTS[status])
        marital[chosen], free = status, free & ~chosen
    apart = ("Divorced", "Separated", "Married-spouse-absent")
    chosen = _top(
        1.0 * female - 0.002 * (age - 45) ** 2 + gumbel[3],
        free,
        sum(MARITAL_COUNTS[s] for s in apart),
    )
    marital[chosen] = _labels(rng, {s: MARITAL_COUNTS[s] for s in apart})
    return marital


def _census_education(rng: np.random.Generator, occupation: np.ndarray) -> np.ndarray:
    """Education years 1..16: Adult's shape, tilted per occupation (a small loop over 15)."""
    years = np.arange(1, 17)
    education = np.empty(occupation.size, dtype=np.int64)
    for job in OCCUPATIONS:
        members = occupation == job
        weights = EDUCATION_WEIGHTS * np.exp(OCCUPATION_EFFECTS[job][0] * (years - 10))
        education[members] = rng.choice(years, members.sum(), p=weights / weights.sum())
    return education


def _census_hours(
    rng: np.random.Generator,
    female: np.ndarray,
    education_tilt: np.ndarray,
    missing_job: np.ndarray,
    age: np.ndarray,
) -> np.ndarray:
    """Hours per week 1..99: 40 for almost half; otherwise more for men and managers, fewer
    for the young and for persons without an occupation."""
    wanted = (
        40 + 4 * ~female + 8 * education_tilt - 8 * missing_job - 6 * (age < 23) - 4 * (age > 65)
    )
    hours = np.clip(np.rint(rng.normal(wanted, 15.0)), 1, 99).astype(np.int64)
    hours[rng.random(age.size) < 0.47] = 40
    return hours


def make_census() -> pd.DataFrame:
    """32,561 synthetic persons with Adult's published counts and plausible dependence."""
    rng = _rng(2)
    n = CENSUS_SIZE
    sex = _labels(rng, SEX_COUNTS)
    female = sex == "Female"
    occupation = _census_occupations(rng, female)
    effects = pd.DataFrame(OCCUPATION_EFFECTS, index=["tilt", "income"]).T
    education_tilt = effects["tilt"].reindex(occupation).to_numpy()
    income_effect = effects["income"].reindex(occupation).to_numpy()
    missing_job = occupation == ""

    # age: older in managerial/professional jobs; a missing occupation is often a student
    # or a retired person
    latent_age = rng.normal(size=n) + 0.8 * education_tilt
    latent_age[missing_job] += rng.choice([-1.2, 1.2], missing_job.sum())
    age = _census_ages(rng, latent_age)
    marital = _census_marital(rng, age, female)
    education = _census_education(rng, occupation)
    hours = _census_hours(rng, female, education_tilt, missing_job, age)

    # income >50K: the INCOME_OVER_50K persons with the highest score
    score = (
        0.45 * education
        + 2.0 * (marital == "Married-civ-spouse")
        + 0.9 * ~female
        + 0.035 * hours
        - (age - 48) ** 2 / 300
        + income_effect
        + rng.logistic(size=n)
    )
    income = np.where(_top(score, np.ones(n, dtype=bool), INCOME_OVER_50K), ">50K", "<=50K")

    return pd.DataFrame(
        {
            "person_id": np.arange(1, n + 1),
            "age": age,
            "sex": sex,
            "education_years": education,
            "marital_status": marital.astype(str),
            "occupation": pd.Series(occupation).replace("", None).astype("str"),
            "hours_per_week": hours,
            "income": income,
        }
    )


# --- restaurant week -----------------------------------------------------------------------
# Published (PyDP restaurant demo, contribution bounding): 2,850 visits by 1,360 visitors, at
# most one visit per visitor per day; days visited per visitor 1->440, 2->507, 3->281, 4->109,
# 5->21, 6->2; visits per day and revenue per day (euros) below, 88,382 in all; money spent
# per visit min 10, max 120, mean 31.0, median 30, sd 9.8; only six visits above 50 (70, 66,
# 60, 120, 60, 75), placed so that clipped at 50 the daily revenues are 8642, 8696, 11998,
# 12054, 13765, 16576, 16500.
DAYS_VISITED = {1: 440, 2: 507, 3: 281, 4: 109, 5: 21, 6: 2}
VISITS_PER_DAY = np.array([300, 300, 400, 400, 450, 500, 500])
REVENUE_PER_DAY = np.array([8678, 8696, 12088, 12079, 13765, 16576, 16500])
BIG_SPENDS = {1: (70, 66), 3: (120, 60, 60), 4: (75,)}  # day -> the visits above 50
SPEND_RANGE = (10, 50)  # every other visit
MONEY_SD = 9.8  # sample sd (n - 1); the population sd rounds to 9.8 as well
MONEY_MEDIAN = 30
MIXING_SWAPS = 40_000


def _assign_days(rng: np.random.Generator, days_per_visitor: np.ndarray) -> np.ndarray:
    """Visitor x day boolean matrix with the given row sums and VISITS_PER_DAY column sums.

    Gale-Ryser greedy (Gale 1957; Ryser 1957): visitors with most days first, each taking
    the days with the most room left, always succeeds when the sums are feasible. Random
    swaps that keep both sums then mix which visitors share which days.
    """
    visits = np.zeros((days_per_visitor.size, VISITS_PER_DAY.size), dtype=bool)
    room = VISITS_PER_DAY.copy()
    for visitor in np.argsort(-days_per_visitor, kind="stable"):
        days = np.lexsort((rng.random(room.size), -room))[: days_per_visitor[visitor]]
        visits[visitor, days] = True
        room[days] -= 1
    assert not room.any()
    a, b = rng.integers(visits.shape[0], size=(2, MIXING_SWAPS))
    x, y = rng.integers(visits.shape[1], size=(2, MIXING_SWAPS))
    for i, j, d, e in zip(a, b, x, y, strict=True):
        if visits[i, d] and visits[j, e] and not visits[i, e] and not visits[j, d]:
            visits[i, d] = visits[j, e] = False
            visits[i, e] = visits[j, d] = True
    return visits


SPENDS = np.arange(SPEND_RANGE[0], SPEND_RANGE[1] + 1)


def _spend_pmf(mean: float) -> np.ndarray:
    """Probabilities over SPENDS: a two-piece normal (spreads 8 and 15 euros, so skewed
    right), its peak placed so that the mean is ``mean`` (to 0.01 euro)."""
    peaks = np.arange(SPENDS[0], SPENDS[-1], 0.01)[:, None]
    spread = np.where(peaks > SPENDS, 8.0, 15.0)
    weights = np.exp(-0.5 * ((SPENDS - peaks) / spread) ** 2)
    pmfs = weights / weights.sum(axis=1, keepdims=True)
    return pmfs[np.argmin(np.abs(pmfs @ SPENDS - mean))]


def _nudge_to_total(rng: np.random.Generator, values: np.ndarray, total: int) -> None:
    """Add or take one euro from random values (staying in SPEND_RANGE) until they sum to total."""
    low, high = SPEND_RANGE
    while gap := total - int(values.sum()):
        step = 1 if gap > 0 else -1
        movable = np.flatnonzero(values < high if step > 0 else values > low)
        values[rng.choice(movable, min(abs(gap), movable.size), replace=False)] += step


def _move_pair(rng: np.random.Generator, money, regular, day, raise_at, lower_at) -> None:
    """On one random day, raise a regular value where ``raise_at`` and lower another where
    ``lower_at`` by one euro each, so the day's revenue stays the same."""
    low, high = SPEND_RANGE
    on_day = regular & (day == rng.integers(1, 8))
    ups = np.flatnonzero(on_day & (money < high) & raise_at)
    downs = np.flatnonzero(on_day & (money > low) & lower_at)
    if ups.size and downs.size:
        money[rng.choice(ups)] += 1
        money[rng.choice(downs)] -= 1


def _fit_median_and_sd(rng: np.random.Generator, money, regular, day) -> None:
    """Move euros between visits of the same day until the median and sd are the published.

    Moves that fix the spread only touch values away from the median, so they keep it.
    """
    half = money.size // 2  # even count: the median averages sorted values half-1 and half
    median = MONEY_MEDIAN
    for _ in range(100_000):
        if (money < median).sum() >= half:  # median too low: lift a value just below it
            _move_pair(rng, money, regular, day, money == median - 1, money > median)
        elif (money <= median).sum() <= half:  # too high: bring a value just above it down
            _move_pair(rng, money, regular, day, money > median, money == median + 1)
        elif money.std(ddof=1) < MONEY_SD - 0.005:  # spread: a high value up, a low one down
            _move_pair(rng, money, regular, day, money > median + 1, money < median - 1)
        elif money.std(ddof=1) > MONEY_SD + 0.005:  # narrow: a low value up, a high one down
            _move_pair(rng, money, regular, day, money < median - 1, money > median + 1)
        else:
            return
    raise RuntimeError("could not fit the published median and sd")


def _clock_text(minutes_after_midnight: np.ndarray) -> pd.Series:
    """Minutes after midnight -> text like '9:27:00 AM'."""
    hour, minute = np.divmod(minutes_after_midnight, 60)
    hour12 = pd.Series((hour - 1) % 12 + 1).astype(str)
    suffix = pd.Series(np.where(hour < 12, " AM", " PM"))
    return hour12 + ":" + pd.Series(minute).astype(str).str.zfill(2) + ":00" + suffix


def make_restaurant() -> pd.DataFrame:
    """A week of visits reproducing every published figure of the PyDP restaurant demo."""
    rng = _rng(3)
    days_per_visitor = _labels(rng, DAYS_VISITED)  # visitor_id = position + 1
    visitor, day_index = np.nonzero(_assign_days(rng, days_per_visitor))
    day = day_index + 1

    # money: per day a right-skewed draw with the day's mean, nudged to the day's exact
    # revenue; then the six big spends (a loop over 7 days)
    money = np.zeros(day.size, dtype=np.int64)
    regular = np.ones(day.size, dtype=bool)
    for d in range(1, 8):
        rows = rng.permutation(np.flatnonzero(day == d))
        big = np.array(BIG_SPENDS.get(d, ()), dtype=np.int64)
        rest = rows[big.size :]
        target = int(REVENUE_PER_DAY[d - 1] - big.sum())
        spends = rng.choice(SPENDS, rest.size, p=_spend_pmf(target / rest.size))
        _nudge_to_total(rng, spends, target)
        money[rest] = spends
        money[rows[: big.size]] = big
        regular[rows[: big.size]] = False
    _fit_median_and_sd(rng, money, regular, day)

    time_spent = np.clip(np.rint(20 + 1.3 * money + rng.normal(0, 14, money.size)), 10, 120)
    entered = 9 * 60 + rng.integers(0, 12 * 60 - time_spent + 1)  # leave by 9 PM
    frame = pd.DataFrame(
        {
            "visitor_id": visitor + 1,
            "day": day,
            "entered": entered,
            "time_spent": time_spent.astype(np.int64),
            "money_spent": money,
        }
    ).sort_values(["day", "entered", "visitor_id"], ignore_index=True)
    frame.insert(2, "time_entered", _clock_text(frame.pop("entered").to_numpy()))
    return frame


# --- writing -------------------------------------------------------------------------------
GENERATORS: dict[str, Callable[[], pd.DataFrame]] = {
    "diseases.csv": make_diseases,
    "industry_groups.csv": make_industry_groups,
    "census.csv": make_census,
    "restaurant_week.csv": make_restaurant,
}


def write_csv(frame: pd.DataFrame, path: Path) -> None:
    """Fixed format: no index, '\\n' line ends, UTF-8, missing values as empty fields."""
    frame.to_csv(path, index=False, lineterminator="\n", encoding="utf-8")


def generate(out_dir: Path = DATA_DIR) -> list[Path]:
    """Write every dataset into ``out_dir``; return the paths written."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, make in GENERATORS.items():
        path = out_dir / name
        write_csv(make(), path)
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in generate(Path(sys.argv[1]) if len(sys.argv) > 1 else DATA_DIR):
        print(written)
