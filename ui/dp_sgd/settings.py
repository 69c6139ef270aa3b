"""What every section of the DP-SGD page depends on: the data made ready, ε and δ, the
training's settings, and what follows from them (σ, the schedule, the guarantee, the run)."""

from __future__ import annotations

from dataclasses import dataclass

from dp_core.dp_sgd import SgdSchedule
from dp_core.guarantee import Guarantee, Part, Read
from dp_core.model_table import Encoding
from ui.common.data_picker import DataChoice
from ui.common.epsilon_delta import EpsilonDelta
from ui.common.live import Stops
from ui.common.release import guarantee
from ui.dp_sgd.training import Problem, Run, Seed, Training, epsilon_of, run, sigma_for


@dataclass(frozen=True)
class Chosen:
    """The data controls' answer: the data, the model's declared inputs, the table's public
    row count, and what of these was read from the data without noise."""

    data: DataChoice
    encoding: Encoding
    rows: int
    reads: tuple[Read, ...] = ()


@dataclass(frozen=True)
class Settings(EpsilonDelta):
    """The page's settings (ε and δ as their sliders' stops) and the problem they train on."""

    chosen: Chosen
    problem: Problem
    epsilon_stops: Stops
    delta_stops: Stops
    training: Training
    share: float
    seed: Seed

    @property
    def data(self) -> DataChoice:
        return self.chosen.data

    @property
    def rows(self) -> int:
        """n of the accounting: the public number of training rows."""
        return self.problem.train_rows

    @property
    def sigma(self) -> float:
        """The noise multiplier the training's accountant needs for (ε, δ)."""
        return sigma_for(self.epsilon, self.training, self.rows)

    @property
    def schedule(self) -> SgdSchedule:
        return self.training.schedule(self.rows, self.sigma)

    def spent(self, accountant: str) -> float:
        """ε at δ of the training at σ by ``accountant`` ("rdp" or "pld"): at most the slider's
        by the accountant that calibrated σ."""
        return epsilon_of(self.sigma, self.training, self.rows, accountant)

    @property
    def model(self) -> Run:
        """The model these settings train (the first seed of the page's draw)."""
        return run(self.problem, self.training, self.sigma, (*self.seed, 0))

    @property
    def baseline(self) -> Run:
        """The same training without clipping or noise."""
        return run(self.problem, self.training, None, (*self.seed, 0))

    @property
    def guarantee(self) -> Guarantee:
        """The weights after every step (the whole training) at the ε the accountant gives."""
        part = Part("values", self.spent(self.training.accountant), self.delta)
        return guarantee(self.data, [part], self.chosen.reads)
