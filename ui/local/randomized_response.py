"""The randomized-response page: its fragment (the coins, the sample size, the guarantee and
the open section), its story and its closing words.

The page's pieces, one module each (prefix ``rr_``, as the page's widget keys):
rr_settings (constants, Coins, Survey, Settings), rr_presets (the teaching material's
examples), rr_controls (the examples' buttons, who answers, the coins or ε, the sample size),
one module per section named by its key: rr_coins, rr_survey (with rr_result, the drawn survey
and its export), rr_error, rr_central. This module calls story() with the page's
catalogue prefix, which the Workshop's links put the open section under.
"""

from __future__ import annotations

import streamlit as st

from ui.common.i18n import _
from ui.common.sections import Section, story
from ui.common.shell import formula_box, what_to_notice
from ui.common.turns import fragment
from ui.local.guarantee import local_guarantee_box
from ui.local.rr_central import local_vs_central
from ui.local.rr_coins import coin_game
from ui.local.rr_controls import asked, coin_controls, survey_controls
from ui.local.rr_error import error_against_n
from ui.local.rr_settings import PAGE, Settings, Survey
from ui.local.rr_survey import survey

__all__ = ["closing", "explore", "sections", "survey_controls"]


@fragment
def explore(survey: Survey | None, sections: list[Section]) -> None:
    """The coins (or ε), the sample size, the guarantee and the open section: a fragment, so a
    step of the coins reruns only this."""
    mode_area = st.container()  # the mode, and ε in "set ε" mode, above the three sliders
    left, middle, right = st.columns(3)
    with mode_area:
        coins = coin_controls(left, middle)
    n = n_yes = 0
    if survey is not None:
        n, n_yes = asked(survey, right)
        local_guarantee_box(
            None if survey.group else survey.respondents.data,
            coins.epsilon,
            count=n,
            answers=_("local.rr.answers"),
            reads=() if survey.group else survey.respondents.reads,
            follows=(coins.sliders, lambda *values: coins.at(*values).epsilon)
            if coins.sliders
            else None,
        )
    story(PAGE, sections, Settings(coins, survey, n, n_yes))


def sections() -> list[Section]:
    """The page's story."""
    return [
        Section("coins", _("local.rr.section.coins"), coin_game),
        Section("survey", _("local.rr.section.survey"), survey),
        Section("error", _("local.rr.section.error"), error_against_n),
        Section("central", _("local.rr.section.central"), local_vs_central),
    ]


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice(
        [_("local.rr.notice.deniable"), _("local.rr.notice.coins"), _("local.rr.notice.root_n")]
    )
    formula_box("randomized_response", _formulas)


def _formulas() -> None:
    """The formulas behind the page, with their sources; the answers in the reader's words."""
    yes, no = _("local.rr.yes"), _("local.rr.no")

    def latex(formula: str) -> None:
        st.latex(
            formula.replace(r"\text{yes}", rf"\text{{{yes}}}").replace(
                r"\text{no}", rf"\text{{{no}}}"
            )
        )

    latex(
        r"p = P(\text{yes}\mid\text{yes}) = t + (1-t)\,y,\qquad "
        r"q = P(\text{yes}\mid\text{no}) = (1-t)\,y"
    )
    latex(
        r"\varepsilon = \max\left(\ln\frac{p}{q},\ \ln\frac{1-q}{1-p}\right),\qquad "
        r"t = \tanh(\varepsilon/2),\ y = \tfrac12 \iff p = \frac{e^\varepsilon}"
        r"{1+e^\varepsilon}"
    )
    latex(
        r"\hat n_{\text{yes}} = \frac{\#\text{yes} - n\,q}{p - q}\ "
        r"\overset{t = y = \frac12}{=}\ 2(\#\text{yes} - n/4),\qquad "
        r"\operatorname{Var} = \frac{n_{\text{yes}}\,p(1-p) + n_{\text{no}}\,q(1-q)}{(p-q)^2}"
    )
    st.markdown(_("local.rr.sources"))
