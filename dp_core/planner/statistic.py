"""A planned statistic: what is asked for (``StatisticSpec``), and its true values and
sensitivities on the data (``Statistic``, built by dp_core.planner.true_values)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from dp_core.errors import CodedError
from dp_core.validation import check_bounds

__all__ = ["Kind", "Mechanism", "Statistic", "StatisticSpec"]

Kind = Literal["count", "sum", "mean", "histogram"]
Mechanism = Literal["laplace", "gaussian"]
# the error of a statistic without its column, or without its clipping bounds, by kind
_NEEDS_COLUMN = {
    "sum": "plan_sum_column",
    "mean": "plan_mean_column",
    "histogram": "plan_histogram_column",
}
_NEEDS_BOUNDS = {"sum": "plan_sum_bounds", "mean": "plan_mean_bounds"}


@dataclass(frozen=True)
class StatisticSpec:
    """One statistic as asked for, before looking at the data.

    ``target`` is the 95% half-width wanted: in the statistic's units, or with ``relative``
    a fraction of its true value (0.05 for ±5%). ``lower``/``upper`` clip a sum or mean.
    """

    name: str
    kind: Kind
    column: str | None = None
    lower: float | None = None
    upper: float | None = None
    mechanism: Mechanism = "laplace"
    weight: float = 1.0
    target: float | None = None
    relative: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("count", "sum", "mean", "histogram"):
            raise CodedError(
                "choice",
                name="kind",
                choices="'count', 'sum', 'mean', 'histogram'",
                got=repr(self.kind),
            )
        if self.mechanism not in ("laplace", "gaussian"):
            raise CodedError(
                "choice",
                name="mechanism",
                choices="'laplace', 'gaussian'",
                got=repr(self.mechanism),
            )
        if self.kind != "count" and not self.column:
            raise CodedError(_NEEDS_COLUMN[self.kind])
        if self.kind in ("sum", "mean"):
            if self.lower is None or self.upper is None:
                raise CodedError(_NEEDS_BOUNDS[self.kind])
            check_bounds(self.lower, self.upper)
        if not (math.isfinite(self.weight) and self.weight > 0):
            raise CodedError("plan_weight", got=f"{self.weight:g}")
        if self.target is not None and not (math.isfinite(self.target) and self.target > 0):
            raise CodedError("plan_target", got=f"{self.target:g}")


@dataclass(frozen=True)
class Statistic:
    """A statistic's true values over its released labels and one person's effect on them.

    ``l1``/``l2``: the sensitivity of the release (for a mean, of its clipped sum);
    ``count_l1``/``count_l2`` that of a mean's row count; ``rows``: a mean's true row count N.
    """

    spec: StatisticSpec
    labels: tuple[str, ...]
    true_values: tuple[float, ...]
    l1: float
    l2: float
    count_l1: float = 0.0
    count_l2: float = 0.0
    rows: float = 0.0
    raw_values: tuple[float, ...] = ()  # unclipped (sum, mean): what clipping changed
    rows_outside: int = 0  # histogram rows outside the public domain (dropped)

    @property
    def sensitivity(self) -> float:
        """L1 for Laplace, L2 for Gaussian (the sum part's, for a mean)."""
        return self.l1 if self.spec.mechanism == "laplace" else self.l2

    @property
    def count_sensitivity(self) -> float:
        return self.count_l1 if self.spec.mechanism == "laplace" else self.count_l2

    @functools.cached_property
    def reference(self) -> float:
        """What a relative error is measured against: |true value|, or the median |cell| of a
        histogram (its typical category)."""
        values = np.abs(np.asarray(self.true_values, dtype=float))
        return float(np.median(values)) if self.spec.kind == "histogram" else float(values[0])

    @property
    def target_half_width(self) -> float | None:
        """The target as a half-width in the statistic's units (None without a target)."""
        spec = self.spec
        if spec.target is None:
            return None
        return spec.target * self.reference if spec.relative else spec.target

    @property
    def parts(self) -> int:
        """Noisy releases the statistic needs: 2 for a mean (sum and count), else 1."""
        return 2 if self.spec.kind == "mean" else 1
