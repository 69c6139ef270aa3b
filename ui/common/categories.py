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
from data.sources.pandas_engine import text_keys
from dp_core import domains, partition_selection, release
from dp_core.bounding import Bounding
from ui.common.data_picker import DataChoice
from ui.common.formatting import counted, number, power_of_ten
from ui.common.shell import DEFAULT_SEED
from ui.common.widgets import delta_input, epsilon_input

Mode = Literal["public", "declared", "selected"]
MODES = {
    "declared": "I declare them (a public list)",
    "selected": "Choose them with DP (partition selection)",
}


@dataclass(frozen=True)
class Categories:
    """The released labels and how they were chosen (with the budget a DP choice spent)."""

    mode: Mode
    labels: tuple[str, ...]
    epsilon: float = 0.0  # spent on choosing them ("selected" only)
    delta: float = 0.0


def _path_totals(data: DataChoice, column: str) -> sources.CappedTotals:
    """Rows per category of a data path (text labels, sorted), counted by the engine."""
    return sources.capped_totals(data.origin, sources.CappedRequest(None, category=column))


def _fill_from_file(key: str, data: DataChoice, frame: pd.DataFrame | None, column: str) -> None:
    if frame is None:
        values = _path_totals(data, column).totals.index
    else:
        values = domains.category_keys(frame[column]).dropna().unique()
    st.session_state[key] = "\n".join(sorted(map(str, values)))


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
    st.text_area(
        f"The categories of `{column}`, one per line (or separated by commas)",
        key=key,
        height=120,
        placeholder="e.g. Diabetes\nFlu\nHepatitis\nHIV",
        help="A public list, known before looking at the data: every one is released (absent "
        "ones as noisy zeros) and rows with other values are dropped.",
    )
    st.button(
        "Start from the values in my file",
        key=f"{key}__fill",
        on_click=_fill_from_file,
        args=(key, data, frame, column),
        help="For exploring. In a real release the list must come from outside the data "
        "(a code list, a questionnaire), since the values present in a file reveal it.",
    )
    text = st.session_state.get(key, "")
    if not text.strip():
        st.info(
            "Type the categories to release" + (", or let DP choose them." if selection else ".")
        )
        return None
    try:
        labels = domains.parse_declared_categories(text)
    except ValueError as error:
        st.error(f"Cannot use these categories: {error}")
        return None
    try:
        outside, distinct = _rows_outside(data, frame, column, labels)
    except ValueError as error:
        st.error(f"Cannot count these categories: {error}")
        return None
    if outside:
        st.caption(
            f"{outside:,} rows hold a value that is not declared "
            f"({counted(distinct, 'other value')}): they are dropped and their values are "
            "never shown."
        )
    return Categories("declared", labels)


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


def _selected(
    key: str, data: DataChoice, frame: pd.DataFrame | None, column: str, person: str | None,
    cap: int, *, secure: bool, rng: np.random.Generator,
) -> Categories | None:  # fmt: skip
    cols = st.columns(2)
    with cols[0]:
        epsilon = epsilon_input(f"{key}_eps", label="ε for choosing the categories", default=0.5)
    with cols[1]:
        delta = delta_input(f"{key}_delta", label="δ for choosing the categories", default=1e-6)
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
        st.error(f"Cannot choose the categories: {error}")
        return None
    suppressed = [label for label in labels if label not in set(kept)]
    persons_out = int(counts.loc[suppressed].sum()) if suppressed else 0
    st.caption(
        f"Kept {len(kept)} of {len(labels)} categories: each category's count of distinct "
        f"persons gets Laplace noise of scale {number(l0 / epsilon)} (l0 = {l0}: a person is in "
        f"at most {counted(l0, 'category', 'categories')}) and is kept if it reaches "
        f"τ = {tau:,.1f}. {counted(len(suppressed), 'category was', 'categories were')} "
        f"suppressed, holding {counted(persons_out, 'person')}, whose rows are left out of "
        f"every answer. Cost: ε = {number(spent[0])}, δ = {power_of_ten(spent[1])}, part of "
        "the guarantee below. (The suppressed numbers are for you, the data's owner: they "
        "are not part of the release.)"
    )
    if not kept:
        st.warning(
            "No category reached the threshold: nothing would be released. Raise ε or δ for "
            "the choice, or declare the categories."
        )
        return None
    return Categories("selected", tuple(kept), *spent)


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
    key = f"{page}_cats_{data.source}_{column}"
    modes = list(MODES) if selection else ["declared"]
    mode = st.radio(
        f"Which categories of `{column}` may the release show?",
        modes,
        format_func=MODES.get,
        key=f"{key}_mode",
        horizontal=True,
        help="The categories shown are part of the release: read off your file, the one person "
        "in a rare category would show through. "
        + ("Declare them, or let DP choose them." if selection else "Declare them."),
    )
    if mode == "declared":
        return _declared(key, data, frame, column, selection=selection)
    return _selected(key, data, frame, column, data.person, cap, secure=secure, rng=rng)
