"""dp_core.model_table: a table made ready for a model from declared inputs only, and the
seeded per-row choices (held out, one row per person) that neighbouring tables share."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dp_core.errors import CodedError
from dp_core.model_table import (
    Encoding,
    as_text,
    design_matrix,
    feature_names,
    held_out,
    one_per_person,
)

ENCODING = Encoding(
    "income",
    ">50K",
    numeric=(("age", 0.0, 100.0),),
    categorical=(("sex", ("Male", "Female")),),
)


def test_features_are_scaled_by_the_declared_bounds_and_categories_one_hot() -> None:
    frame = pd.DataFrame(
        {
            "age": [50, 150, -3, None, "x"],
            "sex": ["Female", "Male", "Other", None, " Female "],
            "income": [">50K", "<=50K", ">50K", None, ">50K"],
        }
    )
    features, labels = design_matrix(frame, ENCODING)
    # age clipped to [0, 100] and scaled; missing or text -> the lower bound
    assert features[:, 0].tolist() == [0.5, 1.0, 0.0, 0.0, 0.0]
    # one column per declared category; "Other" and missing -> no category
    assert features[:, 1:].tolist() == [[0, 1], [1, 0], [0, 0], [0, 0], [0, 1]]
    assert labels.tolist() == [1, 0, 1, 0, 1]
    assert feature_names(ENCODING) == ["age", "sex = Male", "sex = Female"]


def test_numbers_match_declared_categories_written_as_whole_numbers() -> None:
    encoding = Encoding("y", "1", categorical=(("size", ("2", "3")),))
    frame = pd.DataFrame({"size": [2.0, 3, "3", 4], "y": [1.0, 0, 1, 1]})
    features, labels = design_matrix(frame, encoding)
    assert features.tolist() == [[1, 0], [0, 1], [0, 1], [0, 0]]
    assert labels.tolist() == [1, 0, 1, 1]


def test_a_feature_without_numbers_trains_at_its_lower_bound_rather_than_refusing() -> None:
    """Whether a model is trained never depends on what one row holds: with the only number
    gone, the column is all lower bound, not an error."""
    one = pd.DataFrame({"age": ["a", 60], "sex": ["Male"] * 2, "income": [">50K"] * 2})
    features, _labels = design_matrix(one, ENCODING)
    none, _labels = design_matrix(one.iloc[:1], ENCODING)
    assert none.shape == (1, features.shape[1]) and none[0, 0] == features[0, 0] == 0


def test_bad_inputs_raise_named_errors() -> None:
    with pytest.raises(CodedError) as missing:
        design_matrix(pd.DataFrame({"age": [1], "sex": ["Male"]}), ENCODING)
    assert missing.value.code == "column_missing" and missing.value.params == {"column": "income"}
    with pytest.raises(CodedError) as none:
        Encoding("income", ">50K", categorical=(("sex", ()),))
    assert none.value.code == "no_features"
    with pytest.raises(ValueError, match="lower bound"):
        Encoding("income", ">50K", numeric=(("age", 5.0, 5.0),))


@settings(max_examples=60, deadline=None)
@given(
    ids=st.lists(st.integers(0, 10_000), min_size=1, max_size=40, unique=True),
    extra=st.integers(10_001, 20_000),
    where=st.integers(0, 40),
    seed=st.integers(0, 2**31),
)
def test_a_rows_fate_does_not_depend_on_any_other_row(ids, extra, where, seed) -> None:
    """Adding one person anywhere in the table changes no other person's held-out fate, nor
    which row another person keeps: the training sets of neighbouring tables differ by at
    most that person's row (what DP-SGD's accounting assumes)."""
    frame = pd.DataFrame({"person": ids * 2, "value": list(range(2 * len(ids)))})
    added = pd.concat(
        [frame.iloc[:where], pd.DataFrame({"person": [extra], "value": [-1]}), frame.iloc[where:]]
    ).reset_index(drop=True)
    before = dict(zip(frame["person"], held_out(frame, 0.3, seed, by="person"), strict=True))
    after = dict(zip(added["person"], held_out(added, 0.3, seed, by="person"), strict=True))
    assert all(after[p] == held for p, held in before.items())
    kept = one_per_person(frame, "person", seed).set_index("person")["value"]
    kept_added = one_per_person(added, "person", seed).set_index("person")["value"]
    assert kept_added.drop(extra).sort_index().equals(kept.sort_index())


def test_held_out_share_and_one_row_per_person() -> None:
    frame = pd.DataFrame({"person": np.repeat(np.arange(20_000), 2), "value": np.arange(40_000)})
    share = held_out(frame, 0.2, 7, by="person")
    assert share.mean() == pytest.approx(0.2, abs=0.01)
    pairs = share.reshape(-1, 2)
    assert (pairs[:, 0] == pairs[:, 1]).all()  # a person's rows share their fate
    kept = one_per_person(frame, "person", 7)
    assert kept["person"].is_unique and len(kept) == 20_000
    assert 0.4 < (kept["value"] % 2).mean() < 0.6  # either row, by the hash
    assert held_out(frame, 0.2, 8, by="person").tolist() != share.tolist()  # seeded


def _as_text_row_by_row(values: pd.Series) -> pd.Series:
    """as_text as it was, parsing every row: the reference its conversion of each distinct
    value once must equal."""
    numbers = pd.to_numeric(values, errors="coerce")
    whole = numbers.notna() & np.isfinite(numbers) & (numbers == np.round(numbers))
    text = values.astype("string")
    text[whole] = numbers[whole].astype("int64").astype("string")
    return text.str.strip()


CELLS = st.one_of(
    st.integers(-(10**6), 10**6),
    st.floats(-1e15, 1e15),
    st.sampled_from([float("nan"), float("inf"), -0.0, None, pd.NA, True, False]),
    st.sampled_from([" 3.0", "3", "1e3", "-0", " a ", "", "2,5"]),
    st.text(max_size=3),
)


@settings(max_examples=60)
@given(st.lists(CELLS, max_size=30), st.booleans())
def test_as_text_converts_each_distinct_value_as_every_row_was(cells, numbers_only):
    values = pd.Series(cells, dtype=object, name="column", index=range(3, 3 + len(cells)))
    if numbers_only:  # a column read as numbers (float64), as from a CSV of numbers
        values = pd.to_numeric(values, errors="coerce").astype(float)
    pd.testing.assert_series_equal(as_text(values), _as_text_row_by_row(values))
