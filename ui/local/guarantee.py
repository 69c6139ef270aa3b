"""What a local-DP survey guarantees, and which noise the page's draws are."""

from __future__ import annotations

import math

import streamlit as st

from dp_core.guarantee import Part
from ui.common.release import guarantee, guarantee_box
from ui.local.inputs import Respondents

LOCAL_NOISE = (
    "Noise: numpy's draws from the seed in the sidebar, for teaching: the same seed and "
    "settings give the same survey, and each new setting asks everyone again. A real survey "
    "asks once, and each person randomizes their own answer before it leaves their hands, so "
    "nobody, the collector included, ever sees a true answer."
)


def local_guarantee_box(
    respondents: Respondents, epsilon: float, *, count: int, answers: str
) -> None:
    """The guarantee of the survey's answers (local DP), or why there is none.

    Each person's report alone is ε-DP for their value; the reports of different persons
    use independent coins, so the whole set of reports is ε-DP for each person too.
    """
    if math.isinf(epsilon):
        st.error(
            "**No guarantee: ε = ∞.** Some answer can come from one truth and never from the "
            "other, so that answer gives its person away.",
            icon=":material/gpp_bad:",
        )
        return
    if epsilon == 0:
        st.info(
            "**ε = 0:** the answers are the same whatever the truth, so they protect everyone "
            "perfectly and say nothing at all.",
            icon=":material/verified_user:",
        )
        return
    outputs = f"{count:,} {answers}, each randomized by its own person (local DP)"
    guarantee_box(
        respondents.data,
        guarantee(respondents.data, [Part("values", epsilon)]),
        outputs=outputs,
        noise=LOCAL_NOISE,
    )
