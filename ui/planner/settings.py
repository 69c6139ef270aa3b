"""What the planner page's sections draw from: the controls (data, cap, statistics), the plan
made from them, and what the cost section shows. No other ui.planner module is imported here,
so every module may import these."""

from __future__ import annotations

from dataclasses import dataclass

from dp_core import accountants, planner
from dp_core.guarantee import Guarantee, Part
from ui.common import formatting
from ui.common.data_picker import DataChoice
from ui.common.i18n import n_

PAGE = "planner"
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


@dataclass(frozen=True)
class Settings:
    """What every section depends on: the controls, the plan and how it was made."""

    controls: Controls
    plan: planner.Plan
    mode: str
    calibration: str

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
