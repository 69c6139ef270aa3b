"""What every section of the Laplace page depends on: the query, ε, secure or teaching noise,
the guarantee, and the noise's scale b that follows from them."""

from __future__ import annotations

from dataclasses import dataclass, replace

from dp_core import laplace
from dp_core.guarantee import Guarantee
from ui.common.contributions import cap_setting
from ui.common.live import Stops
from ui.common.query_picker import (
    QueryChoice,
    category_setting,
    kind_setting,
    predicate_column,
    predicate_number,
    predicate_op,
    query_dataset,
)
from ui.common.setting import Choice, Flag
from ui.common.widgets import epsilon_setting

# The query's settings (drawn by ui.common.query_picker, named here for the presets).
DATASET = query_dataset("laplace")
KIND = kind_setting("laplace")
CATEGORY = category_setting("laplace")
PRED_COLUMN = predicate_column("laplace")
PRED_OP = predicate_op("laplace")
PRED_NUMBER = predicate_number("laplace")
CAP = cap_setting("laplace")
# The page's own settings.
EPSILON = epsilon_setting("laplace_epsilon", 1.0)  # its stops are the error chart's grid
REPEATS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 100_000)
REPEATS_SETTING = Choice("laplace_repeats", 100, options=REPEATS)  # the averaging attack's k
ATTACKED = Choice("laplace_attacked")  # the category attacked (options: the query's)
TABLE = Flag("laplace_table")  # the results table open


@dataclass(frozen=True)
class Settings:
    """What every section of the page depends on."""

    choice: QueryChoice
    stops: Stops  # ε's slider: its stops and the one in use
    secure: bool
    guarantee: Guarantee

    @property
    def epsilon(self) -> float:
        return self.stops.value

    @property
    def identity(self) -> tuple:
        """What the page's charts draw from besides ε (ui.common.live keeps their stops for
        it): the data, the query and its true answers, and the kind of noise."""
        query = self.choice.query
        return (self.choice.data.source, query.spec, query.sensitivity, tuple(query.labels),
                query.true_values.tobytes(), None if query.counts is None else
                query.counts.tobytes(), self.choice.value_name,
                self.choice.description, self.secure)  # fmt: skip

    def at(self, epsilon: float) -> Settings:
        """The settings with the ε slider at another of its stops (a chart that follows the
        thumb draws itself at each; the guarantee is the one in use)."""
        return replace(self, stops=self.stops.at(epsilon))

    @property
    def scale(self) -> float:
        """b = Δ / ε, or Δ / (ε/2) for the mean's clipped sum (half the budget)."""
        query = self.choice.query
        share = self.epsilon / 2 if query.kind == "mean" else self.epsilon
        return laplace.laplace_scale(query.sensitivity, share)
