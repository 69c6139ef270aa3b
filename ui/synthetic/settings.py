"""What every section of the synthetic-data page depends on: the data and its declared domain,
ε and δ (and the ρ they allow), the algorithm, the rows split, and the release once it is
made (a stored census release, or one made in the background: ui.synthetic.jobs)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pandas as pd

from dp_core.accountants import zcdp_rho_for
from dp_core.guarantee import Guarantee, Part
from dp_core.synthetic import Algorithm
from ui.common.data_picker import DataChoice
from ui.common.epsilon_delta import EpsilonDelta
from ui.common.live import Stops
from ui.common.release import guarantee
from ui.synthetic.inputs import Chosen
from ui.synthetic.release import Release, Seed

# Brent's method each time: the fidelity curve asks for every slider stop's key on every run
# (24 stops, 23 ms), so the answers are kept.
_rho_for = functools.lru_cache(maxsize=1024)(zcdp_rho_for)


@dataclass(frozen=True)
class Settings(EpsilonDelta):
    """The page's settings, its rows split, and the releases made at them (None: not yet)."""

    chosen: Chosen
    epsilon_stops: Stops
    delta_stops: Stops
    algorithm: Algorithm
    seed: Seed
    train: pd.DataFrame
    test: pd.DataFrame
    release: Release | None = None
    curve: tuple[tuple[float, Release], ...] = ()  # releases at other ε, same everything else

    @property
    def data(self) -> DataChoice:
        return self.chosen.data

    @property
    def rho(self) -> float:
        """The largest ρ whose zCDP → (ε, δ) conversion stays within ε (Canonne, Kamath &
        Steinke 2020; dp_core.accountants.zcdp_rho_for)."""
        return _rho_for(self.epsilon, self.delta)

    @property
    def key(self) -> tuple:
        """What a release at these settings is made from (ui.synthetic.jobs' key)."""
        return (self.data.source, self.chosen.domain, self.rho, self.algorithm, self.seed)

    @property
    def guarantee(self) -> Guarantee:
        """The synthetic table and its noisy marginals: ρ-zCDP, so (ε, δ)-DP."""
        return guarantee(self.data, [Part("values", self.epsilon, self.delta)], self.chosen.reads)
