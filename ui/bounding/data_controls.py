"""The bounding page's data controls (they rerun the whole page): the teaching examples
(ui.bounding.presets), the dataset, the user's CSV or a data path (ui.bounding.paths), the group
and value columns, the released groups (public, declared or DP-selected), then the choices of
how to bound and release (ui.bounding.choices).
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

from data import sources
from data.registry import MAX_CATEGORIES
from dp_core import bounding, domains
from dp_core.bounding.table import ContributionTable, contribution_table
from ui.bounding.choices import Choices, page_choices
from ui.bounding.data import OWN_WORDS, PAGE, PRESETS, BoundingData, Preset, remembered
from ui.bounding.declared import DATASET, GROUP, VALUE
from ui.bounding.paths import path_data
from ui.bounding.presets import PRESETS as EXAMPLES
from ui.bounding.words import Words
from ui.common import formatting
from ui.common.address import current, linked
from ui.common.categories import Categories, mode_setting, pick_categories
from ui.common.data_picker import DataChoice, about, pick_data
from ui.common.errors import show_error, translated
from ui.common.i18n import _
from ui.common.labels import column_options
from ui.common.presets import preset_buttons
from ui.common.release import secure_toggle
from ui.common.shell import control_row, page_rng

SELECTION_L0 = 1  # choosing the groups with DP: each person counts in their first group


@st.cache_resource(show_spinner=False, max_entries=32)
def _released(source: str, group: str, labels: tuple, _frame: pd.DataFrame):
    """The rows whose group is released, the group as text; and how many rows were dropped.
    Shared, not copied (nothing changes a frame in place): a copy cost each run a millisecond."""
    keys = domains.category_keys(_frame[group]).to_numpy(dtype=object)
    inside = pd.Index(labels).get_indexer(keys) >= 0
    return _frame[inside].assign(**{group: keys[inside]}), int((~inside).sum())


@st.cache_resource(show_spinner=False, max_entries=32)
def contribution_units(key: tuple, _frame: pd.DataFrame) -> ContributionTable:
    """The contribution table of ``key``'s rows (dp_core.bounding.table); not copied."""
    _, person, group, value, order, labels = key
    return contribution_table(_frame, person, group, value, order_column=order, groups=labels)


@st.cache_resource(show_spinner=False, max_entries=32)
def groups_per_person(key: tuple, _frame: pd.DataFrame) -> pd.Series:
    """Persons with k released groups, k = 1 .. max (dp_core.bounding.contribution_histogram);
    not copied."""
    _, person, group, *_ = key
    return bounding.contribution_histogram(_frame, person, group)


def _column_names(data: DataChoice) -> list[str]:
    if data.path:
        return list(sources.schema(data.origin).names)
    return list(data.frame.columns)


def _columns(data: DataChoice, preset: Preset | None, words: Words) -> tuple[str, str | None]:
    dataset = data.dataset
    person = preset.person if preset else data.person
    groups = list(dataset.categorical)
    row = control_row(f"{PAGE}_columns")
    group = linked(  # the preset's group column, else the first
        replace(GROUP, default=preset.group if preset else None),
        row.selectbox,
        _("bounding.controls.group_by", groups=words.groups),
        labels=column_options(groups, shipped=not data.own),
        context=data.link_key,
    )
    values = [c for c in _column_names(data) if c not in (dataset.person_id, person, group)]
    default = preset.value if preset else next((c for c in dataset.numeric if c in values), None)
    value = linked(  # the preset's value column, else the first numeric one, else the first
        replace(VALUE, default=default),
        row.selectbox,
        _("bounding.controls.value"),
        labels=column_options(values, shipped=not data.own),
        context=data.link_key,
    )
    return group, value


def _rows_per_person_caption(data: DataChoice, person: str | None, words: Words) -> None:
    if data.source == "tips":
        st.caption(_("bounding.data.tips_assumption"))
    elif person is None:
        st.caption(_("bounding.data.one_row_each", **words.nouns()))


def _frame_error(
    rows: tuple, frame: pd.DataFrame, person: str | None, group: str, value: str | None = None
) -> ValueError | None:
    """Why the rows cannot be bounded (dp_core.bounding.check_bounding_frame), or None: checked
    once per rows (``rows`` names them: their source, and the released groups) and columns,
    not on every run."""

    def check() -> ValueError | None:
        try:
            bounding.check_bounding_frame(frame, person, group, value)
        except ValueError as error:
            return error
        return None

    name = "rows_error" if value is None else "value_error"
    return remembered(name, (rows, person, group, value), check)


def _value_error(
    rows: tuple, frame: pd.DataFrame, person: str | None, group: str, value: str | None
) -> Exception | str | None:
    if value is None:
        return _("bounding.data.nothing_to_sum")
    return _frame_error(rows, frame, person, group, value)


def _natural(data: DataChoice, frame: pd.DataFrame, value: str) -> tuple[float, float]:
    public = data.dataset.numeric.get(value)
    if public is not None:
        return float(public[0]), float(public[1])
    values = frame[value]
    return float(values.min()), float(values.max())


def _groups(data: DataChoice, person: str | None, group: str, secure: bool) -> Categories | None:
    """The released groups: public for shipped data, declared or DP-selected for the user's."""
    frame = data.frame
    # declared or DP-selected (asked by pick_categories below): its value this run
    mode = current(mode_setting(PAGE), context=(data.link_key, group)) if data.own else None
    selected = mode == "selected"
    if selected and not data.path:  # DP selection needs a bound on groups per person
        frame = bounding.cap_contributions(
            frame, person, group_column=group, max_groups_per_id=SELECTION_L0
        )
    categories = pick_categories(
        PAGE,
        data,
        group,
        frame=frame,
        cap=SELECTION_L0,
        rng=page_rng(PAGE, "categories"),
        secure=secure,
    )
    if selected:
        st.caption(
            _("bounding.data.selection_random") if data.path else _("bounding.data.selection_first")
        )
    return categories


def data_controls() -> tuple[BoundingData, Choices] | None:
    """The examples, the data, the columns, the released groups and the plan: they rerun the
    whole page. An example sets ε, the caps and the bounds too, drawn in the page's fragment."""
    preset_buttons(PAGE, EXAMPLES)
    secure = secure_toggle(PAGE)
    data = pick_data(PAGE, DATASET)
    if data is None:
        return None
    about(data)
    preset = PRESETS.get(data.source)
    words = preset.words if preset else OWN_WORDS
    if data.own and data.person is None:
        st.warning(_("bounding.data.needs_person"))
        return None
    if not data.dataset.categorical:
        st.error(_("bounding.data.no_group_column", most=formatting.count(MAX_CATEGORIES)))
        return None
    try:
        group, value = _columns(data, preset, words)
    except ValueError as error:
        show_error(_("bounding.data.cannot_read", error=translated(error)), error)
        return None
    person = preset.person if preset else data.person
    _rows_per_person_caption(data, person, words)
    if not data.path:
        error = _frame_error((data.source,), data.frame, person, group)
        if error is not None:
            show_error(_("bounding.data.cannot_bound", error=translated(error)), error)
            return None
    categories = _groups(data, person, group, secure)
    if categories is None:
        return None
    if len(categories.labels) < 2:
        st.error(_("bounding.data.one_group", column=group))
        return None
    if data.path:
        released = path_data(data, person, group, value, categories, words)
    else:
        released = _frame_data(data, preset, person, group, value, categories, words)
    return None if released is None else (released, page_choices(released, words, secure))


def _frame_data(
    data: DataChoice,
    preset: Preset | None,
    person: str | None,
    group: str,
    value: str | None,
    categories: Categories,
    words: Words,
) -> BoundingData | None:
    """The rows in memory in the released groups, their value's range and contribution
    units (None after a message)."""
    frame, outside = _released(data.source, group, categories.labels, data.frame)
    if outside and categories.mode != "declared":  # declared: said where declared
        st.caption(_("bounding.data.outside", rows=formatting.count(outside)))
    if frame.empty:
        st.error(_("bounding.data.none_released"))
        return None
    value_error = _value_error((data.source, categories.labels), frame, person, group, value)
    natural = None if value_error else _natural(data, frame, value)
    order = preset.order if preset else None
    summed, value = value, None if value_error else value
    key = (data.source, person, group, value, order, categories.labels)
    histogram = None if person is None else groups_per_person(key, frame)
    table = contribution_units(key, frame)
    fields = (person, group, value, value_error, order, categories, words, natural)
    return BoundingData(data, frame, *fields, table, histogram, summed=summed)
