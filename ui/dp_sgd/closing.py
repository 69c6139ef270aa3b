"""The end of the DP-SGD page: what to notice, and the formulas with their sources."""

from __future__ import annotations

import streamlit as st

from ui.common import formatting
from ui.common.i18n import _
from ui.common.shell import formula_box, what_to_notice

# TF Privacy's MNIST tutorial: n = 60,000, B = 256, 60 epochs, sigma = 1.12, delta = 1e-5, and
# the epsilon it publishes (its RDP orders, the older conversion); what this page's accountants
# give for it (dp_core.dp_sgd.sgd_epsilon, rounded). tests/test_dp_sgd.py computes all three.
MNIST_SIGMA, MNIST_PUBLISHED = 1.12, 2.92
MNIST_EPSILONS = {"rdp": 2.519, "pld": 2.31}


def closing() -> None:
    """What to notice, and the formulas with their sources."""
    what_to_notice(
        [
            _("dp_sgd.notice.rows"),
            _("dp_sgd.notice.every_step"),
            _("dp_sgd.notice.clip"),
            _("dp_sgd.notice.accountants"),
            _("dp_sgd.notice.attack"),
            _("dp_sgd.notice.inputs"),
        ]
    )
    formula_box("dp_sgd", _formulas)


def _formulas() -> None:
    """The formulas behind the page, with their sources (their words in the reader's language)."""
    st.latex(
        r"\tilde g = \sum_{i \in B_t} g_i \min\!\Bigl(1, \frac{C}{\lVert g_i \rVert_2}\Bigr)"
        r" + \mathcal{N}\!\bigl(0, \sigma^2 C^2 I\bigr),\qquad "
        r"w_{t+1} = w_t - \eta\,\tilde g / B"
    )
    st.caption(_("dp_sgd.formula.step"))
    st.latex(r"q = B / n,\qquad T = \lfloor E\,n / B \rfloor")
    st.caption(_("dp_sgd.formula.schedule"))
    st.latex(
        r"\varepsilon(\delta) = \min_{\alpha > 1} \Bigl[ T\,\varepsilon_\alpha(q, \sigma) + "
        r"\log\tfrac{\alpha - 1}{\alpha} - \tfrac{\log \delta + \log \alpha}{\alpha - 1} \Bigr]"
    )
    st.caption(_("dp_sgd.formula.rdp"))
    st.latex(
        r"\mathrm{TPR} - \mathrm{FPR} \le \frac{e^{\varepsilon} - 1 + 2\delta}{e^{\varepsilon} + 1}"
    )
    st.caption(_("dp_sgd.formula.attack"))
    st.markdown(
        _(
            "dp_sgd.formula.sources",
            sigma=formatting.number(MNIST_SIGMA),
            published=formatting.number(MNIST_PUBLISHED),
            rdp=formatting.number(MNIST_EPSILONS["rdp"]),
            pld=formatting.number(MNIST_EPSILONS["pld"]),
        )
    )
