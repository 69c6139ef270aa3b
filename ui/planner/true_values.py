"""The planner's statistics with their true values and sensitivities: from a table in memory
(cached), or from a data path's engine once each person keeps their capped rows."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from data import sources
from dp_core import planner
from ui.common.data_picker import DataChoice
from ui.common.i18n import _, language
from ui.common.shell import DEFAULT_SEED
from ui.planner.messages import statistic_error


def row_seed() -> int:
    """The sidebar's seed: a data path's engine chooses each person's rows with it."""
    return int(st.session_state.get("seed", DEFAULT_SEED))


@st.cache_data(show_spinner=False, max_entries=64)
def _build(
    source: str,
    cap: int,
    specs: tuple[planner.StatisticSpec, ...],
    labels: tuple[tuple[str, tuple[str, ...]], ...],
    per_category: tuple[tuple[str, int], ...],
    count_column: str | None,
    lang: str,
    _frame: pd.DataFrame,
) -> tuple[tuple[planner.Statistic, ...], tuple[str, ...]]:
    """The statistics' true values and sensitivities (cached on the rows named ``source``;
    ``lang``, the reader's language, keys the cached problem sentences)."""
    domains, caps = dict(labels), dict(per_category)
    built, problems = [], []
    for spec in specs:
        try:
            built.append(
                planner.build_statistic(
                    _frame,
                    spec,
                    cap=cap,
                    labels=domains.get(spec.column or ""),
                    max_rows_per_category=caps.get(spec.column or ""),
                    count_column=count_column,
                )
            )
        except ValueError as error:
            problems.append(statistic_error(spec.name, error))
    return tuple(built), tuple(problems)


def _path_statistic(
    data: DataChoice, spec: planner.StatisticSpec, cap: int, labels: tuple[str, ...] | None
) -> planner.Statistic:
    """One statistic of a data path: the engine's totals once each person keeps ``cap`` rows
    (chosen at random with the sidebar's seed), then dp_core's sensitivities."""
    seed = row_seed()
    person_cap = cap if data.person is not None else None
    if spec.kind == "histogram":
        if labels is None:
            raise ValueError(_("planner.error.no_categories"))
        request = sources.CappedRequest(data.person, person_cap, category=spec.column, seed=seed)
        over = sources.capped_totals(data.origin, request).over(labels, with_value=False)
        return planner.statistic_from_totals(
            spec, cap=cap, labels=over.labels, counts=over.rows, rows_outside=over.rows_outside
        )
    if spec.kind == "count":
        request = sources.CappedRequest(data.person, person_cap, seed=seed)
        totals = sources.capped_totals(data.origin, request)
        return planner.statistic_from_totals(spec, cap=cap, counts=[totals.kept])
    if spec.lower is None or spec.upper is None or not spec.lower <= spec.upper:
        raise ValueError(_("planner.error.bounds"))
    request = sources.CappedRequest(
        data.person, person_cap, value=spec.column, lower=spec.lower, upper=spec.upper, seed=seed
    )
    totals = sources.capped_totals(data.origin, request).totals.sum()
    return planner.statistic_from_totals(
        spec,
        cap=cap,
        counts=[totals["value_rows"]],
        clipped_sum=float(totals["clipped_sum"]),
        raw_sum=float(totals["raw_sum"]),
    )


def _path_build(
    data: DataChoice,
    cap: int,
    specs: tuple[planner.StatisticSpec, ...],
    labels: dict[str, tuple[str, ...]],
) -> tuple[tuple[planner.Statistic, ...], tuple[str, ...]]:
    """The statistics of a data path, as _build's (the engine keeps its last results)."""
    built, problems = [], []
    for spec in specs:
        try:
            built.append(_path_statistic(data, spec, cap, labels.get(spec.column or "")))
        except ValueError as error:
            problems.append(statistic_error(spec.name, error))
    return tuple(built), tuple(problems)


def true_statistics(
    data: DataChoice,
    frame: pd.DataFrame | None,
    cap: int,
    specs: tuple[planner.StatisticSpec, ...],
    domains: dict[str, tuple[str, ...]],
) -> tuple[planner.Statistic, ...] | None:
    """The statistics of the table (a data path's or a frame's), or None with the problems
    shown."""
    dataset = data.dataset
    if data.path:
        statistics, problems = _path_build(data, cap, specs, domains)
    else:
        statistics, problems = _build(
            data.source,
            cap,
            specs,
            tuple(domains.items()),
            tuple(dataset.max_rows_per_category.items()),
            dataset.count_column,
            language(),
            frame,
        )
    if problems:
        st.error("\n".join(f"- {problem}" for problem in problems), icon=":material/error:")
        return None
    return statistics
