"""Which noise a page uses, and what its release guarantees.

Teaching draws (the default) are numpy's floating-point noise from the page's seed: the same
seed and settings give the same chart anywhere, and moving ε rescales one standard draw so
the bars move smoothly. A secure release draws with OpenDP (dp_core.release) from the
operating system's randomness, once per setting: each is a new release that spends its own
budget. ``guarantee_box`` states the unit of privacy, the outputs covered and the budget.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

import streamlit as st

from dp_core.guarantee import Guarantee, Part
from ui.common.data_picker import DataChoice
from ui.common.formatting import number, power_of_ten
from ui.common.shell import presenter_mode

T = TypeVar("T")  # a release, or several held together (e.g. counts and sums)
PART_WORDS = {
    "values": "the {outputs}",
    "categories": "which categories are shown",
    "bounds": "the clipping bounds",
    "cap": "the cap on contributions",
    "count": "the noisy count",
    "selection": "the selected answer",
}


def secure_toggle(page: str) -> bool:
    """The "secure release" switch: off, teaching draws (numpy, seeded); on, OpenDP noise."""
    return st.toggle(
        "Secure release (OpenDP noise)",
        key=f"{page}_secure",
        help="Off: numpy's floating-point noise from the seed in the sidebar, reproducible and "
        "good for teaching, but attackable (see the attacker page). On: OpenDP's exact "
        "samplers with randomness from the operating system, as a real release must be.",
    )


def draws_caption(secure: bool, noise: str) -> str:
    """What the noisy values on the page are, in words."""
    if secure:
        return (
            f"Noise: {noise}, drawn once per setting from the operating system's randomness "
            "(not the seed). Each new setting is a new release that spends its own budget."
        )
    return (
        "Noise: numpy's floating-point draws from the seed in the sidebar, for teaching. "
        "Moving ε rescales one standard draw so the bars move smoothly; a real release draws "
        "once, and two values published at two ε would give the truth away. Switch on "
        "“Secure release” for OpenDP noise."
    )


def held_release(page: str, inputs: Hashable, make: Callable[[], T]) -> T:
    """The OpenDP release for these inputs, drawn once and held for the session.

    A rerun that does not change the inputs shows the same release (redrawing would publish
    again); "Release again" draws a new one.
    """
    store = st.session_state.setdefault(f"{page}__releases", {})
    again = st.session_state.get(f"{page}__release_again", 0)
    key = (inputs, again)
    if key not in store:
        store.clear()  # keep only the release on screen
        store[key] = make()
    return store[key]


def release_again_button(page: str) -> None:
    """A button that draws a new OpenDP release (spending the budget again)."""

    def again() -> None:
        st.session_state[f"{page}__release_again"] = (
            st.session_state.get(f"{page}__release_again", 0) + 1
        )

    st.button(
        "Release again (spends the budget again)",
        key=f"{page}__release_again_button",
        on_click=again,
        icon=":material/refresh:",
    )


def unit_words(data: DataChoice) -> str:
    """The unit of privacy in words: who the guarantee protects."""
    dataset = data.dataset
    if dataset.is_count_table:
        return "each row of the source table (not each person: one may stand behind several)"
    if dataset.person_id is None:
        if data.own:
            return "each row (each row is taken as a different person)"
        return f"each record ({dataset.contribution_rule})"
    return f"each person (`{dataset.person_id}`, with all their rows)"


def guarantee(data: DataChoice, parts: Sequence[Part]) -> Guarantee:
    """The page's release as parts composed for the data's unit of privacy."""
    return Guarantee(unit=data.person, parts=tuple(parts))


def _budget(epsilon: float, delta: float) -> str:
    return f"ε = {number(round(epsilon, 9))}" + (
        f", δ = {power_of_ten(delta)}" if delta > 0 else ""
    )


def guarantee_box(data: DataChoice, total: Guarantee, *, outputs: str, noise: str) -> None:
    """The guarantee label: unit, outputs covered, each part's budget and the noise used."""
    label = (
        f"({number(round(total.epsilon, 9))}, {power_of_ten(total.delta)})-DP"
        if total.delta > 0
        else f"{number(round(total.epsilon, 9))}-DP"
    )
    covered = "; ".join(
        f"{PART_WORDS[part.name].format(outputs=outputs)} ({_budget(part.epsilon, part.delta)})"
        for part in total.parts
    )
    statement = f"**Guarantee: {label}** for {unit_words(data)}. It covers {covered}" + (
        ", added up by basic composition." if len(total.parts) > 1 else "."
    )
    if presenter_mode():  # one line on a projector; the noise in the tooltip
        st.markdown(f":green[:material/verified_user: {statement}]", help=noise)
        return
    st.success(f"{statement}\n\n{noise}", icon=":material/verified_user:")
