"""A data path on the bounding page, read where it lies by DuckDB or Spark: its released groups
reduced by the engine to distinct contribution units (data.sources.contribution_units), from
which the histogram, the caps' ranges, the value's range and every trade-off come."""

from __future__ import annotations

import streamlit as st

from data import sources
from dp_core.bounding.table import ContributionTable, weighted_contribution_table
from ui.bounding.data import PAGE, BoundingData
from ui.bounding.words import Words
from ui.common import formatting
from ui.common.categories import Categories
from ui.common.data_picker import DataChoice
from ui.common.errors import show_error, translated
from ui.common.i18n import _
from ui.common.progress import statistic_progress
from ui.common.shell import page_rng


@st.cache_resource(show_spinner=False, max_entries=16)
def path_table(key: tuple, _units: sources.ContributionUnits) -> ContributionTable | None:
    """The weighted contribution table of a data path's units (None when incomplete)."""
    if not _units.complete:
        return None
    units = _units.units
    return weighted_contribution_table(
        key[-1],
        unit_group=units["group"].to_numpy(),
        unit_groups_of_person=units["k"].to_numpy(),
        unit_rank=units["rank"].to_numpy(),
        unit_size=units["size"].to_numpy(),
        unit_weight=units["weight"].to_numpy(),
        row_value=_units.values,
        name=key[2],
    )


def path_seed() -> int:
    """The seed of a data path's random selection: the sidebar's seed and draw, as the
    in-memory page's numpy draw of the kept records."""
    return int(page_rng(PAGE, "bounding").integers(2**62))


def _path_units(data: DataChoice, person: str, group: str, labels, value, order):
    request = sources.UnitsRequest(person, group, labels, value=value, order=order)
    return sources.contribution_units(data.origin, request)


def path_data(
    data: DataChoice,
    person: str,
    group: str,
    value: str | None,
    categories: Categories,
    words: Words,
) -> BoundingData | None:
    """A data path's released groups reduced by the engine to distinct contribution units:
    the histogram, the caps' ranges, the value's range and every trade-off come from them."""
    order = group  # "first": the earliest groups (a table read where it lies has no row order)
    summed = value
    labels = categories.labels
    value_error = None
    try:
        with st.spinner(_("bounding.data.counting")), statistic_progress():
            try:
                units = _path_units(data, person, group, labels, value, order)
            except ValueError as error:
                if value is None:
                    raise
                value_error, value = error, None
                units = _path_units(data, person, group, labels, None, order)
    except ValueError as error:
        show_error(_("bounding.data.cannot_bound", error=translated(error)), error)
        return None
    if value is None and value_error is None:
        value_error = _("bounding.data.nothing_to_sum")
    if units.rows_outside and categories.mode != "declared":  # declared: said where declared
        st.caption(_("bounding.data.outside", rows=formatting.count(units.rows_outside)))
    key = (data.source, person, group, value, order, labels)
    table = path_table(key, units)
    if table is None:
        st.caption(
            _(
                "bounding.data.too_many_units",
                limit=formatting.count(units.request.limit),
                **words.nouns(),
            )
        )
    natural = None
    if value is not None:  # as _natural: the dataset's range (here read from the data)
        natural = data.dataset.numeric.get(value) or (units.low, units.high)
        natural = (float(natural[0]), float(natural[1]))
    fields = (person, group, value, value_error, order, categories, words, natural)
    return BoundingData(data, None, *fields, table, units.histogram, units, summed)
