"""The end of the exponential-mechanism page: what to notice, and the formulas with their
sources."""

from __future__ import annotations

import streamlit as st

from ui.common.i18n import N_, _
from ui.common.shell import formula_box, what_to_notice
from ui.exponential.candidates import PAGE

NOTICES = (
    N_("exponential.notice.distance"),
    N_("exponential.notice.positive"),
    N_("exponential.notice.sampled"),
    N_("exponential.notice.candidates"),
    N_("exponential.notice.sensitivity"),
    N_("exponential.notice.score"),
)


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice([_(notice) for notice in NOTICES])
    formula_box(PAGE, _formulas)


def _formulas() -> None:
    """The formulas behind the page, with their sources."""
    st.latex(
        r"P(r) = \frac{\exp\big(\varepsilon\, u(x, r) / (2\Delta u)\big)}"
        r"{\sum_{r'} \exp\big(\varepsilon\, u(x, r') / (2\Delta u)\big)},\qquad"
        r"\Delta u = \max_{r}\max_{x \sim x'} |u(x, r) - u(x', r)|"
    )
    st.latex(
        r"P\Big[u(\text{output}) \le \mathrm{OPT} - \tfrac{2\Delta u}{\varepsilon}"
        r"\big(\ln\tfrac{|R|}{|R_{\mathrm{OPT}}|} + t\big)\Big] \le e^{-t}"
    )
    st.latex(
        r"P_{\mathrm{PF}}(r) = p_r \int_0^1 \prod_{j \ne r} (1 - p_j u)\, du,\qquad "
        r"p_j = e^{\varepsilon (u_j - \mathrm{OPT}) / (2\Delta u)}"
    )
    st.latex(
        r"u_{\mathrm{hours}}(x, r) = L + \frac{\sum_{i \in r} (\mathrm{clip}(h_i, L, U) - L)}"
        r"{\max(n_r, n_{\min})},\qquad \Delta u = \frac{U - L}{n_{\min}}"
    )
    st.markdown(_("exponential.formulas.sources"))
