"""A table made ready to train a model on, with nothing read from it that a release reveals.

A model's weights name its inputs: one weight per declared category, features scaled by
declared bounds. So the encoding is fixed in advance (``Encoding``), never read from the rows:

- a numeric feature x is clipped to its declared [L, U] and scaled to (x - L) / (U - L);
- a categorical feature is one column per declared category (1 where the row has it); a value
  outside the declared categories, or missing, is all zeros;
- the label is 1 where the label column equals the declared positive value, else 0.

Which rows train and which are held out, and which row a person keeps when they have several,
are decided per row by a seeded hash of the row's own content (``held_out``, ``one_per_person``):
adding or removing one person changes no other row's fate, so the training set of neighbouring
tables differs by at most one row (what DP-SGD's accounting assumes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from dp_core.errors import CodedError
from dp_core.validation import check_bounds, check_probability

__all__ = [
    "Encoding",
    "as_text",
    "design_matrix",
    "feature_names",
    "held_out",
    "one_per_person",
]


@dataclass(frozen=True)
class Encoding:
    """The declared inputs of a model: numeric features with bounds, categorical features with
    their categories, and the label column with its positive value."""

    label: str
    positive: str
    numeric: tuple[tuple[str, float, float], ...] = ()  # (column, L, U)
    categorical: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (column, categories)

    def __post_init__(self) -> None:
        for _column, lower, upper in self.numeric:
            check_bounds(lower, upper)
        if not self.numeric and not any(labels for _c, labels in self.categorical):
            raise CodedError("no_features")

    @property
    def columns(self) -> tuple[str, ...]:
        """Every column the model reads, the label last."""
        return (
            *(column for column, _l, _u in self.numeric),
            *(column for column, _labels in self.categorical),
            self.label,
        )


def feature_names(encoding: Encoding) -> list[str]:
    """One name per column of ``design_matrix``: "age", "sex = Female", ..."""
    names = [column for column, _l, _u in encoding.numeric]
    for column, labels in encoding.categorical:
        names.extend(f"{column} = {label}" for label in labels)
    return names


def as_text(values: pd.Series) -> pd.Series:
    """A column as the text a declared category is compared with ("3" for 3, 3.0, " 3.0" and
    True as 1), each distinct value converted once: a column of 32,561 rows holds a few
    dozen, and parsing every row took 10 ms. Values equal in Python (1, 1.0, True) share a
    code and a text; missing ones stay missing."""
    codes, uniques = pd.factorize(values)
    distinct = pd.Series(uniques)
    numbers = pd.to_numeric(distinct, errors="coerce")
    whole = numbers.notna() & np.isfinite(numbers) & (numbers == np.round(numbers))
    text = distinct.astype("string")
    text[whole] = numbers[whole].astype("int64").astype("string")
    return text.str.strip().reindex(codes).set_axis(values.index).rename(values.name)


def design_matrix(frame: pd.DataFrame, encoding: Encoding) -> tuple[np.ndarray, np.ndarray]:
    """(features, labels): features in [0, 1] as the module says, labels 0 or 1.

    Raises CodedError "column_missing" for a column the table lacks. A value that is not a
    number counts as the lower bound, even where no value is one: what is trained never
    depends on what the rows hold."""
    for column in encoding.columns:
        if column not in frame.columns:
            raise CodedError("column_missing", column=column)
    parts = []
    for column, lower, upper in encoding.numeric:
        values = pd.to_numeric(frame[column], errors="coerce")
        clipped = values.clip(lower, upper).fillna(lower).to_numpy(dtype=float)
        parts.append(((clipped - lower) / (upper - lower))[:, None])
    for column, labels in encoding.categorical:
        text = as_text(frame[column]).fillna("").to_numpy(dtype=object)
        parts.append((text[:, None] == np.array(labels, dtype=object)[None, :]).astype(float))
    features = np.hstack(parts) if parts else np.empty((len(frame), 0))
    labels = (
        as_text(frame[encoding.label]).fillna("") == str(encoding.positive).strip()
    ).to_numpy()
    return features, labels.astype(float)


def _mix(values: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser (Steele, Lea & Flood 2014): every input bit reaches every
    output bit. Unsigned 64-bit arithmetic, wrapping."""
    z = values + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _row_hash(frame: pd.DataFrame, seed: int) -> np.ndarray:
    """A seeded hash of each row's content (its index left out), in [0, 1): pandas' hash of
    the row, mixed with the seed (pandas' own key reaches text columns only)."""
    hashed = pd.util.hash_pandas_object(frame, index=False).to_numpy(dtype=np.uint64)
    salt = _mix(np.array([seed % 2**64], dtype=np.uint64))
    with np.errstate(over="ignore"):
        return (_mix(hashed ^ salt) >> np.uint64(11)) / 2.0**53


def held_out(frame: pd.DataFrame, share: float, seed: int, by: str | None = None) -> np.ndarray:
    """True for the rows held out for testing: those whose seeded hash (of ``by``, a person's
    id, or of the whole row) is below ``share``. A row's fate depends on it alone."""
    p = check_probability(share, "held-out share")
    keyed = frame[[by]] if by is not None else frame
    return _row_hash(keyed, seed) < p


def one_per_person(frame: pd.DataFrame, person: str, seed: int) -> pd.DataFrame:
    """Each person's row with the smallest seeded hash of its content: one row per person,
    chosen without looking at any other person's rows."""
    hashed = pd.Series(_row_hash(frame, seed), index=frame.index)
    first = hashed.groupby(frame[person], sort=False, dropna=False).idxmin()
    return frame.loc[np.sort(first.to_numpy())]
