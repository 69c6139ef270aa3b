"""The settings every section of the bounding page draws from (built in the page's fragment)."""

from __future__ import annotations

from dataclasses import dataclass

from dp_core.bounding import Bounding
from dp_core.bounding.budget import WeekBudget
from dp_core.bounding.noise import GroupNoise, NoisePlan
from dp_core.bounding.table import ContributionTable
from dp_core.guarantee import Guarantee
from ui.bounding.choices import Choices
from ui.bounding.data import BoundingData
from ui.bounding.private import PrivateChoice
from ui.bounding.words import Words
from ui.common.i18n import _


@dataclass(frozen=True, eq=False)
class Settings:
    """What every section of the page depends on."""

    data: BoundingData
    choices: Choices
    plan: NoisePlan
    bounding: Bounding
    private: PrivateChoice | None
    noises: dict[str, GroupNoise]  # per statistic
    week: WeekBudget  # one statistic over the groups, by dp_core.accountants
    guarantee: Guarantee

    @property
    def table(self) -> ContributionTable | None:
        """The contribution units (None: a data path with too many to bring back)."""
        return self.data.table

    @property
    def words(self) -> Words:
        return self.data.words

    @property
    def n_groups(self) -> int:
        return len(self.data.labels)

    @property
    def has_sums(self) -> bool:
        return "sum" in self.noises

    @property
    def statistics(self) -> dict[str, str]:
        """count / sum: what each statistic is called, e.g. "visits per day"."""
        w = self.words
        names = {"count": _("bounding.statistic.count", **w.nouns())}
        if self.has_sums:
            names["sum"] = _("bounding.statistic.sum", total=self.data.sum_title, **w.nouns())
        return names

    @property
    def current_label(self) -> str:
        return _("bounding.tradeoff.dp_choice") if self.private else _("bounding.tradeoff.yours")
