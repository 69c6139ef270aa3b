"""What every section of the Gaussian page depends on: the query, the mechanism, ε and δ, and
what follows from them (sensitivities, b and σ, the guarantee)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Literal

from dp_core import gaussian, laplace
from dp_core.guarantee import Guarantee, Part
from ui.common.epsilon_delta import EpsilonDelta
from ui.common.i18n import N_
from ui.common.live import Stops
from ui.common.query_picker import QueryChoice, category_setting, kind_setting, query_dataset
from ui.common.release import guarantee
from ui.common.setting import Choice, Flag, Number
from ui.common.widgets import delta_setting, epsilon_setting

Mechanism = Literal["laplace", "classic", "analytic"]
# Message ids: the choice's label, and the mechanism's name inside a sentence.
MECHANISMS = {
    "laplace": N_("gaussian.mechanism.laplace"),
    "classic": N_("gaussian.mechanism.classic"),
    "analytic": N_("gaussian.mechanism.analytic"),
}
# The query's settings (drawn by ui.common.query_picker, named here for the presets).
DATASET = query_dataset("gaussian")
KIND = kind_setting("gaussian")
CATEGORY = category_setting("gaussian")
EPSILON = epsilon_setting("gaussian_epsilon", 1.0)
DELTA = delta_setting("gaussian_delta", 1e-5)  # its stops span the calibration chart
MECHANISM = Choice("gaussian_mechanism", "analytic", options=tuple(MECHANISMS))
K = Number("gaussian_k", 10, minimum=1, maximum=100, integer=True)  # statistics released
TABLE = Flag("gaussian_table")  # the results table open
NAMES = {
    "laplace": N_("gaussian.name.laplace"),
    "classic": N_("gaussian.name.classic"),
    "analytic": N_("gaussian.name.analytic"),
}


@functools.lru_cache(maxsize=1024)
def proven_classic_sigma(l2: float, epsilon: float, delta: float) -> float | None:
    """The classic σ, or None where its proof does not hold (ε ≥ 1)."""
    try:
        return gaussian.classic_gaussian_sigma(l2, epsilon, delta)
    except ValueError:
        return None


@dataclass(frozen=True)
class Settings(EpsilonDelta):
    """What every section of the page depends on (``choice`` None: no query can run yet)."""

    choice: QueryChoice | None
    mechanism: Mechanism
    epsilon_stops: Stops  # ε's slider: its stops and the one in use
    delta_stops: Stops  # δ's slider
    secure: bool

    @property
    def followed(self) -> tuple[Stops, Stops]:
        """The sliders a chart that follows ε and δ takes (ui.common.live), ε first."""
        return self.epsilon_stops, self.delta_stops

    def at(self, epsilon: float, delta: float) -> Settings:
        """The settings with the sliders at other stops (a chart that follows the thumbs draws
        itself at each)."""
        return replace(
            self,
            epsilon_stops=self.epsilon_stops.at(epsilon),
            delta_stops=self.delta_stops.at(delta),
        )

    @property
    def identity(self) -> tuple:
        """What the page's charts draw from besides ε and δ (ui.common.live keeps their stops
        for it): the data, the query and its true answers, the mechanism, the kind of noise."""
        if self.choice is None:
            return None, self.mechanism, self.secure
        query = self.choice.query
        counts = None if query.counts is None else query.counts.tobytes()
        return (self.choice.data.source, query.spec, query.per_row_sensitivity,
                query.records_per_person, query.rows_l2, query.n_persons, tuple(query.labels),
                query.true_values.tobytes(), counts, self.choice.value_name,
                self.choice.description, self.mechanism, self.secure)  # fmt: skip

    @property
    def l1(self) -> float:
        """L1 sensitivity (Laplace); 1 while no query can run."""
        return self.choice.query.sensitivity if self.choice is not None else 1.0

    @property
    def l2(self) -> float:
        """L2 sensitivity (Gaussian): smaller when one person is in several statistics."""
        return self.choice.query.l2_sensitivity if self.choice is not None else 1.0

    @property
    def laplace_b(self) -> float:
        return laplace.laplace_scale(self.l1, self.epsilon)

    @property
    def analytic_sigma(self) -> float:
        return gaussian.analytic_gaussian_sigma(self.l2, self.epsilon, self.delta)

    @property
    def classic_sigma(self) -> float | None:
        """Dwork & Roth's σ, None for ε ≥ 1 where its proof does not hold."""
        return proven_classic_sigma(self.l2, self.epsilon, self.delta)

    @property
    def withheld(self) -> bool:
        """The classic mechanism chosen where it is not proven: no noisy answers."""
        return self.mechanism == "classic" and self.classic_sigma is None

    @property
    def gaussian_kind(self) -> Mechanism:
        """The Gaussian the sections show: the one chosen, else the analytic one."""
        return "classic" if self.mechanism == "classic" and not self.withheld else "analytic"

    @property
    def sigma(self) -> float:
        """σ of ``gaussian_kind``."""
        if self.gaussian_kind == "classic":
            return float(self.classic_sigma)
        return self.analytic_sigma

    @property
    def kind(self) -> Mechanism:
        """The mechanism of the noisy answers: Laplace, or ``gaussian_kind``."""
        return "laplace" if self.mechanism == "laplace" else self.gaussian_kind

    @property
    def noise(self) -> Literal["laplace", "gaussian"]:
        return "laplace" if self.mechanism == "laplace" else "gaussian"

    @property
    def values_delta(self) -> float:
        """The δ of the noisy values: 0 for Laplace."""
        return 0.0 if self.mechanism == "laplace" else self.delta

    @property
    def guarantee(self) -> Guarantee | None:
        if self.choice is None or self.withheld:
            return None
        parts = [Part("values", self.epsilon, self.values_delta)]
        categories = self.choice.categories
        if categories is not None and categories.mode == "selected":
            parts.append(Part("categories", categories.epsilon, categories.delta))
        return guarantee(self.choice.data, parts, self.choice.reads)
