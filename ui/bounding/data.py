"""The bounding page's data: the rows to bound and how to speak of them (BoundingData), and
what the page keeps of them from one run to the next.

``PAGE`` prefixes the page's widget and session-state keys; ``remembered`` keeps a value in
the session while its key stays; ``seed_and_draw`` names a teaching draw. The data are chosen
by ui.bounding.data_controls (a data path's by ui.bounding.paths).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

import pandas as pd
import streamlit as st

from data import sources
from dp_core.bounding.table import ContributionTable
from ui.bounding.words import Words
from ui.common.catalog import entry
from ui.common.categories import Categories
from ui.common.data_picker import DataChoice
from ui.common.i18n import _
from ui.common.labels import category_labels
from ui.common.shell import DEFAULT_SEED

T = TypeVar("T")
PAGE = entry("bounding").prefix


@dataclass(frozen=True)
class Preset:
    """A shipped dataset's columns and words (the person column: None, one row per person)."""

    person: str | None
    group: str
    value: str
    order: str | None
    words: Words


PRESETS = {
    "restaurant": Preset("visitor_id", "day", "money_spent", "day", Words("restaurant", True)),
    "census": Preset(None, "marital_status", "hours_per_week", None, Words("census")),
    "tips": Preset(None, "day", "total_bill", None, Words("tips")),
}
OWN_WORDS = Words("own")


@dataclass(frozen=True, eq=False)
class BoundingData:
    """The rows to bound (only those in the released groups, groups as text) and their words.

    ``value`` is None when no column can be summed (``value_error`` says why): counts only;
    ``summed`` is the column chosen all the same (None: there was none to choose).
    ``natural``: the value's range, public for shipped data, read from the file for the
    user's own (a leak the page states). For a data path ``frame`` is None and ``units``
    holds the engine's distinct contribution units; ``table`` is then their weighted
    contribution table, or None when there were too many distinct units to bring back.
    """

    data: DataChoice
    frame: pd.DataFrame | None
    person: str | None
    group: str
    value: str | None
    value_error: Exception | str | None  # a coded error, or a sentence of the page's own
    order: str | None
    categories: Categories
    words: Words
    natural: tuple[float, float] | None
    table: ContributionTable | None  # the rows reduced to contribution units
    histogram: pd.Series | None  # persons by number of groups (None: one row per person)
    units: sources.ContributionUnits | None = None  # a data path's units, from the engine
    summed: str | None = None  # the value column chosen, also when it cannot be summed

    @property
    def labels(self) -> tuple[str, ...]:
        return self.categories.labels

    @property
    def rows(self) -> int:
        """Rows in the released groups."""
        return len(self.frame) if self.units is None else self.units.rows

    @property
    def max_groups_per_person(self) -> int:
        if self.units is not None:
            return self.units.max_groups_per_person
        return self.table.max_groups_per_person

    @property
    def max_records_per_unit(self) -> int:
        if self.units is not None:
            return self.units.max_records_per_unit
        return self.table.max_records_per_unit

    @property
    def key(self) -> tuple:
        """Names these rows for caches: the source, the columns and the released groups."""
        return (self.data.source, self.person, self.group, self.value, self.order, self.labels)

    @property
    def sum_title(self) -> str:
        preset = PRESETS.get(self.data.source)
        if self.words.sum_word and preset and self.value == preset.value:
            return self.words.sum_word
        return _("bounding.data.sum_of", column=self.value)

    @property
    def shown_labels(self) -> list[str]:
        """The released groups as shown: a shipped dataset's in the reader's language."""
        if self.data.own:
            return list(self.labels)
        return category_labels(self.group, self.labels)

    @property
    def bound_range(self) -> tuple[float, float]:
        """The bounds slider's range, also the public grid of the DP bounds."""
        low, high = self.natural
        high = max(high, low + 1)
        return float(min(0.0, low)), float(max(2 * high, high + 1))


def remembered(name: str, key: Hashable, make: Callable[[], T]) -> T:
    """make() for ``key``, kept in this session until the key changes (one value per name).

    For what an ε step does not change (the bounded data, the metrics, a DP choice): cheaper
    than a st.cache_data lookup, which hashes its arguments and copies its result each call.
    """
    store = st.session_state.setdefault(f"{PAGE}__remembered", {})
    held = store.get(name)
    if held is None or held[0] != key:
        held = store[name] = (key, make())
    return held[1]


def seed_and_draw() -> tuple[int, int]:
    """The sidebar's seed and draw number (ui.common.shell): they name a teaching draw."""
    state = st.session_state
    return int(state.get("seed", DEFAULT_SEED)), int(state.get("draw", 0))
