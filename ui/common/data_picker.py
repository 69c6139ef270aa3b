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
from data.sources.allowed import Allowed, Refused
from dp_core.errors import CodedError
from ui.common import folding, labels
from ui.common.address import from_address, linked
from ui.common.errors import translated
from ui.common.folding import note
from ui.common.formatting import count
from ui.common.i18n import N_, _, language
from ui.common.setting import Choice, Text
from ui.common.upload_budget import admit, held_size

OWN = "own_csv"
PATH = "data_path"
EACH_ROW = "(each row is a different person)"  # the option's value; shown translated
SAMPLE_ROWS = 2_000  # rows read to propose a person column for a data path
ENGINES = {"duckdb": N_("common.data.engine.duckdb"), "spark": N_("common.data.engine.spark")}
ENGINE_NAMES = {"duckdb": "DuckDB", "spark": "Spark"}
REFUSED = {  # data.sources.allowed.Refused's code -> its sentence (a shared server's rules)
    "off": N_("common.data.path.off"),
    "outside": N_("common.data.path.refused.outside"),
    "dots": N_("common.data.path.refused.dots"),
    "spark": N_("common.data.path.refused.spark"),
}
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

    @property
    def link_key(self) -> str:
        """What the data is, the same in every session (unlike ``source``): the dataset's
        key, "own" for an upload, "path" for a data path. Settings that depend on the data
        (a column, its bounds) start afresh when it changes (``ui.common.address.current``'s
        context), and a copied link finds them (an own file's once it is uploaded)."""
        if self.source.startswith("upload:"):
            return "own"
        if self.source.startswith("path:"):
            return "path"
        return self.source

    @property
    def title(self) -> str:
        """The dataset's name in the reader's language (an own file's name as it is)."""
        return labels.dataset_title(self.dataset)


def dataset_title(key: str) -> str:
    """The name of a dataset choice in the reader's language (an option of the picker)."""
    if key == OWN:
        return _("common.data.own")
    if key == PATH:
        return _("common.data.path")
    return labels.dataset_title(DATASETS[key])


def pick_data(
    page: str,
    keys: Sequence[str],
    *,
    label: str | None = None,
    own: bool = True,
    paths: bool = False,
) -> DataChoice | None:
    """A dataset selectbox (and the upload widgets for an own file, the path widgets for a
    data path when ``paths``); None while unusable.

    The choice is kept in the address (``?<page>_dataset=census``), and so are the upload's
    and the path's settings: a link naming an own file asks for the file again and keeps the
    rest, to be applied once the file is there.
    """
    options = [*keys, OWN] if own else list(keys)
    if own and paths:
        options.append(PATH)
    setting = Choice(f"{page}_dataset", options[0], options=tuple(options))
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
            return _path_data(page)
    if choice != OWN:
        return DataChoice(
            DATASETS[choice], load_dataset(choice), choice, sources.Source.dataset(choice)
        )
    with st.container(border=True):
        return _own_data(page)


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
            st.error(translated(error))
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


def _person_label(option: str) -> str:
    return _("common.data.person.each_row") if option == EACH_ROW else option


def _person_column(
    page: str,
    slot: str,
    columns: Sequence[str],
    hints: list[PersonColumnHint],
    *,
    sampled: int | None = None,
) -> str | None:
    """Which column identifies a person: proposed from the data, stated either way.

    ``slot``: "own" or "path" (the widget's key, so the address's parameter, names it);
    ``sampled``: the hints come from the first rows of a larger table (how many).
    """
    options = [EACH_ROW, *columns]
    proposed = hints[0].column if hints else None
    person = linked(
        Choice(f"{page}_person_{slot}", proposed or EACH_ROW),
        st.selectbox,
        _("common.data.person.label"),
        labels={option: _person_label(option) for option in options},
        context=tuple(columns),
        help=_("common.data.person.help"),
    )
    if person != EACH_ROW:
        hint = next((h for h in hints if h.column == person), None)
        if person == proposed and hint is not None:
            note(_proposed(hint, sampled))
        return person
    repeating = [h for h in hints if h.max_rows > 1]
    if repeating:
        st.warning(_repeats(repeating[0], sampled), icon=":material/warning:")
    else:
        note(_("common.data.person.each_row_caption"))
    return None


def _proposed(hint: PersonColumnHint, sampled: int | None) -> str:
    """Why a person column was proposed (``sampled``: from the first rows of a table)."""
    if hint.named_like_id:
        why = _("common.data.person.why_named")
    else:
        why = _("common.data.person.why_repeats")
    values = {
        "why": why,
        "rows": count(hint.max_rows),
        "person": hint.column,
        "distinct": count(hint.distinct),
    }
    if hint.max_rows <= 1:  # "up to 1 rows share one" would be wrong twice
        if sampled:
            return _("common.data.person.proposed_unique_sampled", sample=count(sampled), **values)
        return _("common.data.person.proposed_unique", **values)
    if sampled:
        return _("common.data.person.proposed_sampled", sample=count(sampled), **values)
    return _("common.data.person.proposed", **values)


def _repeats(hint: PersonColumnHint, sampled: int | None) -> str:
    """The warning when each row is taken as a person while a column repeats."""
    values = {"column": hint.column, "rows": count(hint.max_rows)}
    if sampled:
        return _("common.data.person.repeats_sampled", sample=count(sampled), **values)
    return _("common.data.person.repeats", **values)


def _own_data(page: str) -> DataChoice | None:
    upload = _upload(page)
    if upload is None:
        return None
    file_id, name, frame = upload
    person = _person_column(page, "own", list(frame.columns), person_column_hints(frame))
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
        st.error(translated(error))
        return None
    key = f"upload:{file_id}"
    return DataChoice(dataset, frame, key, sources.Source.frame(frame, key))


def _engine(page: str) -> tuple[str, str | None]:
    """The engine (DuckDB unless DP_EXPLORER_SPARK names a cluster) and the Spark address."""
    preset = os.environ.get(sources.SPARK_ENV, "").strip()
    cols = folding.columns([1, 2])
    with cols[0]:
        engine = linked(
            Choice(f"{page}_engine", "spark" if preset else "duckdb"),
            st.radio,
            _("common.data.engine.label"),
            labels={option: _(name) for option, name in ENGINES.items()},
            help=_("common.data.engine.help"),
        )
    if engine != "spark":
        return engine, None
    with cols[1]:
        address = linked(
            Text(f"{page}_spark", preset or "local[*]"),
            st.text_input,
            _("common.data.spark.label"),
            help=_("common.data.spark.help"),
        )
    return engine, address.strip() or None


@st.cache_data(show_spinner=False, max_entries=16)
def _hints(location: str, _source: sources.Source) -> tuple[list[str], list[PersonColumnHint]]:
    """The columns and the person-column hints of the first rows (never the whole table)."""
    sample = sources.sample(_source, SAMPLE_ROWS)
    return list(sample.columns), person_column_hints(sample)


def refused_sentence(refused: Refused) -> str:
    """Why a shared server does not read a path, in the reader's language."""
    return _(REFUSED[refused.code], location=refused.location)


def _path_data(page: str) -> DataChoice | None:
    """A data path, its engine and its person column; None (after a message) while unusable."""
    allowed = Allowed.from_env()
    if not allowed.paths:  # a shared server whose operator named no folders
        st.warning(refused_sentence(Refused("off")), icon=":material/lock:")
        return None
    text = linked(
        Text(f"{page}_path", longest=2_000),
        st.text_input,
        _("common.data.path.label"),
        placeholder="/data/visits.parquet, /data/visits/, /data/visits/*.parquet, "
        "/data/shop.duckdb:visits",
        help=_("common.data.path.help"),
    )
    engine, address = _engine(page)
    if engine == "spark" and not sources.spark_installed():
        st.warning(translated(CodedError("spark_missing")), icon=":material/extension_off:")
        return None
    if not text.strip():
        st.info(_("common.data.path.prompt"))
        return None
    try:
        allowed.check_typed(text)
        source = sources.Source.parse(text, engine=engine, spark=address)
        allowed.check(source)
        with st.spinner(
            _("common.data.path.reading", source=source.title, engine=ENGINE_NAMES[engine])
        ):
            summary = sources.summary(source)
            columns, hints = _hints(source.key, source)
    except Refused as refused:
        st.error(refused_sentence(refused), icon=":material/lock:")
        return None
    except ValueError as error:
        st.error(_("common.data.path.error", error=translated(error)))
        return None
    usable = [c.name for c in summary.columns]
    hints = [h for h in hints if h.column in usable]
    where = f"{source.location}:{source.table}" if source.table else source.location
    person = _person_column(
        page, "path", [c for c in columns if c in usable], hints, sampled=SAMPLE_ROWS
    )
    if person is not None:
        present = summary.column(person).present
        if present < summary.rows:
            st.error(
                _("common.data.person.missing", rows=count(summary.rows - present), person=person)
            )
            return None
    try:
        dataset = dataset_from_summary(summary, source.title, person_id=person)
    except ValueError as error:
        st.error(translated(error))
        return None
    rows = count(summary.rows)
    if engine == "spark":
        note(_("common.data.path.read_spark", rows=rows, address=source.spark_address()))
    else:
        note(_("common.data.path.read", rows=rows, engine=ENGINE_NAMES[engine]))
    return DataChoice(dataset, None, f"path:{where}", source)


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
