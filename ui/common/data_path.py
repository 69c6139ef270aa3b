"""A data path: a Parquet or CSV file, a folder, a pattern or a DuckDB table on the machine
that runs the app (or a URI a Spark cluster reads), read where it lies by DuckDB or Spark. Its
rows never come into memory, only the statistics the page asks for; the person column is
proposed from its first rows. A shared server reads only the folders its operator names
(data.sources.allowed)."""

from __future__ import annotations

import os

import streamlit as st

from data import sources
from data.own_csv import PersonColumnHint, person_column_hints
from data.registry import dataset_from_summary
from data.sources.allowed import Allowed, Refused
from dp_core.errors import CodedError
from ui.common import folding
from ui.common.address import linked
from ui.common.data_choice import DataChoice
from ui.common.errors import show_error, translated
from ui.common.folding import note
from ui.common.formatting import count
from ui.common.i18n import N_, _
from ui.common.person_column import person_column
from ui.common.setting import Choice, Text

SAMPLE_ROWS = 2_000  # rows read to propose a person column for a data path
ENGINES = {"duckdb": N_("common.data.engine.duckdb"), "spark": N_("common.data.engine.spark")}
ENGINE_NAMES = {"duckdb": "DuckDB", "spark": "Spark"}
REFUSED = {  # data.sources.allowed.Refused's code -> its sentence (a shared server's rules)
    "off": N_("common.data.path.off"),
    "outside": N_("common.data.path.refused.outside"),
    "dots": N_("common.data.path.refused.dots"),
    "spark": N_("common.data.path.refused.spark"),
}


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


def path_data(page: str) -> DataChoice | None:
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
        show_error(_("common.data.path.error", error=translated(error)), error)
        return None
    usable = [c.name for c in summary.columns]
    hints = [h for h in hints if h.column in usable]
    where = f"{source.location}:{source.table}" if source.table else source.location
    person = person_column(
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
        show_error(translated(error), error)
        return None
    rows = count(summary.rows)
    if engine == "spark":
        note(_("common.data.path.read_spark", rows=rows, address=source.spark_address()))
    else:
        note(_("common.data.path.read", rows=rows, engine=ENGINE_NAMES[engine]))
    return DataChoice(dataset, None, f"path:{where}", source)
