"""What a local-DP survey guarantees, and which noise the page's draws are.

Each person's report alone is ε-DP for their value; the reports of different persons use
independent coins, so the whole set of reports is ε-DP for each person too. The persons are
those of a dataset (the unit of privacy as the data picker states it) or a described group
(each respondent, one answer each).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from dp_core.guarantee import Part
from ui.common import live
from ui.common.data_picker import DataChoice
from ui.common.formatting import count as grouped
from ui.common.formatting import epsilon as shown_epsilon
from ui.common.formatting import epsilon_bound
from ui.common.i18n import _
from ui.common.live import Stops
from ui.common.release import (
    guarantee,
    guarantee_text,
    said_box,
    said_guarantee,
    unit_words,
)


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


def rounded_up(epsilon: float) -> str:
    """Why the guarantee can read above the ε shown beside it (2.198-DP beside 2.197): its ε is
    a bound, rounded up; "" where the two read alike."""
    shown, bound = shown_epsilon(epsilon), epsilon_bound(epsilon)
    if shown == bound:
        return ""
    return _("local.guarantee.rounded_up", epsilon=shown, bound=bound)


def _outputs(count: int, answers: str) -> str:
    return _("local.guarantee.outputs", count=grouped(count), answers=answers)


def local_guarantee_box(
    data: DataChoice | None,
    epsilon: float,
    *,
    count: int,
    answers: str,
    reads: tuple[str, ...] = (),
    follows: tuple[Sequence[Stops], Callable[..., float]] | None = None,
) -> None:
    """The guarantee of the survey's answers (local DP), or why there is none. ``follows``:
    the sliders that set ε and ε at given values of them, for a box that follows their
    thumbs (ui.common.live)."""
    noise = _("local.guarantee.noise")
    follow = None
    if follows is not None:
        sliders, at = follows
        follow = sliders, lambda *v: _said(data, at(*v), count, answers, reads, noise)
    said_box(
        _said(data, epsilon, count, answers, reads, noise),
        noise=noise,
        follows=follow,
        depends=(None if data is None else data.source, count, answers, reads),
    )


def _said(
    data: DataChoice | None,
    epsilon: float,
    count: int,
    answers: str,
    reads: tuple[str, ...],
    noise: str,
) -> live.Said:
    """The guarantee at ε: its label, an error box where the answers are the truth (ε = ∞),
    an information box where they say nothing (ε = 0)."""
    if math.isinf(epsilon):
        return "error", _("local.guarantee.infinite")
    if epsilon == 0:
        return "info", _("local.guarantee.zero")
    outputs = _outputs(count, answers)
    if data is not None:
        total = guarantee(data, [Part("values", epsilon)], reads)
        return said_guarantee(data, total, outputs=outputs, noise=noise)
    return local_guarantee_text(None, epsilon, count=count, answers=answers)
