"""What a page's release guarantees: the unit of privacy, the outputs covered, the budget.

A release is often several DP steps on the same data: choosing which categories to show,
choosing clipping bounds, then the noisy values. Each part spends (epsilon_i, delta_i); by
basic composition the whole is (sum epsilon_i, sum delta_i)-DP (Dwork & Roth 2014, Thm 3.16).

    Guarantee(unit="patient_id", parts=(Part("values", 1.0), Part("categories", 0.5, 1e-6)))
    .epsilon -> 1.5, .delta -> 1e-6

``unit`` names the column that identifies a person (neighbouring datasets differ by one
person with all their rows); None means each row is taken as a person, so the guarantee
protects rows, not people who may stand behind several of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from dp_core.validation import check_delta, check_epsilon

__all__ = ["Guarantee", "Part"]

PartName = Literal["values", "categories", "bounds", "cap", "count", "selection"]


@dataclass(frozen=True)
class Part:
    """One DP step of a release and what it spends."""

    name: PartName
    epsilon: float
    delta: float = 0.0

    def __post_init__(self) -> None:
        check_epsilon(self.epsilon)
        check_delta(self.delta)


@dataclass(frozen=True)
class Guarantee:
    """The parts of a release, composed, for one unit of privacy."""

    unit: str | None
    parts: tuple[Part, ...]

    @property
    def epsilon(self) -> float:
        """sum of epsilon_i (basic composition, Dwork & Roth 2014, Thm 3.16)."""
        return float(sum(part.epsilon for part in self.parts))

    @property
    def delta(self) -> float:
        """sum of delta_i (basic composition)."""
        return float(sum(part.delta for part in self.parts))

    def part(self, name: PartName) -> Part | None:
        """The part with this name, if the release has it."""
        return next((part for part in self.parts if part.name == name), None)
