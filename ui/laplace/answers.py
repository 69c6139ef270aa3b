"""Section 1 of the Laplace page: the released answers beside the truth, with exact 95% bands,
a table and the downloads."""

from __future__ import annotations

import numpy as np
import streamlit as st

from ui.common import charts, formatting, live
from ui.common.address import linked_expander
from ui.common.exercises import section_exercises
from ui.common.export import export_buttons
from ui.common.i18n import _
from ui.common.release import release_again_button
from ui.common.shell import metric_row
from ui.laplace.exercises import EXERCISES
from ui.laplace.results import noisy_answers, on_screen, results_export, results_table
from ui.laplace.settings import TABLE, Settings
from ui.laplace.words import display_labels

SHOWN = 30  # bars in a chart; the table lists every group


def noisy_vs_true(s: Settings) -> None:
    """Section 1: the released answers beside the truth, with exact 95% bands and a table."""
    query = s.choice.query
    noisy, half_widths, expected = noisy_answers(s)
    if s.secure:  # one release, at the ε in use: never computed at other stops
        st.markdown(f"**{_within(s, half_widths)}**")
    else:
        live.text([s.stops], lambda e: _within(s.at(e), noisy_answers(s.at(e))[1]),
                  key="laplace_within", depends=s.identity, style="strong")  # fmt: skip
    _metrics(s, expected)
    if s.secure:
        release_again_button("laplace")
    answers_chart = _answers_chart(s)
    table = linked_expander(TABLE, _("laplace.table.title"))
    if table.open:
        with table:
            shown = on_screen(results_table(s, noisy, half_widths))
            st.dataframe(shown, hide_index=True, width="stretch")
    export_buttons(
        "laplace",
        s.choice.data,
        lambda: results_export(s, noisy, half_widths, answers_chart),
        secure=s.secure,
    )
    if query.kind == "sum" and not np.allclose(query.raw_values, query.true_values):
        st.caption(_("laplace.answers.clipping"))
    section_exercises(EXERCISES, "answers", s)


def _within(s: Settings, half_widths: np.ndarray) -> str:
    """The section's headline: how far from the truth an answer is 95% of the time."""
    kind, eps = s.choice.query.kind, formatting.number(s.epsilon)
    if kind == "mean":
        return _(
            "laplace.answers.within_mean",
            epsilon=eps,
            low=formatting.significant(half_widths.min()),
            high=formatting.significant(half_widths.max()),
        )
    half = formatting.significant(half_widths[0])
    if kind == "sum":
        return _("laplace.answers.within_sum", epsilon=eps, half=half)
    return _("laplace.answers.within_count", epsilon=eps, half=half)


def _metrics(s: Settings, expected: np.ndarray) -> None:
    """The sensitivity, the scale b and the median expected |error| (the mean's: its sum's)."""
    query = s.choice.query
    if query.kind == "mean":
        sensitivity, scale = _("laplace.metric.sensitivity_mean"), _("laplace.metric.scale_mean")
    else:
        sensitivity, scale = _("laplace.metric.sensitivity"), _("laplace.metric.scale")
    if s.secure:  # the release held, at the ε in use
        row = metric_row("laplace")
        row.metric(sensitivity, formatting.number(query.sensitivity))
        row.metric(scale, formatting.significant(s.scale))
        row.metric(_("laplace.metric.expected"), formatting.significant(float(np.median(expected))))
        return
    with live.row():  # one element: b and the expected error follow the ε thumb
        live.text([], lambda: formatting.number(query.sensitivity), key="laplace_sensitivity",
                  style="metric", label=sensitivity)  # fmt: skip
        live.text([s.stops], lambda e: formatting.significant(s.at(e).scale),
                  key="laplace_scale", depends=s.identity, style="metric", label=scale)  # fmt: skip
        live.text(
            [s.stops],
            lambda e: formatting.significant(float(np.median(noisy_answers(s.at(e))[2]))),
            key="laplace_expected", depends=s.identity, style="metric",
            label=_("laplace.metric.expected"),
        )  # fmt: skip


def _series_names(s: Settings) -> tuple[str, str]:
    """The chart's two series: the truth and the released (or noisy) answers with their band."""
    true = _("laplace.series.true", value=s.choice.value_name)
    if s.secure:
        return true, _("laplace.series.released")
    if s.choice.query.kind == "mean":
        return true, _("laplace.series.noisy_mean")
    return true, _("laplace.series.noisy")


def _answers_chart(s: Settings) -> charts.Spec:
    """The noisy answers beside the true ones (the SHOWN largest when there are more),
    following the ε thumb with teaching draws (noisy = true + b × the page's standard draws)."""
    labels = display_labels(s.choice)
    if len(labels) > SHOWN:
        st.caption(
            _(
                "laplace.answers.largest",
                shown=formatting.count(SHOWN),
                total=formatting.count(len(labels)),
            )
        )
    if s.secure:
        spec = _answers_at(s)
        charts.show(spec, key="laplace_answers")
        return spec
    return live.chart(
        [s.stops], lambda e: _answers_at(s.at(e)), key="laplace_answers", depends=s.identity
    )


def _answers_at(s: Settings) -> charts.Spec:
    """The chart of section 1 at the settings' ε."""
    query = s.choice.query
    noisy, half_widths, _expected = noisy_answers(s)
    labels = display_labels(s.choice)
    shown = np.arange(len(labels))
    if len(labels) > SHOWN:  # the largest noisy answers: ordering by them is post-processing
        shown = np.sort(np.argsort(-noisy, kind="stable")[:SHOWN])
    true_name, noisy_name = _series_names(s)
    return charts.noisy_vs_true(
        [labels[i] for i in shown],
        {true_name: query.true_values[shown], noisy_name: noisy[shown]},
        noisy=noisy_name,
        half_width=half_widths[shown],
        value_title=s.choice.value_name,
    )
