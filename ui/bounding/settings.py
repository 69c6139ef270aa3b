"""The settings every section of the bounding page draws from (built in the page's fragment):
the data, the choices, the caps and bounds, and the noise plan, from which the noise on each
statistic, the week's budget and the guarantee follow."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from dp_core.bounding import Bounding, release_sensitivity
from dp_core.bounding.budget import WeekBudget, week_budget
from dp_core.bounding.noise import GroupNoise, NoisePlan, group_noise
from dp_core.bounding.table import ContributionTable
from dp_core.guarantee import Guarantee, Part
from ui.bounding.choices import Choices
from ui.bounding.data import BoundingData
from ui.bounding.private import PrivateChoice
from ui.bounding.words import Words
from ui.common.i18n import _
from ui.common.live import Stops
from ui.common.release import guarantee


@dataclass(frozen=True, eq=False)
class Settings:
    """What every section of the page depends on.

    ``noises``, ``week`` and ``guarantee`` follow from the plan (``noises`` raises ValueError
    when the noise cannot be calibrated); ``at`` gives the settings at another stop of the ε
    and δ sliders, for the charts and sentences that follow the thumbs (ui.common.live).
    """

    data: BoundingData
    choices: Choices
    plan: NoisePlan
    bounding: Bounding
    private: PrivateChoice | None
    stops: tuple[Stops, ...]  # ε's slider, then δ's with Gaussian noise
    reads: tuple[str, ...] = ()  # the caps or bounds read from the data without noise
    _stops: dict[tuple[float, float], Settings] = field(
        default_factory=dict, init=False, repr=False
    )

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
        return self.bounding.clipped

    @cached_property
    def noises(self) -> dict[str, GroupNoise]:
        """The noise on each statistic's answer per group (dp_core.bounding.noise)."""
        names = ["count", "sum"] if self.has_sums else ["count"]
        return {
            name: group_noise(
                release_sensitivity(name, self.bounding),
                self.plan,
                max_groups=self.bounding.max_groups,
                n_groups=self.n_groups,
            )
            for name in names
        }

    @cached_property
    def week(self) -> WeekBudget:
        """One statistic over the groups, by dp_core.accountants (dp_core.bounding.budget)."""
        return week_budget(
            release_sensitivity("count", self.bounding),
            self.plan,
            max_groups=self.bounding.max_groups,
            n_groups=self.n_groups,
        )

    @cached_property
    def guarantee(self) -> Guarantee:
        """The noisy answers: k (ε, δ) per statistic by basic composition (Dwork & Roth 2014,
        Thm 3.16), k = n for one release of all groups with the whole budget, min(l0, n) group
        by group with the cap (the releases one person reaches, dp_core.bounding.budget); then
        the DP choices of the groups, the cap and the bounds."""
        n, plan = self.n_groups, self.plan
        statistics = 2 if self.has_sums else 1
        k = statistics * (n if plan.joint else min(self.bounding.max_groups, n))
        parts = [Part("values", k * plan.epsilon_per_group, k * plan.delta)]
        categories = self.data.categories
        if categories.mode == "selected":
            parts.append(Part("categories", categories.epsilon, categories.delta))
        private = self.private
        if private is not None and private.cap is not None:
            parts.append(Part("cap", private.cap_epsilon))
        if private is not None and private.bounds is not None:
            parts.append(Part("bounds", private.bounds_epsilon))
        return guarantee(self.data.data, parts, self.reads + categories.reads)

    @property
    def identity(self) -> tuple:
        """What the page's charts draw from besides ε and δ (ui.common.live keeps their stops
        for it): the data, the choices, the caps and bounds and their DP choice."""
        categories = self.data.categories
        chosen = (categories.mode, categories.epsilon, categories.delta, categories.reads)
        return (
            self.data.key,
            self.choices,
            self.bounding,
            _drawn(self.private),
            self.reads,
            chosen,
        )

    def at(self, epsilon: float, delta: float | None = None) -> Settings:
        """The settings with the ε slider (and δ's) at another stop. A stop at which the noise
        cannot be calibrated (one Gaussian release of all n groups needs n δ below 1,
        dp_core.bounding.noise) gives the settings in use: the server shows its message there."""
        key = (epsilon, self.plan.delta if delta is None else delta)
        if key == (self.plan.epsilon_per_group, self.plan.delta):
            return self
        if key not in self._stops:
            plan = replace(self.plan, epsilon_per_group=key[0], delta=key[1])
            stops = tuple(s.at(value) for s, value in zip(self.stops, key, strict=False))
            calibrated = not (plan.joint and plan.mechanism == "gaussian")
            if calibrated or self.n_groups * plan.delta < 1:
                self._stops[key] = replace(self, plan=plan, stops=stops)
            else:
                self._stops[key] = self
        return self._stops[key]

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


def _drawn(p: PrivateChoice | None) -> tuple | None:
    """What the charts draw of the DP choice: the cap, the bounds and where such draws land."""
    if p is None:
        return None
    spreads = [None if x is None else (x.low, x.high)
               for x in (p.cap_spread, p.lower_spread, p.upper_spread)]  # fmt: skip
    bounds = None if p.bounds is None else (p.bounds.lower, p.bounds.upper)
    return (None if p.cap is None else p.cap.cap, bounds, *spreads, p.cap_epsilon,
            p.bounds_epsilon)  # fmt: skip
