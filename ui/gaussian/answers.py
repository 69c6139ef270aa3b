"""Section 1 of the Gaussian page: the released answers beside the truth, with 95% bands, a
summary of the noise, a table and the downloads."""

from __future__ import annotations

import numpy as np
import streamlit as st

from ui.common import charts, formatting
from ui.common.address import linked_expander
from ui.common.export import export_buttons
from ui.common.i18n import N_, _
from ui.common.release import release_again_button
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
    """Section 1: the released answers beside the truth, with 95% bands, a table, an export."""
    if s.choice is None:
        st.info(_("gaussian.answers.no_query"))
        return
    if s.withheld:
        st.info(_("gaussian.answers.withheld"))
        return
    answers = noisy_answers(s)
    name = _(NAMES[s.kind])
    if s.choice.query.kind == "mean":
        _mean_summary(s, answers, name)
    else:
        _summary(s, answers, name)
    if s.secure:
        release_again_button("gaussian")
    answers_chart = _answers_chart(s, answers)
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


def _mean_summary(s: Settings, answers: Answers, name: str) -> None:
    """The bands of a clipped mean (simulated: a noisy sum over a noisy count)."""
    st.markdown(
        _(
            "gaussian.answers.mean",
            name=name,
            low=formatting.significant(answers.half_widths.min()),
            high=formatting.significant(answers.half_widths.max()),
        )
    )
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


def _summary(s: Settings, answers: Answers, name: str) -> None:
    """The band every answer shares, and the noise behind it."""
    values = {
        "name": name,
        "epsilon": formatting.number(s.epsilon),
        "delta": formatting.power_of_ten(s.delta),
        "what": s.choice.value_name,
        "half": formatting.significant(answers.half_widths[0]),
    }
    if s.noise == "laplace":
        st.markdown(_("gaussian.answers.within", **values))
    else:
        st.markdown(_("gaussian.answers.within_delta", **values))
    opendp = s.secure and s.noise == "gaussian"
    cols = st.columns(4 if opendp else 3)
    std_label = _("gaussian.answers.opendp_sigma") if opendp else _("gaussian.answers.std")
    cols[0].metric(std_label, formatting.significant(answers.std, 4))
    if opendp:
        cols[1].metric(
            _(CHART_SIGMA[s.gaussian_kind]),
            formatting.significant(s.sigma, 4),
            help=_("gaussian.answers.opendp_help"),
        )
    cols[-2].metric(
        _("gaussian.answers.expected"), formatting.significant(float(answers.expected[0]), 4)
    )
    cols[-1].metric(
        _("gaussian.answers.half"), formatting.significant(float(answers.half_widths[0]), 4)
    )


def _answers_chart(s: Settings, answers: Answers) -> charts.Spec:
    """The noisy answers beside the true ones (the SHOWN largest when there are more)."""
    query = s.choice.query
    labels = group_labels(s)
    shown = np.arange(len(labels))
    if len(labels) > SHOWN:  # the largest noisy answers: ordering by them is post-processing
        shown = np.sort(np.argsort(-answers.noisy, kind="stable")[:SHOWN])
        st.caption(_("gaussian.answers.largest", shown=formatting.count(SHOWN), total=len(labels)))
    released = (
        _("gaussian.answers.released")
        if s.secure
        else _("gaussian.answers.noisy", band=answers.band)
    )
    spec = charts.noisy_vs_true(
        [labels[i] for i in shown],
        {
            _("gaussian.answers.true", what=s.choice.value_name): query.true_values[shown],
            released: answers.noisy[shown],
        },
        noisy=released,
        half_width=answers.half_widths[shown],
        value_title=s.choice.value_name,
    )
    charts.show(spec, key="gaussian_answers")
    return spec
