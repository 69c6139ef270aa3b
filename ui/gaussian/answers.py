"""Section 1 of the Gaussian page: the released answers beside the truth, with 95% bands, a
summary of the noise, a table and the downloads."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import streamlit as st

from ui.common import charts, formatting, live
from ui.common.address import linked_expander
from ui.common.export import export_buttons
from ui.common.i18n import N_, _
from ui.common.release import release_again_button
from ui.common.shell import metric_row
from ui.gaussian.results import (
    Answers,
    group_labels,
    noisy_answers,
    results_export,
    results_table,
)
from ui.gaussian.settings import NAMES, TABLE, Settings

# The label of the metric with the σ the charts use, beside OpenDP's (message ids).
CHART_SIGMA = {
    "classic": N_("gaussian.answers.chart_sigma.classic"),
    "analytic": N_("gaussian.answers.chart_sigma.analytic"),
}
SHOWN = 30  # bars in a chart; the table lists every group


def noisy_vs_true(s: Settings) -> None:
    """Section 1: the released answers beside the truth, with 95% bands, a table, an export.

    With teaching draws the headline and the chart follow the ε and δ thumbs (the noise at σ
    is σ × the page's standard draws: dp_core draws from a fresh page_rng at every stop); a
    secure release is drawn at the values in use only.
    """
    if s.choice is None:
        st.info(_("gaussian.answers.no_query"))
        return
    if s.withheld:
        st.info(_("gaussian.answers.withheld"))
        return
    answers = noisy_answers(s)
    draw = _drawn_once(s, answers)
    if s.secure:
        st.markdown(f"**{_headline(s, answers)}**")
    else:
        live.follow_text(
            s, lambda at: _teaching_headline(at, draw), key="gaussian_within", style="strong"
        )
    if s.choice.query.kind == "mean":
        _mean_metrics(s, answers)
    else:
        _metrics(s, answers, draw)
    if s.secure:
        release_again_button("gaussian")
    answers_chart = _answers_chart(s, answers, draw)
    table = linked_expander(TABLE, _("gaussian.table.title"))
    if table.open:
        with table:
            st.dataframe(results_table(s, answers), hide_index=True, width="stretch")
    export_buttons(
        "gaussian",
        s.choice.data,
        lambda: results_export(s, answers, answers_chart),
        secure=s.secure,
    )
    _captions(s)


def _captions(s: Settings) -> None:
    """Why the L1 and L2 sensitivities differ, and that sums are clipped."""
    query = s.choice.query
    if s.l1 != s.l2:
        st.caption(
            _(
                "gaussian.answers.l1_l2",
                l1=formatting.number(s.l1),
                l2=formatting.significant(s.l2, 4),
            )
        )
    if query.kind == "sum" and not np.allclose(query.raw_values, query.true_values):
        st.caption(_("gaussian.answers.clipping"))


def _drawn_once(s: Settings, answers: Answers) -> Callable[[Settings], Answers]:
    """The teaching answers at a stop, drawn once a run for the headline and the chart both
    (``answers``: those at the values in use)."""
    found = {(s.mechanism, s.epsilon, s.delta): answers}

    def draw(at: Settings) -> Answers:
        key = (at.mechanism, at.epsilon, at.delta)
        if key not in found:
            found[key] = noisy_answers(at)
        return found[key]

    return draw


def _teaching_headline(s: Settings, draw: Callable[[Settings], Answers]) -> live.Said:
    """The headline with teaching draws at the settings' ε and δ; where the classic σ is
    withheld (a thumb at ε ≥ 1), why there are no answers, in the box the server draws."""
    if s.withheld:
        return "notice", _("gaussian.answers.withheld")
    return _headline(s, draw(s))


def _headline(s: Settings, answers: Answers) -> str:
    """How far from the truth an answer is 95% of the time: the band every answer shares, or
    the range of a clipped mean's (simulated: a noisy sum over a noisy count)."""
    name = _(NAMES[s.kind])
    if s.choice.query.kind == "mean":
        return _(
            "gaussian.answers.mean",
            name=name,
            low=formatting.significant(answers.half_widths.min()),
            high=formatting.significant(answers.half_widths.max()),
        )
    values = {
        "name": name,
        "epsilon": formatting.number(s.epsilon),
        "delta": formatting.power_of_ten(s.delta),
        "what": s.choice.value_name,
        "half": formatting.significant(answers.half_widths[0]),
    }
    if s.noise == "laplace":
        return _("gaussian.answers.within", **values)
    return _("gaussian.answers.within_delta", **values)


def _mean_metrics(s: Settings, answers: Answers) -> None:
    """The median expected |error| and half-width of a clipped mean, and how they were had."""
    cols = st.columns(2)
    cols[0].metric(
        _("gaussian.answers.expected_median"),
        formatting.significant(float(np.median(answers.expected)), 4),
    )
    cols[1].metric(
        _("gaussian.answers.half_median"),
        formatting.significant(float(np.median(answers.half_widths)), 4),
    )
    secure = s.secure and s.noise == "gaussian"
    halves = N_("gaussian.answers.halves_opendp") if secure else N_("gaussian.answers.halves")
    st.caption(_(halves))


def _metrics(s: Settings, answers: Answers, draw: Callable[[Settings], Answers]) -> None:
    """The noise behind the band every answer shares: its std (and OpenDP's σ), the expected
    |error| and the 95% half-width; with teaching draws they follow the ε and δ thumbs (a dash
    where the classic σ is withheld)."""
    opendp = s.secure and s.noise == "gaussian"
    std_label = _("gaussian.answers.opendp_sigma") if opendp else _("gaussian.answers.std")
    shown = [
        (std_label, lambda found: found.std, "std"),
        (_("gaussian.answers.expected"), lambda found: found.expected[0], "expected"),
        (_("gaussian.answers.half"), lambda found: found.half_widths[0], "half"),
    ]
    if not s.secure:
        with live.row():  # one element
            for label, value, key in shown:
                live.follow_text(
                    s,
                    lambda at, value=value: (
                        "—" if at.withheld else formatting.significant(float(value(draw(at))), 4)
                    ),
                    key=f"gaussian_metric_{key}",
                    style="metric",
                    label=label,
                )
        return
    row = metric_row("gaussian")
    for label, value, key in shown:
        row.metric(label, formatting.significant(float(value(answers)), 4))
        if opendp and key == "std":  # OpenDP's σ beside the noise's std
            row.metric(
                _(CHART_SIGMA[s.gaussian_kind]),
                formatting.significant(s.sigma, 4),
                help=_("gaussian.answers.opendp_help"),
            )


def _answers_chart(
    s: Settings, answers: Answers, draw: Callable[[Settings], Answers]
) -> charts.Spec:
    """The noisy answers beside the true ones (the SHOWN largest when there are more), following
    the ε and δ thumbs with teaching draws."""
    total = len(s.choice.query.labels)
    if total > SHOWN:
        st.caption(_("gaussian.answers.largest", shown=formatting.count(SHOWN), total=total))
    if s.secure:
        spec = _answers_spec(s, answers)
        charts.show(spec, key="gaussian_answers")
        return spec
    return live.follow_chart(s, lambda at: _teaching_chart(at, draw), key="gaussian_answers")


def _teaching_chart(s: Settings, draw: Callable[[Settings], Answers]) -> charts.Spec:
    """Section 1's chart with teaching draws at the settings' ε and δ; where the classic σ is
    withheld (a thumb at ε ≥ 1), its axes without answers (the same spec, no rows)."""
    if s.withheld:
        spec = _teaching_chart(replace(s, mechanism="analytic"), draw)
        return {**spec, "datasets": {name: f.iloc[0:0] for name, f in spec["datasets"].items()}}
    return _answers_spec(s, draw(s))


def _answers_spec(s: Settings, answers: Answers) -> charts.Spec:
    """The chart of section 1: the truth and the answers with their 95% bands."""
    query = s.choice.query
    labels = group_labels(s)
    shown = np.arange(len(labels))
    if len(labels) > SHOWN:  # the largest noisy answers: ordering by them is post-processing
        shown = np.sort(np.argsort(-answers.noisy, kind="stable")[:SHOWN])
    released = (
        _("gaussian.answers.released")
        if s.secure
        else _("gaussian.answers.noisy", band=answers.band)
    )
    return charts.noisy_vs_true(
        [labels[i] for i in shown],
        {
            _("gaussian.answers.true", what=s.choice.value_name): query.true_values[shown],
            released: answers.noisy[shown],
        },
        noisy=released,
        half_width=answers.half_widths[shown],
        value_title=s.choice.value_name,
    )
