"""The datasets the app ships, described once: what they hold and how to count them.

    from data.registry import DATASETS, load_dataset, category_counts
    load_reference("deployments")            # published facts with sources (REFERENCES)

    DATASETS["census"].numeric["age"]        # (0, 100): natural clipping bounds
    load_dataset("census")                   # pandas DataFrame, read once and cached
    category_counts("census", "occupation")  # counts per category, largest first

Conventions: ``person_id`` names the column identifying a person; ``None`` means each row
is one person (for ``tips``: one bill = one person), except in a count table
(``count_column`` set), where each row is a category and its count of rows.
Numeric bounds are chosen without looking at the data (a DP release must not read its
clipping bounds from the data); ``dataset_from_frame`` is the exception and says so.
A user's own table becomes a Dataset with ``dataset_from_frame(frame, name)``; count it with
``frame_category_counts``.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from data.generate import INDUSTRY_GROUP_COUNTS
from dp_core.errors import CodedError

DATA_DIR = Path(__file__).resolve().parent
CARDS_DIR = DATA_DIR / "cards"

# A text or integer column with at most this many distinct values is offered as categories.
MAX_CATEGORIES = 200


@dataclass(frozen=True)
class Dataset:
    """What a page needs to know about a dataset besides its rows.

    A column may be both categorical and numeric (e.g. census education_years, tips size).
    """

    key: str
    title: str
    description: str  # one sentence
    card: str  # markdown: what it is, how it was made, which published figures it reproduces
    synthetic: bool
    person_id: str | None  # column identifying a person; None: one row per person
    categorical: tuple[str, ...]  # columns that make sense as categories
    numeric: dict[str, tuple[float, float]] = field(hash=False)  # column -> (lower, upper)
    count_column: str | None = None  # count tables: the column holding the counts
    # Public contribution rules (known without looking at the data), used as sensitivity
    # bounds: the most rows one person can have, and per column the most rows one person can
    # have in any one of its categories. None: not known; the user must set a cap.
    max_rows_per_person: int | None = None
    max_rows_per_category: dict[str, int] = field(default_factory=dict, hash=False)
    contribution_rule: str = ""  # the rule in words, e.g. "at most one visit a day"
    # Public category domains: per categorical column, every category a release may show,
    # known without looking at the data (published codes, the days of a week). A release
    # shows exactly these, absent ones as noisy zeros. Own tables have none: their
    # categories must be declared or chosen with DP (dp_core.partition_selection).
    domains: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False)

    @property
    def is_count_table(self) -> bool:
        return self.count_column is not None


def _card(key: str) -> str:
    return (CARDS_DIR / f"{key}.md").read_text(encoding="utf-8")


def _numbers(first: int, last: int) -> tuple[str, ...]:
    return tuple(str(n) for n in range(first, last + 1))


# UCI Adult's published codes (Kohavi & Becker 1996, adult.names), occupations in the order
# of their published counts (largest first).
ADULT_OCCUPATIONS = (
    "Prof-specialty", "Craft-repair", "Exec-managerial", "Adm-clerical", "Sales",
    "Other-service", "Machine-op-inspct", "Transport-moving", "Handlers-cleaners",
    "Farming-fishing", "Tech-support", "Protective-serv", "Priv-house-serv", "Armed-Forces",
)  # fmt: skip
# The industry groups of the published table, in its order (data/generate.py states the source).
INDUSTRY_GROUPS = tuple(name for name, _ in INDUSTRY_GROUP_COUNTS)
ADULT_MARITAL_STATUS = (
    "Married-civ-spouse", "Divorced", "Never-married", "Separated", "Widowed",
    "Married-spouse-absent", "Married-AF-spouse",
)  # fmt: skip


DATASETS: dict[str, Dataset] = {
    "diseases": Dataset(
        key="diseases",
        title="Diseases (65 persons)",
        description="65 persons with one diagnosis each: Diabetes, Hepatitis, Flu or HIV.",
        card=_card("diseases"),
        synthetic=True,
        person_id="person_id",
        categorical=("disease",),
        numeric={},
        max_rows_per_person=1,
        contribution_rule="one row per person",
        domains={"disease": ("Diabetes", "Hepatitis", "Flu", "HIV")},
    ),
    "census": Dataset(
        key="census",
        title="Census (32,561 synthetic persons)",
        description=(
            "A synthetic population shaped like the UCI Adult census extract, with its "
            "published occupation, sex, income and marital-status counts."
        ),
        card=_card("census"),
        synthetic=True,
        person_id="person_id",
        categorical=("sex", "marital_status", "occupation", "income", "education_years"),
        numeric={"age": (0, 100), "education_years": (0, 20), "hours_per_week": (0, 100)},
        max_rows_per_person=1,
        contribution_rule="one row per person",
        domains={
            "sex": ("Male", "Female"),
            "marital_status": ADULT_MARITAL_STATUS,
            "occupation": ADULT_OCCUPATIONS,
            "income": ("<=50K", ">50K"),
            "education_years": _numbers(1, 16),
        },
    ),
    "restaurant": Dataset(
        key="restaurant",
        title="Restaurant week (2,850 visits)",
        description=(
            "A week of restaurant visits by 1,360 visitors, some coming on several days, "
            "matching the PyDP restaurant demo's published figures."
        ),
        card=_card("restaurant"),
        synthetic=True,
        person_id="visitor_id",
        categorical=("day",),
        numeric={"money_spent": (0, 50), "time_spent": (0, 120)},
        max_rows_per_person=7,
        max_rows_per_category={"day": 1},
        contribution_rule="a visitor comes at most once a day, so at most 7 times in the week",
        domains={"day": _numbers(1, 7)},
    ),
    "tips": Dataset(
        key="tips",
        title="Restaurant tips (244 real bills)",
        description="244 real restaurant bills with tip, party size and day, shipped by plotly.",
        card=_card("tips"),
        synthetic=False,
        person_id=None,
        categorical=("sex", "smoker", "day", "time", "size"),
        numeric={"total_bill": (0, 60), "tip": (0, 10), "size": (1, 6)},
        contribution_rule=(
            "each bill is taken as one person: an assumption, since a party shares a bill "
            "and a customer may come back"
        ),
        domains={
            "sex": ("Female", "Male"),
            "smoker": ("No", "Yes"),
            "day": ("Thur", "Fri", "Sat", "Sun"),
            "time": ("Lunch", "Dinner"),
            "size": _numbers(1, 6),
        },
    ),
    "industry_groups": Dataset(
        key="industry_groups",
        title="Industry groups (37,080 rows in 119 groups)",
        description="How many rows of an industry table fall in each of 119 industry groups.",
        card=_card("industry_groups"),
        synthetic=False,
        person_id=None,
        categorical=("industry_group",),
        numeric={},
        count_column="count",
        contribution_rule=(
            "each row is taken as one person: the guarantee protects rows, not people who "
            "may stand behind several rows"
        ),
        domains={"industry_group": INDUSTRY_GROUPS},
    ),
}


def _read_csv(name: str) -> Callable[[], pd.DataFrame]:
    return lambda: pd.read_csv(DATA_DIR / name)


def _read_tips() -> pd.DataFrame:
    from plotly.express import data  # lazy: the registry must not import plotly up front

    return data.tips()


_LOADERS: dict[str, Callable[[], pd.DataFrame]] = {
    "diseases": _read_csv("diseases.csv"),
    "census": _read_csv("census.csv"),
    "restaurant": _read_csv("restaurant_week.csv"),
    "tips": _read_tips,
    "industry_groups": _read_csv("industry_groups.csv"),
}


def get_dataset(key: str) -> Dataset:
    """The Dataset for ``key``; ValueError naming the valid keys otherwise."""
    try:
        return DATASETS[key]
    except (KeyError, TypeError):
        choices = ", ".join(repr(name) for name in sorted(DATASETS))
        raise CodedError("choice", name="key", choices=choices, got=repr(key)) from None


@functools.cache
def _load_cached(key: str) -> pd.DataFrame:
    return _LOADERS[key]()


def load_dataset(key: str) -> pd.DataFrame:
    """The rows of dataset ``key``, read once and cached.

    Returns a shallow copy of the cached frame: under pandas copy-on-write, changing it
    (even adding a column) never alters the cache, and the copy costs no data.
    """
    get_dataset(key)
    return _load_cached(key).copy(deep=False)


@dataclass(frozen=True)
class Reference:
    """A table of published facts the app shows beside its own figures (not data about people).

    Every row names its source; ``card`` says where the figures come from and how to read them.
    """

    key: str
    title: str
    description: str
    card: str
    file: str  # in data/


REFERENCES: dict[str, Reference] = {
    "deployments": Reference(
        key="deployments",
        title="ε in the wild (18 published deployments)",
        description=(
            "Privacy budgets published for real differentially private releases, each with its "
            "unit of privacy, period and source."
        ),
        card=_card("deployments"),
        file="deployments.csv",
    ),
}


@functools.cache
def _load_reference_cached(key: str) -> pd.DataFrame:
    return pd.read_csv(DATA_DIR / REFERENCES[key].file, keep_default_na=False, na_values=[""])


def load_reference(key: str) -> pd.DataFrame:
    """The rows of reference table ``key`` (e.g. "deployments"), read once and cached."""
    if key not in REFERENCES:
        choices = ", ".join(repr(name) for name in sorted(REFERENCES))
        raise CodedError("choice", name="key", choices=choices, got=repr(key))
    return _load_reference_cached(key).copy(deep=False)


def frame_category_counts(
    frame: pd.DataFrame, column: str, count_column: str | None = None
) -> pd.Series:
    """Rows per category of ``column`` (or the sum of ``count_column`` per category).

    Missing values are left out. Sorted by count, largest first; ties by category.
    """
    if column not in frame.columns:
        raise CodedError("dataset_column", column=repr(column))
    if count_column is None:
        counts = frame[column].value_counts(dropna=True)
    else:
        counts = frame.groupby(column, dropna=True)[count_column].sum()
    counts = counts.sort_index().sort_values(ascending=False, kind="stable").astype("int64")
    counts.name = "count"
    counts.index.name = column
    return counts


def category_counts(key: str, column: str) -> pd.Series:
    """Counts per category of ``column`` in dataset ``key`` (see frame_category_counts)."""
    return _category_counts(key, column).copy()


@functools.lru_cache(maxsize=256)
def _category_counts(key: str, column: str) -> pd.Series:
    """category_counts, once per shipped dataset and column (the data never change)."""
    dataset = get_dataset(key)
    if column not in dataset.categorical:
        if not dataset.categorical:
            raise CodedError(
                "dataset_no_category_columns", column=repr(column), title=dataset.title
            )
        offered = ", ".join(dataset.categorical)
        raise CodedError(
            "dataset_category_column", column=repr(column), title=dataset.title, offered=offered
        )
    return frame_category_counts(load_dataset(key), column, dataset.count_column)


def _nice_bound(value: float, up: bool) -> float:
    """Round outward to two significant digits: 50.81 -> 51, 118 -> 120, -3.21 -> -3.3."""
    if value == 0 or not math.isfinite(value):
        return 0.0
    step = 10.0 ** (math.floor(math.log10(abs(value))) - 1)
    rounded = (math.ceil if up else math.floor)(value / step) * step
    return float(round(rounded, 10))


_BOUNDS_WARNING = (
    "The numeric bounds offered were read from the data itself. That is fine for "
    "exploring, but a real differentially private release must fix its bounds without "
    "looking at the data, since the bounds themselves reveal something.\n"
)


def _read_bounds(low: float, high: float) -> tuple[float, float]:
    """The bounds offered for a column read from its data: [min(low, 0), high] rounded
    outward (``_nice_bound``), U at least L + 1 when they meet."""
    lower = _nice_bound(min(low, 0.0), up=False)
    upper = _nice_bound(high, up=True)
    return lower, upper if upper > lower else lower + 1.0


def _own_dataset(
    label: str,
    rows: str,
    intro: str,
    *,
    person_id: str | None,
    categorical: list[str],
    numeric: dict[str, tuple[float, float]],
    count_column: str | None = None,
) -> Dataset:
    """A user's own table as a Dataset: key "user_" + the label's slug, a card of ``intro``
    and the bounds warning. Raises CodedError when no column is usable."""
    if not categorical and not numeric:
        raise CodedError("no_usable_column", limit=MAX_CATEGORIES)
    return Dataset(
        key="user_" + (re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_") or "data"),
        title=label,
        description=f"Your own table with {rows} rows.",
        card=f"# {label}\n\n{intro}\n\n{_BOUNDS_WARNING}",
        synthetic=False,
        person_id=person_id,
        categorical=tuple(categorical),
        numeric=numeric,
        count_column=count_column,
    )


def _check_own_frame(frame: pd.DataFrame, person_id: str | None, count_column: str | None) -> None:
    """A table with rows, text column names, the named columns, and counts >= 0 if any."""
    if not isinstance(frame, pd.DataFrame):
        raise CodedError("dataset_frame")
    if frame.empty:
        raise CodedError("table_empty")
    if not all(isinstance(column, str) for column in frame.columns):
        raise CodedError("column_names")
    for code, column in (("dataset_person_id", person_id), ("dataset_count_column", count_column)):
        if column is not None and column not in frame.columns:
            raise CodedError(code, column=repr(column))
    if count_column is not None and not (
        pd.api.types.is_integer_dtype(frame[count_column]) and (frame[count_column] >= 0).all()
    ):
        raise CodedError("dataset_count_whole", column=repr(count_column))


def _frame_columns(
    frame: pd.DataFrame, skip: tuple[str | None, ...]
) -> tuple[list[str], dict[str, tuple[float, float]]]:
    """(categorical columns, numeric columns with bounds read from the data), leaving out
    the ``skip`` columns and empty ones."""
    categorical: list[str] = []
    numeric: dict[str, tuple[float, float]] = {}
    for column in frame.columns:
        values = frame[column].dropna()
        if column in skip or values.empty:
            continue
        is_number = pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
        few_values = values.nunique() <= MAX_CATEGORIES
        if few_values and (not is_number or pd.api.types.is_integer_dtype(values)):
            categorical.append(column)
        if is_number:
            numeric[column] = _read_bounds(float(values.min()), float(values.max()))
    return categorical, numeric


def dataset_from_frame(
    frame: pd.DataFrame,
    name: str,
    *,
    person_id: str | None = None,
    count_column: str | None = None,
) -> Dataset:
    """Describe a user's own table (e.g. an uploaded CSV) as a Dataset.

    Text, boolean and category columns, and integer columns with at most MAX_CATEGORIES
    values, are categorical; number columns are numeric with bounds read from the data and
    rounded outward (the card warns that a real release must fix bounds in advance).
    The key starts with "user_", so it never collides with a shipped dataset's key.
    Raises ValueError for an empty table or one with no usable column.
    """
    _check_own_frame(frame, person_id, count_column)
    label = str(name).strip() or "My data"
    categorical, numeric = _frame_columns(frame, (person_id, count_column))
    rows = f"{int(frame[count_column].sum()):,}" if count_column else f"{len(frame):,}"
    return _own_dataset(
        label,
        rows,
        f"Your own table: {rows} rows, {frame.shape[1]} columns.",
        person_id=person_id,
        categorical=categorical,
        numeric=numeric,
        count_column=count_column,
    )


def dataset_from_summary(summary, name: str, *, person_id: str | None = None) -> Dataset:
    """Describe a table read where it lies (data.sources.summary) as a Dataset.

    As ``dataset_from_frame``, from the engine's column summary instead of the rows: text,
    boolean, date and integer columns with at most MAX_CATEGORIES values are categorical;
    number columns are numeric with bounds read from the data and rounded outward.
    """
    label = str(name).strip() or "My data"
    if summary.rows == 0:
        raise CodedError("table_empty")
    names = [column.name for column in summary.columns]
    if person_id is not None and person_id not in names:
        raise CodedError("dataset_person_id", column=repr(person_id))
    categorical: list[str] = []
    numeric: dict[str, tuple[float, float]] = {}
    for column in summary.columns:
        if column.name == person_id or column.present == 0:
            continue
        few_values = column.distinct is not None
        if few_values and column.kind in ("integer", "string", "boolean", "date", "timestamp"):
            categorical.append(column.name)
        if column.numeric and column.low is not None:
            numeric[column.name] = _read_bounds(column.low, column.high)
    return _own_dataset(
        label,
        f"{summary.rows:,}",
        f"Your own table, read where it lies: {summary.rows:,} rows, {len(names)} columns. "
        "Only the statistics a page asks for are computed, by the engine; the rows never come "
        "into the app.",
        person_id=person_id,
        categorical=categorical,
        numeric=numeric,
    )
