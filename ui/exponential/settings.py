"""What every section of the exponential-mechanism page depends on: the candidates, ε and the
monotonic switch, and the probabilities that follow from them."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from dp_core import selection as sel
from dp_core.exponential import exponential_log_probabilities, exponential_probabilities
from ui.common.live import Stops
from ui.exponential.candidates import Candidates


@dataclass(frozen=True)
class Settings:
    """What every section of the page depends on."""

    candidates: Candidates
    stops: Stops  # ε's slider: its stops and the one in use
    monotonic: bool

    @property
    def epsilon(self) -> float:
        return self.stops.value

    @property
    def followed(self) -> tuple[Stops]:
        """The slider a chart that follows ε takes (ui.common.live)."""
        return (self.stops,)

    @property
    def identity(self) -> tuple:
        """What the page's charts draw from besides ε (ui.common.live keeps their stops for
        it): the candidates as written, their scores, Δ and the rate."""
        c = self.candidates
        return (tuple(c.names), c.scores, c.sensitivity, self.monotonic)

    def at(self, epsilon: float) -> Settings:
        """The settings with the ε slider at another of its stops (a chart that follows the
        thumb draws itself at each)."""
        return replace(self, stops=self.stops.at(epsilon))

    @property
    def rate_name(self) -> str:
        return "ε/Δ" if self.monotonic else "ε/(2Δ)"

    def log_probabilities(self) -> np.ndarray:
        """log P(r) of the exponential mechanism at this ε (shifted, never NaN)."""
        c = self.candidates
        return exponential_log_probabilities(
            c.counts, self.epsilon, c.sensitivity, monotonic=self.monotonic
        )

    def probability_of_best(self, epsilon: float) -> float:
        """P(the mechanism names a true best answer) at ``epsilon`` (the table's metric)."""
        c = self.candidates
        p = exponential_probabilities(c.counts, epsilon, c.sensitivity, monotonic=self.monotonic)
        return float(sel.probability_of_best(p, c.counts))
