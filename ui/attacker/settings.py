"""What every section of the attacker page depends on: ε, pure or not, δ, the attacker's prior,
and what follows from them (the Gaussian's σ, the slack of a bound at δ > 0)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from dp_core import attacks, gaussian
from ui.common.formatting import number
from ui.common.formatting import power_of_ten as format_delta
from ui.common.live import Stops
from ui.common.setting import Choice, Flag, Number
from ui.common.widgets import delta_setting, epsilon_setting

# (ε, δ)-DP: the privacy loss exceeds ε + ln(10/9) with chance at most 10 δ.
SLACK = math.log(10 / 9)

# The page's own settings.
K_OPTIONS = (1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500, 1000)
DELTA_PRIMES = tuple(10.0**-e for e in range(12, 2, -1))
EPSILON = epsilon_setting("attacker_epsilon", 1.0)
DELTA = delta_setting("attacker_delta", 1e-5)
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
    # the sliders the charts follow, at these values: ε's and δ's (ε's alone when pure; none
    # for settings made without the page, as an export's)
    stops: tuple[Stops, ...] = ()

    @classmethod
    def chosen(cls, epsilon: Stops, delta: Stops | None, prior: float) -> Settings:
        """The settings at the sliders' values (``delta`` None: pure ε-DP)."""
        d = 0.0 if delta is None else delta.value
        stops = (epsilon,) if delta is None else (epsilon, delta)
        return cls(epsilon.value, delta is None, d, prior, stops)

    def at(self, epsilon: float, delta: float | None = None) -> Settings:
        """The settings with ε (and δ) at other stops of their sliders (a chart that follows
        the thumbs draws itself at each)."""
        delta = self.delta if delta is None else delta
        stops = (self.stops[0].at(epsilon), *(s.at(delta) for s in self.stops[1:]))
        return replace(self, epsilon=epsilon, delta=delta, stops=stops)

    @property
    def sigma(self) -> float | None:
        """The analytic Gaussian's σ for (ε, δ) at sensitivity 1 (Balle & Wang 2018; cached
        by dp_core); None when pure (the page's noise is Laplace then)."""
        if self.pure:
            return None
        return gaussian.analytic_gaussian_sigma(1.0, self.epsilon, self.delta)

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
