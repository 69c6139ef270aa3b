"""Which categories a release shows: public, declared by the user, or chosen with DP.

Released labels are part of a release. A shipped dataset's categories are public (its
registry entry and card list them). For the user's own file they are either declared (typed
or pasted: values outside are dropped, declared categories absent from the file are released
as noisy zeros) or chosen with DP partition selection (dp_core.partition_selection), whose
(ε, δ) is part of the guarantee. For a data path (read where it lies) the values and the
distinct persons per category come from the engine (data.sources): only those counts reach
the app.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
import streamlit as st

from data import sources
from data.sources.frame_statistics import text_keys
from dp_core import domains, partition_selection, release
from dp_core.bounding import Bounding
from ui.common import folding
from ui.common.address import assign, current, linked, publish
from ui.common.data_picker import DataChoice
from ui.common.errors import show_error, translated
from ui.common.folding import note
from ui.common.formatting import count, fixed, number, power_of_ten
from ui.common.i18n import N_, _
from ui.common.setting import Choice, Flag, Text
from ui.common.shell import DEFAULT_SEED
from ui.common.widgets import delta_input, delta_setting, epsilon_input, epsilon_setting

Mode = Literal["public", "declared", "selected"]
MODES = {  # message ids
    "declared": N_("common.categories.mode.declared"),
    "selected": N_("common.categories.mode.selected"),
}


@dataclass(frozen=True)
class Categories:
    """The released labels and how they were chosen (with the budget a DP choice spent)."""

    mode: Mode
    labels: tuple[str, ...]
    epsilon: float = 0.0  # spent on choosing them ("selected" only)
    delta: float = 0.0
    from_file: bool = False  # declared by "Start from the values in my file": read from the data

    @property
    def reads(self) -> tuple[str, ...]:
        """("categories",) when they were read from the data, for dp_core.guarantee."""
        return ("categories",) if self.from_file else ()


def _path_totals(data: DataChoice, column: str) -> sources.CappedTotals:
    """Rows per category of a data path (text labels, sorted), counted by the engine."""
    return sources.capped_totals(data.origin, sources.CappedRequest(None, category=column))


def _filled(key: str) -> Flag:
    """Whether the declared list holds values filled in from the file: from the press of
    "Start from the values in my file" (kept in the address, so a link says so too) until
    the box is emptied. Edits in between keep it: what is left was still read off the data."""
    return Flag(f"{key}_filled", on="1")


def _fill_from_file(key: str, data: DataChoice, frame: pd.DataFrame | None, column: str) -> None:
    if frame is None:
        values = _path_totals(data, column).totals.index
    else:
        values = domains.category_keys(frame[column]).dropna().unique()
    assign({key: "\n".join(sorted(map(str, values))), _filled(key).key: True})


def _rows_outside(data: DataChoice, frame: pd.DataFrame | None, column: str, labels) -> tuple:
    """Rows with an undeclared value, and how many such values (never which)."""
    if frame is None:
        over = _path_totals(data, column).over(labels, with_value=False)
    else:
        over = domains.counts_over_domain(frame[column], labels)
    return over.rows_outside, over.distinct_outside


def _declared(
    key: str,
    data: DataChoice,
    frame: pd.DataFrame | None,
    column: str,
    *,
    selection: bool = True,
) -> Categories | None:
    text = linked(
        Text(key, longest=20_000),
        st.text_area,
        _("common.categories.declared.label", column=column),
        context=(data.link_key, column),
        height=120,
        placeholder=_("common.categories.declared.placeholder"),
        help=_("common.categories.declared.help"),
    )
    if folding.folded() is None:
        st.button(
            _("common.categories.fill"),
            key=f"{key}__fill",
            on_click=_fill_from_file,
            args=(key, data, frame, column),
            help=_("common.categories.fill.help"),
        )
    filled = _filled(key)
    from_file = bool(text.strip()) and current(filled, context=(data.link_key, column))
    st.session_state[filled.key] = from_file  # an empty box starts afresh
    publish(filled, from_file)
    if not text.strip():
        if selection:
            st.info(_("common.categories.type_or_select"))
        else:
            st.info(_("common.categories.type"))
        return None
    try:
        labels = domains.parse_declared_categories(text)
    except ValueError as error:
        show_error(_("common.categories.cannot_use", error=translated(error)), error)
        return None
    try:
        outside, distinct = _rows_outside(data, frame, column, labels)
    except ValueError as error:
        show_error(_("common.categories.cannot_count", error=translated(error)), error)
        return None
    if outside:  # a central release drops them; a local answer, a model or a synthetic
        # table counts them as holding none of the categories (no row is left out)
        message = (
            N_("common.categories.outside") if selection else N_("common.categories.outside_none")
        )
        note(_(message, rows=count(outside), values=count(distinct)))
    return Categories("declared", labels, from_file=from_file)


def _person_counts(
    data: DataChoice, frame: pd.DataFrame | None, column: str, person: str | None, l0: int
) -> pd.Series:
    """Distinct persons per category (label), each person in at most ``l0`` categories.

    In memory: the rows given, already capped. A data path: the engine's distinct persons per
    category once each person keeps a seeded random ``l0`` of their categories
    (data.sources.bounded_statistics' bounded_persons); rows when each row is a person.
    """
    if frame is not None:
        return partition_selection.distinct_person_counts(frame, column, person, max_partitions=l0)
    if person is None:
        counts = sources.category_counts(data.origin, column).counts
        return (
            pd.Series(counts["rows"].to_numpy(), index=pd.Index(counts["label"], name=column))
            .groupby(level=0)
            .sum()
        )
    seed = int(st.session_state.get("seed", DEFAULT_SEED))
    stats = sources.bounded_statistics(
        data.origin, Bounding(l0, 1), person=person, group=column, seed=seed
    )
    kind = sources.schema(data.origin).column(column, "category").kind
    labels = text_keys(pd.Series(stats.answers.index), kind)
    persons = pd.Series(stats.answers["bounded_persons"].to_numpy(), index=labels.to_numpy())
    persons = persons.groupby(level=0).sum()
    return persons[persons > 0].rename_axis(column).astype(np.int64)


def _persons_in(
    frame: pd.DataFrame | None, column: str, person: str | None, labels: list, counts: pd.Series
) -> int:
    """Distinct persons with a row in any of ``labels`` (rows when each row is a person). A data
    path gives persons per category only: their sum, which counts a person once per category
    (at most that many persons; the caption says so)."""
    if not labels:
        return 0
    if frame is None:
        return int(counts.loc[labels].sum())
    keys = domains.category_keys(frame[column]).to_numpy()  # positions: frame has gaps
    inside = frame[np.isin(keys, [str(label) for label in labels])]
    return int(len(inside) if person is None else inside[person].nunique())


def _selected(
    key: str, data: DataChoice, frame: pd.DataFrame | None, column: str, person: str | None,
    cap: int, *, secure: bool, rng: np.random.Generator,
) -> Categories | None:  # fmt: skip
    cols = folding.columns(2)
    with cols[0]:
        epsilon = epsilon_input(
            epsilon_setting(f"{key}_eps", 0.5), label=_("common.categories.selection.epsilon")
        )
    with cols[1]:
        delta = delta_input(
            delta_setting(f"{key}_delta", 1e-6), label=_("common.categories.selection.delta")
        )
    l0 = cap if person is not None else 1
    try:
        counts = _person_counts(data, frame, column, person, l0)
        labels = [str(label) for label in counts.index]
        if secure:
            chosen = release.threshold_release(
                labels, counts.to_numpy(), epsilon=epsilon, delta=delta, max_partitions=l0
            )
            kept, tau, spent = chosen.labels, chosen.threshold, (chosen.epsilon, chosen.delta)
        else:
            chosen = partition_selection.select_partitions(
                rng, labels, counts.to_numpy(), epsilon=epsilon, delta=delta, max_partitions=l0
            )
            kept, tau, spent = chosen.labels, chosen.threshold, (epsilon, delta)
    except ValueError as error:
        show_error(_("common.categories.cannot_select", error=translated(error)), error)
        return None
    suppressed = [label for label in labels if label not in set(kept)]
    values = {
        "kept": count(len(kept)),
        "total": count(len(labels)),
        "scale": number(l0 / epsilon),
        "l0": count(l0),
        "tau": fixed(tau, 1),
        "suppressed": count(len(suppressed)),
        "persons": count(_persons_in(frame, column, person, suppressed, counts)),
        "epsilon": number(spent[0]),
        "delta": power_of_ten(spent[1]),
    }
    if frame is not None:  # distinct persons; a data path counts them per category only
        note(_("common.categories.selected", **values))
    else:
        note(_("common.categories.selected_path", **values))
    if not kept:
        st.warning(_("common.categories.none_kept"))
        return None
    return Categories("selected", tuple(kept), *spent)


def mode_setting(page: str) -> Choice:
    """Whether the categories are declared or selected with DP."""
    return Choice(f"{page}_cats_mode", "declared", options=tuple(MODES))


def pick_categories(
    page: str,
    data: DataChoice,
    column: str,
    *,
    frame: pd.DataFrame | None,
    cap: int,
    rng: np.random.Generator,
    secure: bool = False,
    selection: bool = True,
) -> Categories | None:
    """The categories to release for ``column``; None (after a message) while there are none.

    ``frame`` holds the rows after the cap on rows per person (None for a data path: the
    engine counts); ``selection`` offers DP partition selection (not on local-DP pages, where
    every person must know the categories before answering).
    """
    public = data.dataset.domains.get(column)
    if public is not None:
        return Categories("public", public)
    key = f"{page}_cats"
    modes = list(MODES) if selection else ["declared"]
    if selection:
        why = _("common.categories.mode.help_select")
    else:
        why = _("common.categories.mode.help_declare")
    mode = linked(
        mode_setting(page),
        st.radio,
        _("common.categories.mode.label", column=column),
        labels={option: _(MODES[option]) for option in modes},
        context=(data.link_key, column),
        horizontal=True,
        help=why,
    )
    if mode == "declared":
        return _declared(key, data, frame, column, selection=selection)
    return _selected(key, data, frame, column, data.person, cap, secure=secure, rng=rng)
