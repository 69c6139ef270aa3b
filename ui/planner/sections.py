"""The planner page's controls and sections: the plan, what it costs, ε in the wild, and the
plan for the board (report and OpenDP script)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from data import sources
from data.registry import load_reference
from dp_core import accountants, planner
from dp_core.guarantee import Guarantee, Part
from ui.common import charts, formatting
from ui.common.categories import pick_categories
from ui.common.contributions import contribution_cap
from ui.common.data_picker import DataChoice, about, pick_data
from ui.common.export import Export, address, export_buttons
from ui.common.release import guarantee_box, unit_words
from ui.common.sections import Section, story
from ui.common.shell import DEFAULT_SEED, formula_box, page_rng, what_to_notice
from ui.common.widgets import delta_input, epsilon_input
from ui.planner import board, summary
from ui.planner import charts as planner_charts
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


# --- the controls that rerun the page --------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=64)
def _build(
    source: str,
    cap: int,
    specs: tuple[planner.StatisticSpec, ...],
    labels: tuple[tuple[str, tuple[str, ...]], ...],
    per_category: tuple[tuple[str, int], ...],
    count_column: str | None,
    _frame: pd.DataFrame,
) -> tuple[tuple[planner.Statistic, ...], tuple[str, ...]]:
    """The statistics' true values and sensitivities (cached on the rows named ``source``)."""
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
            problems.append(f"“{spec.name}”: {error}")
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
            raise ValueError(f"“{spec.name}”: a histogram needs its public categories.")
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
        raise ValueError(f"“{spec.name}”: give clipping bounds with L below U.")
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
            problems.append(f"“{spec.name}”: {error}")
    return tuple(built), tuple(problems)


def _categories(
    data: DataChoice,
    frame: pd.DataFrame | None,
    cap: int,
    specs: tuple[planner.StatisticSpec, ...],
) -> tuple[dict[str, tuple[str, ...]], list[tuple[str, str]]] | None:
    """The released categories of every histogram column: public, or declared for an own file."""
    domains: dict[str, tuple[str, ...]] = {}
    modes: list[tuple[str, str]] = []
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
    return domains, modes


def data_controls() -> Controls | None:
    """The data, the cap, the table of statistics and their categories (rerun the page)."""
    data = pick_data(PAGE, SHIPPED, paths=True)
    if data is None:
        return None
    about(data)
    try:
        frame, cap = contribution_cap(PAGE, data)
    except ValueError as error:
        st.error(f"Cannot read the contributions per person: {error}", icon=":material/error:")
        return None
    st.markdown(
        "**The statistics to release.** Add, remove or edit rows; give each a weight or the "
        "accuracy wanted (± at 95%, absolute or as a % of its value)."
    )
    edited = st.data_editor(
        default_rows(data.dataset),
        key=f"{PAGE}_rows_{data.source}",
        num_rows="dynamic",
        column_config=column_config(data.dataset),
        hide_index=True,
        width="stretch",
    )
    parsed = parse_rows(edited, data.dataset, own=data.own)
    if parsed.notes:
        st.caption(" ".join(parsed.notes))
    if parsed.problems:
        st.error(
            "**The plan cannot be made yet:**\n\n"
            + "\n".join(f"- {problem}" for problem in parsed.problems),
            icon=":material/error:",
        )
        return None
    categories = _categories(data, frame, cap, parsed.specs)
    if categories is None:
        return None
    domains, modes = categories
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
            frame,
        )
    if problems:
        st.error("\n".join(f"- {problem}" for problem in problems), icon=":material/error:")
        return None
    public = {column for column, mode in modes if mode == "public"}  # declared: said above
    for stat in statistics:
        if stat.rows_outside and stat.spec.column in public:
            st.caption(
                f"“{stat.spec.name}”: {formatting.counted(stat.rows_outside, 'row')} hold a "
                "value outside the published categories; they are dropped (their values are "
                "never shown)."
            )
    return Controls(data, cap, statistics, tuple(modes))


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


def budget_rule(controls: Controls) -> tuple[str, str]:
    """How the budget is set and how Gaussian noise is calibrated (rerun the page)."""
    mode = st.radio(
        "How is the budget set?",
        list(summary.MODES),
        format_func=summary.MODES.get,
        key=f"{PAGE}_mode",
        horizontal=True,
        help="Split a total you choose, or work backwards from each row's target to the "
        "smallest total that meets them all (basic composition).",
    )
    calibration = "analytic"
    if controls.gaussian:
        calibration = st.radio(
            "Gaussian noise",
            list(summary.CALIBRATIONS),
            format_func=summary.CALIBRATIONS.get,
            key=f"{PAGE}_calibration",
            horizontal=True,
            help="Analytic: the smallest σ for (ε, δ) (exact profile). OpenDP accounts its "
            "Gaussian in zCDP and converts to (ε, δ) with a bound, so it needs a larger σ for "
            "the same (ε, δ); choose it to make the script's OpenDP maps state exactly the "
            "plan's ε_i.",
        )
    return mode, calibration


@st.fragment(key=f"{PAGE}_explore")
def explore(controls: Controls, mode: str, calibration: str, sections: list[Section]) -> None:
    """ε (and δ), the guarantee and the open section: a fragment, so a step reruns only this."""
    epsilon = None
    if mode != "targets":
        epsilon = epsilon_input(f"{PAGE}_epsilon", label="Total budget ε", default=1.0)
    delta = 0.0
    if controls.gaussian:
        delta = delta_input(
            f"{PAGE}_delta", label="Total δ, shared equally by the Gaussian rows", default=1e-6
        )
    try:
        plan = _plan(controls.statistics, mode, epsilon, delta, calibration)
    except ValueError as error:
        st.error(str(error), icon=":material/error:")
        return
    outputs = formatting.counted(len(plan.rows), "statistic")
    guarantee_box(
        controls.data,
        Guarantee(unit=controls.data.person, parts=(Part("values", plan.epsilon, plan.delta),)),
        outputs=outputs,
        noise="Noise on this page: numpy's floating-point draws from the seed in the sidebar, "
        "for teaching: moving ε rescales one standard draw per statistic, and two values "
        "published at two ε would give the truth away. A real release draws once, with "
        "OpenDP: the script under “For the board”.",
    )
    story(PAGE, sections, Settings(controls, plan, mode, calibration))


# --- section 1: the plan -----------------------------------------------------------------


def the_plan(s: Settings) -> None:
    """Section 1: each statistic's share of the budget, noise, accuracy and a simulated release."""
    plan = s.plan
    total = f"ε = {formatting.epsilon(plan.epsilon)}" + (
        f", δ = {formatting.power_of_ten(plan.delta)}" if plan.delta > 0 else ""
    )
    if s.mode == "targets":
        st.markdown(
            f"**Every target is met with {total} in total**, the smallest total that meets them "
            "(each ε_i solved exactly from its target; basic composition adds them up)."
        )
    else:
        st.markdown(f"**{summary.MODES[s.mode].replace('…', 'Split it')}: {total} in total.**")
    cols = st.columns(3)
    cols[0].metric("Total ε (basic composition)", formatting.epsilon(plan.epsilon))
    cols[1].metric("Total δ", formatting.power_of_ten(plan.delta))
    worst = max(plan.rows, key=lambda r: r.relative_half_width)
    cols[2].metric(
        f"Widest 95% ± of the value ({worst.name})", summary.percent(worst.relative_half_width)
    )
    released = summary.releases(s)
    st.markdown(summary.screen_table(s, released))
    st.caption(
        "Δ: one person's largest effect (L1 for Laplace, L2 for Gaussian; a mean's sum). "
        "noise: the Laplace scale b or the Gaussian σ (a mean: sum / row count). 95% ±: the "
        "noise stays within it 95% of the time. ✓/✗: the target met or missed. Simulated: "
        "one teaching draw at these settings."
    )
    full = st.expander("Every column (sortable)", key=f"{PAGE}_table", on_change="rerun")
    if full.open:
        with full:
            st.dataframe(summary.plan_table(s, released), hide_index=True, width="stretch")
    missed = [r.name for r in plan.rows if r.meets_target is False]
    if missed:
        who = (
            f"“{missed[0]}” misses its target"
            if len(missed) == 1
            else f"{len(missed)} statistics miss their targets ({', '.join(missed)})"
        )
        st.warning(
            f"{who} at this budget. Raise ε, move weight to them, or let the page work "
            "backwards from the targets.",
            icon=":material/warning:",
        )
    charts.show(planner_charts.accuracy(*summary.accuracy_frames(s)), key=f"{PAGE}_accuracy")
    st.caption(
        "Accuracy is the half-width of the noise that holds 95% of the time: Laplace "
        "b ln 20, Gaussian 1.96 σ. A histogram's relative accuracy is against its median "
        "category; a mean's half-width is first-order (noisy sum over noisy row count). "
        "Relative targets and the minimax split read the true values: on confidential data, "
        "choose ε from public or earlier figures, since a budget chosen from the data "
        "depends on it."
    )


@st.fragment(key=f"{PAGE}_release_section")
def a_simulated_release(s: Settings) -> None:
    """Section 2: a simulated release of one statistic beside the truth, and every value."""
    released = summary.releases(s)
    names = [row.name for row in s.plan.rows]
    histograms = [i for i, row in enumerate(s.plan.rows) if row.statistic.spec.kind == "histogram"]
    chosen = st.selectbox(
        "Show a simulated release of",
        names,
        index=histograms[0] if histograms else 0,
        key=f"{PAGE}_shown",
        help="Teaching draws from the seed; the script draws the real release.",
    )
    row = s.plan.rows[names.index(chosen)] if chosen in names else s.plan.rows[0]
    stat = row.statistic
    charts.show(
        charts.noisy_vs_true(
            list(stat.labels),
            {"True value": list(stat.true_values), "Simulated release": released[row.name]},
            noisy="Simulated release",
            half_width=row.half_width,
            value_title=stat.spec.name,
        ),
        key=f"{PAGE}_release",
    )
    st.caption(
        "One teaching draw at these settings (numpy, from the seed), beside the truth; the "
        "error bars are the exact 95% half-width (first order for a mean). A real release "
        "draws once, with OpenDP."
    )
    box = st.expander("Every released value", key=f"{PAGE}_values", on_change="rerun")
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


@st.fragment(key=f"{PAGE}_costs_section")
def what_it_costs(s: Settings) -> None:
    """Section 3: the plan's total by basic, optimal, zCDP and PLD accounting, side by side."""
    delta = delta_input(
        f"{PAGE}_read_delta",
        label="Read the tighter totals at δ =",
        default=READ_DELTA,
        help="Optimal composition, zCDP and PLDs trade a little δ for a smaller ε. Basic "
        "composition stays at its own δ (the sum of the rows' δ_i).",
    )
    try:
        with st.spinner("Composing privacy loss distributions…"):
            found = totals(s.plan.releases, delta)
    except ValueError as error:
        st.error(f"Cannot account for this plan: {error}", icon=":material/error:")
        return
    st.markdown(f"**{summary.cost_sentence(found, delta)}**")
    frame = pd.DataFrame(
        {
            "accountant": [t.name for t in found],
            "epsilon": [t.epsilon if math.isfinite(t.epsilon) else None for t in found],
            "label": [f"ε = {formatting.epsilon(t.epsilon)}" for t in found],
        }
    )
    frame["pad"] = 1.25 * float(frame["epsilon"].max())
    charts.show(planner_charts.accountants(frame), key=f"{PAGE}_accountants")
    st.dataframe(summary.accounting_frame(found), hide_index=True, width="stretch")
    basic_delta = s.plan.delta
    if basic_delta > delta:
        st.warning(
            f"δ = {formatting.power_of_ten(delta)} is below the plan's own δ = "
            f"{formatting.power_of_ten(basic_delta)}: the totals at that δ need more ε than "
            "basic composition's (the optimal one can be infinite). Read them at δ ≥ the plan's.",
            icon=":material/warning:",
        )
    st.caption(
        "Basic and optimal composition know each release only by its (ε_i, δ_i); zCDP and "
        "PLDs look at the noise itself (its scale and sensitivity), so they are tighter for "
        "the same noise. For different mechanisms the optimal bound is Murtagh & Vadhan's "
        "(2016, Thm 1.5) generalisation of Kairouz, Oh & Viswanath (2015, Thm 3.3), computed "
        "exactly over the sums of ±ε_i. zCDP: Laplace noise of scale b is (Δ/b)²/2-zCDP, "
        "Gaussian Δ²/(2σ²); converted with Canonne, Kamath & Steinke (2020), or Bun & "
        "Steinke's ρ + 2√(ρ ln 1/δ). PLD: Google's dp-accounting, pessimistic. A mean counts "
        "as two releases (its sum and its row count). A histogram with Laplace noise counts as "
        "one Laplace release at its L1 sensitivity: that single shift dominates any split of "
        "it over several categories (checked against dp-accounting in the tests)."
    )


# --- section 3: ε in the wild ------------------------------------------------------------


def _deployment_label(row: pd.Series) -> str:
    text = f"{row['organisation']}: {row['deployment']}"
    return text if len(text) <= 64 else text[:61] + "…"


def in_the_wild(s: Settings) -> None:
    """Section 4: published deployments' budgets, with their units, and the plan's total."""
    st.warning(
        "**These numbers are not comparable without their units.** ε = 4 per emoji typed, "
        "renewed with every report (Apple, local DP), and ε = 17.14 per person for a census "
        "published once are different promises; a budget per month adds up over a year; "
        "local DP needs a far larger ε than central DP for the same accuracy. Read the unit "
        "and the period of each before comparing.",
        icon=":material/warning:",
    )
    table = load_reference("deployments")
    published = table[table["epsilon"].notna()]
    points = pd.DataFrame(
        {
            "deployment": published.apply(_deployment_label, axis=1),
            "epsilon": published["epsilon"],
            "model": published["model"],
            "per": "per " + published["per"],
            "unit": published["unit"],
            "period": published["period"],
        }
    )
    points["pad"] = 4.0 * float(max(points["epsilon"].max(), s.plan.epsilon))
    unit = unit_words(s.data)
    marker = charts.marker(
        s.plan.epsilon, f"this plan: ε = {formatting.epsilon(s.plan.epsilon)}, per person, once"
    )
    charts.show(planner_charts.in_the_wild(points, marker), key=f"{PAGE}_wild")
    st.caption(
        f"This plan: ε = {formatting.epsilon(s.plan.epsilon)} by basic composition, for "
        f"{unit}, for one release of these statistics. Two deployments published only a zCDP "
        "ρ and are listed below but not drawn."
    )
    box = st.expander(
        "The published budgets and their sources", key=f"{PAGE}_sources", on_change="rerun"
    )
    if box.open:
        with box:
            st.dataframe(
                table,
                hide_index=True,
                width="stretch",
                column_config={
                    "source": st.column_config.LinkColumn("source"),
                    "registry": st.column_config.LinkColumn("read from"),
                    "year": st.column_config.NumberColumn("year", format="%d"),
                },
            )
            st.caption(
                "Figures as published, read from the OpenDP deployments registry (each row "
                "links the file) and its primary sources; see data/cards/deployments.md."
            )


# --- section 4: for the board --------------------------------------------------------------


def script_data(s: Settings) -> ScriptData:
    """What the OpenDP script needs about the data: its file, person column, cap and unit."""
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
    )


def for_the_board(s: Settings) -> None:
    """Section 5: the one-page report, the OpenDP script and the plan table, to download."""
    st.markdown(
        "**For the board:** the plan on one page (question, data and unit of privacy, "
        "settings, guarantee, accuracy, accounting and this page's address; print it to PDF "
        "from the browser), and a Python script that carries the plan out with OpenDP."
    )
    info = script_data(s)
    here = address()
    cols = st.columns(2)
    with cols[0]:
        st.download_button(
            "Download the one-page report (HTML)",
            data=lambda: board.report_html(s, totals(s.plan.releases, READ_DELTA), here),
            file_name=f"release_plan_{s.data.dataset.key}.html",
            mime="text/html",
            icon=":material/description:",
            key=f"{PAGE}_report",
        )
    with cols[1]:
        st.download_button(
            "Download the OpenDP script",
            data=lambda: opendp_script(s.plan, info),
            file_name=script_file_name(info),
            mime="text/x-python",
            icon=":material/code:",
            key=f"{PAGE}_script",
        )
    export_buttons(
        PAGE,
        s.data,
        lambda: Export(
            title=f"Release plan: {s.data.dataset.title}",
            question="What budget do these statistics need, and how accurate will each one be?",
            table=summary.plan_table(s),
            settings={
                "dataset": s.data.dataset.title,
                "epsilon": formatting.epsilon(s.plan.epsilon),
                "delta": formatting.power_of_ten(s.plan.delta),
                "how": summary.MODES[s.mode],
                "gaussian calibration": summary.CALIBRATIONS[s.calibration]
                if s.controls.gaussian
                else "",
                "cap": s.controls.cap,
                "noise": "numpy, seeded (teaching draws)",
            },
            guarantee="",
            unit=unit_words(s.data),
        ),
        secure=False,
        report_button=False,
    )
    st.caption(
        board.DATA_NOTES.get(s.data.dataset.key, "")
        + f"Run the script with `python3 {script_file_name(info)} --data {info.file_name}`. "
        "It prints what OpenDP's privacy maps state for each statistic and for their "
        "composition, then releases once. `--simulate 1000` (for the data's owner only) "
        "compares many releases with the true values to check the stated accuracy."
    )
    report = st.expander("Preview the report", key=f"{PAGE}_report_preview", on_change="rerun")
    if report.open:
        with report:
            st.iframe(board.report_html(s, totals(s.plan.releases, READ_DELTA), here), height=1000)
    preview = st.expander("The script", key=f"{PAGE}_script_preview", on_change="rerun")
    if preview.open:
        with preview:
            st.code(opendp_script(s.plan, info), language="python")


def closing() -> None:
    """What to notice, and the formulas with their sources."""
    what_to_notice(
        [
            "Splitting equally gives every statistic the same noise in ε but not the same "
            "accuracy: a count of thousands barely moves, a mean of a few rows swings.",
            "Working backwards from targets shows which statistic is expensive: the one with "
            "a large sensitivity (wide bounds, a high cap) or a small true value.",
            "The same noise costs less under tighter accounting: zCDP and privacy loss "
            "distributions read the noise itself, not only each release's (ε_i, δ_i).",
            "A budget is a promise per unit of privacy and per period: compare it with "
            "others' only with the same unit.",
        ]
    )
    formula_box("planner", _formulas, "The formulas")


def _formulas() -> None:
    """The formulas behind the page, with their sources."""
    st.latex(
        r"t_{95\%} = b\ln 20 \;\text{(Laplace, } b = \Delta_1/\varepsilon_i),\qquad "
        r"t_{95\%} = 1.96\,\sigma \;\text{(Gaussian)}"
    )
    st.latex(
        r"\varepsilon_i = \frac{\Delta_1 \ln 20}{t},\qquad "
        r"\sigma^* = \frac{t}{1.96},\; \varepsilon_i = \varepsilon(\sigma^*, \delta_i)"
    )
    st.latex(
        r"\rho_{\text{Lap}} = \tfrac12 (\Delta/b)^2,\quad \rho_{\text{Gauss}} = "
        r"\frac{\Delta^2}{2\sigma^2},\quad \varepsilon = \rho + 2\sqrt{\rho\ln(1/\delta)}"
    )
    st.markdown(
        "Basic composition: Dwork & Roth (2014), Thm 3.16. Optimal composition: Kairouz, "
        "Oh & Viswanath (2015), Thm 3.3; for different mechanisms Murtagh & Vadhan "
        "(2016), Thm 1.5. zCDP: Bun & Steinke (2016), Prop 1.3, 1.4, 1.6, Lemma 2.3; "
        "conversion: Canonne, Kamath & Steinke (2020), Cor 13 (OpenDP's). PLDs: Google's "
        "dp-accounting (Meiser & Mohammadi 2018; Koskela, Jälkö & Honkela 2020). "
        "Analytic Gaussian: Balle & Wang (2018), Thm 8. Sensitivities: one person with "
        "up to m rows (the cap) moves a count by m, a sum clipped to [L, U] by "
        "m·max(|L|, |U|), a histogram by m in L1 and √(q g² + r²) in L2 with at most g "
        "rows in one category. A mean is a noisy clipped sum over a noisy row count, "
        "ε_i/2 each; its half-width is the delta method's (Z_sum − μ Z_rows)/N."
    )
