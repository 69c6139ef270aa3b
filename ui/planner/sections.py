"""The planner page's controls and sections: the plan, what it costs, ε in the wild, and the
plan for the board (report and OpenDP script)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from data import sources
from data.registry import load_reference
from dp_core import accountants, planner
from dp_core.guarantee import Guarantee, Part
from ui.common import charts, formatting
from ui.common.address import keep, linked_index
from ui.common.catalog import entry
from ui.common.categories import pick_categories
from ui.common.contributions import contribution_cap
from ui.common.data_picker import DataChoice, about, pick_data
from ui.common.errors import translated
from ui.common.exercises import section_exercises
from ui.common.export import Export, address, export_buttons
from ui.common.i18n import N_, _, display, in_language, language, n_
from ui.common.labels import category_labels
from ui.common.release import guarantee_box, guarantee_text, sentences, unit_words
from ui.common.sections import Section, story
from ui.common.shell import DEFAULT_SEED, formula_box, page_rng, presenter_row, what_to_notice
from ui.common.widgets import delta_input, epsilon_input
from ui.planner import board, link, summary
from ui.planner import charts as planner_charts
from ui.planner.exercises import EXERCISES
from ui.planner.messages import planner_error, statistic_error
from ui.planner.script import ScriptData, opendp_script, script_file_name
from ui.planner.table import column_config, default_rows, parse_rows

PAGE = "planner"
SHIPPED = ["census", "diseases", "restaurant", "tips", "industry_groups"]
READ_DELTA = 1e-6  # the δ the accountants' totals are read at, unless moved


@dataclass(frozen=True)
class Controls:
    """The data, the cap and the statistics with their true values: the page-level settings."""

    data: DataChoice
    cap: int
    statistics: tuple[planner.Statistic, ...]
    categories: tuple[tuple[str, str], ...]  # (column, "public" or "declared") per histogram
    reads: tuple[str, ...] = ()  # what was read from the data without noise (dp_core.guarantee)

    @property
    def gaussian(self) -> bool:
        return any(s.spec.mechanism == "gaussian" for s in self.statistics)


@dataclass(frozen=True)
class Settings:
    """What every section depends on: the controls, the plan and how it was made."""

    controls: Controls
    plan: planner.Plan
    mode: str
    calibration: str

    @property
    def data(self) -> DataChoice:
        return self.controls.data

    @property
    def guarantee(self) -> Guarantee:
        """The plan's guarantee: one part, the released values, at its basic-composition
        total; not differentially private when the controls read something from the data."""
        plan = self.plan
        return Guarantee(
            unit=self.data.person,
            parts=(Part("values", plan.epsilon, plan.delta),),
            read_from_data=self.controls.reads,
        )

    @property
    def outputs(self) -> str:
        """What the guarantee covers: "4 statistics"."""
        count = len(self.plan.rows)
        return n_("planner.outputs", "planner.outputs.other", count, count=formatting.count(count))


# --- the controls that rerun the page --------------------------------------------------


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
    seed = int(st.session_state.get("seed", DEFAULT_SEED))
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


def data_controls() -> Controls | None:
    """The data, the cap, the table of statistics and their categories (rerun the page)."""
    data = pick_data(PAGE, SHIPPED, paths=True)
    if data is None:
        return None
    about(data)
    try:
        frame, cap, cap_read = contribution_cap(PAGE, data)
    except ValueError as error:
        st.error(_("planner.contributions_error", error=translated(error)), icon=":material/error:")
        return None
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
    categories = _categories(data, frame, cap, parsed.specs)
    if categories is None:
        return None
    domains, modes, categories_read = categories
    dataset = data.dataset
    if data.path:
        statistics, problems = _path_build(data, cap, parsed.specs, domains)
    else:
        statistics, problems = _build(
            data.source,
            cap,
            parsed.specs,
            tuple(domains.items()),
            tuple(dataset.max_rows_per_category.items()),
            dataset.count_column,
            language(),
            frame,
        )
    if problems:
        st.error("\n".join(f"- {problem}" for problem in problems), icon=":material/error:")
        return None
    public = {column for column, mode in modes if mode == "public"}  # declared: said above
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
    reads = (
        (("cap",) if cap_read else ())
        + (("bounds",) if parsed.bounds_from_file else ())
        + (("categories",) if categories_read else ())
    )
    return Controls(data, cap, statistics, tuple(modes), reads)


# --- the fragment: budget, guarantee, sections ------------------------------------------


@functools.lru_cache(maxsize=256)
def _plan(
    statistics: tuple[planner.Statistic, ...],
    mode: str,
    epsilon: float | None,
    delta: float,
    calibration: str,
) -> planner.Plan:
    if mode == "targets":
        return planner.plan_for_targets(statistics, delta, calibration)
    return planner.split_budget(statistics, epsilon, delta, mode, calibration)


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


@st.fragment(key=f"{PAGE}_explore")
def explore(controls: Controls, mode: str, calibration: str, sections: list[Section]) -> None:
    """ε (and δ), the guarantee and the open section: a fragment, so a step reruns only this."""
    epsilon, delta = None, 0.0
    left, right = presenter_row(1, 1)
    if mode != "targets":
        with left:
            epsilon = epsilon_input(
                f"{PAGE}_epsilon", label=_("planner.epsilon.label"), default=1.0
            )
    if controls.gaussian:
        with right:
            delta = delta_input(f"{PAGE}_delta", label=_("planner.delta.label"), default=1e-6)
    try:
        plan = _plan(controls.statistics, mode, epsilon, delta, calibration)
    except ValueError as error:
        st.error(planner_error(error), icon=":material/error:")
        return
    s = Settings(controls, plan, mode, calibration)
    guarantee_box(controls.data, s.guarantee, outputs=s.outputs, noise=_("planner.noise"))
    story(PAGE, sections, s)


# --- section 1: the plan -----------------------------------------------------------------


def the_plan(s: Settings) -> None:
    """Section 1: each statistic's share of the budget, noise, accuracy and a simulated release."""
    plan = s.plan
    total = f"ε = {formatting.epsilon(plan.epsilon)}" + (
        f", δ = {formatting.power_of_ten(plan.delta)}" if plan.delta > 0 else ""
    )
    if s.mode == "targets":
        heading = _("planner.plan.targets", total=total)
    else:
        heading = _("planner.plan.split", how=_(summary.HOW[s.mode]), total=total)
    st.markdown(f"**{heading}**")
    cols = st.columns(3)
    cols[0].metric(_("planner.metric.total_epsilon"), formatting.epsilon(plan.epsilon))
    cols[1].metric(_("planner.metric.total_delta"), formatting.power_of_ten(plan.delta))
    worst = summary.widest(plan)
    cols[2].metric(
        _("planner.metric.widest", name=worst.name), summary.percent(worst.relative_half_width)
    )
    released = summary.releases(s)
    st.markdown(summary.screen_table(s, released))
    st.caption(_("planner.plan.legend"))
    full = st.expander(_("planner.plan.every_column"), key=f"{PAGE}_table", on_change="rerun")
    if full.open:
        with full:
            st.dataframe(summary.plan_table(s, released), hide_index=True, width="stretch")
    missed = [r.name for r in plan.rows if r.meets_target is False]
    if missed:
        names = _("planner.board.list_separator").join(f"“{name}”" for name in missed)
        st.warning(
            n_("planner.plan.missed", "planner.plan.missed.other", len(missed), names=names),
            icon=":material/warning:",
        )
    accuracy = planner_charts.accuracy(*summary.accuracy_frames(s))
    charts.show(accuracy, key=f"{PAGE}_accuracy")
    st.caption(_("planner.plan.accuracy_note"))
    zip_button(s, released, accuracy)
    section_exercises(EXERCISES, "plan", s)


def zip_button(s: Settings, released: dict, accuracy: charts.Spec) -> None:
    """The ZIP download (CSV, settings, charts), built when pressed; the report is the board's."""
    export_buttons(
        PAGE, s.data, lambda: plan_export(s, released, accuracy), secure=False, report_button=False
    )


def plan_export(s: Settings, released: dict, accuracy: charts.Spec) -> Export:
    """The ZIP's contents: the plan table as on screen (numbers), every setting, the guarantee,
    the accuracy chart and the accountants' chart."""
    found = totals(s.plan.releases, READ_DELTA)
    settings: dict[str, object] = {
        _("planner.export.dataset"): s.data.dataset.title,
        "epsilon": formatting.epsilon(s.plan.epsilon),
        "delta": formatting.power_of_ten(s.plan.delta),
        _("planner.export.how"): _(summary.HOW[s.mode]),
        _("planner.export.cap"): s.controls.cap,
        _("planner.export.rows"): st.query_params.get(link.PARAM)
        or link.encode_rows(default_rows(s.data.dataset)),
    }
    if s.controls.gaussian:
        settings[_("planner.export.calibration")] = _(summary.CALIBRATIONS[s.calibration])
    return Export(
        title=_("planner.board.title", dataset=s.data.dataset.title),
        question=entry(PAGE).question,
        table=summary.export_table(s, released),
        settings=settings,
        guarantee=guarantee_text(s.data, s.guarantee, outputs=s.outputs),
        unit=unit_words(s.data),
        charts=[
            ("accuracy", accuracy),
            ("accountants", planner_charts.accountants(summary.accountants_frame(found))),
        ],
        notes=(summary.cost_sentence(found, READ_DELTA),),
    )


@st.fragment(key=f"{PAGE}_release_section")
def a_simulated_release(s: Settings) -> None:
    """Section 2: a simulated release of one statistic beside the truth, and every value."""
    released = summary.releases(s)
    names = [row.name for row in s.plan.rows]
    histograms = [i for i, row in enumerate(s.plan.rows) if row.statistic.spec.kind == "histogram"]
    chosen = st.selectbox(
        _("planner.release.show"),
        names,
        index=histograms[0] if histograms else 0,
        key=f"{PAGE}_shown",
        bind="query-params",
        help=_("planner.release.show.help"),
    )
    row = s.plan.rows[names.index(chosen)] if chosen in names else s.plan.rows[0]
    stat = row.statistic
    truth, simulated = _("planner.release.truth"), _("planner.release.simulated")
    charts.show(
        charts.noisy_vs_true(
            category_labels(stat.spec.column or "", stat.labels)
            if stat.spec.kind == "histogram"
            else list(stat.labels),
            {truth: list(stat.true_values), simulated: released[row.name]},
            noisy=simulated,
            half_width=row.half_width,
            value_title=stat.spec.name,
        ),
        key=f"{PAGE}_release",
    )
    st.caption(_("planner.release.note"))
    box = st.expander(_("planner.release.values"), key=f"{PAGE}_values", on_change="rerun")
    if box.open:
        with box:
            st.dataframe(summary.values_table(s, released), hide_index=True, width="stretch")


# --- section 2: the accountants ----------------------------------------------------------


@functools.lru_cache(maxsize=64)
def totals(
    releases: tuple[accountants.NoiseRelease, ...], delta: float
) -> tuple[accountants.AccountingTotal, ...]:
    """Every accountant's total for these releases at delta (cached: PLDs take ~0.1-1 s)."""
    return accountants.compare_accountants(releases, delta)


@dataclass(frozen=True)
class Costs:
    """What the “What it costs” section shows: the plan, the δ it is read at, the totals."""

    settings: Settings
    delta: float
    totals: tuple[accountants.AccountingTotal, ...]


@st.fragment(key=f"{PAGE}_costs_section")
def what_it_costs(s: Settings) -> None:
    """Section 3: the plan's total by basic, optimal, zCDP and PLD accounting, side by side."""
    delta = delta_input(
        f"{PAGE}_read_delta",
        label=_("planner.cost.delta"),
        default=READ_DELTA,
        help=_("planner.cost.delta.help"),
    )
    try:
        with st.spinner(_("planner.cost.spinner")):
            found = totals(s.plan.releases, delta)
    except ValueError as error:
        st.error(_("planner.cost.error", error=planner_error(error)), icon=":material/error:")
        return
    st.markdown(f"**{summary.cost_sentence(found, delta)}**")
    charts.show(
        planner_charts.accountants(summary.accountants_frame(found)), key=f"{PAGE}_accountants"
    )
    rho = accountants.total_rho(s.plan.releases)
    st.dataframe(summary.accounting_frame(found, rho), hide_index=True, width="stretch")
    basic_delta = s.plan.delta
    if basic_delta > delta:
        st.warning(
            _(
                "planner.cost.below",
                delta=formatting.power_of_ten(delta),
                plan_delta=formatting.power_of_ten(basic_delta),
            ),
            icon=":material/warning:",
        )
    st.caption(_("planner.cost.note"))
    section_exercises(EXERCISES, "cost", Costs(s, delta, found))


# --- section 3: ε in the wild ------------------------------------------------------------


def _deployment_label(row: pd.Series) -> str:
    text = f"{row['organisation']}: {row['deployment']}"
    return text if len(text) <= 64 else text[:61] + "…"


def _models(values: pd.Series) -> pd.Series:
    """Central or local, in the reader's language."""
    return values.map(lambda model: _(planner_charts.MODELS.get(model, model)))


SOURCE_HEADERS = {  # the deployments table's columns -> message ids of their headers
    "organisation": N_("planner.wild.organisation"),
    "deployment": N_("planner.wild.deployment"),
    "model": N_("planner.wild.model"),
    "unit": N_("planner.wild.unit"),
    "per": N_("planner.wild.per_header"),
    "period": N_("planner.wild.period"),
    "year": N_("planner.wild.year"),
    "source": N_("planner.wild.source"),
    "registry": N_("planner.wild.registry"),
    "note": N_("planner.wild.note"),
}


def in_the_wild(s: Settings) -> None:
    """Section 4: published deployments' budgets, with their units, and the plan's total."""
    st.warning(_("planner.wild.warning"), icon=":material/warning:")
    table = load_reference("deployments")
    published = table[table["epsilon"].notna()]
    points = pd.DataFrame(
        {
            "deployment": published.apply(_deployment_label, axis=1),
            "epsilon": published["epsilon"],
            "model": _models(published["model"]),
            "per": published["per"].map(lambda per: _("planner.wild.per", per=per)),
            "unit": published["unit"],
            "period": published["period"],
        }
    )
    points["pad"] = 4.0 * float(max(points["epsilon"].max(), s.plan.epsilon))
    total = formatting.epsilon(s.plan.epsilon)
    marker = charts.marker(s.plan.epsilon, _("planner.wild.marker", epsilon=total))
    charts.show(planner_charts.in_the_wild(points, marker), key=f"{PAGE}_wild")
    st.caption(_("planner.wild.caption", epsilon=total, unit=unit_words(s.data)))
    box = st.expander(_("planner.wild.sources"), key=f"{PAGE}_sources", on_change="rerun")
    if box.open:
        with box:
            shown = table.assign(model=_models(table["model"]))
            headers = {column: _(SOURCE_HEADERS[column]) for column in SOURCE_HEADERS}
            headers.update({"epsilon": "ε", "delta": "δ", "rho": "ρ (zCDP)"})
            st.dataframe(
                shown.rename(columns=headers),
                hide_index=True,
                width="stretch",
                column_config={
                    headers["source"]: st.column_config.LinkColumn(headers["source"]),
                    headers["registry"]: st.column_config.LinkColumn(headers["registry"]),
                    headers["year"]: st.column_config.NumberColumn(headers["year"], format="%d"),
                },
            )
            st.caption(_("planner.wild.sources_note"))


# --- section 4: for the board --------------------------------------------------------------


def script_data(s: Settings) -> ScriptData:
    """What the OpenDP script needs about the data: its file, person column, cap and unit, and
    for a data path the seed its engine chose each person's rows with (_path_statistic)."""
    data = s.data
    dataset = data.dataset
    if data.own:
        file_name = dataset.title  # the uploaded file's name
    elif dataset.key in board.DATA_NOTES:
        file_name = board.DATA_FILES[dataset.key]  # written by the user first (the note)
    else:
        file_name = f"data/{board.DATA_FILES.get(dataset.key, dataset.key + '.csv')}"
    return ScriptData(
        title=dataset.title,
        file_name=file_name,
        person=data.person,
        cap=s.controls.cap,
        count_column=dataset.count_column,
        unit=unit_words(data),
        seed=int(st.session_state.get("seed", DEFAULT_SEED)) if data.path else None,
        read_from_data=s.controls.reads,
    )


def for_the_board(s: Settings) -> None:
    """Section 5: the one-page report, the OpenDP script and the plan table, to download."""
    st.markdown(_("planner.board.intro"))
    info = script_data(s)
    here = address()
    cols = st.columns(2)
    with cols[0]:
        st.download_button(
            _("planner.board.download_report"),
            data=in_language(
                lambda: board.report_html(s, totals(s.plan.releases, READ_DELTA), here)
            ),
            file_name=f"release_plan_{s.data.dataset.key}.html",
            mime="text/html",
            icon=":material/description:",
            key=f"{PAGE}_report",
        )
    with cols[1]:
        st.download_button(
            _("planner.board.download_script"),
            data=in_language(lambda: opendp_script(s.plan, info)),
            file_name=script_file_name(info),
            mime="text/x-python",
            icon=":material/code:",
            key=f"{PAGE}_script",
        )
    zip_button(s, summary.releases(s), planner_charts.accuracy(*summary.accuracy_frames(s)))
    note = board.DATA_NOTES.get(s.data.dataset.key)
    run = _("planner.board.run", script=script_file_name(info), data=info.file_name)
    st.caption(f"{_(note)} {run}" if note else run)
    report = st.expander(
        _("planner.board.preview"), key=f"{PAGE}_report_preview", on_change="rerun"
    )
    if report.open:
        with report:
            st.iframe(board.report_html(s, totals(s.plan.releases, READ_DELTA), here), height=1000)
    preview = st.expander(
        _("planner.board.script"), key=f"{PAGE}_script_preview", on_change="rerun"
    )
    if preview.open:
        with preview:
            st.caption(_("planner.board.script_english"))
            st.code(opendp_script(s.plan, info), language="python")


def closing() -> None:
    """What to notice, and the formulas with their sources."""
    what_to_notice(
        [
            _("planner.notice.equal"),
            _("planner.notice.targets"),
            _("planner.notice.accounting"),
            _("planner.notice.unit"),
        ]
    )
    formula_box(PAGE, _formulas, _("planner.formulas"))


def _formulas() -> None:
    """The formulas behind the page, with their sources."""
    st.latex(
        r"t_{95\%} = b\ln 20 \;\text{(Laplace, } b = \Delta_1/\varepsilon_i),\qquad "
        r"t_{95\%} = 1.96\,\sigma \;\text{(Gauss)}"
    )
    st.latex(
        r"\varepsilon_i = \frac{\Delta_1 \ln 20}{t},\qquad "
        r"\sigma^* = \frac{t}{1.96},\; \varepsilon_i = \varepsilon(\sigma^*, \delta_i)"
    )
    st.latex(
        r"\rho_{\text{Lap}} = \tfrac12 (\Delta/b)^2,\quad \rho_{\text{Gauss}} = "
        r"\frac{\Delta^2}{2\sigma^2},\quad \varepsilon = \rho + 2\sqrt{\rho\ln(1/\delta)}"
    )
    st.markdown(_("planner.formulas.sources"))
