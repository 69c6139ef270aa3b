"""The "your own CSV" widget: upload, say which column identifies a person, get a Dataset."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from data.own_csv import read_csv_bytes
from data.registry import Dataset, dataset_from_frame

EACH_ROW = "(each row is a different person)"


def own_dataset(key: str) -> tuple[Dataset, pd.DataFrame] | None:
    """Upload widgets; the user's Dataset and rows, or None after saying what is missing."""
    upload = st.file_uploader(
        "Your CSV file (a header row, then one row per record)",
        type=["csv", "txt"],
        key=f"{key}_upload",
        help="The file stays in this browser session: it is not stored or sent anywhere else.",
    )
    if upload is None:
        st.info("Upload a CSV to explore your own data. Nothing leaves this session.")
        return None
    cache_key = f"{key}_upload_frame"
    cached = st.session_state.get(cache_key)
    if cached is None or cached[0] != upload.file_id:
        try:
            frame = read_csv_bytes(upload.getvalue(), upload.name)
        except ValueError as error:
            st.error(str(error))
            return None
        st.session_state[cache_key] = (upload.file_id, frame)
    frame = st.session_state[cache_key][1]
    person = st.selectbox(
        "Which column identifies a person?",
        [EACH_ROW, *frame.columns],
        key=f"{key}_person",
        help="With a person column, one person's rows all count towards the sensitivity.",
    )
    person_id = None if person == EACH_ROW else person
    if person_id is not None and frame[person_id].isna().any():
        st.error(
            f"{int(frame[person_id].isna().sum()):,} rows have no “{person_id}”: every row "
            "needs a person to bound what one person contributes. Fill or drop them first."
        )
        return None
    try:
        dataset = dataset_from_frame(frame, upload.name, person_id=person_id)
    except ValueError as error:
        st.error(str(error))
        return None
    return dataset, frame
