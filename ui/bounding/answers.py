"""Section 1 of the bounding page: per group, the truth, the truth after bounding and the noisy
answers of each statistic (ui.bounding.noisy), as values or as their change from the truth; the
metrics above them (ui.bounding.metrics), the tables and the export below (ui.bounding.export)."""

from __future__ import annotations

from contextlib import nullcontext

import numpy as np
import pandas as pd
import streamlit as st

from data import sources
from dp_core import bounding
from dp_core.bounding import Bounding, bias
from dp_core.bounding.noise import GroupNoise
from ui.bounding import charts as bounding_charts
from ui.bounding.data import PAGE, BoundingData, remembered, seed_and_draw
from ui.bounding.declared import VIEW, VIEWS
from ui.bounding.exercises import EXERCISES
from ui.bounding.export import answers_table, page_export, table_caption
from ui.bounding.metrics import metric_rows
from ui.bounding.noisy import noise_words, released_answers, standard_draws, teaching_answers
from ui.bounding.paths import path_seed
from ui.bounding.settings import Settings
from ui.bounding.words import capitalised
from ui.common import charts, formatting, live
from ui.common.address import linked
from ui.common.errors import show_error, translated
from ui.common.exercises import section_exercises
from ui.common.export import export_buttons
from ui.common.i18n import _, language
from ui.common.progress import statistic_progress
from ui.common.release import release_again_button
from ui.common.shell import page_rng, presenter_mode


@st.cache_data(show_spinner=False, max_entries=64)
def _bounded_answers(
    key: tuple, bounds: Bounding, seed: int, draw: int, _frame: pd.DataFrame
) -> pd.DataFrame:
    """Per group: the truth and one bounded draw of the data (dp_core.bounding)."""
    _key, person, group, value, order, labels = key
    return bounding.bounded_answers(
        page_rng(PAGE, "bounding"),
        _frame,
        bounds,
        id_column=person,
        group_column=group,
        value_column=value if bounds.clipped else None,
        order_column=order,
        groups=pd.Index(labels, name=group),
    )


def _path_answers(data: BoundingData, bounds: Bounding) -> pd.DataFrame:
    """Per group, the truth and the truth after bounding, computed by the engine where the
    data lie (data.sources.bounded_statistics; "random" keeps a seeded choice), with a
    progress bar once it takes a second (a change of cap on 10^8 rows). "First" is exact
    from the unit profiles already in memory when they hold the values (no second read:
    20 s on 10^8 visits)."""
    table = data.table
    held = table is not None and (not bounds.clipped or table.row_value is not None)
    if bounds.selection == "first" and held:
        return bias.first_answers(table, bounds, sums=bounds.clipped)
    with statistic_progress():
        stats = sources.bounded_statistics(
            data.data.origin,
            bounds,
            person=data.person,
            group=data.group,
            value=data.value if bounds.clipped else None,
            order=data.order,
            seed=path_seed(),
            groups=data.labels,
        )
    return stats.answers


def _answers(s: Settings) -> pd.DataFrame | None:
    """Per group: the truth and the truth after bounding (this draw), kept while unchanged."""
    key = (s.data.key, s.bounding, *seed_and_draw())
    if s.data.units is not None:
        try:
            return remembered("answers", key, lambda: _path_answers(s.data, s.bounding))
        except ValueError as error:
            show_error(_("bounding.answers.cannot", error=translated(error)), error)
            return None
    return remembered("answers", key, lambda: _bounded_answers(*key, s.data.frame))


def _series_names(s: Settings) -> tuple[str, str, str]:
    """The chart's three series: the truth, the truth after bounding, the noisy answers."""
    noisy = _("bounding.series.released") if s.choices.secure else _("bounding.series.noisy")
    return _("bounding.series.true"), _("bounding.series.bounded"), noisy


def chart_words(s: Settings, name: str, view: str) -> tuple[list[str], tuple[str, ...], str]:
    """What one statistic's answers chart says (the same at every stop): the groups, its
    series and its value axis' title."""
    names, title = _series_names(s), s.statistics[name]
    if view == "values":
        return s.data.shown_labels, names, title
    if view == "difference":
        return s.data.shown_labels, names[1:], _("bounding.view.difference_title", statistic=title)
    return s.data.shown_labels, names[1:], _("bounding.view.relative_title", statistic=title)


def answers_chart(
    words: tuple[list[str], tuple[str, ...], str],
    name: str,
    answers: pd.DataFrame,
    noisy: np.ndarray,
    half: float,
    view: str,
) -> charts.Spec:
    """The answers chart of one statistic, as values or as their change from the truth
    (``words``: chart_words')."""
    labels, names, value_title = words
    true = answers[f"true_{name}"].to_numpy(dtype=float)
    bounded = answers[f"bounded_{name}"].to_numpy(dtype=float)
    if view == "values":
        return bounding_charts.before_after_noisy(
            labels, true, bounded, noisy, half, names=names, value_title=value_title
        )
    if view == "difference":
        changes = (bounded - true, noisy - true)
        halves = np.full(true.shape, half)
    else:  # relative: percent of the true value (undefined where it is 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            base = np.where(true != 0, np.abs(true), np.nan)
            changes = (100 * (bounded - true) / base, 100 * (noisy - true) / base)
            halves = 100 * half / base
    return bounding_charts.changes(labels, *changes, halves, names=names, value_title=value_title)


def noisy_answers(s: Settings) -> None:
    """Section 1: the truth, the truth after bounding and the noisy answers, per statistic."""
    answers = _answers(s)
    if answers is None:
        return
    metrics = remembered(
        "metrics",
        (s.data.key, s.bounding, *seed_and_draw(), s.plan.mechanism, language()),
        lambda: metric_rows(s, answers),
    )
    cols = st.columns(4)
    for column, label, value, note in metrics:
        cols[column].metric(label, value, delta=note, delta_color="off", delta_arrow="off")
    if s.choices.secure:
        release_again_button(PAGE)
    released = released_answers(s, answers)
    view = _view()
    standard = None if s.choices.secure else standard_draws(s)
    statistics = list(s.statistics.items())
    # on a projector side by side: both charts on one screen, each at a readable height
    places = st.columns(len(statistics)) if presenter_mode() else [nullcontext()] * len(statistics)
    specs = []
    for place, (name, title) in zip(places, statistics, strict=True):
        with place:
            specs.append(
                (name, _statistic(s, name, title, answers, released[name], view, standard))
            )
    _summary(s, answers, secure=s.choices.secure)
    export_buttons(
        PAGE,
        s.data.data,
        lambda: page_export(s, answers, released, specs),
        secure=s.choices.secure,
    )
    section_exercises(EXERCISES, "answers", s)


def _view() -> str:
    """How the answers charts show them: the values, or their change from the truth."""
    return linked(
        VIEW,
        st.radio,
        _("bounding.view.label"),
        labels={key: _(msgid) for key, msgid in VIEWS.items()},  # in this run's language
        horizontal=True,
        label_visibility="collapsed" if presenter_mode() else "visible",
        help=_("bounding.view.help"),
    )


def _statistic(
    s: Settings,
    name: str,
    title: str,
    answers: pd.DataFrame,
    release: tuple[np.ndarray, float, str],
    view: str,
    standard: np.ndarray | None,
) -> charts.Spec:
    """One statistic's chart, the noise in words, and its table when opened (not on a
    projector); the chart.

    A teaching draw (``standard``: its standard draws) follows the ε and δ thumbs: at each
    stop, after bounding + that stop's scale × the same draws. A secure release stays still.
    """
    noisy, half, release_note = release
    st.subheader(capitalised(title))
    key, words, nouns = f"{PAGE}_{name}s", chart_words(s, name, view), s.words.nouns()
    if standard is None:
        spec = answers_chart(words, name, answers, noisy, half, view)
        charts.show(spec, key=key)
        st.caption(_noise_caption(s.noises[name], nouns, release_note))
    else:

        def chart(*values: float) -> charts.Spec:
            noisy, half, _note = teaching_answers(s.at(*values), answers, standard)[name]
            return answers_chart(words, name, answers, noisy, half, view)

        # the answers are the data's after bounding, for the seed and draw live adds
        spec = live.chart(s.stops, chart, key=key, depends=(s.identity, view))
        live.text(s.stops, lambda *values: _noise_caption(s.at(*values).noises[name], nouns),
                  key=f"{key}_caption", depends=s.identity, style="caption")  # fmt: skip
    if presenter_mode():  # on a projector both statistics' charts fit one screen, no tables
        return spec
    box = st.expander(_("bounding.answers.table"), key=f"{PAGE}_table_{name}", on_change="rerun")
    if box.open:
        with box:
            st.dataframe(answers_table(s, name, answers, noisy), hide_index=True, width="stretch")
            table_caption(s)
    return spec


def _noise_caption(noise: GroupNoise, nouns: dict[str, str], release_note: str = "") -> str:
    """The noise on one statistic in words, and the secure release's note if any."""
    return _("bounding.sentence_join").join(
        filter(None, [noise_words(noise, nouns), release_note])
    ) + _("bounding.sentence_end")


def _summary(s: Settings, answers: pd.DataFrame, *, secure: bool) -> None:
    """The records bounding dropped and the noise of each statistic, in a sentence (following
    the ε and δ thumbs unless the release is secure)."""
    dropped = int(answers["true_count"].sum() - answers["bounded_count"].sum())
    statistics, nouns = s.statistics, s.words.nouns()

    def sentence(*values: float) -> str:
        noise = _("bounding.list_and").join(
            _("bounding.answers.std_of", std=formatting.readable(n.std), statistic=statistics[k])
            for k, n in s.at(*values).noises.items()
        )
        return _(
            "bounding.answers.summary",
            dropped=formatting.count(dropped),
            rows=formatting.count(s.data.rows),
            noise=noise,
            **nouns,
        )

    if secure:
        st.markdown(sentence(*(stop.value for stop in s.stops)))
    else:
        live.text(s.stops, sentence, key=f"{PAGE}_summary", depends=(s.identity, dropped))
