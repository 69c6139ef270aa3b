"""The DP-SGD page's data controls: the table, and the model's inputs declared in advance.

A model's weights name its inputs, so every input is public: the label's categories and the
value that counts as positive, each numeric feature's bounds (the scale), each categorical
feature's categories (a weight each), and the table's number of rows (the sampling rate).
The census' are on its card; an own table's are typed (dp_core.model_table). Whatever is
left to be read from the file (empty bounds, categories filled in from it, an empty row
count) is named in the guarantee, which then is no DP guarantee.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import streamlit as st

from dp_core.errors import CodedError
from dp_core.guarantee import Read
from dp_core.model_table import Encoding
from ui.common.address import linked
from ui.common.categories import pick_categories
from ui.common.data_picker import DataChoice, pick_rows
from ui.common.errors import translated
from ui.common.formatting import count, number
from ui.common.i18n import N_, _
from ui.common.presets import preset_buttons
from ui.common.query_picker import declared_bounds
from ui.common.shell import page_rng, settings_area
from ui.dp_sgd.declared import (
    CATEGORICAL,
    CENSUS_CATEGORICAL,
    CENSUS_LABEL,
    CENSUS_NUMERIC,
    CENSUS_POSITIVE,
    DATASET,
    LABEL,
    NUMERIC,
    PAGE,
    POSITIVE,
    ROWS,
)
from ui.dp_sgd.presets import PRESETS
from ui.dp_sgd.settings import Chosen

OWN_FEATURES = 5  # numeric columns an own table starts with as features


def data_controls() -> Chosen | None:
    """The examples, the data and the model's inputs: settings that rerun the whole page.
    None (after a message) while the model cannot be trained."""
    with settings_area():
        preset_buttons(PAGE, PRESETS)
        data = pick_rows(PAGE, DATASET, N_("dp_sgd.inputs.rows_needed"))
        if data is None:
            return None
        with st.expander(_("dp_sgd.inputs.title"), expanded=data.own, icon=":material/tune:"):
            return _inputs(data)


def _categories(data: DataChoice, column: str) -> tuple[tuple[str, ...], bool] | None:
    """The column's public or declared categories, and whether they were read from the file."""
    found = pick_categories(
        f"{PAGE}_{column}",
        data,
        column,
        frame=data.frame,
        cap=1,
        rng=page_rng(PAGE, column),
        selection=False,
    )
    return None if found is None else (found.labels, found.from_file)


def _inputs(data: DataChoice) -> Chosen | None:
    """The label and its positive value, the features and their domains, the row count."""
    dataset = data.dataset
    labels = [c for c in dataset.categorical if c != dataset.person_id]
    if not labels:
        st.info(_("dp_sgd.inputs.no_label"))
        return None
    target = _target(data, labels)
    if target is None:
        return None
    label, positive, reads = target
    bounded, bounds_read = _numeric_features(data, label)
    categorical = _categorical_features(data, labels, label)
    if categorical is None:
        return None
    declared, categories_read = categorical
    try:
        encoding = Encoding(label, positive, bounded, declared)
    except CodedError as error:
        st.error(translated(error))
        return None
    rows, rows_read = _rows(data)
    reads |= bounds_read | categories_read | ({"rows"} if rows_read else set())
    return Chosen(data, encoding, rows, tuple(sorted(reads)))


def _target(data: DataChoice, labels: list[str]) -> tuple[str, str, set[Read]] | None:
    """The label (a categorical column) and its positive value, and what of its categories
    was read from the file; None (after a message) while its categories are missing."""
    census = data.source == "census"
    label = linked(
        replace(LABEL, default=CENSUS_LABEL if census else labels[-1]),  # often the last
        st.selectbox,
        _("dp_sgd.inputs.label"),
        options=labels,
        context=data.link_key,
        help=_("dp_sgd.inputs.label_help"),
    )
    found = _categories(data, label)
    if found is None:
        return None
    categories, read = found
    positive = linked(
        replace(POSITIVE, default=CENSUS_POSITIVE if census else categories[-1]),
        st.selectbox,
        _("dp_sgd.inputs.positive", column=label),
        options=list(categories),
        context=(data.link_key, label),
        help=_("dp_sgd.inputs.positive_help"),
    )
    reads: set[Read] = {"categories"} if read else set()
    return label, positive, reads


def _numeric_features(
    data: DataChoice, label: str
) -> tuple[tuple[tuple[str, float, float], ...], set[Read]]:
    """The numeric features and their declared bounds, and whether any was read from the file."""
    dataset = data.dataset
    options = [c for c in dataset.numeric if c not in (label, dataset.person_id)]
    numeric = linked(
        replace(
            NUMERIC,
            default=CENSUS_NUMERIC if data.source == "census" else tuple(options[:OWN_FEATURES]),
        ),
        st.multiselect,
        _("dp_sgd.inputs.numeric"),
        options=options,
        context=data.link_key,
        help=_("dp_sgd.inputs.numeric_help"),
    )
    bounded, reads = [], set()
    for column in numeric:
        st.markdown(_("dp_sgd.inputs.bounds", column=column))
        lower, upper, read = declared_bounds(f"{PAGE}_{column}", data, column)
        reads |= {"bounds"} if read else set()
        bounded.append((column, lower, upper))
    return tuple(bounded), reads


def _categorical_features(
    data: DataChoice, labels: list[str], label: str
) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], set[Read]] | None:
    """The categorical features (the label's fellow categorical columns) and their categories,
    and whether any was read from the file; None (after a message) while some are missing."""
    categorical = linked(
        replace(CATEGORICAL, default=CENSUS_CATEGORICAL if data.source == "census" else ()),
        st.multiselect,
        _("dp_sgd.inputs.categorical"),
        options=[c for c in labels if c != label],
        context=(data.link_key, label),
        help=_("dp_sgd.inputs.categorical_help"),
    )
    declared, reads = [], set()
    for column in categorical:
        found = _categories(data, column)
        if found is None:
            return None
        declared.append((column, found[0]))
        reads |= {"categories"} if found[1] else set()
    return tuple(declared), reads


def _rows(data: DataChoice) -> tuple[int, bool]:
    """The table's rows (persons) as a public figure, and whether it was read from the file:
    a shipped table's card publishes it; an own table's is typed, or counted (then read)."""
    persons = len(data.frame) if data.person is None else int(data.frame[data.person].nunique())
    if not data.own:
        return persons, False
    typed = linked(
        ROWS,
        st.number_input,
        _("dp_sgd.inputs.rows"),
        value=None,
        step=1,
        placeholder=_("dp_sgd.inputs.rows_placeholder", rows=count(persons)),
        context=data.link_key,
        help=_("dp_sgd.inputs.rows_help"),
    )
    if typed is None:
        st.caption(_("dp_sgd.inputs.rows_read", rows=count(persons)))
        return persons, True
    if abs(typed - persons) > 0.5 * persons:
        st.caption(_("dp_sgd.inputs.rows_far", typed=number(typed), rows=count(persons)))
    return int(np.clip(typed, 10, None)), False
