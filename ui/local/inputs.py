"""The data of the local-DP pages: a person-level dataset, one category column, its categories.

    respondents = pick_respondents("lf", COLUMN, "Column", st.columns(2))
    respondents.labels   # the categories a person may answer, in their public or declared order
    respondents.counts   # persons per category (absent categories: 0)
    respondents.codes    # one code per person answering: an index into labels, -1 for no value

Shipped datasets answer over their public category domains (data.registry ``domains``). The
user's own file goes through the shared data picker (person column proposed) and declared
categories only: in the local model every person must know the categories before answering,
so a curator cannot choose them from the data with DP. A person whose value is outside the
declared list holds none of the categories and answers as a person with no value does (they
are counted, never listed), so who answers never depends on what one person holds; with a
person column each person answers once, with their first row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import domains
from dp_core.bounding import cap_contributions
from ui.common.address import linked
from ui.common.categories import pick_categories
from ui.common.data_picker import DataChoice, about, dataset_setting, pick_data
from ui.common.formatting import count
from ui.common.i18n import _, n_
from ui.common.labels import column_options
from ui.common.setting import Choice
from ui.common.shell import page_rng

PERSON_DATASETS = ("census", "tips", "diseases")  # one row per person (tips: assumed)


@dataclass(frozen=True, eq=False)
class Respondents:
    """The persons answering, one answer each, over the categories a person may give."""

    data: DataChoice
    column: str
    labels: tuple[str, ...]
    codes: np.ndarray  # per person answering: index into labels, -1 for no value
    outside: int  # persons whose value is not one of the categories (their code is -1)
    reads: tuple[str, ...] = ()  # what was read from the data without noise (dp_core.guarantee)

    @property
    def population(self) -> int:
        """Persons answering (those with no value included)."""
        return int(self.codes.size)

    @property
    def counts(self) -> np.ndarray:
        """Persons per category, in the order of labels (absent categories: 0)."""
        return np.bincount(self.codes[self.codes >= 0], minlength=len(self.labels))

    @property
    def no_value(self) -> int:
        """Persons holding none of the categories: no value, or one outside them."""
        return int(np.count_nonzero(self.codes < 0))

    @property
    def missing(self) -> int:
        """Persons with no value in the column."""
        return self.no_value - self.outside

    @property
    def key(self) -> str:
        """The dataset's key ("census", or an own file's "user_…")."""
        return self.data.dataset.key


@st.cache_data(show_spinner=False, max_entries=8)
def _first_rows(source: str, person: str, _frame: pd.DataFrame) -> pd.DataFrame:
    """Each person's first row of the data named ``source``."""
    return cap_contributions(_frame, person, 1)


@st.cache_data(show_spinner=False, max_entries=32)
def _codes(
    source: str, person: str | None, column: str, labels: tuple[str, ...], _frame: pd.DataFrame
) -> tuple[np.ndarray, int]:
    """Per person: the index of their value in ``labels`` (-1: none of them, missing or
    outside); and how many hold a value outside them."""
    keys = domains.category_keys(_frame[column])
    codes = pd.Index(labels).get_indexer(keys.to_numpy(dtype=object))
    outside = (codes < 0) & ~keys.isna().to_numpy()
    return codes.astype(np.int64), int(outside.sum())


def _one_answer_each(data: DataChoice, area: Any) -> pd.DataFrame:
    """The rows answering: one per person (their first row when a person column is chosen)."""
    if not data.own:
        return data.frame
    person = data.person
    if person is None:
        area.caption(_("local.input.rows", rows=count(len(data.frame))))
        return data.frame
    kept = _first_rows(data.source, person, data.frame)
    area.caption(
        _(
            "local.input.first_rows",
            person=person,
            persons=count(len(kept)),
            later=count(len(data.frame) - len(kept)),
        )
    )
    return kept


def respondents_dataset(page: str) -> Choice:
    """The page's dataset: one with a row per person, or the user's own file."""
    return dataset_setting(page, PERSON_DATASETS)


def pick_respondents(
    page: str, column_setting: Choice, column_label: str, areas: Sequence[Any]
) -> Respondents | None:
    """Dataset, category column and its categories; None (after a message) while unusable.

    ``column_setting`` is the page's category column (its default when the data have it, else
    their first category column); ``areas`` holds at least two Streamlit containers: the
    dataset's, then the column's.
    """
    with areas[0]:
        data = pick_data(page, respondents_dataset(page), label=_("local.input.data"))
    if data is None:
        return None
    dataset = data.dataset
    if dataset.key == "tips":
        areas[0].caption(_("local.input.tips"))
    if not dataset.categorical:
        st.error(_("local.input.no_category_column"))
        return None
    # The address keeps it while the widget is not drawn (randomized response's fixed group),
    # so a link reopens on the same column and question.
    column = linked(
        column_setting,
        areas[1].selectbox,
        column_label,
        labels=column_options(dataset.categorical, shipped=not data.own),
        context=data.link_key,
    )
    frame = _one_answer_each(data, areas[0])
    about(data)
    if data.own:
        st.caption(_("local.input.declared_only"))
    categories = pick_categories(
        page,
        data,
        column,
        frame=frame,
        cap=1,
        rng=page_rng(page, "categories"),
        selection=False,
    )
    if categories is None:
        return None
    codes, outside = _codes(data.source, data.person, column, categories.labels, frame)
    if outside and categories.mode == "public":  # declared: said where they are declared
        st.caption(
            n_(
                "local.input.outside.one",
                "local.input.outside.other",
                outside,
                count=count(outside),
                column=column,
            )
        )
    return Respondents(data, column, categories.labels, codes, outside, categories.reads)
