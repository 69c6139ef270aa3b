"""The end of the Laplace page: what to notice, and the formulas with their sources."""

from __future__ import annotations

import streamlit as st

from ui.common.i18n import _
from ui.common.shell import formula_box, what_to_notice


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice(
        [
            _("laplace.notice.same_noise"),
            _("laplace.notice.relative"),
            _("laplace.notice.halving"),
            _("laplace.notice.averaging"),
            _("laplace.notice.categories"),
        ]
    )
    formula_box("laplace", _formulas)


def _formulas() -> None:
    """The formulas behind the page, with their sources."""
    st.latex(
        r"M(x) = f(x) + \mathrm{Lap}(b),\quad b = \frac{\Delta_1 f}{\varepsilon},\quad "
        r"p(z) = \frac{1}{2b} e^{-|z|/b}"
    )
    st.latex(
        r"E|Z| = b,\quad \mathrm{sd}(Z) = \sqrt{2}\,b,\quad "
        r"P(|Z| \le t) = 1 - e^{-t/b} \Rightarrow t_{95\%} = b \ln 20"
    )
    st.markdown(_("laplace.formula.sources"))
