"""The bounding page's closing: what to notice, and the formulas with their sources."""

from __future__ import annotations

import streamlit as st

from ui.bounding.words import Words
from ui.common.i18n import _
from ui.common.shell import formula_box, what_to_notice


def closing(words: Words) -> None:
    """What to notice, and the formula with its sources."""
    nouns = words.nouns()
    what_to_notice(
        [
            _("bounding.notice.cap", **nouns),
            _("bounding.notice.clipping", **nouns),
            _("bounding.notice.pre_aggregation", **nouns),
            _("bounding.notice.first", **nouns),
            _("bounding.notice.accounting", **nouns),
            _("bounding.notice.gaussian", **nouns),
            _("bounding.notice.star"),
        ]
    )
    formula_box("bounding", lambda: _formulas(words))


def _formulas(words: Words) -> None:
    """The formulas behind the page, with their sources."""
    st.latex(
        r"\Delta_\infty^{\text{count}} = \ell_\infty,\quad "
        r"\Delta_1^{\text{count}} = \ell_0\,\ell_\infty,\quad "
        r"\Delta_2^{\text{count}} = \sqrt{\ell_0}\,\ell_\infty"
    )
    st.latex(
        r"\Delta_\infty^{\text{sum}} = \ell_\infty \max(|L|,|U|)\ \ "
        r"(\text{pre-aggregated: } \max(|L|,|U|)),\quad "
        r"\Delta_1^{\text{sum}} = \ell_0\,\Delta_\infty^{\text{sum}}"
    )
    st.latex(
        r"\text{kept at cap } c = \sum_k n_k \min(k, c),\qquad "
        r"\mathrm{RMSE} = \sqrt{\mathrm{bias}^2 + \mathrm{Var}_{\text{sel}} + "
        r"\mathrm{Var}_{\text{noise}}},\ "
        r"\mathrm{Var}_{\text{noise}} = 2b^2,\ b = \Delta_1 / \varepsilon\ \text{(Laplace)}"
    )
    st.latex(
        r"\mathrm{Var}_{\text{noise}} = \sigma^2:\ \text{the smallest } \sigma \text{ with } "
        r"\Phi\!\left(\tfrac{\Delta_2}{2\sigma} - \tfrac{\varepsilon\sigma}{\Delta_2}\right)"
        r" - e^{\varepsilon}\,\Phi\!\left(-\tfrac{\Delta_2}{2\sigma} - "
        r"\tfrac{\varepsilon\sigma}{\Delta_2}\right) \le \delta\ \text{(analytic Gaussian)}"
    )
    st.latex(
        r"\mathrm{Var}_{\text{sel}}(g) = \sum_{u \in g} \pi_u \operatorname{Var}(Y_u) + "
        r"\pi_u (1 - \pi_u)\, E[Y_u]^2,\quad \pi_u = \min(1, \ell_0 / k_u)"
        r"\quad\Big(= \sum_{u \in g} p_u (1 - p_u)\, v_u^2 \text{ with one record per unit}"
        r"\Big)"
    )
    st.latex(
        r"\varepsilon_{\text{week}} = \sum_{d=1}^{7} \varepsilon_d \ \ "
        r"\text{(sequential)},\qquad "
        r"\varepsilon_{\text{week}} = \min(\ell_0, 7)\,\varepsilon_d\ \ "
        r"\text{(a person is in at most } \ell_0 \text{ days)};\ "
        r"\delta \text{ adds up the same way}"
    )
    st.latex(
        r"\mu = \sqrt{\ell_0}\,\Delta / \sigma\ \ \text{(}\ell_0\text{ Gaussians composed "
        r"exactly)},\qquad "
        r"P(c) \propto \exp\!\Big(\frac{\varepsilon\,\mathrm{score}(c)}{2\Delta}\Big),\ "
        r"\mathrm{score}(c) = -\big|(1 - \alpha)\,\#(x < c) - \alpha\,\#(x > c)\big|,\ "
        r"\Delta = m \max(\alpha, 1 - \alpha)"
    )
    st.markdown(_("bounding.formulas.notes", **words.nouns()))
