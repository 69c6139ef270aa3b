"""What a page's release guarantees: the unit of privacy, the outputs covered, the budget.

A release is often several DP steps on the same data: choosing which categories to show,
choosing clipping bounds, then the noisy values. Each part spends (epsilon_i, delta_i); by
basic composition the whole is (sum epsilon_i, sum delta_i)-DP (Dwork & Roth 2014, Thm 3.16).

    Guarantee(unit="patient_id", parts=(Part("values", 1.0), Part("categories", 0.5, 1e-6)))
    .epsilon -> 1.5, .delta -> 1e-6

``unit`` names the column that identifies a person (neighbouring datasets differ by one
person with all their rows); None means each row is taken as a person, so the guarantee
protects rows, not people who may stand behind several of them.

``read_from_data`` names what the release depends on that was read from the data without
noise (a cap set to the largest rows per person, clipping bounds set to the smallest and
largest value, categories filled in from the values present, a sampling rate set from the
number of rows). The noise is calibrated as if these were fixed in advance, but they are
functions of the data: one person's value can be the largest, or the only one in its
category, and the release then reveals it. Such a
release is not differentially private (``differentially_private`` is False) whatever its
epsilon; the parts say what the noise alone would give once those values are fixed in
advance or chosen with DP (their cost then a part of their own).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from dp_core.errors import CodedError
from dp_core.validation import check_delta, check_epsilon

__all__ = ["READS", "Guarantee", "Part", "Read"]

PartName = Literal["values", "categories", "bounds", "cap", "count", "selection"]
Read = Literal["cap", "bounds", "categories", "rows"]
READS: tuple[Read, ...] = ("cap", "bounds", "categories", "rows")


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
    read_from_data: tuple[Read, ...] = ()

    def __post_init__(self) -> None:
        unknown = [read for read in self.read_from_data if read not in READS]
        if unknown:
            raise CodedError(
                "choice",
                name="read_from_data",
                choices=", ".join(map(repr, READS)),
                got=repr(unknown[0]),
            )
        ordered = tuple(read for read in READS if read in self.read_from_data)  # once each
        object.__setattr__(self, "read_from_data", ordered)

    @property
    def differentially_private(self) -> bool:
        """False when anything the release depends on was read from the data without noise."""
        return not self.read_from_data

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
