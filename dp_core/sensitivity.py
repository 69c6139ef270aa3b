"""Sensitivity of the simple queries the central-mechanism pages offer.

Neighbouring datasets differ by adding or removing one person (Dwork & Roth 2014, Def 2.4 and
Sec 3.3). The per-row sensitivities below are for one row; a person with up to m rows
multiplies them (capped_contribution_norms). Values are clipped to [L, U] first.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from dp_core.validation import check_bounds, check_positive_int

__all__ = [
    "capped_contribution_norms",
    "clipped_mean_sensitivity",
    "clipped_sum_sensitivity",
    "count_sensitivity",
    "most_rows_per_person",
]


def count_sensitivity() -> float:
    """A count changes by at most 1 when one person is added or removed."""
    return 1.0


def clipped_sum_sensitivity(lower: float, upper: float) -> float:
    """Sum of values clipped to [L, U] changes by at most max(|L|, |U|)."""
    lo, hi = check_bounds(lower, upper)
    return max(abs(lo), abs(hi))


def clipped_mean_sensitivity(lower: float, upper: float, n: int) -> float:
    """Mean of n clipped values with n public (fixed): (U - L) / n under replace-one.

    With n released as public (e.g. from a separate noisy count), changing one person's value
    moves the mean by at most (U - L) / n (Dwork & Roth 2014, Sec 3.3; diffprivlib's mean uses
    the same bound). Add/remove changes n itself, which is why the page releases
    mean = noisy sum / noisy count and this function serves the fixed-n teaching case.
    """
    lo, hi = check_bounds(lower, upper)
    return (hi - lo) / check_positive_int(n, "number of records")


def capped_contribution_norms(
    max_rows: int, max_rows_per_category: int | None = None
) -> tuple[int, float]:
    """Largest L1 and L2 norm of one person's row counts over per-category statistics.

    A person has at most m = ``max_rows`` rows and at most g = ``max_rows_per_category`` in
    any one category (g = m when unknown). Their change to the vector of per-category counts
    has L1 norm <= m, and L2 norm <= sqrt(q g^2 + r^2) with (q, r) = divmod(m, g): the sum of
    squares of entries in [0, g] summing to m is largest when they are as concentrated as
    possible (a convex function is maximised at a vertex). These multiply a row's sensitivity
    (1 for a count, max(|L|, |U|) for a clipped sum) to give the L1 (Laplace) and L2
    (Gaussian) sensitivity. The bounds must be public rules or enforced caps, not read off
    the data (Wilson et al. 2020, Differentially private SQL with bounded user contribution).
    """
    m = check_positive_int(max_rows, "the cap on rows per person")
    g = (
        m
        if max_rows_per_category is None
        else min(
            m, check_positive_int(max_rows_per_category, "the cap on rows per person in a category")
        )
    )
    q, r = divmod(m, g)
    return m, float(np.sqrt(q * g * g + r * r))


def most_rows_per_person(person_ids: pd.Series) -> int:
    """The most rows any one person has in the data (missing ids left out); 1 if none."""
    counts = person_ids.dropna().value_counts()
    return int(counts.max()) if len(counts) else 1
