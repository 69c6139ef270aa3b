"""data.registry: the Dataset descriptions, cached loading, category counts, user tables."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from data import registry
from data.registry import (
    DATASETS,
    Dataset,
    category_counts,
    dataset_from_frame,
    frame_category_counts,
    load_dataset,
)

KEYS = ["diseases", "census", "restaurant", "tips", "industry_groups"]


def test_keys_and_kinds():
    assert list(DATASETS) == KEYS
    assert {key for key, d in DATASETS.items() if d.synthetic} == {
        "diseases",
        "census",
        "restaurant",
    }
    assert [key for key, d in DATASETS.items() if d.is_count_table] == ["industry_groups"]


@pytest.mark.parametrize("key", KEYS)
def test_descriptions_match_the_loaded_columns(key):
    dataset = DATASETS[key]
    frame = load_dataset(key)
    assert dataset.key == key and dataset.title and dataset.description.endswith(".")
    assert dataset.card.startswith("# ") and len(dataset.card) > 200
    if dataset.synthetic:
        assert "**Synthetic.**" in dataset.card
    for column in dataset.categorical:
        assert column in frame.columns
    if dataset.person_id is not None:
        assert dataset.person_id in frame.columns
    if dataset.count_column is not None:
        assert pd.api.types.is_integer_dtype(frame[dataset.count_column])
    for column, (lower, upper) in dataset.numeric.items():
        assert pd.api.types.is_numeric_dtype(frame[column])
        assert lower < upper
    hash(dataset)  # frozen and hashable despite the bounds dict


def test_dataset_is_frozen():
    with pytest.raises(AttributeError):
        DATASETS["census"].title = "changed"


def test_loaded_types_use_pandas_string_dtype_and_nan_for_missing():
    census = load_dataset("census")
    assert census["occupation"].dtype == "str"
    assert census["occupation"].isna().sum() == 1_843
    assert load_dataset("tips").shape == (244, 7)
    assert load_dataset("restaurant").shape == (2_850, 5)


def test_load_is_cached_and_callers_cannot_alter_the_cache():
    first = load_dataset("diseases")
    hits = registry._load_cached.cache_info().hits
    first["disease"] = "changed"
    first.loc[0, "person_id"] = -1
    again = load_dataset("diseases")
    assert registry._load_cached.cache_info().hits == hits + 1
    assert "changed" not in set(again["disease"])
    assert again["person_id"].min() == 1


@pytest.mark.parametrize("bad", ["nope", "", None, 3])
def test_unknown_key_is_a_readable_value_error(bad):
    with pytest.raises(ValueError, match=r"key must be one of 'census', 'diseases', .* \(got "):
        load_dataset(bad)
    with pytest.raises(ValueError, match="key must be one of"):
        category_counts(bad, "disease")


def test_category_counts_of_persons():
    counts = category_counts("diseases", "disease")
    assert counts.to_dict() == {"Flu": 28, "Diabetes": 24, "Hepatitis": 8, "HIV": 5}
    assert list(counts.index) == ["Flu", "Diabetes", "Hepatitis", "HIV"]
    assert counts.name == "count" and counts.index.name == "disease"
    occupation = category_counts("census", "occupation")
    assert occupation.sum() == 32_561 - 1_843 and occupation.index.notna().all()
    assert occupation.iloc[0] == 4_140 and occupation.index[-1] == "Armed-Forces"
    days = category_counts("restaurant", "day")
    assert days.to_dict() == {6: 500, 7: 500, 5: 450, 3: 400, 4: 400, 1: 300, 2: 300}


def test_category_counts_of_a_count_table_sum_the_counts():
    counts = category_counts("industry_groups", "industry_group")
    assert len(counts) == 119 and counts.sum() == 37_080
    assert counts.iloc[0] == 682 and (counts.iloc[1:11] == 576).all()
    ties = list(counts.index[1:11])
    assert ties == sorted(ties)  # ties in a fixed, readable order


def test_category_counts_match_plotly_tips():
    from plotly.express import data

    expected = data.tips()["day"].value_counts()
    assert category_counts("tips", "day").to_dict() == expected.to_dict()


@pytest.mark.parametrize("column", ["age", "no_such_column"])
def test_category_counts_rejects_a_non_category_column(column):
    with pytest.raises(ValueError, match=r"not a category column .*Category columns: sex"):
        category_counts("census", column)


def test_frame_category_counts_rejects_a_missing_column():
    with pytest.raises(ValueError, match="no column 'x'"):
        frame_category_counts(pd.DataFrame({"a": [1]}), "x")


def test_registry_imports_neither_streamlit_nor_plotly():
    code = (
        "import sys, data.registry; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


# --- a user's own table ---------------------------------------------------------------------
def test_dataset_from_frame_infers_roles_and_outward_bounds():
    from plotly.express import data

    tips = data.tips()
    dataset = dataset_from_frame(tips, "  My tips! ")
    assert isinstance(dataset, Dataset)
    assert dataset.key == "user_my_tips" and dataset.title == "My tips!"
    assert not dataset.synthetic and dataset.person_id is None
    assert dataset.categorical == ("sex", "smoker", "day", "time", "size")
    assert dataset.numeric == {"total_bill": (0.0, 51.0), "tip": (0.0, 10.0), "size": (0.0, 6.0)}
    assert "without looking at the data" in dataset.card
    assert frame_category_counts(tips, "smoker").to_dict() == {"No": 151, "Yes": 93}


def test_dataset_from_frame_negative_values_free_text_ids_and_counts():
    frame = pd.DataFrame(
        {
            "id": np.arange(300),
            "note": [f"free text {i}" for i in range(300)],
            "change": np.linspace(-3.21, 118.0, 300),
            "group": ["a", "b", "c"] * 100,
            "n": np.ones(300, dtype=int),
            "empty": [np.nan] * 300,
        }
    )
    dataset = dataset_from_frame(frame, "x", person_id="id", count_column="n")
    assert dataset.categorical == ("group",)  # 300 distinct texts are not categories
    assert dataset.numeric == {"change": (-3.3, 120.0)}
    assert dataset.person_id == "id" and dataset.count_column == "n"
    assert frame_category_counts(frame, "group", "n").to_dict() == {"a": 100, "b": 100, "c": 100}


def test_dataset_from_frame_rejects_unusable_tables():
    with pytest.raises(ValueError, match="empty"):
        dataset_from_frame(pd.DataFrame(), "x")
    with pytest.raises(ValueError, match="empty"):
        dataset_from_frame(pd.DataFrame({"a": []}), "x")
    with pytest.raises(ValueError, match="No usable column"):
        dataset_from_frame(pd.DataFrame({"a": [np.nan, np.nan]}), "x")
    with pytest.raises(ValueError, match="No usable column"):
        dataset_from_frame(pd.DataFrame({"t": [f"row {i}" for i in range(500)]}), "x")
    with pytest.raises(ValueError, match="person id column 'pid' is not in the table"):
        dataset_from_frame(pd.DataFrame({"a": [1, 2]}), "x", person_id="pid")
    with pytest.raises(ValueError, match="table"):
        dataset_from_frame([[1, 2]], "x")
    with pytest.raises(ValueError, match="text name"):
        dataset_from_frame(pd.DataFrame([[1, 2]]), "x")
    with pytest.raises(ValueError, match="whole numbers >= 0"):
        dataset_from_frame(pd.DataFrame({"a": ["x"], "n": ["many"]}), "x", count_column="n")


# --- Public category domains --------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(DATASETS))
def test_every_category_column_has_a_public_domain_that_covers_the_data(key) -> None:
    from dp_core.domains import counts_over_domain

    dataset = DATASETS[key]
    assert set(dataset.domains) == set(dataset.categorical)
    frame = load_dataset(key)
    for column, domain in dataset.domains.items():
        counted = counts_over_domain(frame[column], domain)
        assert counted.rows_outside == 0, (key, column)  # nothing in the data is undeclared
        assert len(set(domain)) == len(domain)


def test_domains_are_the_published_codes_in_their_stated_order() -> None:
    assert DATASETS["diseases"].domains["disease"] == ("Diabetes", "Hepatitis", "Flu", "HIV")
    occupations = DATASETS["census"].domains["occupation"]
    assert occupations[0] == "Prof-specialty" and occupations[-1] == "Armed-Forces"
    assert len(occupations) == 14  # UCI Adult's 14 codes
    assert DATASETS["restaurant"].domains["day"] == tuple(str(d) for d in range(1, 8))
    assert len(DATASETS["industry_groups"].domains["industry_group"]) == 119


def test_an_own_table_has_no_public_domain() -> None:
    own = dataset_from_frame(pd.DataFrame({"shop": ["A", "B"]}), "mine.csv")
    assert own.domains == {}
