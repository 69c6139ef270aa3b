"""The synthetic-data page's data controls: the table, its columns, and the released domain
declared in advance (dp_core.synthetic.SynthDomain).

Which categories and which bins a synthetic table can hold is part of what it releases, so
they are public: the census' are on its card and below (cut points chosen without the data);
an own table's categories are typed (or filled in from the file, which the guarantee then
names), its numeric columns' cut points typed and whether each holds whole numbers declared.
One row per person: a person with several rows keeps one (dp_core.model_table.one_per_person).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import pandas as pd
import streamlit as st

from dp_core.errors import CodedError
from dp_core.guarantee import Read
from dp_core.model_table import one_per_person
from dp_core.synthetic import SynthDomain, bin_labels
from ui.common.address import linked
from ui.common.categories import pick_categories
from ui.common.data_picker import DataChoice, pick_rows
from ui.common.errors import translated
from ui.common.formatting import number_locale, typed_number
from ui.common.i18n import N_, _
from ui.common.labels import column_label
from ui.common.presets import preset_buttons
from ui.common.shell import DEFAULT_SEED, page_rng, settings_area
from ui.synthetic.declared import (
    CENSUS,
    CENSUS_COLUMNS,
    CENSUS_CUTS,
    COLUMNS,
    DATASET,
    PAGE,
    cuts_setting,
    whole_setting,
)
from ui.synthetic.presets import PRESETS

OWN_COLUMNS = 5  # columns an own table starts with


@dataclass(frozen=True)
class Chosen:
    """The data controls' answer: the data (one row per person), the declared domain and what
    of it was read from the data."""

    data: DataChoice
    frame: pd.DataFrame
    domain: SynthDomain
    reads: tuple[Read, ...] = ()


def data_controls() -> Chosen | None:
    """The examples, the data, the columns and their domain: settings that rerun the page."""
    with settings_area():
        preset_buttons(PAGE, PRESETS)
        data = pick_rows(PAGE, DATASET, N_("synthetic.inputs.rows_needed"))
        if data is None:
            return None
        with st.expander(
            _("synthetic.inputs.title"), expanded=data.own, icon=":material/table_chart:"
        ):
            return _inputs(data)


def _inputs(data: DataChoice) -> Chosen | None:
    census = data.source == "census"
    options = [c for c in data.frame.columns if c != data.person]
    columns = linked(
        replace(COLUMNS, default=CENSUS_COLUMNS if census else tuple(options[:OWN_COLUMNS])),
        st.multiselect,
        _("synthetic.inputs.columns"),
        options=options,
        context=data.link_key,
        help=_("synthetic.inputs.columns_help"),
    )
    categories, cuts, whole, reads, missing = [], [], [], set(), False
    for column in columns:  # every column's box is drawn, even after one that is still empty
        if census:
            if column in CENSUS_CUTS:
                cuts.append((column, CENSUS_CUTS[column]))
                whole.append(column)
            elif column in CENSUS.domains:
                categories.append((column, CENSUS.domains[column]))
            continue
        if column not in data.dataset.numeric:
            found = pick_categories(
                f"{PAGE}_{column}", data, column, frame=data.frame, cap=1,
                rng=page_rng(PAGE, column), selection=False,
            )  # fmt: skip
            if found is None:
                missing = True
                continue
            categories.append((column, found.labels))
            reads |= set(found.reads)
        else:
            points = _cut_points(data, column)
            if linked(
                whole_setting(column),
                st.toggle,
                _("synthetic.inputs.whole", column=column),
                context=data.link_key,
                help=_("synthetic.inputs.whole_help"),
            ):
                whole.append(column)
            if points is None:
                missing = True
                continue
            cuts.append((column, points))
    if missing:
        return None
    try:
        domain = SynthDomain(tuple(categories), tuple(cuts), tuple(whole))
    except CodedError as error:
        st.error(translated(error))
        return None
    if census:
        _public_domain(domain)
    frame = data.frame
    if data.person is not None and frame[data.person].duplicated().any():
        frame = one_per_person(frame, data.person, DEFAULT_SEED)
        st.caption(_("synthetic.inputs.one_per_person", column=data.person))
    return Chosen(data, frame, domain, tuple(sorted(reads)))


def _separators() -> str:
    """What separates typed cut points: ";" and spaces, and "," where it is not the decimal
    comma."""
    return r"[;\s]+" if number_locale().get("decimal") == "," else r"[;,\s]+"


def _cut_points(data: DataChoice, column: str) -> tuple[float, ...] | None:
    """An own numeric column's cut points, typed; None (after a message) while there are none."""
    text = linked(
        cuts_setting(column),
        st.text_input,
        _("synthetic.inputs.cuts", column=column),
        context=data.link_key,
        placeholder=_("synthetic.inputs.cuts_placeholder"),
        help=_("synthetic.inputs.cuts_help"),
    )
    if not text.strip():
        st.info(_("synthetic.inputs.cuts_needed", column=column))
        return None
    try:
        points = tuple(float(typed_number(p)) for p in re.split(_separators(), text.strip()) if p)
    except ValueError:
        st.error(_("synthetic.inputs.cuts_bad", column=column, text=text))
        return None
    return points


def _public_domain(domain: SynthDomain) -> None:
    """The census' released domain, every cell listed: categories and bins."""
    rows = [
        {
            _("synthetic.inputs.column"): column_label(column),
            _("synthetic.inputs.cells"): ", ".join(labels),
        }
        for column, labels in domain.categories
    ] + [
        {
            _("synthetic.inputs.column"): column_label(column),
            _("synthetic.inputs.cells"): ", ".join(bin_labels(points)),
        }
        for column, points in domain.cuts
    ]
    st.caption(_("synthetic.inputs.public"))
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
