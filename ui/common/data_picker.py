"""The one dataset picker: a shipped dataset, the user's own CSV or a data path
(ui.common.data_path), and who a person is (ui.common.person_column).

    DATASET = dataset_setting("laplace", ["census", "diseases", "tips"], paths=True)
    data = pick_data("laplace", DATASET)
    data.dataset.person_id   # the column that identifies a person; None: each row is one
    data.frame, data.source  # the rows (None for a data path), and a key naming them
    data.origin              # a data.sources.Source: ask it for statistics

An upload is kept for the whole session, so a file uploaded on one page is offered on every
page. A data path (``paths=True``: pages that compute through data.sources) is read where it
lies: its rows never come into memory, only the statistics the page asks for.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from data import sources
from data.own_csv import person_column_hints, read_csv_bytes
from data.registry import DATASETS, dataset_from_frame, load_dataset
from ui.common import folding, labels
from ui.common.address import from_address, linked
from ui.common.data_choice import DataChoice
from ui.common.data_path import path_data
from ui.common.errors import show_error, translated
from ui.common.folding import note
from ui.common.formatting import count
from ui.common.i18n import _, language
from ui.common.person_column import person_column
from ui.common.setting import Choice
from ui.common.upload_budget import admit, held_size

OWN = "own_csv"
PATH = "data_path"
_FILE = "own_file"  # session state: (file id, name, rows) of the last upload


def dataset_title(key: str) -> str:
    """The name of a dataset choice in the reader's language (an option of the picker)."""
    if key == OWN:
        return _("common.data.own")
    if key == PATH:
        return _("common.data.path")
    return labels.dataset_title(DATASETS[key])


def dataset_setting(
    page: str, keys: Sequence[str], *, own: bool = True, paths: bool = False
) -> Choice:
    """The page's dataset (``?<page>_dataset=census``): one of the shipped ``keys``, the
    user's own file (``own``) or a data path (``paths``, with ``own``); the first by default."""
    options = [*keys, OWN] if own else list(keys)
    if own and paths:
        options.append(PATH)
    return Choice(f"{page}_dataset", options[0], options=tuple(options))


def pick_data(page: str, setting: Choice, *, label: str | None = None) -> DataChoice | None:
    """A selectbox for the dataset ``setting`` (``dataset_setting``), with the upload widgets
    for an own file and the path widgets for a data path; None while unusable.

    The choice is kept in the address, and so are the upload's and the path's settings: a
    link naming an own file asks for the file again and keeps the rest, to be applied once
    the file is there.
    """
    options = setting.options
    keys = [option for option in options if option not in (OWN, PATH)]
    if setting.key not in st.session_state and from_address(setting) == OWN:
        st.session_state[f"{page}__linked_own"] = True  # opened from a link: ask again
    choice = linked(
        setting,
        st.selectbox,
        label or _("common.data.label"),
        labels={option: dataset_title(option) for option in options},
        help=_descriptions(keys),
    )
    if choice == PATH:
        with st.container(border=True):
            return path_data(page)
    if choice != OWN:
        return DataChoice(
            DATASETS[choice], load_dataset(choice), choice, sources.Source.dataset(choice)
        )
    with st.container(border=True):
        return _own_data(page)


def pick_rows(page: str, setting: Choice, needed: str) -> DataChoice | None:
    """``pick_data`` for a page that learns from the rows themselves: None while there are
    none, after the message ``needed`` (an id) when the data is a data path or a table of
    counts."""
    data = pick_data(page, setting)
    if data is None:
        return None
    if data.frame is None or data.dataset.is_count_table:
        st.info(_(needed))
        return None
    return data


def _descriptions(keys: Sequence[str]) -> str:
    """What each shipped dataset holds, one line each (the picker's help)."""
    return "\n\n".join(
        f"**{labels.dataset_title(DATASETS[key])}**: {labels.dataset_description(DATASETS[key])}"
        for key in keys
    )


def _upload(page: str) -> tuple[str, str, pd.DataFrame] | None:
    """The uploaded file (this page's widget, or the session's last upload), read once."""
    upload = st.file_uploader(
        _("common.data.upload.label"),
        type=["csv", "txt"],
        key=f"{page}_upload",
        help=_("common.data.upload.help"),
    )
    kept = st.session_state.get(_FILE)
    if upload is not None and (kept is None or kept[0] != upload.file_id):
        try:
            frame = read_csv_bytes(upload.getvalue(), upload.name)
        except ValueError as error:
            show_error(translated(error), error)
            return None
        if not admit(held_size(upload.getvalue(), frame)):  # a shared server's memory
            st.session_state.pop(_FILE, None)
            st.error(_("common.data.upload.full"), icon=":material/memory:")
            return None
        kept = st.session_state[_FILE] = (upload.file_id, upload.name, frame)
    if kept is None:
        if st.session_state.get(f"{page}__linked_own"):
            st.warning(_("common.data.upload.again"), icon=":material/upload_file:")
        else:
            st.info(_("common.data.upload.prompt"))
        return None
    if upload is None:
        note(_("common.data.upload.kept", name=kept[1]))
    return kept


def _own_data(page: str) -> DataChoice | None:
    upload = _upload(page)
    if upload is None:
        return None
    file_id, name, frame = upload
    person = person_column(page, "own", list(frame.columns), person_column_hints(frame))
    if person is not None and frame[person].isna().any():  # left out, not refused: whether
        # anything is released never depends on one row lacking a person
        note(
            _(
                "common.data.person.missing_left_out",
                rows=count(int(frame[person].isna().sum())),
                person=person,
            )
        )
        frame = frame[frame[person].notna()]
    try:
        dataset = dataset_from_frame(frame, name, person_id=person)
    except ValueError as error:
        show_error(translated(error), error)
        return None
    key = f"upload:{file_id}"
    return DataChoice(dataset, frame, key, sources.Source.frame(frame, key))


def about(data: DataChoice) -> None:
    """The dataset's card in an expander (what it is, how it was made, its public rules).

    In English the full card (data/cards/); in the other languages its summary, which names
    the card (written in English, with the published figures and their sources). An own
    table's card says where its bounds come from. The card is sent only while its box is open,
    and the box is left out while the data's controls are folded away.
    """
    if folding.folded() is not None:
        return
    box = st.expander(_("common.data.about", title=data.title), key="data_about", on_change="rerun")
    if not box.open:  # a card is long: sent only when read
        return
    with box:
        if data.path:
            st.markdown(_("common.data.card.path"))
        elif data.own:
            st.markdown(_("common.data.card.own", rows=count(len(data.frame))))
        elif language() == "en":
            st.markdown(data.dataset.card)
        else:
            st.markdown(labels.dataset_summary(data.dataset))
            st.caption(_("common.data.card.english", path=f"data/cards/{data.dataset.key}.md"))
