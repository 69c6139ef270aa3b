"""DP quantiles over a public grid: clipping bounds and caps that are not read off the data.

A clipping bound or a cap chosen by looking at the data (its maximum, its 95th percentile)
leaks that data. The private way picks a candidate c from a public grid with the
exponential mechanism and OpenDP's score (make_quantile_score_candidates):

    score(c) = -| (1 - alpha) #(x < c) - alpha #(x > c) |    (0 at the alpha-quantile),

P(c) proportional to exp(eps score(c) / (2 Delta)), Delta = m max(alpha, 1 - alpha) for
add/remove-one-person neighbours when a person has at most m values (m =
``max_rows_per_person``; adding m values moves #(x < c) by a and #(x > c) by g, a + g <= m).
Sources: Smith 2011, "Privacy-preserving statistical estimation with optimal convergence
rates"; McSherry & Talwar 2007; OpenDP's make_private_quantile. With m = 1 the input must
be one value per person (e.g. per-person totals, or counts of rows per person); otherwise
cap each person at m rows first (dp_core.bounding.cap_contributions).
``mechanism="permute_and_flip"`` uses the same scores with permute-and-flip (McKenna &
Sheldon 2020), which is what OpenDP's make_private_quantile runs for pure (max-divergence)
DP; its zCDP version runs the exponential mechanism. Both are eps-DP with OpenDP's
scale s = 2 Delta / eps: P(c) proportional to exp(score(c) / s) for the exponential one.
The grid must be public (e.g. 0 to a published maximum), never the data's own values.
Every function takes ``weights`` too: value i then stands for weights[i] equal values (a
histogram, or the distinct values of a table too large to hold), with the same result as
the values repeated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from dp_core.errors import CodedError
from dp_core.exponential import exponential_probabilities
from dp_core.permute_and_flip import permute_and_flip_probabilities
from dp_core.validation import check_epsilon, check_positive_int, check_probability

Mechanism = Literal["exponential", "permute_and_flip"]

__all__ = [
    "MAX_CANDIDATES",
    "PrivateBounds",
    "PrivateCap",
    "QuantileSpread",
    "check_candidates",
    "private_bounds",
    "private_cap",
    "private_quantile",
    "quantile_probabilities",
    "quantile_scores",
    "quantile_sensitivity",
    "quantile_spread",
]

# Permute-and-flip's exact probabilities take memory ~ candidates^2 / 2 numbers.
MAX_CANDIDATES = 2_000


def check_candidates(candidates: ArrayLike) -> np.ndarray:
    """The public grid as floats: 1 to 2,000 finite numbers, strictly increasing."""
    try:
        grid = np.array(candidates, dtype=float)  # a copy: results mark it read-only
    except (TypeError, ValueError):
        raise CodedError("quantile_candidates_numbers") from None
    if grid.ndim != 1 or grid.size == 0:
        raise CodedError("quantile_candidates_empty")
    if grid.size > MAX_CANDIDATES:
        raise CodedError(
            "quantile_candidates_many", limit=f"{MAX_CANDIDATES:,}", got=f"{grid.size:,}"
        )
    if not np.all(np.isfinite(grid)):
        raise CodedError("quantile_candidates_finite")
    if np.any(np.diff(grid) <= 0):
        raise CodedError("quantile_candidates_sorted")
    return grid


def _check_values(values: ArrayLike) -> np.ndarray:
    try:
        x = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise CodedError("quantile_values_numbers") from None
    if x.ndim != 1:
        raise CodedError("quantile_values_flat")
    if x.size == 0:
        raise CodedError("quantile_no_values")
    if np.isnan(x).any():
        raise CodedError("quantile_values_missing")
    return x


def _check_weights(weights: ArrayLike | None, size: int) -> np.ndarray | None:
    if weights is None:
        return None
    w = np.asarray(weights, dtype=float)
    if w.shape != (size,):
        raise CodedError("quantile_weights_count", weights=f"{w.size:,}", values=f"{size:,}")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise CodedError("quantile_weights_range")
    if w.sum() <= 0:
        raise CodedError("quantile_no_values")
    return w


def _check_mechanism(mechanism: str) -> Mechanism:
    if mechanism not in ("exponential", "permute_and_flip"):
        raise CodedError(
            "choice",
            name="mechanism",
            choices="'exponential', 'permute_and_flip'",
            got=repr(mechanism),
        )
    return mechanism  # type: ignore[return-value]


def quantile_scores(
    values: ArrayLike,
    candidates: ArrayLike,
    *,
    alpha: float,
    weights: ArrayLike | None = None,
) -> np.ndarray:
    """score(c) = -|(1 - alpha) #(x < c) - alpha #(x > c)|, in values; 0 is best.

    OpenDP's make_quantile_score_candidates (there negated and scaled by alpha's
    denominator); Smith 2011. With ``weights``, # counts value i weights[i] times.
    """
    a = check_probability(alpha, "alpha")
    x = _check_values(values)
    w = _check_weights(weights, x.size)
    grid = check_candidates(candidates)
    if w is None:
        x = np.sort(x)
        below = np.searchsorted(x, grid, side="left")
        above = x.size - np.searchsorted(x, grid, side="right")
    else:
        order = np.argsort(x, kind="stable")
        x, cumulative = x[order], np.concatenate([[0.0], np.cumsum(w[order])])
        below = cumulative[np.searchsorted(x, grid, side="left")]
        above = cumulative[-1] - cumulative[np.searchsorted(x, grid, side="right")]
    return -np.abs(below - a * (below + above))  # = (1 - a) below - a above, one rounding


def quantile_sensitivity(*, alpha: float, max_rows_per_person: int = 1) -> float:
    """Delta = m max(alpha, 1 - alpha): the most one person (m values) moves any score.

    OpenDP's score_candidates_map for an unknown dataset size (add/remove neighbours).
    """
    a = check_probability(alpha, "alpha")
    m = check_positive_int(max_rows_per_person, "the cap on values per person")
    return m * max(a, 1.0 - a)


def quantile_probabilities(
    values: ArrayLike,
    candidates: ArrayLike,
    *,
    alpha: float,
    epsilon: float,
    max_rows_per_person: int = 1,
    mechanism: Mechanism = "exponential",
    weights: ArrayLike | None = None,
) -> np.ndarray:
    """Exact P(candidate c is chosen); exponential: exp(eps score / (2 Delta)) normalised.

    Computed in log space (dp_core.exponential), or permute-and-flip's exact formula
    (dp_core.permute_and_flip). McSherry & Talwar 2007; Smith 2011; McKenna & Sheldon 2020.
    """
    eps = check_epsilon(epsilon)
    kind = _check_mechanism(mechanism)
    scores = quantile_scores(values, candidates, alpha=alpha, weights=weights)
    sensitivity = quantile_sensitivity(alpha=alpha, max_rows_per_person=max_rows_per_person)
    if kind == "exponential":
        return exponential_probabilities(scores, eps, sensitivity)
    return permute_and_flip_probabilities(scores, eps, sensitivity)


def _draw(rng: np.random.Generator, probabilities: np.ndarray) -> int:
    """One index drawn from the exact distribution (inverse CDF)."""
    return int(rng.choice(probabilities.size, p=probabilities / probabilities.sum()))


def private_quantile(
    rng: np.random.Generator,
    values: ArrayLike,
    candidates: ArrayLike,
    *,
    alpha: float,
    epsilon: float,
    max_rows_per_person: int = 1,
    mechanism: Mechanism = "exponential",
    weights: ArrayLike | None = None,
) -> float:
    """One eps-DP draw of the alpha-quantile from the public grid (Smith 2011)."""
    p = quantile_probabilities(
        values,
        candidates,
        alpha=alpha,
        epsilon=epsilon,
        max_rows_per_person=max_rows_per_person,
        mechanism=mechanism,
        weights=weights,
    )
    return float(check_candidates(candidates)[_draw(rng, p)])


@dataclass(frozen=True)
class PrivateBounds:
    """Clipping bounds [lower, upper] chosen as two DP quantiles, eps/2 each.

    ``epsilon`` is the total spent: each quantile is (eps/2)-DP and they compose to eps
    (Dwork & Roth 2014, Thm 3.16). ``lower_probabilities`` and ``upper_probabilities`` are
    the exact distributions over ``candidates`` (true data: for the data's owner only).
    ``adjusted``: the two draws crossed or met and were put in order (post-processing).
    """

    lower: float
    upper: float
    epsilon: float
    epsilon_each: float
    lower_alpha: float
    upper_alpha: float
    candidates: np.ndarray
    lower_probabilities: np.ndarray
    upper_probabilities: np.ndarray
    adjusted: bool


def private_bounds(
    rng: np.random.Generator,
    values: ArrayLike,
    candidates: ArrayLike,
    *,
    epsilon: float,
    lower_alpha: float = 0.05,
    upper_alpha: float = 0.95,
    max_rows_per_person: int = 1,
    mechanism: Mechanism = "exponential",
    weights: ArrayLike | None = None,
) -> PrivateBounds:
    """L = DP lower_alpha-quantile, U = DP upper_alpha-quantile, each with eps/2.

    If the draws cross they are swapped; if they coincide, U moves one grid step up (L one
    step down at the top of the grid): post-processing, so no extra privacy cost.
    """
    eps = check_epsilon(epsilon)
    lo_a = check_probability(lower_alpha, "the lower bound's alpha")
    hi_a = check_probability(upper_alpha, "the upper bound's alpha")
    if lo_a >= hi_a:
        raise CodedError("quantile_alpha_order")
    grid = check_candidates(candidates)
    if grid.size < 2:
        raise CodedError("quantile_bounds_candidates")
    settings = {"epsilon": eps / 2, "max_rows_per_person": max_rows_per_person, "weights": weights}
    p_lo = quantile_probabilities(values, grid, alpha=lo_a, mechanism=mechanism, **settings)
    p_hi = quantile_probabilities(values, grid, alpha=hi_a, mechanism=mechanism, **settings)
    i, j = _draw(rng, p_lo), _draw(rng, p_hi)
    adjusted = i >= j
    i, j = min(i, j), max(i, j)
    if i == j:
        i, j = (i, j + 1) if j + 1 < grid.size else (i - 1, j)
    for p in (p_lo, p_hi, grid):
        p.setflags(write=False)
    return PrivateBounds(
        lower=float(grid[i]),
        upper=float(grid[j]),
        epsilon=eps,
        epsilon_each=eps / 2,
        lower_alpha=lo_a,
        upper_alpha=hi_a,
        candidates=grid,
        lower_probabilities=p_lo,
        upper_probabilities=p_hi,
        adjusted=bool(adjusted),
    )


@dataclass(frozen=True)
class PrivateCap:
    """A cap on contributions per person chosen as a DP alpha-quantile over 1 .. max_cap.

    ``probabilities`` is the exact distribution over ``candidates`` (for the data's owner).
    """

    cap: int
    alpha: float
    epsilon: float
    sensitivity: float
    candidates: np.ndarray
    probabilities: np.ndarray


def private_cap(
    rng: np.random.Generator,
    contributions: ArrayLike,
    *,
    alpha: float,
    epsilon: float,
    max_cap: int,
    mechanism: Mechanism = "exponential",
    weights: ArrayLike | None = None,
) -> PrivateCap:
    """An eps-DP alpha-quantile of the per-person contribution counts, from 1 .. max_cap.

    ``contributions``: one whole number per person (rows, or distinct groups, per person;
    e.g. np.repeat(h.index, h) for a contribution_histogram h). Each person adds one value,
    so Delta = max(alpha, 1 - alpha) (Smith 2011; OpenDP's make_private_quantile). With
    ``weights`` (e.g. h.index and h), contribution i stands for weights[i] persons.
    """
    counts = _check_values(contributions)
    if np.any(counts < 0) or np.any(counts != np.round(counts)):
        raise CodedError("quantile_contributions_whole")
    top = check_positive_int(max_cap, "the largest cap offered")
    grid = np.arange(1, top + 1, dtype=float)
    p = quantile_probabilities(
        counts, grid, alpha=alpha, epsilon=epsilon, mechanism=mechanism, weights=weights
    )
    for array in (p, grid):
        array.setflags(write=False)
    return PrivateCap(
        cap=int(grid[_draw(rng, p)]),
        alpha=float(alpha),
        epsilon=check_epsilon(epsilon),
        sensitivity=quantile_sensitivity(alpha=alpha),
        candidates=grid,
        probabilities=p,
    )


@dataclass(frozen=True)
class QuantileSpread:
    """Where the DP choice lands, from its exact distribution, beside the best choice.

    ``expected`` and ``std``: mean and standard deviation of the chosen candidate;
    [``low``, ``high``]: holds the choice with probability >= ``coverage`` (equal tails);
    [``best_low``, ``best_high``]: the candidates with the top score (the non-private best
    choice, any of them); ``probability_best``: P(the DP choice is one of them).
    All use the true data: for the data's owner, not for publication.
    """

    expected: float
    std: float
    low: float
    high: float
    coverage: float
    best_low: float
    best_high: float
    probability_best: float


def quantile_spread(
    values: ArrayLike,
    candidates: ArrayLike,
    *,
    alpha: float,
    epsilon: float,
    max_rows_per_person: int = 1,
    mechanism: Mechanism = "exponential",
    coverage: float = 0.9,
    weights: ArrayLike | None = None,
) -> QuantileSpread:
    """E[c] = sum_c c P(c), sd, the equal-tailed ``coverage`` range, and P(best), exactly.

    low / high are the smallest candidates with P(choice <= c) >= (1 -/+ coverage) / 2.
    """
    cov = check_probability(coverage, "coverage")
    grid = check_candidates(candidates)
    p = quantile_probabilities(
        values,
        grid,
        alpha=alpha,
        epsilon=epsilon,
        max_rows_per_person=max_rows_per_person,
        mechanism=mechanism,
        weights=weights,
    )
    scores = quantile_scores(values, grid, alpha=alpha, weights=weights)
    size = np.size(values) if weights is None else float(np.sum(weights))
    best = scores >= scores.max() - 1e-9 * size  # ties, up to rounding
    mean = float(p @ grid)
    cdf = np.cumsum(p)
    low, high = np.minimum(np.searchsorted(cdf, [(1 - cov) / 2, (1 + cov) / 2]), grid.size - 1)
    return QuantileSpread(
        expected=mean,
        std=float(np.sqrt(max(p @ (grid - mean) ** 2, 0.0))),
        low=float(grid[low]),
        high=float(grid[high]),
        coverage=cov,
        best_low=float(grid[best].min()),
        best_high=float(grid[best].max()),
        probability_best=float(p[best].sum()),
    )
