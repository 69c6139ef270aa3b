"""The planner page's closing: what to notice, and the formulas with their sources."""

from __future__ import annotations

import streamlit as st

from ui.common.i18n import _
from ui.common.shell import formula_box, what_to_notice
from ui.planner.settings import PAGE


def closing() -> None:
    """What to notice, and the formulas with their sources."""
    what_to_notice(
        [
            _("planner.notice.equal"),
            _("planner.notice.targets"),
            _("planner.notice.accounting"),
            _("planner.notice.unit"),
        ]
    )
    formula_box(PAGE, _formulas, _("planner.formulas"))


def _formulas() -> None:
    """The formulas behind the page, with their sources."""
    st.latex(
        r"t_{95\%} = b\ln 20 \;\text{(Laplace, } b = \Delta_1/\varepsilon_i),\qquad "
        r"t_{95\%} = 1.96\,\sigma \;\text{(Gauss)}"
    )
    st.latex(
        r"\varepsilon_i = \frac{\Delta_1 \ln 20}{t},\qquad "
        r"\sigma^* = \frac{t}{1.96},\; \varepsilon_i = \varepsilon(\sigma^*, \delta_i)"
    )
    st.latex(
        r"\rho_{\text{Lap}} = \tfrac12 (\Delta/b)^2,\quad \rho_{\text{Gauss}} = "
        r"\frac{\Delta^2}{2\sigma^2},\quad \varepsilon = \rho + 2\sqrt{\rho\ln(1/\delta)}"
    )
    st.markdown(_("planner.formulas.sources"))
