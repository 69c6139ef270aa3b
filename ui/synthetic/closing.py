"""The end of the synthetic-data page: what to notice, and the formulas with their sources."""

from __future__ import annotations

import streamlit as st

from ui.common.i18n import _
from ui.common.shell import formula_box, what_to_notice


def closing() -> None:
    """What to notice, and the formulas with their sources."""
    what_to_notice(
        [
            _("synthetic.notice.measured"),
            _("synthetic.notice.rare"),
            _("synthetic.notice.whole"),
            _("synthetic.notice.domain"),
            _("synthetic.notice.downstream"),
        ]
    )
    formula_box("synthetic", _formulas)


def _formulas() -> None:
    """The formulas behind the page, with their sources."""
    st.latex(r"\mathrm{TVD}(p, q) = \tfrac12 \sum_{c} \lvert p_c - q_c \rvert")
    st.caption(_("synthetic.formula.tvd"))
    st.latex(
        r"\rho = \rho_1 + \rho_{\mathrm{select}} + \rho_2,\qquad "
        r"\sigma_{\text{marginal}} = \sqrt{k / (2\rho_{\text{part}})}"
    )
    st.caption(_("synthetic.formula.split"))
    st.latex(
        r"\rho\text{-zCDP} \Rightarrow (\varepsilon, \delta)\text{-DP}:\quad "
        r"\delta = \min_{\alpha > 1} \frac{e^{(\alpha-1)(\alpha\rho - \varepsilon)}}{\alpha - 1}"
        r"\Bigl(1 - \tfrac1\alpha\Bigr)^{\alpha}"
    )
    st.caption(_("synthetic.formula.conversion"))
    st.markdown(_("synthetic.formula.sources"))
