"""What the planner page's sections draw from: the controls (data, cap, statistics), the plan
made from them and the sliders it was made at, and what the cost section shows. No other
ui.planner module is imported here, so every module may import these."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

from dp_core import accountants, planner
from dp_core.guarantee import Guarantee, Part
from ui.common import formatting
from ui.common.catalog import entry
from ui.common.data_picker import DataChoice
from ui.common.i18n import n_
from ui.common.live import Stops

PAGE = entry("planner").prefix
READ_DELTA = 1e-6  # the δ the accountants' totals are read at, unless moved


@dataclass(frozen=True)
class Controls:
    """The data, the cap and the statistics with their true values: the page-level settings."""

    data: DataChoice
    cap: int
    statistics: tuple[planner.Statistic, ...]
    categories: tuple[tuple[str, str], ...]  # (column, "public" or "declared") per histogram
    reads: tuple[str, ...] = ()  # what was read from the data without noise (dp_core.guarantee)
    rows: str = ""  # the plan table as the address writes it (ui.planner.link)

    @property
    def gaussian(self) -> bool:
        return any(s.spec.mechanism == "gaussian" for s in self.statistics)


@functools.lru_cache(maxsize=256)
def make_plan(
    statistics: tuple[planner.Statistic, ...],
    mode: str,
    epsilon: float | None,
    delta: float,
    calibration: str,
) -> planner.Plan:
    """The plan: the smallest total meeting the targets, or the total ε split by the rule
    (dp_core.planner; cached, as the stops of the sliders ask for the same plans again)."""
    if mode == "targets":
        return planner.plan_for_targets(statistics, delta, calibration)
    return planner.split_budget(statistics, epsilon, delta, mode, calibration)


@dataclass(frozen=True)
class Settings:
    """What every section depends on: the controls, the plan and how it was made, and the
    sliders it was made at (the total ε unless targets set it, the total δ with a Gaussian
    row), for the charts that follow their thumbs (``at``, ui.common.live)."""

    controls: Controls
    plan: planner.Plan
    mode: str
    calibration: str
    epsilon: Stops | None = None
    delta: Stops | None = None

    @property
    def sliders(self) -> list[Stops]:
        """The sliders the plan was made at, ε first."""
        return [stops for _, stops in self._sliders()]

    @property
    def followed(self) -> list[Stops]:
        """The sliders the charts follow while dragged (ui.planner.follow): none when a plan
        costs too much to make at every stop, the minimax split of analytic Gaussian rows
        (a solve within a solve, about 20 ms a plan: 11 plans an ε step, 31 a δ step)."""
        slow = self.mode == "minimax" and self.calibration == "analytic"
        return [] if slow and self.controls.gaussian else self.sliders

    def _sliders(self) -> list[tuple[str, Stops]]:
        named = [("epsilon", self.epsilon), ("delta", self.delta)]
        return [(name, stops) for name, stops in named if stops is not None]

    @property
    def identity(self) -> tuple:
        """What the plan is made of besides the sliders (ui.common.live keeps the charts'
        stops for it): the data, the statistics with their true values, the budget rule."""
        controls = self.controls
        statistics = tuple(
            (s.spec, s.labels, s.true_values, s.l1, s.l2, s.count_l1, s.count_l2, s.rows)
            for s in controls.statistics
        )
        return (controls.data.source, controls.cap, controls.categories, controls.reads,
                statistics, self.mode, self.calibration)  # fmt: skip

    def at(self, *values: float) -> Settings:
        """The settings with the sliders at other stops (one value per slider, ε first). A stop
        no plan can be made at (a target out of reach at that δ) gives the settings in use."""
        now = {"epsilon": None, "delta": 0.0} | {n: s.value for n, s in self._sliders()}
        moved = now | {n: value for (n, _), value in zip(self._sliders(), values, strict=True)}
        if moved == now:
            return self
        try:
            plan = make_plan(self.controls.statistics, self.mode, moved["epsilon"],
                             moved["delta"], self.calibration)  # fmt: skip
        except ValueError:
            return self
        return replace(
            self,
            plan=plan,
            epsilon=None if self.epsilon is None else self.epsilon.at(moved["epsilon"]),
            delta=None if self.delta is None else self.delta.at(moved["delta"]),
        )

    @property
    def data(self) -> DataChoice:
        return self.controls.data

    @property
    def guarantee(self) -> Guarantee:
        """The plan's guarantee: one part, the released values, at its basic-composition
        total; not differentially private when the controls read something from the data."""
        plan = self.plan
        return Guarantee(
            unit=self.data.person,
            parts=(Part("values", plan.epsilon, plan.delta),),
            read_from_data=self.controls.reads,
        )

    @property
    def outputs(self) -> str:
        """What the guarantee covers: "4 statistics"."""
        count = len(self.plan.rows)
        return n_("planner.outputs", "planner.outputs.other", count, count=formatting.count(count))


@dataclass(frozen=True)
class Costs:
    """What the “What it costs” section shows: the plan, the δ it is read at, the totals."""

    settings: Settings
    delta: float
    totals: tuple[accountants.AccountingTotal, ...]
