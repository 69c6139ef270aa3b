"""The one dataset picker: a shipped dataset or the user's own CSV, and who a person is.

    data = pick_data("laplace", ["census", "diseases", "tips"])
    data.dataset.person_id   # the column that identifies a person; None: each row is one
    data.frame, data.source  # the rows, and a key naming them for caches

An upload is kept for the whole session, so a file uploaded on one page is offered on every
page. The person column is proposed (data.own_csv.guess_person_column: a repeating id, or a
name such as patient_id); "each row is a different person" is an explicit choice whose
consequence the page states.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from data.own_csv import person_column_hints, read_csv_bytes
from data.registry import DATASETS, Dataset, dataset_from_frame, load_dataset

OWN = "own_csv"
EACH_ROW = "(each row is a different person)"
_FILE = "own_file"  # session state: (file id, name, rows) of the last upload


@dataclass(frozen=True)
class DataChoice:
    """A dataset, its rows, and a key that names the rows (for caches)."""

    dataset: Dataset
    frame: pd.DataFrame
    source: str  # a shipped dataset's key, or "upload:<file id>"

    @property
    def own(self) -> bool:
        """Whether the rows are the user's own file (no public rules, no public categories)."""
        return self.source.startswith("upload:")

    @property
    def person(self) -> str | None:
        """The column that identifies a person, or None when each row is one person."""
        return self.dataset.person_id


def dataset_title(key: str) -> str:
    return "Your own CSV file…" if key == OWN else DATASETS[key].title


def pick_data(
    page: str, keys: Sequence[str], *, label: str = "Dataset", own: bool = True
) -> DataChoice | None:
    """A dataset selectbox (and the upload widgets for an own file); None while unusable."""
    options = [*keys, OWN] if own else list(keys)
    choice = st.selectbox(label, options, format_func=dataset_title, key=f"{page}_dataset")
    if choice != OWN:
        return DataChoice(DATASETS[choice], load_dataset(choice), choice)
    with st.container(border=True):
        return _own_data(page)


def _upload(page: str) -> tuple[str, str, pd.DataFrame] | None:
    """The uploaded file (this page's widget, or the session's last upload), read once."""
    upload = st.file_uploader(
        "Your CSV file (a header row, then one row per record)",
        type=["csv", "txt"],
        key=f"{page}_upload",
        help="The file stays in this browser session: it is not stored or sent anywhere else.",
    )
    kept = st.session_state.get(_FILE)
    if upload is not None and (kept is None or kept[0] != upload.file_id):
        try:
            frame = read_csv_bytes(upload.getvalue(), upload.name)
        except ValueError as error:
            st.error(str(error))
            return None
        kept = st.session_state[_FILE] = (upload.file_id, upload.name, frame)
    if kept is None:
        st.info("Upload a CSV to explore your own data. Nothing leaves this session.")
        return None
    if upload is None:
        st.caption(f"Using **{kept[1]}**, uploaded earlier in this session.")
    return kept


def _person_column(page: str, file_id: str, frame: pd.DataFrame) -> str | None:
    """Which column identifies a person: proposed from the data, stated either way."""
    hints = person_column_hints(frame)
    options = [EACH_ROW, *frame.columns]
    proposed = hints[0].column if hints else None
    person = st.selectbox(
        "Which column identifies a person?",
        options,
        index=options.index(proposed) if proposed else 0,
        key=f"{page}_person_{file_id}",
        help="One person's rows all count towards the sensitivity: the guarantee protects "
        "a person with all their rows.",
    )
    if person != EACH_ROW:
        hint = next((h for h in hints if h.column == person), None)
        if person == proposed and hint is not None:
            why = (
                "its name says it identifies someone" if hint.named_like_id else "its values repeat"
            )
            st.caption(
                f"Proposed because {why}: up to {hint.max_rows:,} rows share one `{person}` "
                f"({hint.distinct:,} different values). Neighbouring datasets differ by one "
                "person with all their rows."
            )
        return person
    repeating = [h for h in hints if h.max_rows > 1]
    if repeating:
        st.warning(
            f"Each row is taken as a different person, but `{repeating[0].column}` repeats "
            f"(up to {repeating[0].max_rows:,} rows share one value). If it identifies people, "
            "one person can change the answers by that many rows while the noise covers one: "
            "the guarantee then protects rows, not people. Choose it above if it does.",
            icon=":material/warning:",
        )
    else:
        st.caption(
            "Each row is taken as a different person: the guarantee protects one row. If one "
            "person can have several rows, choose the column that identifies them."
        )
    return None


def _own_data(page: str) -> DataChoice | None:
    upload = _upload(page)
    if upload is None:
        return None
    file_id, name, frame = upload
    person = _person_column(page, file_id, frame)
    if person is not None and frame[person].isna().any():
        st.error(
            f"{int(frame[person].isna().sum()):,} rows have no “{person}”: every row needs a "
            "person to bound what one person contributes. Fill or drop them first."
        )
        return None
    try:
        dataset = dataset_from_frame(frame, name, person_id=person)
    except ValueError as error:
        st.error(str(error))
        return None
    return DataChoice(dataset, frame, f"upload:{file_id}")


def about(data: DataChoice) -> None:
    """The dataset's card in an expander (what it is, how it was made, its public rules)."""
    with st.expander(f"About the {data.dataset.title} data"):
        st.markdown(data.dataset.card)
