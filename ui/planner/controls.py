"""The planner page's controls that rerun the page: the data, the cap, the table of
statistics with their categories (data_controls), and the budget rule (budget_rule)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dp_core import planner
from ui.common import formatting
from ui.common.address import keep, linked_index
from ui.common.categories import pick_categories
from ui.common.contributions import contribution_cap
from ui.common.data_picker import DataChoice, about, pick_data
from ui.common.errors import translated
from ui.common.i18n import _, display, n_
from ui.common.release import sentences
from ui.common.shell import page_rng
from ui.planner import link, summary
from ui.planner.settings import PAGE, Controls
from ui.planner.table import Parsed, column_config, default_rows, parse_rows
from ui.planner.true_values import true_statistics

SHIPPED = ["census", "diseases", "restaurant", "tips", "industry_groups"]


# --- the categories and the table of statistics -------------------------------------------


def _categories(
    data: DataChoice,
    frame: pd.DataFrame | None,
    cap: int,
    specs: tuple[planner.StatisticSpec, ...],
) -> tuple[dict[str, tuple[str, ...]], list[tuple[str, str]], bool] | None:
    """The released categories of every histogram column: public, or declared for an own
    file; and whether some were filled in from the file (read from the data)."""
    domains: dict[str, tuple[str, ...]] = {}
    modes: list[tuple[str, str]] = []
    read = False
    columns = dict.fromkeys(s.column for s in specs if s.kind == "histogram")
    for column in columns:
        chosen = pick_categories(
            PAGE,
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


def _linked_rows(data: DataChoice) -> pd.DataFrame | None:
    """The plan table the address holds (?planner_rows=…), or None (with a message kept for
    the page) when there is none or it cannot be used: the page then starts with the default."""
    raw = st.query_params.get(link.PARAM)
    if raw is None:
        return None
    try:
        frame = link.decode_rows(raw)
    except ValueError as error:
        st.session_state[f"{PAGE}__rows_problem"] = str(error)
        return None
    parsed = parse_rows(frame, data.dataset, own=data.own)
    if parsed.problems:
        st.session_state[f"{PAGE}__rows_problem"] = sentences(*parsed.problems)
        return None
    return frame


def _start_rows(data: DataChoice) -> pd.DataFrame:
    """The table the editor starts from: the address's plan on the first visit, else the
    dataset's default plan (the edits are the editor's state on top of it)."""
    state = st.session_state
    key = f"{PAGE}__start_{data.source}"
    if key not in state:
        state[key] = None if state.get(f"{PAGE}__rows_read") else _linked_rows(data)
        state[f"{PAGE}__rows_read"] = True
    start = state[key]
    return start if start is not None else default_rows(data.dataset)


def _rows_in_address(edited: pd.DataFrame, data: DataChoice) -> None:
    """The table as edited in the address; a bad linked table is reported until it is edited."""
    encoded, default = link.encode_rows(edited), link.encode_rows(default_rows(data.dataset))
    keep(link.PARAM, encoded, default)
    problem = st.session_state.get(f"{PAGE}__rows_problem")
    if problem and encoded == default:
        st.warning(_("planner.link.malformed", problem=problem), icon=":material/link_off:")


def _table(data: DataChoice) -> Parsed | None:
    """The table of statistics, edited and parsed; None with its problems shown."""
    st.markdown(_("planner.rows.intro"))
    edited = st.data_editor(
        _start_rows(data),
        key=f"{PAGE}_rows_{data.source}",
        num_rows="dynamic",
        column_config=column_config(data.dataset),
        hide_index=True,
        width="stretch",
    )
    _rows_in_address(edited, data)
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
    return parsed


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
    data = pick_data(PAGE, SHIPPED, paths=True)
    if data is None:
        return None
    about(data)
    try:
        capped = contribution_cap(PAGE, data)
    except ValueError as error:
        st.error(_("planner.contributions_error", error=translated(error)), icon=":material/error:")
        return None
    parsed = _table(data)
    if parsed is None:
        return None
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
    return Controls(data, cap, statistics, tuple(modes), reads)


# --- the budget rule ------------------------------------------------------------------------


def _choice(key: str, label: str, options: dict[str, str], help: str) -> str:
    """A radio over ``options`` (key -> message id), kept in the address by its key."""
    keys = list(options)
    chosen = st.radio(
        label,
        keys,
        index=linked_index(key, keys, default=0),
        format_func=display(keys, lambda option: _(options[option])),
        key=key,
        horizontal=True,
        help=help,
    )
    keep(key, chosen, keys[0])
    return chosen


def budget_rule(controls: Controls) -> tuple[str, str]:
    """How the budget is set and how Gaussian noise is calibrated (rerun the page)."""
    mode = _choice(f"{PAGE}_mode", _("planner.mode.label"), summary.MODES, _("planner.mode.help"))
    calibration = "analytic"
    if controls.gaussian:
        calibration = _choice(
            f"{PAGE}_calibration",
            _("planner.calibration.label"),
            summary.CALIBRATIONS,
            _("planner.calibration.help"),
        )
    else:
        st.query_params.pop(f"{PAGE}_calibration", None)
    return mode, calibration
