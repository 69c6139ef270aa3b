"""What every section of the attacker page depends on: ε, pure or not, δ, the attacker's prior,
and what follows from them (the Gaussian's σ, the slack of a bound at δ > 0)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from dp_core import attacks
from ui.common.formatting import number
from ui.common.formatting import power_of_ten as format_delta

# (ε, δ)-DP: the privacy loss exceeds ε + ln(10/9) with chance at most 10 δ.
SLACK = math.log(10 / 9)


@dataclass(frozen=True)
class Settings:
    """The page's main controls: what every section depends on."""

    epsilon: float
    pure: bool
    delta: float  # 0 when pure
    prior: float  # the attacker's chance that Alice is in, before any output
    sigma: float | None  # analytic Gaussian σ for (ε, δ), sensitivity 1; None when pure

    @property
    def certain(self) -> bool:
        """A prior of 0 or 1: nothing to learn."""
        return self.prior in (0.0, 1.0)

    @property
    def eps_text(self) -> str:
        return number(self.epsilon)

    @property
    def delta_text(self) -> str:
        return format_delta(self.delta)

    @property
    def rare_chance(self) -> float:
        """10 δ, capped at 1 (0 when pure): the outputs on which the bound at ε + ln(10/9) may
        fail."""
        return float(attacks.loss_excess_probability(self.delta, SLACK))

    @property
    def bounded(self) -> bool:
        """Whether any posterior bound holds: always at δ = 0, else when 10 δ < 1."""
        return self.pure or self.rare_chance < 1

    @property
    def holding_epsilon(self) -> float:
        """The ε whose posterior bound holds: ε itself at δ = 0, else ε + ln(10/9)."""
        return self.epsilon if self.pure else self.epsilon + SLACK
