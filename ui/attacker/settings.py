"""What every section of the attacker page depends on: ε, pure or not, δ, the attacker's prior,
and what follows from them (the Gaussian's σ, the slack of a bound at δ > 0)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from dp_core import attacks
from ui.common.formatting import number
from ui.common.formatting import power_of_ten as format_delta
from ui.common.setting import Choice, Flag, Number

# (ε, δ)-DP: the privacy loss exceeds ε + ln(10/9) with chance at most 10 δ.
SLACK = math.log(10 / 9)

# The page's own settings (ε and δ are attacker_epsilon and attacker_delta, ui.common.widgets).
K_OPTIONS = (1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500, 1000)
DELTA_PRIMES = tuple(10.0**-e for e in range(12, 2, -1))
PURE = Flag("attacker_pure")  # pure ε-DP: no δ
PRIOR = Number("attacker_prior", 0.5, minimum=0.0, maximum=1.0)  # the attacker's prior
K = Choice("attacker_k", 10, options=K_OPTIONS)  # section 3: the number of releases
DELTA_PRIME = Choice("attacker_delta_prime", 1e-6, options=DELTA_PRIMES)  # section 3: δ′


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
