"""The one dataset picker: a shipped dataset, the user's own CSV or a data path, and who a
person is.

    data = pick_data("laplace", ["census", "diseases", "tips"], paths=True)
    data.dataset.person_id   # the column that identifies a person; None: each row is one
    data.frame, data.source  # the rows (None for a data path), and a key naming them
    data.origin              # a data.sources.Source: ask it for statistics

An upload is kept for the whole session, so a file uploaded on one page is offered on every
page. A data path (``paths=True``: pages that compute through data.sources) is a Parquet or
CSV file, a folder, a pattern or a DuckDB table on the machine that runs the app (or a URI a
Spark cluster reads), read where it lies by DuckDB or Spark: its rows never come into memory,
only the statistics the page asks for. The person column is proposed (data.own_csv's hints: a
repeating id, or a name such as patient_id; for a path, from the first rows); "each row is a
different person" is an explicit choice whose consequence the page states.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from data import sources
from data.own_csv import PersonColumnHint, person_column_hints, read_csv_bytes
from data.registry import DATASETS, Dataset, dataset_from_frame, dataset_from_summary, load_dataset

OWN = "own_csv"
PATH = "data_path"
EACH_ROW = "(each row is a different person)"
SAMPLE_ROWS = 2_000  # rows read to propose a person column for a data path
ENGINES = {"duckdb": "DuckDB (embedded, no server)", "spark": "Spark (a cluster, or local)"}
_FILE = "own_file"  # session state: (file id, name, rows) of the last upload


@dataclass(frozen=True)
class DataChoice:
    """A dataset, its rows, and a key that names the rows (for caches).

    ``frame`` is None for a data path (the rows stay where they are); ``origin`` is the
    data.sources.Source of the rows in every case, for pages that ask it for statistics.
    """

    dataset: Dataset
    frame: pd.DataFrame | None
    source: str  # a shipped dataset's key, "upload:<file id>" or "path:<location>"
    origin: sources.Source | None = None

    @property
    def own(self) -> bool:
        """Whether the rows are the user's own (no public rules, no public categories)."""
        return self.source.startswith(("upload:", "path:"))

    @property
    def path(self) -> bool:
        """Whether the rows are a data path, read by an engine (``frame`` is None)."""
        return self.frame is None

    @property
    def person(self) -> str | None:
        """The column that identifies a person, or None when each row is one person."""
        return self.dataset.person_id


def dataset_title(key: str) -> str:
    if key == OWN:
        return "Your own CSV file…"
    if key == PATH:
        return "A data path (Parquet, CSV, DuckDB)…"
    return DATASETS[key].title


def pick_data(
    page: str,
    keys: Sequence[str],
    *,
    label: str = "Dataset",
    own: bool = True,
    paths: bool = False,
) -> DataChoice | None:
    """A dataset selectbox (and the upload widgets for an own file, the path widgets for a
    data path when ``paths``); None while unusable."""
    options = [*keys, OWN] if own else list(keys)
    if own and paths:
        options.append(PATH)
    choice = st.selectbox(label, options, format_func=dataset_title, key=f"{page}_dataset")
    if choice == PATH:
        with st.container(border=True):
            return _path_data(page)
    if choice != OWN:
        return DataChoice(
            DATASETS[choice], load_dataset(choice), choice, sources.Source.dataset(choice)
        )
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


def _person_column(
    page: str,
    file_id: str,
    columns: Sequence[str],
    hints: list[PersonColumnHint],
    *,
    sampled: int | None = None,
) -> str | None:
    """Which column identifies a person: proposed from the data, stated either way.

    ``sampled``: the hints come from the first rows of a larger table (how many).
    """
    within = f" in the first {sampled:,} rows" if sampled else ""
    options = [EACH_ROW, *columns]
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
                f"({hint.distinct:,} different values{within}). Neighbouring datasets differ "
                "by one person with all their rows."
            )
        return person
    repeating = [h for h in hints if h.max_rows > 1]
    if repeating:
        st.warning(
            f"Each row is taken as a different person, but `{repeating[0].column}` repeats "
            f"(up to {repeating[0].max_rows:,} rows share one value{within}). If it identifies "
            "people, one person can change the answers by that many rows while the noise covers "
            "one: the guarantee then protects rows, not people. Choose it above if it does.",
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
    person = _person_column(page, file_id, list(frame.columns), person_column_hints(frame))
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
    key = f"upload:{file_id}"
    return DataChoice(dataset, frame, key, sources.Source.frame(frame, key))


def _engine(page: str) -> tuple[str, str | None]:
    """The engine (DuckDB unless DP_EXPLORER_SPARK names a cluster) and the Spark address."""
    preset = os.environ.get(sources.SPARK_ENV, "").strip()
    cols = st.columns([1, 2])
    engine = cols[0].radio(
        "Engine",
        list(ENGINES),
        index=1 if preset else 0,
        format_func=ENGINES.get,
        key=f"{page}_engine",
        help="Both compute the statistics where the data lie and return only them; they give "
        "identical numbers. DuckDB runs inside the app; Spark for data beyond one machine.",
    )
    if engine != "spark":
        return engine, None
    address = cols[1].text_input(
        "Spark master or Spark Connect address",
        value=preset or "local[*]",
        key=f"{page}_spark",
        help="local[*]: Spark on this machine (it needs Java); spark://host:7077: a Spark "
        "master; sc://host:15002: a Spark Connect server (pip install 'pyspark[connect]'). "
        "A cluster reads the path itself: give one it can see, e.g. s3a://bucket/visits/.",
    )
    return engine, address.strip() or None


@st.cache_data(show_spinner=False, max_entries=16)
def _hints(location: str, _source: sources.Source) -> tuple[list[str], list[PersonColumnHint]]:
    """The columns and the person-column hints of the first rows (never the whole table)."""
    sample = sources.sample(_source, SAMPLE_ROWS)
    return list(sample.columns), person_column_hints(sample)


def _path_data(page: str) -> DataChoice | None:
    """A data path, its engine and its person column; None (after a message) while unusable."""
    text = st.text_input(
        "Path to the data, on the machine that runs the app",
        key=f"{page}_path",
        placeholder="/data/visits.parquet, /data/visits/, /data/visits/*.parquet, "
        "/data/shop.duckdb:visits",
        help="A Parquet or CSV file, a folder of them, a pattern, or a DuckDB database file and "
        "table (file.duckdb:table). The rows are read where they lie, never loaded: only the "
        "statistics the page needs come back.",
    )
    engine, address = _engine(page)
    if not text.strip():
        st.info(
            "Type where the data lie: the engine reads them there, and only the statistics "
            "the page needs come back."
        )
        return None
    try:
        source = sources.Source.parse(text, engine=engine, spark=address)
        with st.spinner(f"Reading {source.title} with {ENGINES[engine].split(' (')[0]}…"):
            summary = sources.summary(source)
            columns, hints = _hints(source.key, source)
    except ValueError as error:
        st.error(f"Cannot read this path: {error}")
        return None
    usable = [c.name for c in summary.columns]
    hints = [h for h in hints if h.column in usable]
    where = f"{source.location}:{source.table}" if source.table else source.location
    person = _person_column(
        page, where, [c for c in columns if c in usable], hints, sampled=SAMPLE_ROWS
    )
    if person is not None:
        present = summary.column(person).present
        if present < summary.rows:
            st.error(
                f"{summary.rows - present:,} rows have no “{person}”: every row needs a person "
                "to bound what one person contributes. Fill or drop them first."
            )
            return None
    try:
        dataset = dataset_from_summary(summary, source.title, person_id=person)
    except ValueError as error:
        st.error(str(error))
        return None
    st.caption(
        f"{summary.rows:,} rows, read by {ENGINES[engine].split(' (')[0]} where they lie"
        + (f" (Spark at {source.spark_address()})" if engine == "spark" else "")
        + ": only the statistics the page asks for come back."
    )
    return DataChoice(dataset, None, f"path:{where}", source)


def about(data: DataChoice) -> None:
    """The dataset's card in an expander (what it is, how it was made, its public rules)."""
    with st.expander(f"About the {data.dataset.title} data"):
        st.markdown(data.dataset.card)
