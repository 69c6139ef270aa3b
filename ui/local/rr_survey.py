"""Randomized response, section 2 ("survey"): everyone answers through the coins; the
debiased estimate against the truth, and the first respondents flipping their coins.

In "set ε" mode the estimate's distribution and the sentence above it follow ε's thumb while
it is dragged: each stop's survey is drawn from the same stream of the page's seed. The coins'
two sliders they do not follow: the exact distribution has hundreds of points, and each step of
one coin would send it again at each of the other's 101 stops."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dp_core import local_estimation
from dp_core import randomized_response as rr
from ui.common import formatting, live
from ui.common.exercises import section_exercises
from ui.common.export import export_buttons
from ui.common.i18n import _
from ui.common.shell import page_rng
from ui.common.turns import fragment
from ui.local.rr_result import (
    Result,
    distribution_chart,
    question,
    survey_data,
    survey_export,
    survey_result,
)
from ui.local.rr_settings import (
    OWN_EXERCISES,
    PAGE,
    URL,
    Settings,
    Survey,
    no_survey,
)


def survey(s: Settings) -> None:
    """Section 2: everyone answers through the coins; the debiased estimate against the truth."""
    if s.survey is None:
        no_survey()
        return
    st.markdown(question(s))
    if not s.coins.can_estimate:
        st.error(_("local.rr.cannot_estimate"))
    else:
        _estimate(s)
    _first_respondents(s)


def _interval_text(result: Result, n: int) -> str:
    low, high = result.clipped(n)
    wald = _(
        "local.rr.interval", low=formatting.fixed(result.low), high=formatting.fixed(result.high)
    )
    if (low, high) == (result.low, result.high):
        return wald
    return _(
        "local.rr.interval.clipped",
        wald=wald,
        low=formatting.fixed(low),
        high=formatting.fixed(high),
    )


def _estimate(s: Settings) -> None:
    c, n, n_yes = s.coins, s.n, s.n_yes
    minimum = local_estimation.minimum_respondents(c.p, c.q, share_half_width=0.25)
    if n < minimum:
        st.warning(_("local.rr.few", n=formatting.count(n), minimum=formatting.count(minimum)))
    result = survey_result(s)
    _metrics(result, n, n_yes, _relative(result, n_yes))
    sliders = s.epsilon_sliders
    live.text(
        sliders, lambda *e: _undo_text(s.at(*e)), key="rr_undo", depends=s.identity, style="strong"
    )
    distribution = live.chart(
        sliders,
        lambda *e: distribution_chart(s.at(*e), survey_result(s.at(*e))),
        key="rr_distribution",
        depends=s.identity,
    )
    st.caption(
        _(
            "local.rr.distribution",
            yes=formatting.count(n_yes),
            no=formatting.count(n - n_yes),
        )
    )
    if result.low < 0 or result.high > n:
        st.caption(_("local.rr.outside", n=formatting.count(n)))
    if _published(s.survey):
        st.caption(_("local.rr.published"))
    export_buttons(
        URL, survey_data(s), lambda: survey_export(s, result, distribution), secure=False
    )
    section_exercises(OWN_EXERCISES, "survey", s)


def _relative(result: Result, n_yes: int) -> str | None:
    """The error as a share of the truth (none when the truth is 0)."""
    return formatting.percent(abs(result.error) / n_yes) if n_yes else None


def _metrics(result: Result, n: int, n_yes: int, relative: str | None) -> None:
    """Said yes, the estimate, the truth and the error, side by side."""
    survey_metrics = [
        (
            _("local.rr.metric.said_yes"),
            formatting.count(result.tally),
            _("local.rr.metric.of_answers", share=formatting.percent(result.tally / n)),
        ),
        (
            _("local.rr.metric.estimate"),
            formatting.fixed(result.estimate, 1),
            _interval_text(result, n),
        ),
        (
            _("local.rr.metric.truth"),
            formatting.count(n_yes),
            _("local.rr.metric.of_respondents", share=formatting.percent(n_yes / n)),
        ),
        (
            _("local.rr.metric.error"),
            ("+" if result.error >= 0 else "") + formatting.fixed(result.error, 1),
            relative,
        ),
    ]
    for area, (label, value, note) in zip(st.columns(4), survey_metrics, strict=True):
        area.metric(label, value, delta=note, delta_color="off", delta_arrow="off")


def _undo_text(s: Settings, result: Result | None = None) -> str:
    """How the estimate undoes the coins, and how far off it lands (``result``: the survey of
    these settings, drawn when not given)."""
    c, n, n_yes = s.coins, s.n, s.n_yes
    result = survey_result(s) if result is None else result
    relative = _relative(result, n_yes)
    return _(
        "local.rr.undo",
        said=formatting.percent(result.tally / n),
        q=formatting.percent(c.q),
        not_p=formatting.percent(1 - c.p),
        estimate=formatting.fixed(result.estimate),
        truth=formatting.count(n_yes),
        off=formatting.fixed(abs(result.error)),
        of_truth=_("local.rr.undo.relative", relative=relative) if relative else "",
    )


def _published(sv: Survey) -> bool:
    """The census's sales staff: the question whose published answer the caption cites."""
    return not sv.group and (sv.respondents.key, sv.respondents.column, sv.category) == (
        "census",
        "occupation",
        "Sales",
    )


@fragment
def _first_respondents(s: Settings) -> None:
    """The first 20 respondents flipping their coins, in a lazy expander (its own fragment)."""
    box = st.expander(_("local.rr.first.label"), key="rr_first20", on_change="rerun")
    if not box.open:
        return
    sv, c = s.survey, s.coins
    if sv.group:  # a seeded order of the group: who of them comes first
        size = min(20, sv.population)
        drawn = page_rng(PAGE, "group").choice(sv.population, size=size, replace=False)
        first = drawn < sv.population_yes
    else:
        respondents = sv.respondents
        first = respondents.codes[:20] == respondents.labels.index(sv.category)
    answers = rr.coin_flip_answers(page_rng(PAGE, "respondents"), first, c.truth, c.random_yes)
    yes, no = _("local.rr.yes"), _("local.rr.no")
    truthful, by_coin2 = _("local.rr.first.truthful"), _("local.rr.first.coin2_answers")
    with box:
        st.dataframe(
            {
                _("local.rr.first.person"): np.arange(1, first.size + 1),
                _("local.rr.table.truth"): np.where(first, yes, no),
                _("local.rr.first.coin1"): np.where(answers.truthful, truthful, by_coin2),
                _("local.rr.first.coin2"): np.where(
                    answers.truthful, "–", np.where(answers.random_yes, yes, no)
                ),
                _("local.rr.first.says"): np.where(answers.reported, yes, no),
            },
            hide_index=True,
        )
        st.caption(_("local.rr.first.caption"))
