"""The local-frequencies page: its fragment (the protocol, ε or p and q, the guarantee and the
open section), its story and its closing words.

The page's pieces, one module each (prefix ``lf_``, as the page's widget keys): lf_settings
(constants, Settings), lf_presets (the teaching material's example), lf_controls (its button,
the data and column, the protocol, ε or p and q), one module per section named by its key:
lf_reports, lf_counts, lf_domain. This module calls story() with the page's
catalogue prefix, which the Workshop's links put the open section under.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui.common import formatting
from ui.common.i18n import _
from ui.common.sections import Section, story
from ui.common.shell import formula_box, on_a_phone, phone_fold, presenter_row, what_to_notice
from ui.common.turns import fragment
from ui.local.guarantee import local_guarantee_box, rounded_up
from ui.local.inputs import Respondents
from ui.local.lf_controls import data_controls, probabilities, protocol_choice
from ui.local.lf_counts import counts
from ui.local.lf_domain import domain_size
from ui.local.lf_reports import reports
from ui.local.lf_settings import PAGE, Settings, answers

__all__ = ["closing", "data_controls", "explore", "sections"]


@fragment
def explore(respondents: Respondents, sections: list[Section]) -> None:
    """The protocol, ε (or p and q), the guarantee and the open section: a fragment, so an ε
    step reruns only this."""
    controls, figures = presenter_row(5, 3)
    with controls:
        with phone_fold(_("local.lf.protocol.box"), "lf_protocol_box"):  # on a phone, closed
            protocol = protocol_choice()
        chosen = probabilities(protocol, len(respondents.labels))
    if chosen is None:
        return
    s = Settings(respondents, protocol, *chosen)
    phone = on_a_phone()  # there the guarantee comes right under ε, p and q below it
    if not phone:
        _metrics(s, figures)
    local_guarantee_box(
        respondents.data,
        s.epsilon,
        count=s.n,
        answers=answers(s),
        reads=respondents.reads,
        follows=(s.sliders, lambda *values: s.at(*values).epsilon) if s.sliders else None,
    )
    if phone:
        _metrics(s, st.container())
    story(PAGE, sections, s)


def _metrics(s: Settings, area: DeltaGenerator) -> None:
    """ε, p and q, named as the protocol uses them."""
    cols = area.columns(3)
    cols[0].metric(_("local.lf.metric.epsilon"), formatting.epsilon(s.epsilon))
    cols[1].metric(
        _("local.lf.metric.p_grr") if s.grr else _("local.lf.metric.p_unary"),
        formatting.probability(s.p),
    )
    cols[2].metric(
        _("local.lf.metric.q_grr") if s.grr else _("local.lf.metric.q_unary"),
        formatting.probability(s.q),
    )
    if note := rounded_up(s.epsilon):
        area.caption(note)


def sections() -> list[Section]:
    """The page's story."""
    return [
        Section("reports", _("local.lf.section.reports"), reports),
        Section("counts", _("local.lf.section.counts"), counts),
        Section("domain", _("local.lf.section.domain"), domain_size),
    ]


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice(
        [
            _("local.lf.notice.raw"),
            _("local.lf.notice.small"),
            _("local.lf.notice.which"),
            _("local.lf.notice.central"),
            _("local.lf.notice.declared"),
        ]
    )
    formula_box("local_frequencies", _formulas)


def _formulas() -> None:
    """The formulas behind the page, with their sources."""
    st.latex(
        r"\text{unary: } \varepsilon = \ln\frac{p(1-q)}{(1-p)q};\quad "
        r"\text{SUE: } p = \frac{e^{\varepsilon/2}}{e^{\varepsilon/2}+1},\ q = 1-p;\quad "
        r"\text{OUE: } p = \tfrac12,\ q = \frac{1}{e^\varepsilon+1}"
    )
    st.latex(
        r"\text{GRR: } p = \frac{e^\varepsilon}{e^\varepsilon + k - 1},\ "
        r"q = \frac{1}{e^\varepsilon + k - 1}"
    )
    st.latex(
        r"\hat n_v = \frac{C_v - n q}{p - q},\qquad \operatorname{Var}(\hat n_v) = "
        r"\frac{n_v\,p(1-p) + (n-n_v)\,q(1-q)}{(p-q)^2},\qquad "
        r"k^* = 3e^\varepsilon + 2"
    )
    st.markdown(_("local.lf.sources"))
