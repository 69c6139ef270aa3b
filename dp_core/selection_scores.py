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

from dp_core.errors import CodedError
from dp_core.validation import check_bounds, check_positive_int

COUNT_SENSITIVITY = 1.0  # adding or removing one record moves one count by 1


def share_of_largest_scores(counts: ArrayLike) -> np.ndarray:
    """s_r = c_r / max_j c_j, in [0, 1]; needs at least one record."""
    c = np.asarray(counts, dtype=float)
    if c.size == 0 or c.max() <= 0:
        raise CodedError("selection_no_record")
    return c / c.max()


def share_of_largest_local_sensitivity(counts: ArrayLike) -> float:
    """1 / M: the most one added or removed record can move any c_r / M here (see module).

    Exact for two or more candidates; with a single candidate the score is always 1.
    """
    c = np.asarray(counts, dtype=float)
    if c.size == 0 or c.max() <= 0:
        raise CodedError("selection_no_record")
    return float(1.0 / c.max())


SHARE_OF_LARGEST_GLOBAL_SENSITIVITY = 1.0  # over all datasets: (1, 0) -> (1, 1), see module


# --- A score that is not a count: the average of a clipped value per group ---------------------


def floored_clipped_means(
    values: ArrayLike,
    groups: ArrayLike,
    candidates: ArrayLike,
    *,
    lower: float,
    upper: float,
    min_group_size: int,
) -> np.ndarray:
    """Score of each candidate group: its clipped mean, with a public floor on the group size.

    s_r = L + sum_{i in r} (clip(x_i, L, U) - L) / max(n_r, n_min)

    One value per person (each person is in one group, with one row). For a group of at least
    n_min persons this is exactly the mean of the clipped values; a smaller group is scored
    as if the missing persons had the value L (pulled towards L, a bias of small groups);
    an empty group scores L. Sensitivity: ``floored_clipped_mean_sensitivity``.
    """
    lo, hi = check_bounds(lower, upper)
    floor = check_positive_int(min_group_size, "the smallest group size")
    x = np.asarray(values, dtype=float)
    g = np.asarray(groups)
    if x.shape != g.shape or x.ndim != 1:
        raise CodedError("selection_columns_length")
    if np.isnan(x).any():
        raise CodedError("selection_values_missing")
    lifted = np.clip(x, lo, hi) - lo
    scores = []
    for candidate in np.asarray(candidates):
        members = g == candidate
        scores.append(lo + lifted[members].sum() / max(int(members.sum()), floor))
    return np.array(scores, dtype=float)


def floored_clipped_mean_sensitivity(lower: float, upper: float, min_group_size: int) -> float:
    """Delta = (U - L) / n_min: the most one person added or removed moves any group's score.

    Neighbours: one person added or removed, with their one value x (anything: it is clipped
    to [L, U]), in one group r; every other group's score stays. Write w = clip(x) - L in
    [0, U - L], n for the size of r in the larger dataset, S for its sum of clip - L there.
    (a) n <= n_min: both denominators are n_min, so s_r moves by w / n_min <= (U - L) / n_min,
        attained by x >= U.
    (b) n > n_min: s_r moves by |S/n - (S - w)/(n - 1)| = |(n - 1) w - (S - w)| / (n (n - 1)),
        and S - w (the other n - 1 persons) lies in [0, (n - 1)(U - L)], so the move is at
        most (U - L) / n < (U - L) / n_min.
    So Delta = (U - L) / n_min over all datasets, with no group size known in advance; it is
    not monotonic (a low value lowers the mean), so the rate is epsilon / (2 Delta). (Replacing
    one person's value, a neighbour relation the page does not use, gives the same bound: a
    group then gains or loses w - w' with |w - w'| <= U - L over the same max(n, n_min).)

    Why the floor: the plain clipped mean of a group of n persons moves by up to
    (U - L) / n, the replace-one bound diffprivlib's tools.mean uses with n public
    (sensitivity = (upper - lower) / array.size). Group sizes are not public here, and the
    smallest group can have one person (or none), so without the floor Delta = U - L;
    reading n from the data would make Delta itself depend on the data, which is not DP.
    Without clipping no Delta exists: one person's value can be anything.
    Sources: Dwork & Roth 2014, Def 3.4 (Delta u of the exponential mechanism); diffprivlib,
    tools.mean (Holohan et al. 2019).
    """
    lo, hi = check_bounds(lower, upper)
    floor = check_positive_int(min_group_size, "the smallest group size")
    return (hi - lo) / floor
