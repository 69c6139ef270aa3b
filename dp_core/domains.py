"""Counting over a declared (public) category domain.

A released table's labels are part of the release. If they are read off the data, removing
the one person in a rare category removes its label, an event of probability 1 in one
dataset and 0 in its neighbour, so no (epsilon, delta) with delta < 1 holds. The labels must
therefore be either declared in advance (this module: every declared category is released,
absent ones as noisy zeros) or chosen privately (dp_core.partition_selection).
Categories are compared as text (``category_keys``). The rows that fall outside the domain
are counted, but the outside values are never listed: they are private.
Source: Wilson et al. 2020, "Differentially private SQL with bounded user contribution"
(released keys must be public or selected with DP).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dp_core.errors import CodedError
from dp_core.validation import check_bounds

__all__ = [
    "MAX_DECLARED_CATEGORIES",
    "DomainCounts",
    "DomainSums",
    "category_keys",
    "check_domain",
    "clipped_sums_over_domain",
    "counts_over_domain",
    "parse_declared_categories",
]

# More declared categories than this is almost surely a pasted column of raw data.
MAX_DECLARED_CATEGORIES = 1_000

_SEPARATORS = re.compile(r"[\r\n,;]+")


def parse_declared_categories(text: str) -> tuple[str, ...]:
    """Categories a user typed or pasted: one per line, or separated by commas or semicolons.

    Each is trimmed; empty entries and repeats are dropped, first occurrence kept, so the
    order is the user's. A category cannot itself contain a comma or semicolon.
    """
    if not isinstance(text, str):
        raise CodedError("domain_text", got=type(text).__name__)
    categories = tuple(dict.fromkeys(p.strip() for p in _SEPARATORS.split(text) if p.strip()))
    return check_domain(categories)


def check_domain(domain: Sequence[str]) -> tuple[str, ...]:
    """The declared domain as a tuple of distinct, non-empty, trimmed strings (1 to 1,000)."""
    if isinstance(domain, str):
        raise CodedError("domain_list")
    labels = tuple(domain)
    if not labels:
        raise CodedError("domain_empty")
    if len(labels) > MAX_DECLARED_CATEGORIES:
        raise CodedError(
            "domain_size", count=f"{len(labels):,}", limit=f"{MAX_DECLARED_CATEGORIES:,}"
        )
    if not all(isinstance(label, str) and label and label == label.strip() for label in labels):
        raise CodedError("domain_labels")
    if len(set(labels)) != len(labels):
        raise CodedError("domain_duplicate")
    return labels


def category_keys(values: pd.Series) -> pd.Series:
    """The text each value is compared as: str(value) trimmed, missing values left missing.

    Whole numbers stored as floats (e.g. 3.0, as pandas reads an integer column with gaps)
    compare as "3", so a declared "3" matches them.
    """
    series = pd.Series(values).reset_index(drop=True)
    missing = series.isna().to_numpy()
    keys = pd.Series(np.full(len(series), np.nan, dtype=object))
    present = ~missing
    if pd.api.types.is_float_dtype(series.dtype):
        numbers = series.to_numpy(dtype=float, na_value=np.nan)
        whole = present & np.isfinite(numbers) & (np.abs(numbers) < 2.0**53)
        whole &= numbers == np.round(numbers)
        other = present & ~whole
        keys[whole] = numbers[whole].astype(np.int64).astype(str)
        keys[other] = series[other].astype(str).to_numpy(dtype=object)
    else:
        keys[present] = series[present].astype(str).str.strip().to_numpy(dtype=object)
    return keys


@dataclass(frozen=True)
class DomainCounts:
    """Counts (or summed weights) for each declared category, in domain order.

    ``rows_outside``: rows whose value is not a declared category (dropped);
    ``distinct_outside``: how many different such values there were (never which);
    ``missing``: rows with no value. These three describe the data, not a DP release:
    show them to the data's owner only.
    """

    labels: tuple[str, ...]
    counts: np.ndarray
    rows_outside: int
    distinct_outside: int
    missing: int

    def as_series(self) -> pd.Series:
        """The counts indexed by label."""
        return pd.Series(self.counts, index=pd.Index(self.labels, name="category"), name="count")


def _domain_codes(keys: pd.Series, domain: tuple[str, ...]) -> np.ndarray:
    """Index of each key in the domain; -1 outside the domain or missing."""
    codes = pd.Index(domain).get_indexer(keys.to_numpy(dtype=object))
    codes[keys.isna().to_numpy()] = -1
    return codes


def _distinct(keys: pd.Series, mask: np.ndarray) -> int:
    """How many different keys the masked rows hold."""
    return int(pd.unique(keys[mask].to_numpy(dtype=object)).size)


def counts_over_domain(
    values: pd.Series, domain: Sequence[str], weights: pd.Series | None = None
) -> DomainCounts:
    """Rows (or the sum of ``weights``, e.g. a count table's count column) per declared category.

    count_j = #{rows with key j} (or sum of their weights), for j in the domain, in domain
    order; declared categories absent from the data get 0 and are released as noisy zeros,
    so the released labels are the domain whatever the data (Wilson et al. 2020).
    """
    labels = check_domain(domain)
    series = pd.Series(values)
    keys = category_keys(series)
    codes = _domain_codes(keys, labels)
    missing = keys.isna().to_numpy()
    inside, outside = codes >= 0, (codes < 0) & ~missing
    if weights is None:
        counts = np.bincount(codes[inside], minlength=len(labels)).astype(np.int64)
    else:
        w = pd.Series(weights)
        if len(w) != len(series):
            raise CodedError(
                "domain_weights_length", weights=f"{len(w):,}", rows=f"{len(series):,}"
            )
        if not pd.api.types.is_numeric_dtype(w) or pd.api.types.is_bool_dtype(w):
            raise CodedError("domain_weights_numbers")
        w = w.to_numpy(dtype=float, na_value=np.nan)
        if not np.all(np.isfinite(w[inside])) or np.any(w[inside] < 0):
            raise CodedError("domain_weights_range")
        counts = np.bincount(codes[inside], weights=w[inside], minlength=len(labels))
    return DomainCounts(
        labels, counts, int(outside.sum()), _distinct(keys, outside), int(missing.sum())
    )


@dataclass(frozen=True)
class DomainSums:
    """Per declared category, in domain order: rows, sum of values clipped to [L, U], raw sum.

    ``missing``: rows left out for a missing category or value; ``rows_outside`` and
    ``distinct_outside`` as in DomainCounts (describe the data, not a DP release).
    """

    labels: tuple[str, ...]
    rows: np.ndarray
    clipped_sums: np.ndarray
    raw_sums: np.ndarray
    lower: float
    upper: float
    rows_outside: int
    distinct_outside: int
    missing: int

    @property
    def clipped_means(self) -> np.ndarray:
        """Clipped sum / rows (NaN where a category has no rows): the true clipped mean."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.rows > 0, self.clipped_sums / self.rows, np.nan)

    def as_frame(self) -> pd.DataFrame:
        """rows, clipped_sum and raw_sum indexed by label."""
        return pd.DataFrame(
            {"rows": self.rows, "clipped_sum": self.clipped_sums, "raw_sum": self.raw_sums},
            index=pd.Index(self.labels, name="category"),
        )


def clipped_sums_over_domain(
    categories: pd.Series,
    values: pd.Series,
    domain: Sequence[str],
    lower: float,
    upper: float,
) -> DomainSums:
    """Per declared category: rows, sum of min(max(x, L), U), and the unclipped sum.

    The clipped sum's per-row sensitivity is max(|L|, |U|) (dp_core.sensitivity); the labels
    are the domain, so they reveal nothing about the data (Wilson et al. 2020).
    """
    labels = check_domain(domain)
    lo, hi = check_bounds(lower, upper)
    cats, vals = pd.Series(categories), pd.Series(values)
    if len(cats) != len(vals):
        raise CodedError("domain_rows_mismatch")
    if not pd.api.types.is_numeric_dtype(vals) or pd.api.types.is_bool_dtype(vals):
        raise CodedError("domain_values_numeric")
    numbers = vals.to_numpy(dtype=float, na_value=np.nan)
    keys = category_keys(cats)
    codes = _domain_codes(keys, labels)
    missing = keys.isna().to_numpy() | np.isnan(numbers)
    inside, outside = (codes >= 0) & ~missing, (codes < 0) & ~missing
    size = len(labels)
    kept = codes[inside]
    return DomainSums(
        labels=labels,
        rows=np.bincount(kept, minlength=size).astype(np.int64),
        clipped_sums=np.bincount(kept, weights=np.clip(numbers[inside], lo, hi), minlength=size),
        raw_sums=np.bincount(kept, weights=numbers[inside], minlength=size),
        lower=lo,
        upper=hi,
        rows_outside=int(outside.sum()),
        distinct_outside=_distinct(keys, outside),
        missing=int(missing.sum()),
    )
