"""The bounding page's exercises, each answered by the section it sits in.

``solve`` reads the page's Settings (ui.bounding.settings): the same caps, bounds, noise and
accountants the sections draw, at the values the question asks for.
"""

from __future__ import annotations

import math
from dataclasses import replace

from dp_core.bounding import release_sensitivity
from dp_core.bounding import search as bounding_search
from dp_core.bounding.budget import week_budget
from dp_core.bounding.noise import NoisePlan
from ui.common import formatting
from ui.common.exercises import TRUE_FALSE, Answer, Exercise
from ui.common.i18n import N_, _

QUESTION_EPSILON = 0.5  # the ε per day the questions name
QUESTION_CAP = 4  # the cap on days the week question names
QUESTION_LINF = 3  # the visits per day the pre-aggregation question names


def _best_cap(s) -> Answer:
    """The starred cap for the counts, all groups at once, at the page's ε."""
    if s.table is None or s.data.person is None:
        return Answer(math.nan, _("bounding.exercise.unavailable"))
    plan = replace(s.plan, joint=True)
    caps = list(range(1, s.n_groups + 1))
    summary = bounding_search.cap_tradeoff(s.table, "count", s.bounding, plan, caps=caps)
    best, rmse = bounding_search.best_setting(summary, caps)
    return Answer(
        float(best),
        _(
            "bounding.exercise.best_cap.answer",
            best=formatting.count(best),
            epsilon=formatting.number(plan.epsilon_per_group),
            rmse=formatting.readable(rmse),
            **s.words.nouns(),
        ),
    )


def _pre_aggregation(s) -> Answer:
    """One group's sum sensitivity with pre-aggregation, and without, at linf = 3."""
    if not s.bounding.clipped:
        return Answer(math.nan, _("bounding.exercise.unavailable"))
    capped = replace(s.bounding, max_per_group=QUESTION_LINF)
    pre = release_sensitivity("sum", replace(capped, pre_aggregate=True)).per_group
    per_record = release_sensitivity("sum", replace(capped, pre_aggregate=False)).per_group
    return Answer(
        pre,
        _(
            "bounding.exercise.pre_aggregation.answer",
            pre=formatting.number(pre),
            linf=QUESTION_LINF,
            bound=formatting.number(max(abs(capped.lower), abs(capped.upper))),
            without=formatting.number(per_record),
            **s.words.nouns(),
        ),
    )


def _week(s) -> Answer:
    """A week of daily counts at ε = 0.5, each person in at most 4 groups: the accountants."""
    bounds = replace(s.bounding, max_groups=min(QUESTION_CAP, s.n_groups))
    week = week_budget(
        release_sensitivity("count", bounds),
        NoisePlan(QUESTION_EPSILON),
        max_groups=bounds.max_groups,
        n_groups=s.n_groups,
    )
    total = week.capped[0]
    return Answer(
        total,
        _(
            "bounding.exercise.week.answer",
            total=formatting.number(round(total, 9)),
            touched=formatting.count(week.touched),
            n=formatting.count(week.n_groups),
            epsilon=formatting.number(QUESTION_EPSILON),
            sequential=formatting.number(round(week.sequential[0], 9)),
            cap=formatting.count(bounds.max_groups),
            **s.words.nouns(),
        ),
    )


def _exact_gaussian(s) -> Answer:
    """Gaussian noise: basic composition against the exact total of the same Gaussians."""
    delta = s.plan.delta if s.plan.mechanism == "gaussian" else 1e-6
    plan = NoisePlan(s.plan.epsilon_per_group, False, "gaussian", delta)
    week = week_budget(
        release_sensitivity("count", s.bounding),
        plan,
        max_groups=s.bounding.max_groups,
        n_groups=s.n_groups,
    )
    return Answer(
        "false",
        _(
            "bounding.exercise.exact.answer",
            epsilon=formatting.number(plan.epsilon_per_group),
            delta=formatting.power_of_ten(delta),
            touched=formatting.count(week.touched),
            basic=formatting.number(round(week.capped[0], 9)),
            total_delta=formatting.power_of_ten(week.capped[1]),
            exact=formatting.epsilon(week.exact_capped_epsilon),
        ),
    )


EXERCISES = (
    Exercise(
        key="bounding.pre_aggregation",
        page="bounding",
        section="answers",
        question=N_("bounding.exercise.pre_aggregation.question"),
        kind="number",
        solve=_pre_aggregation,
        tolerance=1e-9,
    ),
    Exercise(
        key="bounding.best_cap",
        page="bounding",
        section="tradeoff",
        question=N_("bounding.exercise.best_cap.question"),
        kind="number",
        solve=_best_cap,
        tolerance=1e-9,
    ),
    Exercise(
        key="bounding.week",
        page="bounding",
        section="budget",
        question=N_("bounding.exercise.week.question"),
        kind="number",
        solve=_week,
        tolerance=1e-9,
    ),
    Exercise(
        key="bounding.exact",
        page="bounding",
        section="budget",
        question=N_("bounding.exercise.exact.question"),
        kind="choice",
        choices=TRUE_FALSE,
        solve=_exact_gaussian,
    ),
)
