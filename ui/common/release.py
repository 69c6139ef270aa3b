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

from dp_core.guarantee import Guarantee, Part, Read
from ui.common import live
from ui.common.address import linked
from ui.common.data_picker import DataChoice
from ui.common.formatting import epsilon_bound, power_of_ten
from ui.common.i18n import N_, _, sentences
from ui.common.labels import contribution_rule
from ui.common.live import Stops
from ui.common.setting import Flag
from ui.common.shell import compact

T = TypeVar("T")  # a release, or several held together (e.g. counts and sums)
PART_WORDS = {  # message ids; "values" has an {outputs} placeholder
    "values": N_("common.part.values"),
    "categories": N_("common.part.categories"),
    "bounds": N_("common.part.bounds"),
    "cap": N_("common.part.cap"),
    "count": N_("common.part.count"),
    "selection": N_("common.part.selection"),
}


def secure_toggle(page: str) -> bool:
    """The "secure release" switch: off, teaching draws (numpy, seeded); on, OpenDP noise."""
    return linked(
        Flag(f"{page}_secure"), st.toggle, _("common.secure.label"), help=_("common.secure.help")
    )


def draws_caption(secure: bool, noise: str) -> str:
    """What the noisy values on the page are, in words."""
    if secure:
        return _("common.noise.secure", noise=noise)
    return _("common.noise.teaching")


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
        _("common.release_again"),
        key=f"{page}__release_again_button",
        on_click=again,
        icon=":material/refresh:",
    )


def unit_words(data: DataChoice) -> str:
    """The unit of privacy in words: who the guarantee protects."""
    dataset = data.dataset
    if dataset.is_count_table:
        return _("common.unit.source_row")
    if dataset.person_id is None:
        if data.own:
            return _("common.unit.own_row")
        return _("common.unit.record", rule=contribution_rule(dataset))
    return _("common.unit.person", column=dataset.person_id)


READ_WORDS = {  # what was read from the data, and how to fix it in advance: message ids
    "cap": N_("common.read.cap"),
    "bounds": N_("common.read.bounds"),
    "categories": N_("common.read.categories"),
    "rows": N_("common.read.rows"),
}


def guarantee(data: DataChoice, parts: Sequence[Part], reads: Sequence[Read] = ()) -> Guarantee:
    """The page's release as parts composed for the data's unit of privacy, with what it
    read from the data without noise (then it is not differentially private)."""
    return Guarantee(unit=data.person, parts=tuple(parts), read_from_data=tuple(reads))


def _budget(epsilon: float, delta: float) -> str:
    return f"ε = {epsilon_bound(epsilon)}" + (f", δ = {power_of_ten(delta)}" if delta > 0 else "")


def guarantee_text(data: DataChoice, total: Guarantee, *, outputs: str) -> str:
    """The guarantee in one sentence: unit, outputs covered and each part's budget."""
    label = (
        f"({epsilon_bound(total.epsilon)}, {power_of_ten(total.delta)})-DP"
        if total.delta > 0
        else f"{epsilon_bound(total.epsilon)}-DP"
    )
    covered = "; ".join(
        f"{_(PART_WORDS[part.name], outputs=outputs)} ({_budget(part.epsilon, part.delta)})"
        for part in total.parts
    )
    values = {"label": label, "unit": unit_words(data), "covered": covered}
    if not total.differentially_private:
        reads = [_(READ_WORDS[read]) for read in total.read_from_data]
        return sentences(_("common.guarantee.not_dp", **values), *reads)
    if len(total.parts) > 1:
        return _("common.guarantee.composed", **values)
    return _("common.guarantee", **values)


def said_guarantee(data: DataChoice, total: Guarantee, *, outputs: str, noise: str) -> live.Said:
    """The guarantee label at a stop of a live box (``guarantee_box``); where there is no
    guarantee, the statement that says so in an error box, as the server draws it."""
    statement = guarantee_text(data, total, outputs=outputs)
    if total.differentially_private:
        return statement
    return "error", statement if compact() else f"{statement}\n\n{noise}"  # a projector, a phone


def _said_at(
    data: DataChoice, found: Guarantee | tuple[str, str], *, outputs: str, noise: str
) -> live.Said:
    if isinstance(found, tuple):
        return found
    return said_guarantee(data, found, outputs=outputs, noise=noise)


def guarantee_box(
    data: DataChoice,
    total: Guarantee,
    *,
    outputs: str,
    noise: str,
    follows: tuple[Sequence[Stops], Callable[..., Guarantee | tuple[str, str]]] | None = None,
    depends: Hashable = (),
) -> None:
    """The guarantee label: unit, outputs covered, each part's budget and the noise used.

    ``follows``: the page's sliders and the guarantee at given values of them, for a label
    that follows their thumbs while they are dragged (ui.common.live); at a stop where the
    page draws another box instead (a warning), (style, sentence) for it; ``depends``: what
    else that reads (as for ui.common.live.text). Where the values in use give no guarantee,
    the server's box stands still.
    """
    follow = None
    if follows is not None:
        sliders, at = follows
        follow = sliders, lambda *v: _said_at(data, at(*v), outputs=outputs, noise=noise)
    said_box(
        said_guarantee(data, total, outputs=outputs, noise=noise),
        noise=noise,
        follows=follow,
        # every part's budget is in the sentence at every stop: the memo's check sees them
        depends=(data.source, outputs, total.read_from_data, depends),
    )


def said_box(
    said: live.Said,
    *,
    noise: str,
    follows: tuple[Sequence[Stops], Callable[..., live.Said]] | None = None,
    depends: Hashable = (),
) -> None:
    """A guarantee's box from its sentence: red (or blue) where there is no guarantee, which
    stands still; else green, with the noise used, and following the sliders' thumbs when
    ``follows`` gives them and the sentence at given values of them (``depends``: what else
    that sentence reads)."""
    if live.box(said):  # never shown as a guarantee, not even in one line
        return
    one_line = compact()
    if follows is not None:
        sliders, at = follows
        live.text(
            sliders,
            at,
            key=f"{sliders[0].key}_guarantee",
            depends=(depends, noise, one_line),
            style="success-line" if one_line else "success",
            note=noise,
        )
        return
    if one_line:  # one line on a projector or a following phone; the noise in the tooltip
        st.markdown(f":green[:material/verified_user: {said}]", help=noise)
        return
    st.success(f"{said}\n\n{noise}", icon=":material/verified_user:")
