"""The end of the attacker page: what to notice, and the formulas with their sources."""

from __future__ import annotations

import streamlit as st

from ui.common.i18n import _
from ui.common.shell import formula_box, what_to_notice


def closing() -> None:
    """What to notice, and the formulas with their sources."""
    what_to_notice(
        [
            _("attacker.notice.odds"),
            _("attacker.notice.prior"),
            _("attacker.notice.delta"),
            _("attacker.notice.correlated"),
            _("attacker.notice.ceiling"),
            _("attacker.notice.composition"),
            _("attacker.notice.floating"),
        ]
    )
    # Lazy: its seven formulas are most of the page's elements (KaTeX draws each symbol), and
    # the browser walks every element after each slider step; they are drawn only when open.
    formula_box("attacker", _formulas)


def _formulas() -> None:
    """The page's formulas and their sources."""
    st.latex(
        r"\frac{P(\text{in}\mid y)}{P(\text{out}\mid y)} = "
        r"\frac{p}{1-p}\cdot\frac{P(y\mid\text{in})}{P(y\mid\text{out})},\qquad "
        r"\frac{p\,e^{-\varepsilon}}{p\,e^{-\varepsilon}+1-p} \le P(\text{in}\mid y) \le "
        r"\frac{p\,e^{\varepsilon}}{p\,e^{\varepsilon}+1-p}"
    )
    st.latex(
        r"(\varepsilon,\delta)\text{-DP}:\quad P_{\text{in}}\big(L > \varepsilon + t\big) \le "
        r"\frac{\delta}{1-e^{-t}},\qquad L(y) = \ln\frac{P(y\mid\text{in})}{P(y\mid\text{out})}"
    )
    st.latex(
        r"\text{TPR} \le \min\!\big(1,\; e^{\varepsilon}\,\text{FPR} + \delta,\; "
        r"1 - e^{-\varepsilon}(1 - \delta - \text{FPR})\big),\qquad "
        r"\max(\text{TPR}-\text{FPR}) = "
        r"\frac{e^{\varepsilon} - 1 + 2\delta}{e^{\varepsilon} + 1}"
    )
    st.latex(
        r"\text{Laplace: TPR} = 1 - \frac{e^{-\varepsilon}}{4\,\text{FPR}}"
        r"\ \ (\tfrac{1}{2}e^{-\varepsilon} \le \text{FPR} \le \tfrac12),\ "
        r"\max(\text{TPR}-\text{FPR}) = 1 - e^{-\varepsilon/2};\quad "
        r"\text{Gauss: TPR} = \Phi\big(\Phi^{-1}(\text{FPR}) + \Delta/\sigma\big)"
    )
    st.latex(
        r"k:\ (k\varepsilon,\ k\delta);\quad "
        r"\big(\sqrt{2k\ln(1/\delta')}\,\varepsilon + k\varepsilon(e^{\varepsilon}-1),\ "
        r"k\delta + \delta'\big);\quad \text{Gauss: } \sigma \to \sigma/\sqrt{k};\quad "
        r"\text{zCDP: } \rho \to k\rho"
    )
    st.latex(
        r"\varepsilon'_{\text{opt}} = \min\Big\{\varepsilon' :\ "
        r"1 - (1-\delta)^k + (1-\delta)^k \sum_{l=0}^{k} \binom{k}{l}"
        r"\frac{\max\big(0,\ e^{(k-l)\varepsilon} - e^{\varepsilon'} e^{l\varepsilon}\big)}"
        r"{(1+e^{\varepsilon})^k} \le k\delta + \delta'\Big\}"
    )
    st.latex(
        r"\text{numpy: noise}(k) = b\ln(2U)\ (U < \tfrac12),\ "
        r"-b\ln(2 - 2U)\ (U \ge \tfrac12),\ U = k\,2^{-53};\quad "
        r"x \to y \iff \exists k:\ x \oplus \mathrm{noise}(k) = y"
    )
    st.markdown(_("attacker.formula.sources"))
