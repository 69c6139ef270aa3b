"""Where the exponential mechanism's candidates come from, and what one person moves.

The candidates are part of the release, so they are never read off the data:
- a shipped dataset's category column: its public domain (data.registry Dataset.domains),
  categories absent from the data being candidates with count 0;
- the user's own CSV: a declared list, or one chosen with DP partition selection, whose
  (ε, δ) is added to the guarantee (ui.common.categories);
- typed counts: the names typed are the list.
Score = count per candidate; its sensitivity Δ is the most one person moves any one count.
Every table and chart lists the candidates by true count, largest first, ties by name
(``by_count``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import domains
from ui.common.address import linked
from ui.common.catalog import entry
from ui.common.categories import Categories, pick_categories
from ui.common.contributions import contribution_cap
from ui.common.data_picker import DataChoice, about, pick_data
from ui.common.errors import show_error, translated
from ui.common.formatting import count, number, power_of_ten
from ui.common.i18n import _
from ui.common.labels import category_labels, column_options
from ui.common.shell import page_rng
from ui.exponential.declared import COLUMN, DATASET, SOURCE, SOURCES, TYPED

PAGE = entry("exponential").prefix
PREFERRED_COLUMN = {"census": "occupation"}  # the teaching material's question


@dataclass(frozen=True)
class Candidates:
    """Names and true counts of the candidates, what one person moves, and where they came from.

    ``data`` is None for typed counts; ``categories`` says how the list was chosen (public,
    declared or DP-selected, with the budget the choice spent). ``labels`` are the data's own
    values (what the release names); ``names`` are how the page writes them in the reader's
    language (ui.common.labels: Grippe for Flu).
    """

    labels: tuple[str, ...]
    scores: tuple[float, ...]
    sensitivity: float
    note: str  # what one person changes, in words
    origin: str  # where the list of candidates comes from, in words
    data: DataChoice | None = None
    categories: Categories | None = None
    column: str = ""  # the category column of a shipped dataset, for display names
    reads: tuple[str, ...] = ()  # what was read from the data without noise (dp_core.guarantee)

    @property
    def names(self) -> list[str]:
        """The candidates as the page writes them (translated categories of shipped data)."""
        return category_labels(self.column, self.labels) if self.column else list(self.labels)

    @property
    def counts(self) -> np.ndarray:
        return np.array(self.scores, dtype=float)

    @property
    def selected(self) -> Categories | None:
        """The DP category choice, when the candidates were chosen with DP."""
        chosen = self.categories
        return chosen if chosen is not None and chosen.mode == "selected" else None


def _name_key(label: str) -> tuple:
    """A name's place among equal counts: numbers in it by value ("2" before "10")."""
    parts = re.split(r"(\d+)", label)  # text, digits, text, …: the digits at odd places
    return tuple(int(part) if i % 2 else part for i, part in enumerate(parts))


def by_count(
    labels: tuple[str, ...], scores: tuple[float, ...]
) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """The candidates by true count, largest first, ties by name.

    By the data's own values, not the translated names: the order, and so the sampled runs of
    a seed, are the same in every language.
    """
    order = sorted(range(len(labels)), key=lambda i: (-scores[i], _name_key(labels[i])))
    return tuple(labels[i] for i in order), tuple(scores[i] for i in order)


def parse_typed_counts(text: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """Parse "A=10, B=10, C=5" (or "10, 10, 5"); ValueError with a readable sentence."""
    items = [item.strip() for item in str(text).split(",") if item.strip()]
    if not items:
        raise ValueError(_("exponential.typed.none"))
    labels, counts = [], []
    for position, item in enumerate(items, start=1):
        name, _sep, value = item.rpartition("=")
        try:
            value = float(value)
        except ValueError:
            raise ValueError(_("exponential.typed.not_a_count", item=item)) from None
        if not np.isfinite(value) or value < 0:
            raise ValueError(_("exponential.typed.negative", item=item))
        labels.append(name.strip() or _("exponential.typed.unnamed", position=position))
        counts.append(value)
    if len(set(labels)) < len(labels):
        raise ValueError(_("exponential.typed.same_name"))
    return tuple(labels), tuple(counts)


def pick_candidates() -> Candidates | None:
    """The widgets that choose the candidates (they rerun the page); None after a message."""
    source = linked(
        SOURCE,
        st.radio,
        _("exponential.source.label"),
        labels={key: _(msgid) for key, msgid in SOURCES.items()},  # translated in the run
        horizontal=True,
    )
    if source == "typed":
        return _typed()
    data = pick_data(PAGE, DATASET)
    if data is None:
        return None
    about(data)
    return _from_data(data)


def _typed() -> Candidates | None:
    text = linked(TYPED, st.text_input, _("exponential.typed.label"))
    try:
        labels, scores = parse_typed_counts(text)
    except ValueError as error:
        show_error(_("exponential.typed.error", error=translated(error)), error)
        return None
    labels, scores = by_count(labels, scores)
    return Candidates(
        labels,
        scores,
        1.0,
        note=_("exponential.note.typed"),
        origin=_("exponential.origin.typed"),
    )


def _from_data(data: DataChoice) -> Candidates | None:
    dataset = data.dataset
    if not dataset.categorical:
        st.error(_("exponential.data.no_column"))
        return None
    columns = list(dataset.categorical)
    preferred = PREFERRED_COLUMN.get(data.source, columns[0])
    column = linked(  # afresh for each dataset, from its preferred column
        replace(COLUMN, default=preferred),
        st.selectbox,
        _("exponential.data.column"),
        labels=column_options(columns, shipped=not data.own),
        context=data.link_key,
    )
    capped = contribution_cap(PAGE, data)
    frame, cap = capped.frame, capped.cap
    categories = pick_categories(
        PAGE, data, column, frame=frame, cap=cap, rng=page_rng(PAGE, "categories")
    )
    if categories is None:
        return None
    try:
        counts = _counts(
            (data.source, data.person, cap), column, dataset.count_column, categories.labels, frame
        )
    except ValueError as error:
        show_error(_("exponential.data.count_error", error=translated(error)), error)
        return None
    if counts.rows_outside and categories.mode == "selected":  # declared: said where declared
        st.caption(_("exponential.data.outside", rows=count(counts.rows_outside)))
    per_category = dataset.max_rows_per_category.get(column)
    sensitivity = float(min(cap, per_category) if per_category else cap)
    absent = int(np.sum(counts.counts == 0))
    labels, scores = by_count(tuple(counts.labels), tuple(float(c) for c in counts.counts))
    return Candidates(
        labels,
        scores,
        sensitivity,
        note=_note(data, cap, sensitivity),
        origin=_origin(categories, column, absent),
        data=data,
        categories=categories,
        column="" if data.own else column,
        reads=capped.reads + categories.reads,
    )


@st.cache_data(show_spinner=False, max_entries=32)
def _counts(
    rows: tuple,
    column: str,
    count_column: str | None,
    labels: Sequence[str],
    _frame: pd.DataFrame,
) -> domains.DomainCounts:
    """The candidates' counts, once for every session: ``rows`` names the rows of ``_frame``
    (the data's source, its person column and cap, as ui.common.contributions keeps them)."""
    weights = _frame[count_column] if count_column else None
    return domains.counts_over_domain(_frame[column], labels, weights)


def _note(data: DataChoice, cap: int, sensitivity: float) -> str:
    """What adding or removing one person (or row) does to the counts, in words."""
    dataset, person = data.dataset, data.person
    if dataset.is_count_table:
        return _("exponential.note.count_table")
    if person is None and data.own:
        return _("exponential.note.own_rows")
    if person is None:
        return _("exponential.note.records")
    if sensitivity < cap:
        return _("exponential.note.rule", rule=dataset.contribution_rule, delta=number(sensitivity))
    if cap == 1:
        return _("exponential.note.one_row")
    return _("exponential.note.cap", person=person, cap=count(cap))


def _origin(categories: Categories, column: str, absent: int) -> str:
    """Where the list of candidates comes from, in words (the list is part of the release;
    one filled in from the file was read from the data, which the guarantee says)."""
    zeros = _("exponential.origin.absent", n=count(absent)) if absent else ""
    if categories.mode == "public":
        return _("exponential.origin.public", column=column, zeros=zeros)
    if categories.from_file:
        return _("exponential.origin.read_off")
    if categories.mode == "declared":
        return _("exponential.origin.declared", zeros=zeros)
    return _(
        "exponential.origin.selected",
        epsilon=number(categories.epsilon),
        delta=power_of_ten(categories.delta),
    )
