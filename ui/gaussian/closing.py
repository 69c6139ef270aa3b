"""The end of the Gaussian page: what to notice, and the formulas with their sources."""

from __future__ import annotations

import streamlit as st

from ui.common.i18n import _
from ui.common.shell import formula_box, what_to_notice


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice(
        [
            _("gaussian.notice.delta"),
            _("gaussian.notice.cheap"),
            _("gaussian.notice.classic"),
            _("gaussian.notice.k"),
            _("gaussian.notice.one_over_n"),
            _("gaussian.notice.categories"),
        ]
    )
    formula_box("gaussian", _formulas)


def _formulas() -> None:
    """The formulas behind the page, with their sources (their words in the reader's language)."""
    st.latex(
        r"M(x) = f(x) + \mathcal{N}(0, \sigma^2),\qquad "
        r"\Delta_2 f = \max_{x \simeq x'} \lVert f(x) - f(x') \rVert_2"
    )
    st.caption(_("gaussian.formula.normal"))
    st.latex(
        r"\text{" + _("gaussian.formula.classic") + r"} \ (0<\varepsilon<1):\quad "
        r"\sigma = \frac{\sqrt{2\ln(1.25/\delta)}\,\Delta_2 f}{\varepsilon}"
    )
    st.latex(
        r"\text{" + _("gaussian.formula.analytic") + r"}\quad "
        r"\Phi\!\left(\tfrac{\Delta}{2\sigma} - \tfrac{\varepsilon\sigma}{\Delta}\right)"
        r" - e^{\varepsilon}\,\Phi\!\left(-\tfrac{\Delta}{2\sigma} - "
        r"\tfrac{\varepsilon\sigma}{\Delta}\right) \le \delta"
    )
    st.latex(
        r"E|Z| = \sigma\sqrt{2/\pi},\quad t_{95\%} = 1.96\,\sigma,\quad "
        r"P(|Z|>t) = 2\Phi(-t/\sigma),\quad \rho = \frac{\Delta^2}{2\sigma^2}"
    )
    st.latex(
        r"k \text{ " + _("gaussian.formula.k") + r"}:\ \Delta_1 = k,\ \Delta_2 = \sqrt{k};\quad "
        r"\sqrt{2}\,k/\varepsilon = \sqrt{k}\,\sigma_1 \iff "
        r"k^* = (\varepsilon\sigma_1)^2/2"
    )
    st.markdown(_("gaussian.formula.sources"))
