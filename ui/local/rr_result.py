"""Randomized response, what section 2 ("survey") draws and hands out: one survey's result
from the page's seed, its question, its chart, its row of numbers and its export."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from dp_core import local_estimation
from dp_core import randomized_response as rr
from ui.common import charts, formatting
from ui.common.catalog import entry
from ui.common.export import Export
from ui.common.i18n import _
from ui.common.labels import category_label
from ui.common.shell import page_rng
from ui.local import estimates, rr_charts, rr_tree_chart
from ui.local.guarantee import local_guarantee_text, local_unit
from ui.local.rr_settings import DATA, GROUP, MODES, PAGE, URL, WHO, Settings


@dataclass(frozen=True)
class Result:
    """One survey: the tally, the debiased estimate and its 95% interval (raw and clipped)."""

    tally: int
    estimate: float
    low: float
    high: float
    error: float

    def clipped(self, n: int) -> tuple[float, float]:
        """The interval within the possible counts [0, n]."""
        return min(max(self.low, 0.0), n), min(max(self.high, 0.0), n)


def survey_result(s: Settings) -> Result:
    """The survey of these settings, drawn from the page's seed (what section 2 shows)."""
    c, n, n_yes = s.coins, s.n, s.n_yes
    tally = int(rr.yes_tally(page_rng(PAGE, "survey"), n_yes, n - n_yes, c.p, c.q))
    estimate = float(local_estimation.debiased_count(tally, n, c.p, c.q))
    low, high = (float(v) for v in local_estimation.estimate_interval(estimate, n, c.p, c.q))
    return Result(tally, estimate, low, high, estimate - n_yes + 0.0)


def question(s: Settings) -> str:
    """The question the survey asks, with its true answer (markdown, as section 2 shows it)."""
    sv = s.survey
    if sv.group:
        return _(
            "local.rr.question.group",
            yes=formatting.count(sv.population_yes),
            population=formatting.count(sv.population),
        )
    column = sv.respondents.column
    return _(
        "local.rr.question.data",
        column=column,
        category=category_label(column, sv.category),
        yes=formatting.count(sv.population_yes),
        population=formatting.count(sv.population),
    )


def survey_data(s: Settings):
    """The dataset behind the survey (None for a described group, or without data)."""
    return None if s.survey is None or s.survey.group else s.survey.respondents.data


def distribution_chart(s: Settings, result: Result) -> charts.Spec:
    """The exact distribution of the estimate, with the truth and this survey's answer."""
    values, probs = estimates.distribution(s.n_yes, s.n, s.coins.p, s.coins.q)
    return rr_charts.estimate_distribution(
        values, probs, s.n_yes, result.estimate, result.clipped(s.n)
    )


def results_table(s: Settings, result: Result) -> pd.DataFrame:
    """The survey's numbers as one row, in the units on screen (shares in %)."""
    n, low, high = s.n, *result.clipped(s.n)
    relative = 100 * abs(result.error) / s.n_yes if s.n_yes else float("nan")
    return pd.DataFrame(
        {
            _("local.rr.export.n"): [n],
            _("local.rr.export.truth"): [s.n_yes],
            _("local.rr.export.said_yes"): [result.tally],
            _("local.rr.export.said_yes_percent"): [round(100 * result.tally / n, 2)],
            _("local.rr.export.estimate"): [round(result.estimate, 1)],
            _("local.rr.export.low"): [round(result.low, 1)],
            _("local.rr.export.high"): [round(result.high, 1)],
            _("local.rr.export.clipped_low"): [round(low, 1)],
            _("local.rr.export.clipped_high"): [round(high, 1)],
            _("local.rr.export.error"): [round(result.error, 1)],
            _("local.rr.export.relative"): [round(relative, 2)],
            _("local.rr.export.expected"): [
                round(estimates.expected_abs_error(s.n_yes, n, s.coins.p, s.coins.q), 2)
            ],
        }
    )


def survey_export(s: Settings, result: Result, distribution: charts.Spec) -> Export:
    """The survey's export: its settings, its row of numbers, the guarantee and both charts."""
    c, sv, data = s.coins, s.survey, survey_data(s)
    source = data.title if data else _("local.rr.export.group")
    settings: dict[str, object] = {
        _("local.export.dataset"): source,
        _("local.rr.export.question"): question(s).replace("*", ""),
        _("local.rr.export.who"): _(WHO[GROUP if sv.group else DATA]),
        _("local.rr.export.n"): formatting.count(s.n),
        _("local.rr.export.mode"): _(MODES[c.mode]),
        "t": formatting.number(round(c.truth, 3)),
        "y": formatting.number(round(c.random_yes, 3)),
        "epsilon": formatting.epsilon_bound(c.epsilon),
        _("local.rr.export.p"): formatting.probability(c.p),
        _("local.rr.export.q"): formatting.probability(c.q),
        _("local.export.noise"): _("local.export.noise.value"),
    }
    return Export(
        title=_("local.rr.export.title", data=source),
        question=entry(URL).question,
        table=results_table(s, result),
        settings=settings,
        guarantee=local_guarantee_text(
            data,
            c.epsilon,
            count=s.n,
            answers=_("local.rr.answers"),
            reads=s.survey.respondents.reads if data is not None else (),
        ),
        unit=local_unit(data),
        charts=[
            ("coin_tree", rr_tree_chart.coin_tree(c.truth, c.random_yes)),
            ("estimate_distribution", distribution),
        ],
    )
