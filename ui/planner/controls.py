"""The planner page's controls that rerun the page: the data, the cap, the table of
statistics with their categories (data_controls), and the budget rule (budget_rule)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dp_core import planner
from ui.common import formatting
from ui.common.address import current, from_address, linked, publish
from ui.common.categories import pick_categories
from ui.common.contributions import contribution_cap
from ui.common.data_picker import DataChoice, about, dataset_setting, pick_data
from ui.common.errors import show_error, translated
from ui.common.i18n import _, n_, sentences
from ui.common.shell import page_rng
from ui.planner import link, summary
from ui.planner.declared import CALIBRATION, MODE, ROWS, ROWS_WRITTEN
from ui.planner.settings import PAGE, Controls
from ui.planner.table import Parsed, column_config, default_rows, parse_rows
from ui.planner.true_values import true_statistics

SHIPPED = ["census", "diseases", "restaurant", "tips", "industry_groups"]
EDITOR = f"{PAGE}_rows_editor"  # the plan table's edits, on top of ROWS (_start_rows)
PROBLEM = f"{PAGE}__rows_problem"  # (data source, why the linked plan could not be used)


# --- the categories and the table of statistics -------------------------------------------


def _categories(
    data: DataChoice,
    frame: pd.DataFrame | None,
    cap: int,
    specs: tuple[planner.StatisticSpec, ...],
) -> tuple[dict[str, tuple[str, ...]], list[tuple[str, str]], bool] | None:
    """The released categories of every histogram column: public, or declared for an own
    file; and whether some were filled in from the file (read from the data).

    Each column's widgets are keyed by its place among the plan's histogram columns
    (``planner_cats``, ``planner2_cats``...: one set of keys per column, none naming it).
    """
    domains: dict[str, tuple[str, ...]] = {}
    modes: list[tuple[str, str]] = []
    read = False
    columns = dict.fromkeys(s.column for s in specs if s.kind == "histogram")
    for place, column in enumerate(columns, start=1):
        chosen = pick_categories(
            PAGE if place == 1 else f"{PAGE}{place}",
            data,
            column,
            frame=frame,
            cap=cap,
            rng=page_rng(PAGE, "categories"),
            selection=False,
        )
        if chosen is None:
            return None
        domains[column] = chosen.labels
        modes.append((column, chosen.mode))
        read = read or chosen.from_file
    return domains, modes, read


def _link_problem(data: DataChoice) -> str | None:
    """Why the plan the address holds (?planner_rows=…) cannot be used with this data, or
    None (there is none, or it can)."""
    raw = from_address(ROWS_WRITTEN)
    if raw is None:
        return None
    try:
        frame = link.decode_rows(raw)
    except ValueError as error:
        return translated(error)
    parsed = parse_rows(frame, data.dataset, own=data.own)
    return sentences(*parsed.problems) if parsed.problems else None


def _start_rows(data: DataChoice) -> pd.DataFrame:
    """The table the editor starts from: the address's plan on the first visit, else (and
    afresh for other data) the dataset's default plan; the edits are the editor's state on
    top of it. A linked plan that cannot be used is left out of the address, and its problem
    kept for the page (shown until the table is edited)."""
    if ROWS.key not in st.session_state:  # the plan's first appearance: the address's
        problem = _link_problem(data)
        if problem:
            st.session_state[PROBLEM] = (data.source, problem)
            publish(ROWS, None)
    start = current(ROWS, context=data.source)
    return default_rows(data.dataset) if start is None else start


def _rows_in_address(edited: pd.DataFrame, data: DataChoice) -> str:
    """The table as edited in the address (left out as the default plan), written as there;
    a bad linked table is reported until it is edited."""
    encoded, default = link.encode_rows(edited), link.encode_rows(default_rows(data.dataset))
    publish(ROWS, None if encoded == default else edited)
    source, problem = st.session_state.get(PROBLEM, (None, None))
    if problem and source == data.source and encoded == default:
        st.warning(_("planner.link.malformed", problem=problem), icon=":material/link_off:")
    return encoded


def _table(data: DataChoice) -> tuple[Parsed, str] | None:
    """The table of statistics, edited and parsed, and as the address writes it; None with
    its problems shown."""
    st.markdown(_("planner.rows.intro"))
    edited = st.data_editor(
        _start_rows(data),
        key=EDITOR,
        num_rows="dynamic",
        column_config=column_config(data.dataset),
        hide_index=True,
        width="stretch",
    )
    encoded = _rows_in_address(edited, data)
    parsed = parse_rows(edited, data.dataset, own=data.own)
    if parsed.notes:
        st.caption(sentences(*parsed.notes))
    if parsed.problems:
        st.error(
            "**"
            + _("planner.rows.problems")
            + "**\n\n"
            + "\n".join(f"- {problem}" for problem in parsed.problems),
            icon=":material/error:",
        )
        return None
    return parsed, encoded


def _rows_outside(statistics: tuple[planner.Statistic, ...], modes: list[tuple[str, str]]) -> None:
    """How many rows fall outside a histogram's public categories (declared: said above)."""
    public = {column for column, mode in modes if mode == "public"}
    for stat in statistics:
        if stat.rows_outside and stat.spec.column in public:
            st.caption(
                n_(
                    "planner.rows_outside",
                    "planner.rows_outside.other",
                    stat.rows_outside,
                    name=stat.spec.name,
                    rows=formatting.count(stat.rows_outside),
                )
            )


def data_controls() -> Controls | None:
    """The data, the cap, the table of statistics and their categories (rerun the page)."""
    data = pick_data(PAGE, dataset_setting(PAGE, SHIPPED, paths=True))
    if data is None:
        return None
    about(data)
    try:
        capped = contribution_cap(PAGE, data)
    except ValueError as error:
        show_error(
            _("planner.contributions_error", error=translated(error)),
            error,
            icon=":material/error:",
        )
        return None
    table = _table(data)
    if table is None:
        return None
    parsed, rows = table
    frame, cap = capped.frame, capped.cap
    categories = _categories(data, frame, cap, parsed.specs)
    if categories is None:
        return None
    domains, modes, categories_read = categories
    statistics = true_statistics(data, frame, cap, parsed.specs, domains)
    if statistics is None:
        return None
    _rows_outside(statistics, modes)
    reads = (
        capped.reads
        + (("bounds",) if parsed.bounds_from_file else ())
        + (("categories",) if categories_read else ())
    )
    return Controls(data, cap, statistics, tuple(modes), reads, rows)


# --- the budget rule ------------------------------------------------------------------------


def budget_rule(controls: Controls) -> tuple[str, str]:
    """How the budget is set and how Gaussian noise is calibrated (rerun the page)."""
    mode = linked(
        MODE,
        st.radio,
        _("planner.mode.label"),
        labels={key: _(msgid) for key, msgid in summary.MODES.items()},
        horizontal=True,
        help=_("planner.mode.help"),
    )
    if not controls.gaussian:  # no Gaussian noise to calibrate: left out of the address
        publish(CALIBRATION, CALIBRATION.default)
        return mode, CALIBRATION.default
    calibration = linked(
        CALIBRATION,
        st.radio,
        _("planner.calibration.label"),
        labels={key: _(msgid) for key, msgid in summary.CALIBRATIONS.items()},
        horizontal=True,
        help=_("planner.calibration.help"),
    )
    return mode, calibration
