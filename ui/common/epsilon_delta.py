"""ε and δ read off their sliders: what the frozen Settings of a page with both sliders share
(the Gaussian, DP-SGD and synthetic-data pages)."""

from __future__ import annotations

from ui.common.live import Stops


class EpsilonDelta:
    """A settings class whose ``epsilon_stops`` and ``delta_stops`` (fields of the dataclass
    that inherits this) hold the sliders' stops: ε and δ are the stops in use."""

    epsilon_stops: Stops
    delta_stops: Stops

    @property
    def epsilon(self) -> float:
        return self.epsilon_stops.value

    @property
    def delta(self) -> float:
        return self.delta_stops.value
