"""What a local-DP survey guarantees, and which noise the page's draws are.

Each person's report alone is ε-DP for their value; the reports of different persons use
independent coins, so the whole set of reports is ε-DP for each person too. The persons are
those of a dataset (the unit of privacy as the data picker states it) or a described group
(each respondent, one answer each).
"""

from __future__ import annotations

import math

import streamlit as st

from dp_core.guarantee import Part
from ui.common.data_picker import DataChoice
from ui.common.formatting import count as grouped
from ui.common.formatting import epsilon_bound
from ui.common.i18n import _
from ui.common.release import guarantee, guarantee_box, guarantee_text, unit_words
from ui.common.shell import presenter_mode


def local_unit(data: DataChoice | None) -> str:
    """Who the guarantee protects: the data's unit, or each respondent of a described group."""
    return unit_words(data) if data is not None else _("local.guarantee.unit.respondent")


def local_guarantee_text(
    data: DataChoice | None,
    epsilon: float,
    *,
    count: int,
    answers: str,
    reads: tuple[str, ...] = (),
) -> str:
    """The guarantee in one sentence (finite ε > 0): unit, reports covered and ε; ``reads``:
    what was read from the data without noise (the categories asked about)."""
    outputs = _outputs(count, answers)
    if data is not None:
        total = guarantee(data, [Part("values", epsilon)], reads)
        return guarantee_text(data, total, outputs=outputs)
    return _(
        "local.guarantee.group",
        label=f"{epsilon_bound(epsilon)}-DP",  # a bound: rounded up, as the settings
        unit=local_unit(None),
        outputs=outputs,
    )


def _outputs(count: int, answers: str) -> str:
    return _("local.guarantee.outputs", count=grouped(count), answers=answers)


def local_guarantee_box(
    data: DataChoice | None,
    epsilon: float,
    *,
    count: int,
    answers: str,
    reads: tuple[str, ...] = (),
) -> None:
    """The guarantee of the survey's answers (local DP), or why there is none."""
    if math.isinf(epsilon):
        st.error(_("local.guarantee.infinite"), icon=":material/gpp_bad:")
        return
    if epsilon == 0:
        st.info(_("local.guarantee.zero"), icon=":material/verified_user:")
        return
    noise = _("local.guarantee.noise")
    if data is not None:
        total = guarantee(data, [Part("values", epsilon)], reads)
        guarantee_box(data, total, outputs=_outputs(count, answers), noise=noise)
        return
    statement = local_guarantee_text(None, epsilon, count=count, answers=answers)
    if presenter_mode():  # one line on a projector; the noise in the tooltip
        st.markdown(f":green[:material/verified_user: {statement}]", help=noise)
        return
    st.success(f"{statement}\n\n{noise}", icon=":material/verified_user:")
