"""Score functions for private selection, each with the sensitivity that really holds.

Neighbouring datasets differ by adding or removing one record, so one candidate's
count moves by exactly 1: the count score has sensitivity 1 and is monotonic.

The count divided by the largest count, s_r = c_r / M with M = max_j c_j >= 1:

Claim. For neighbours with largest counts M and M', max_r |s_r - s'_r| <= 1 / min(M, M'),
and with two or more candidates this is attained.
Proof. Say one record is added to candidate i (removal is the same pair read backwards).
(a) c_i < M: M' = M, only s_i moves, by exactly 1 / M.
(b) c_i = M: M' = M + 1 and s'_i = 1 = s_i; every other r moves by
    c_r / M - c_r / (M + 1) = c_r / (M (M + 1)) <= 1 / (M + 1) < 1 / M.
So the change is at most 1 / min(M, M'), with equality in (a). QED.
Consequences: on a dataset whose largest count is M, one person moves a score by at
most 1 / M (the local sensitivity); over all datasets (M can be 1) the global
sensitivity is exactly 1, e.g. counts (1, 0) -> (1, 1) moves s_2 from 0 to 1. So
"sensitivity 1" is a true bound, but it is as wide as the whole score range [0, 1]:
with it every probability ratio is at most exp(epsilon / 2) and the answer is close
to uniform. Calibrating to the data's own 1 / M is not a valid recipe in general (the
sensitivity would depend on the data); here it cancels exactly, exp(epsilon (c / M) /
(2 / M)) = exp(epsilon c / 2), which is the count score with sensitivity 1.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

COUNT_SENSITIVITY = 1.0  # adding or removing one record moves one count by 1


def share_of_largest_scores(counts: ArrayLike) -> np.ndarray:
    """s_r = c_r / max_j c_j, in [0, 1]; needs at least one record."""
    c = np.asarray(counts, dtype=float)
    if c.size == 0 or c.max() <= 0:
        raise ValueError("count / largest count needs at least one record.")
    return c / c.max()


def share_of_largest_local_sensitivity(counts: ArrayLike) -> float:
    """1 / M: the most one added or removed record can move any c_r / M here (see module).

    Exact for two or more candidates; with a single candidate the score is always 1.
    """
    c = np.asarray(counts, dtype=float)
    if c.size == 0 or c.max() <= 0:
        raise ValueError("count / largest count needs at least one record.")
    return float(1.0 / c.max())


SHARE_OF_LARGEST_GLOBAL_SENSITIVITY = 1.0  # over all datasets: (1, 0) -> (1, 1), see module
