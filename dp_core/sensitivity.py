"""Sensitivity of the simple queries the central-mechanism pages offer.

Neighbouring datasets differ by adding or removing one person who contributes one record
(Dwork & Roth 2014, Def 2.4 and Sec 3.3). Values are clipped to [L, U] first.
"""

from __future__ import annotations

from dp_core.validation import check_bounds, check_positive_int

__all__ = [
    "clipped_mean_sensitivity",
    "clipped_sum_sensitivity",
    "count_sensitivity",
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
