"""The bounding page's fragment and sections: noisy answers before and after bounding, the
contributions per person, bias against noise, and what the week costs."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import streamlit as st

from data import sources
from dp_core import accounting, bounding, bounding_noise, bounding_search
from dp_core.bounding import Bounding, release_sensitivity
from dp_core.bounding_error import expected_group_errors
from dp_core.bounding_noise import GroupNoise, NoisePlan
from dp_core.bounding_table import ContributionTable
from dp_core.gaussian import gaussian_half_width
from dp_core.guarantee import Guarantee, Part
from dp_core.laplace import laplace_half_width
from dp_core.release import noise_name
from ui.bounding import charts as bounding_charts
from ui.bounding.inputs import (
    PAGE,
    BoundingData,
    Choices,
    PrivateChoice,
    Words,
    bounds_controls,
    path_seed,
    remembered,
    seed_and_draw,
)
from ui.common import charts, formatting
from ui.common.formatting import counted, readable
from ui.common.release import (
    draws_caption,
    guarantee,
    guarantee_box,
    held_release,
    release_again_button,
)
from ui.common.sections import Section, story
from ui.common.shell import formula_box, page_rng, what_to_notice
from ui.common.widgets import delta_input, epsilon_input

ROW_COLORS = [charts.NOISY_COLOR, bounding_charts.BOUNDED_COLOR, charts.SECOND_COLOR]
CHOICE_COLOR = bounding_charts.DP_COLOR


@dataclass(frozen=True, eq=False)
class Settings:
    """What every section of the page depends on."""

    data: BoundingData
    choices: Choices
    plan: NoisePlan
    bounding: Bounding
    private: PrivateChoice | None
    noises: dict[str, GroupNoise]  # per statistic
    budget: accounting.BudgetComparison  # one statistic, three accountings
    guarantee: Guarantee

    @property
    def table(self) -> ContributionTable | None:
        """The contribution units (None: a data path with too many to bring back)."""
        return self.data.table

    @property
    def words(self) -> Words:
        return self.data.words

    @property
    def n_groups(self) -> int:
        return len(self.data.labels)

    @property
    def has_sums(self) -> bool:
        return "sum" in self.noises

    @property
    def statistics(self) -> dict[str, str]:
        """count / sum: what each statistic is called, e.g. "visits per day"."""
        w = self.words
        names = {"count": f"{w.record}s per {w.group}"}
        if self.has_sums:
            names["sum"] = f"{self.data.sum_title} per {w.group}"
        return names

    @property
    def current_label(self) -> str:
        return "DP choice" if self.private else "yours"


def story_sections(words: Words) -> list[Section]:
    """The page's sections; the last one's title names the week (or the groups)."""
    cost = "What the week costs" if words.week else f"What all {words.group}s cost"
    return [
        Section("answers", "Noisy answers, before and after bounding", noisy_answers),
        Section("contributions", "Contributions per person", contributions),
        Section("tradeoff", "Bias against noise", bias_against_noise),
        Section("budget", cost, what_it_costs),
    ]


def _guarantee(
    data: BoundingData,
    private: PrivateChoice | None,
    budget: accounting.BudgetComparison,
    *,
    statistics: int,
    joint: bool,
) -> Guarantee:
    """The noisy answers (all groups at once: n ε per statistic; group by group, with the cap:
    min(l0, n) ε), then the DP choices of the groups, the cap and the bounds."""
    eps = budget.sequential_total if joint else budget.capped_total
    delta = budget.sequential_delta if joint else budget.capped_delta
    parts = [Part("values", statistics * eps, statistics * delta)]
    categories = data.categories
    if categories.mode == "selected":
        parts.append(Part("categories", categories.epsilon, categories.delta))
    if private is not None and private.cap is not None:
        parts.append(Part("cap", private.cap_epsilon))
    if private is not None and private.bounds is not None:
        parts.append(Part("bounds", private.bounds_epsilon))
    return guarantee(data.data, parts)


@st.fragment
def explore(data: BoundingData, choices: Choices, sections: list[Section]) -> None:
    """ε, the caps and bounds, the guarantee and the open section: an ε step reruns this only."""
    words = data.words
    epsilon = epsilon_input(
        f"{PAGE}_epsilon",
        label=f"ε per {words.group}, per statistic",
        default=0.5,
        minimum=0.01,
        maximum=10.0,
    )
    delta = 0.0
    if choices.mechanism == "gaussian":
        delta = delta_input(
            f"{PAGE}_delta", label=f"δ per {words.group}, per statistic", default=1e-6
        )
    bounds, private = bounds_controls(data, choices)
    if bounds is None:
        return
    plan = NoisePlan(epsilon, choices.joint, choices.mechanism, delta)
    statistics = ["count", "sum"] if bounds.clipped else ["count"]
    n = len(data.labels)
    try:
        noises = {
            name: bounding_noise.group_noise(
                release_sensitivity(name, bounds), plan, max_groups=bounds.max_groups, n_groups=n
            )
            for name in statistics
        }
    except ValueError as error:
        st.error(f"Cannot add the noise: {error}")
        return
    budget = accounting.compare_budgets(
        epsilon, n_groups=n, max_groups=bounds.max_groups, delta_per_group=delta
    )
    total = _guarantee(data, private, budget, statistics=len(statistics), joint=choices.joint)
    outputs = f"noisy {' and '.join(s + 's' for s in statistics)} of the {n} {words.group}s"
    noise = draws_caption(choices.secure, noise_name(choices.mechanism))
    guarantee_box(data.data, total, outputs=outputs, noise=noise)
    settings = Settings(data, choices, plan, bounds, private, noises, budget, total)
    story(PAGE, sections, settings)


# --- 1. Noisy answers, before and after bounding ----------------------------------------------


@st.cache_data(show_spinner=False, max_entries=64)
def _bounded_answers(
    key: tuple, bounds: Bounding, seed: int, draw: int, _frame: pd.DataFrame
) -> pd.DataFrame:
    """Per group: the truth and one bounded draw of the data (dp_core.bounding)."""
    _, person, group, value, order, labels = key
    return bounding.bounded_answers(
        page_rng(PAGE, "bounding"),
        _frame,
        bounds,
        id_column=person,
        group_column=group,
        value_column=value if bounds.clipped else None,
        order_column=order,
        groups=pd.Index(labels, name=group),
    )


def _path_answers(data: BoundingData, bounds: Bounding) -> pd.DataFrame:
    """Per group, the truth and the truth after bounding, computed by the engine where the
    data lie (data.sources.bounded_statistics; "random" keeps a seeded choice)."""
    stats = sources.bounded_statistics(
        data.data.origin,
        bounds,
        person=data.person,
        group=data.group,
        value=data.value if bounds.clipped else None,
        order=data.order,
        seed=path_seed(),
        groups=data.labels,
    )
    return stats.answers


def _noise_words(noise: GroupNoise, words: Words) -> str:
    """Laplace noise with scale 4 / 0.5 = 8, or Gaussian noise with σ = ..., in words."""
    gaussian = noise.mechanism == "gaussian"
    whole = f" (all {words.group}s' L{2 if gaussian else 1} sensitivity, whole budget)"
    whole = whole if noise.joint else ""
    if not gaussian:
        return (
            f"Laplace noise with scale {noise.sensitivity:g} / "
            f"{formatting.number(noise.epsilon)} = {readable(noise.scale)} on every "
            f"{words.group}{whole}"
        )
    return (
        f"Gaussian noise with σ = {readable(noise.scale)} on every {words.group}: the analytic "
        f"Gaussian for sensitivity {noise.sensitivity:.4g}{whole} at ε = "
        f"{formatting.number(noise.epsilon)}, δ = {formatting.power_of_ten(noise.delta)}"
    )


def _metrics(s: Settings, answers: pd.DataFrame) -> list[tuple[int, str, str, str]]:
    """(column, label, value, note): records dropped, persons over the cap, the sensitivities."""
    w, b, rows = s.words, s.bounding, s.data.rows
    dropped = int(answers["true_count"].sum() - answers["bounded_count"].sum())
    label = f"{w.record.capitalize()}s dropped by the caps"
    metrics = [(0, label, f"{dropped:,}", f"{dropped / rows:.1%} of {rows:,}")]
    if s.data.person is not None:
        over = bounding.cap_summary(s.data.histogram, [b.max_groups]).iloc[0]
        label = f"{w.person.capitalize()}s with more than {counted(b.max_groups, w.group)}"
        share = f"{over['share_persons_losing_records']:.1%} of {w.person}s"
        metrics.append((1, label, f"{int(over['persons_losing_records']):,}", share))
    if s.has_sums:
        sens = release_sensitivity("sum", b)
        per_record = max(abs(b.lower), abs(b.upper))
        note = "one clipped total per person" if b.pre_aggregate else f"{b.max_per_group} × "
        if not b.pre_aggregate:
            note += f"{per_record:g}"
        metrics.append((2, f"Sensitivity of one {w.group}'s sum", f"{sens.per_group:g}", note))
        if s.plan.mechanism == "gaussian":
            norm, value = "L2", f"{sens.l2:.4g}"
            note = f"√{b.max_groups} × {sens.per_group:g}; L1 {sens.l1:g}"
        else:
            norm, value = "L1", f"{sens.l1:g}"
            note = f"{b.max_groups} × {sens.per_group:g}; L2 {sens.l2:.4g}"
        metrics.append((3, f"Sensitivity of all {w.group}s' sums ({norm})", value, note))
    return metrics


def _released(s: Settings, answers: pd.DataFrame) -> dict[str, tuple[np.ndarray, float, str]]:
    """Per statistic: the noisy answers shown, their 95% half-width, and the noise in words."""
    bounded = {name: answers[f"bounded_{name}"].to_numpy(dtype=float) for name in s.noises}
    if s.choices.secure:
        releases = held_release(
            PAGE,
            (s.data.key, s.bounding, s.plan),
            lambda: {
                name: bounding_noise.release_groups(bounded[name], noise)
                for name, noise in s.noises.items()
            },
        )
        laplace = s.plan.mechanism == "laplace"
        half = laplace_half_width if laplace else gaussian_half_width
        return {
            name: (
                r.values,
                half(r.scale),
                f"Released by OpenDP with {'b' if laplace else 'σ'} = {readable(r.scale)}"
                + ("" if laplace else " (its zCDP accounting needs more than the analytic σ)"),
            )
            for name, r in releases.items()
        }
    rng = page_rng(PAGE, "answers")
    gaussian = s.plan.mechanism == "gaussian"
    standard = rng.normal(size=(2, s.n_groups)) if gaussian else rng.laplace(size=(2, s.n_groups))
    return {  # moving ε rescales one standard draw
        name: (bounded[name] + noise.scale * standard[i], noise.half_width, "")
        for i, (name, noise) in enumerate(s.noises.items())
    }


def noisy_answers(s: Settings) -> None:
    """Section 1: the truth, the truth after bounding and the noisy answers, per statistic."""
    w = s.words
    key = (s.data.key, s.bounding, *seed_and_draw())
    if s.data.units is not None:
        try:
            answers = remembered("answers", key, lambda: _path_answers(s.data, s.bounding))
        except ValueError as error:
            st.error(f"Cannot compute the answers: {error}")
            return
    else:
        answers = remembered("answers", key, lambda: _bounded_answers(*key, s.data.frame))
    metrics = remembered("metrics", (key, s.plan.mechanism), lambda: _metrics(s, answers))
    cols = st.columns(4)
    for column, label, value, note in metrics:
        cols[column].metric(label, value, delta=note, delta_color="off", delta_arrow="off")
    dropped = int(answers["true_count"].sum() - answers["bounded_count"].sum())
    if s.choices.secure:
        release_again_button(PAGE)
    released = _released(s, answers)
    noisy_name = "Released (OpenDP)" if s.choices.secure else "Noisy (± 95% of noise)"
    for name, title in s.statistics.items():
        noisy, half, release_note = released[name]
        st.subheader(title.capitalize())
        charts.show(
            bounding_charts.before_after_noisy(
                list(s.data.labels),
                answers[f"true_{name}"].to_numpy(dtype=float),
                answers[f"bounded_{name}"].to_numpy(dtype=float),
                noisy,
                half,
                noisy_name=noisy_name,
                value_title=title,
            ),
            key=f"{PAGE}_{name}s",
        )
        st.caption(". ".join(filter(None, [_noise_words(s.noises[name], w), release_note])) + ".")
        box = st.expander("The table", key=f"{PAGE}_table_{name}", on_change="rerun")
        if box.open:
            with box:
                _answers_table(s, name, answers, noisy)
    noise = " and ".join(
        f"{readable(n.std)} for the {s.statistics[name]}" for name, n in s.noises.items()
    )
    st.markdown(
        f"**Bounding dropped {dropped:,} of {s.data.rows:,} {w.record}s; the noise on "
        f"each {w.group} has standard deviation {noise}.**"
    )


def _answers_table(s: Settings, name: str, answers: pd.DataFrame, noisy: np.ndarray) -> None:
    if s.table is None:
        st.dataframe(
            pd.DataFrame(
                {
                    s.words.group: list(s.data.labels),
                    "true, all records": answers[f"true_{name}"].to_numpy(),
                    "true after bounding": answers[f"bounded_{name}"].to_numpy(),
                    "released" if s.choices.secure else "noisy": noisy,
                }
            ).round(1),
            hide_index=True,
            width="stretch",
        )
        st.caption(_TOO_MANY_UNITS)
        return
    errors = expected_group_errors(s.table, name, s.bounding, s.plan)
    st.dataframe(
        pd.DataFrame(
            {
                s.words.group: list(s.data.labels),
                "true, all records": answers[f"true_{name}"].to_numpy(),
                "true after bounding": answers[f"bounded_{name}"].to_numpy(),
                "released" if s.choices.secure else "noisy": noisy,
                "expected bias": errors["bias"].to_numpy(),
                "selection sd": errors["selection_std"].to_numpy(),
                "noise sd": errors["noise_std"].to_numpy(),
                "expected RMSE": errors["rmse"].to_numpy(),
            }
        ).round(1),
        hide_index=True,
        width="stretch",
    )
    st.caption(
        "Expected RMSE = √(bias² + selection sd² + noise sd²), computed exactly, without "
        "sampling. "
        + (
            "The bias is averaged over the random choice of kept records, and “selection sd” "
            "is how much that choice alone moves the answer;"
            if s.bounding.selection == "random"
            else "Keeping the first records is deterministic, so the selection sd is 0;"
        )
        + " “true after bounding” is this draw."
    )


# --- 2. Contributions per person ---------------------------------------------------------------


def contributions(s: Settings) -> None:
    """Section 2: the histogram of groups per person, and what each cap drops."""
    w = s.words
    if s.data.person is None:
        st.info(
            f"Each row is one {w.person} here: nobody contributes to more than one "
            f"{w.group}, so there is nothing to cap. Only clipping matters."
        )
        return
    st.markdown(f"**How many {w.group}s does each {w.person} contribute?**")
    histogram = s.data.histogram
    left, right = st.columns(2)
    with left:
        charts.show(
            bounding_charts.contribution_histogram(
                histogram, s.bounding.max_groups, person=w.person, group=w.group
            ),
            key=f"{PAGE}_histogram",
        )
    caps = bounding.cap_summary(histogram)
    right.dataframe(
        pd.DataFrame(
            {
                f"cap on {w.group}s": caps["cap"],
                f"{w.record}s dropped": caps["records_dropped"],
                f"% of {w.record}s": (100 * caps["share_records_dropped"]).round(2),
                f"{w.person}s losing {w.record}s": caps["persons_losing_records"],
            }
        ),
        hide_index=True,
    )
    right.caption(
        f"From the histogram alone: {w.record}s kept at cap c = Σ_k n_k · min(k, c), every cap "
        "at once."
    )


# --- 3. Bias against noise --------------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=32)
def _best_bounds(
    key: tuple, bounds: Bounding, plan: NoisePlan, grid: tuple, _table: ContributionTable
) -> tuple[float, float, float]:
    """The best pair (L, U) over the grid (dp_core.bounding_search.best_bounds)."""
    return bounding_search.best_bounds(_table, bounds, plan, lowers=grid, uppers=grid)


def _spread(s: Settings, which: str) -> tuple[float, float, float, str] | None:
    """The DP choice of the cap, L or U, and the range holding 90% of such draws."""
    p = s.private
    if p is None or (p.cap if which == "cap" else p.bounds) is None:
        return None
    if which == "cap":  # a band one cap wide around each whole number
        return p.cap.cap, p.cap_spread.low - 0.5, p.cap_spread.high + 0.5, "90% of DP choices"
    spread = p.lower_spread if which == "lower" else p.upper_spread
    chosen = p.bounds.lower if which == "lower" else p.bounds.upper
    return chosen, spread.low, spread.high, "90% of DP choices"


def _cap_tradeoff(s: Settings, statistic: str, y_title: str) -> None:
    w, b = s.words, s.bounding
    caps = np.arange(1, s.n_groups + 1)
    by_cap = bounding_search.cap_tradeoff(s.table, statistic, b, s.plan, caps=caps)
    best, best_rmse = bounding_search.best_setting(by_cap, caps)
    charts.show(
        bounding_charts.tradeoff(
            "cap",
            by_cap,
            "cap",
            best=(best, best_rmse, f"best: {best:g}"),
            current=(b.max_groups, f"{s.current_label}: {b.max_groups}"),
            private=_spread(s, "cap"),
            with_selection=bool(by_cap["selection_std"].any()),
            x_title=f"cap on {w.group}s per {w.person}",
            y_title=y_title,
            caps=True,
        ),
        key=f"{PAGE}_cap_tradeoff",
    )
    mine = float(by_cap.loc[by_cap["cap"] == b.max_groups, "rmse"].iloc[0])
    who = "the DP choice" if s.private and s.private.cap else "yours"
    st.markdown(
        f"**Best cap on {w.group}s: {best}** (expected error {readable(best_rmse)} per "
        f"{w.group}); {who}, {b.max_groups}, gives {readable(mine)}."
    )
    if not s.plan.joint:
        st.caption(
            f"{w.group.capitalize()} by {w.group}, each {w.group}'s noise depends only on what "
            f"one {w.person} adds to that {w.group}, so the cap on {w.group}s does not change "
            f"the noise: it changes what the week really costs (see the budget). Choose “all "
            f"{w.group}s at once” to see the trade-off."
        )


def _bounds_tradeoff(s: Settings, y_title: str) -> None:
    w, b, data = s.words, s.bounding, s.data
    grid = np.linspace(*data.bound_range, 51 if len(s.table.unit_group) <= 20_000 else 21)
    pair_lower, pair_upper, pair_rmse = _best_bounds(data.key, b, s.plan, tuple(grid), s.table)
    bound = st.radio(
        "Clipping bound on the chart",
        ["upper", "lower"],
        format_func=lambda side: f"{side} bound {'U' if side == 'upper' else 'L'}",
        horizontal=True,
        key=f"{PAGE}_tradeoff_bound",
    )
    lower, upper = b.lower, b.upper
    if bound == "upper":
        values = np.linspace(lower, lower + 2 * (upper - lower), 101)[1:]
        summary = bounding_search.upper_tradeoff(s.table, b, s.plan, uppers=values)
        current, other, pair = upper, f"L = {lower:g}", (pair_upper, f"L = {pair_lower:.4g}")
    else:
        values = np.linspace(upper - 2 * (upper - lower), upper, 101)[:-1]
        summary = bounding_search.lower_tradeoff(s.table, b, s.plan, lowers=values)
        # from the largest L down, so that on a tie the narrowest bounds win
        values, summary = values[::-1], summary.iloc[::-1]
        current, other, pair = lower, f"U = {upper:g}", (pair_lower, f"U = {pair_upper:.4g}")
    best, best_rmse = bounding_search.best_setting(summary, values)
    letter = "U" if bound == "upper" else "L"
    charts.show(
        bounding_charts.tradeoff(
            "bound",
            summary,
            bound,
            best=(best, best_rmse, f"best: {best:.4g}"),
            current=(current, f"{s.current_label}: {current:.4g}"),
            pair=(pair[0], pair_rmse, f"best pair: {pair[1]} too"),
            private=_spread(s, bound),
            with_selection=bool(summary["selection_std"].any()),
            x_title=f"{bound} clipping bound {letter} for {data.value}",
            y_title=y_title,
            caps=False,
        ),
        key=f"{PAGE}_bound_tradeoff",
    )
    st.markdown(
        f"**Best {bound} bound: {best:,.4g}** (expected error {readable(best_rmse)} per "
        f"{w.group}, with {other} and a cap of {b.max_groups}). **Best pair: L = "
        f"{pair_lower:,.4g}, U = {pair_upper:,.4g}** (expected error {readable(pair_rmse)}, the "
        f"diamond): both bounds moved at once, on a {grid.size} × {grid.size} grid from "
        f"{grid[0]:g} to {grid[-1]:g}. A lower bound above the smallest values adds to every "
        "sum, so it can offset what the caps drop."
    )


_TOO_MANY_UNITS = (
    "The expected errors need every contribution unit (a person's records in a group, with "
    "their values), and this table has more distinct units than the engine brings back "
    "(data.sources.units.DEFAULT_LIMIT): with fewer distinct values (e.g. rounded amounts) or "
    "the data in memory (a CSV upload) they are computed exactly."
)


@st.fragment
def bias_against_noise(s: Settings) -> None:
    """Section 3: the expected error of every cap and every bound, the best starred."""
    w = s.words
    if s.table is None:
        st.info(_TOO_MANY_UNITS)
        return
    statistics = s.statistics
    chosen = st.radio(
        "Statistic",
        list(statistics),
        format_func=statistics.get,
        index=len(statistics) - 1,
        horizontal=True,
        key=f"{PAGE}_tradeoff_statistic",
    )
    y_title = f"typical error per {w.group} (RMS over {w.group}s)"
    if s.data.person is not None:
        _cap_tradeoff(s, chosen, y_title)
    if chosen == "sum":
        _bounds_tradeoff(s, y_title)
    gaussian = s.plan.mechanism == "gaussian"
    noise = "the Gaussian variance σ²" if gaussian else "the Laplace variance 2b²"
    private = (
        "The DP choice is marked with the range that holds 90% of its draws: the price of not "
        "looking is how far that range strays from the star."
        if s.private
        else "Or switch on “choose with DP” above."
    )
    st.caption(
        "Expected RMSE² = bias² + selection variance + noise variance, each computed exactly "
        "(no sampling): bias = expected answer after bounding − truth; selection variance = the "
        "spread of the random choice of kept records (0 when keeping the first); noise = "
        f"{noise}. The star is the smallest RMSE on the line. Choosing the cap or the bounds by "
        "looking at the data, as the star does, itself leaks information: a real release fixes "
        f"them in advance or spends budget on choosing them. {private}"
    )


# --- 4. What the week costs -------------------------------------------------------------------


def _spent(eps: float, delta: float, gaussian: bool) -> str:
    """3.5, or (3.5, 7×10⁻⁶) with Gaussian noise."""
    eps_text = formatting.number(round(eps, 9))
    return f"({eps_text}, {formatting.power_of_ten(delta)})" if gaussian else eps_text


def _choice_parts(s: Settings) -> list[tuple[float, str]]:
    """The DP steps before the noisy answers (groups, cap, bounds): (ε, what)."""
    parts = [(p.epsilon, p.name) for p in s.guarantee.parts if p.name != "values"]
    return [(eps, name) for eps, name in parts if eps > 0]


def what_it_costs(s: Settings) -> None:
    """Section 4: one statistic per group, composed three ways; the choices on top."""
    w, budget, n = s.words, s.budget, s.n_groups
    gaussian = s.plan.mechanism == "gaussian"
    eps, delta = s.plan.epsilon_per_group, s.plan.delta
    touched = min(s.bounding.max_groups, n)
    per_group = _spent(eps, delta, gaussian)
    sequential = _spent(budget.sequential_total, budget.sequential_delta, gaussian)
    capped = _spent(budget.capped_total, budget.capped_delta, gaussian)
    if gaussian:  # the counts' noise, one release per group against one release of all groups
        by_group, at_once = (
            bounding_noise.group_noise(
                release_sensitivity("count", s.bounding),
                replace(s.plan, joint=joint),
                max_groups=s.bounding.max_groups,
                n_groups=n,
            ).std
            for joint in (False, True)
        )
        joint_note = f"σ = {readable(at_once)} on the counts, not {readable(by_group)}"
    else:
        joint_note = f"noise as at ε = {budget.joint_epsilon_per_group:.3g} per {w.group}"
    choices = _choice_parts(s)
    extra = [(e, CHOICE_COLOR) for e, _ in choices]
    rows = [
        (
            f"{w.group.capitalize()} by {w.group}",
            [(eps, ROW_COLORS[0])] * n + extra,
            f"{n} × {per_group} = {sequential}",
        ),
        (
            f"Same noise, with the cap of {s.bounding.max_groups}",
            [(eps, ROW_COLORS[1])] * touched + extra,
            f"{touched} × {per_group} = {capped}",
        ),
        (
            f"All {w.group}s at once",
            [(budget.sequential_total, ROW_COLORS[2]), *extra],
            f"{sequential}: {joint_note}",
        ),
    ]
    charts.show(bounding_charts.budget(rows), key=f"{PAGE}_budget")
    composition = (
        "basic composition (ε and δ both add up)" if gaussian else "sequential composition"
    )
    st.markdown(
        f"**{n} {w.group}s at {'(ε, δ)' if gaussian else 'ε'} = {per_group} each cost "
        f"{sequential} for one statistic by {composition}.** Because no {w.person} is in more "
        f"than {counted(s.bounding.max_groups, w.group)} after capping, the same noisy answers "
        f"cost {'at most' if gaussian else 'only'} {capped}; or the full {sequential} spent on "
        "one "
        + (
            f"Gaussian release of all {w.group}s, at L2 sensitivity √{touched} × the "
            f"per-{w.group} sensitivity, gives {joint_note}."
            if gaussian
            else f"release buys noise as small as ε = {budget.joint_epsilon_per_group:.3g} per "
            f"{w.group}."
        )
    )
    if choices:
        named = ", ".join(f"{name} ε = {formatting.number(e)}" for e, name in choices)
        st.caption(
            f"The purple segments are spent before any answer, once for the whole release: "
            f"choosing the {named}. They add to every row."
        )
    if gaussian and budget.sequential_delta >= 1:
        st.warning(
            f"{n} × δ = {budget.sequential_delta:g} is not below 1: composed over every "
            f"{w.group}, the guarantee says nothing. Lower δ."
        )
    if gaussian:
        st.caption(
            "Basic composition is a safe bound, not the tightest: for Gaussian noise, accounting "
            "by the privacy loss distribution or zCDP gives a smaller total ε at the same δ."
        )
    if s.has_sums:
        both = _spent(2 * budget.sequential_total, 2 * budget.sequential_delta, gaussian)
        st.caption(
            f"This page publishes two statistics per {w.group} (counts and sums): each costs "
            f"this much, so the total is twice: {both} {w.group} by {w.group}."
        )
    total = s.guarantee
    st.caption(
        f"The guarantee above adds it all up: {formatting.epsilon(total.epsilon)}"
        + (f", δ = {formatting.power_of_ten(total.delta)}" if total.delta > 0 else "")
        + (
            f", with the cap's accounting ({touched} {w.group}s per {w.person})."
            if not s.plan.joint
            else f", {w.group}s released all at once."
        )
    )


# --- Closing ----------------------------------------------------------------------------------


def closing(words: Words) -> None:
    """What to notice, and the formula with its sources."""
    person, record, group = words.person, words.record, words.group
    what_to_notice(
        [
            f"A lower cap drops more {record}s (bias) but lets the noise shrink: the best cap "
            "balances the two, and it moves with ε.",
            "Clipping the values does the same for sums: a low upper bound biases every "
            f"{group} down; a high one buys noise for a few outliers.",
            f"Pre-aggregation sums each {person}'s {record}s in a {group} before clipping, so "
            f"one {group}'s sensitivity is max(|L|, |U|) however many {record}s they have: "
            "65 for a day of three meals instead of 3 × 50 = 150 for three meals clipped at 50.",
            f"Keeping the *first* {record}s (in day order) biases late {group}s most; a random "
            "choice spreads the bias but adds its own spread (the selection sd), which at a low "
            "cap can exceed the noise.",
            f"The {group} by {group} total overstates the cost when each {person} is in "
            f"only a few {group}s: the cap is what makes the tighter accounting true.",
            f"Gaussian noise on all {group}s at once uses the L2 sensitivity √ℓ0 · Δ, not the "
            "L1 sensitivity ℓ0 · Δ: its noise grows with the square root of the cap, not in "
            "proportion to it as Laplace noise does, so a higher cap costs less (in return for "
            "a small δ).",
            "The star needs the data; a cap and bounds chosen with DP quantiles cost a little "
            "ε and land near it, never on information the release does not pay for.",
        ]
    )
    formula_box("bounding", lambda: _formulas(person, record))


def _formulas(person: str, record: str) -> None:
    """The formulas behind the page, with their sources."""
    st.latex(
        r"\Delta_\infty^{\text{count}} = \ell_\infty,\quad "
        r"\Delta_1^{\text{count}} = \ell_0\,\ell_\infty,\quad "
        r"\Delta_2^{\text{count}} = \sqrt{\ell_0}\,\ell_\infty"
    )
    st.latex(
        r"\Delta_\infty^{\text{sum}} = \ell_\infty \max(|L|,|U|)\ \ "
        r"(\text{pre-aggregated: } \max(|L|,|U|)),\quad "
        r"\Delta_1^{\text{sum}} = \ell_0\,\Delta_\infty^{\text{sum}}"
    )
    st.latex(
        r"\text{kept at cap } c = \sum_k n_k \min(k, c),\qquad "
        r"\mathrm{RMSE} = \sqrt{\mathrm{bias}^2 + \mathrm{Var}_{\text{sel}} + "
        r"\mathrm{Var}_{\text{noise}}},\ "
        r"\mathrm{Var}_{\text{noise}} = 2b^2,\ b = \Delta_1 / \varepsilon\ \text{(Laplace)}"
    )
    st.latex(
        r"\mathrm{Var}_{\text{noise}} = \sigma^2:\ \text{the smallest } \sigma \text{ with } "
        r"\Phi\!\left(\tfrac{\Delta_2}{2\sigma} - \tfrac{\varepsilon\sigma}{\Delta_2}\right)"
        r" - e^{\varepsilon}\,\Phi\!\left(-\tfrac{\Delta_2}{2\sigma} - "
        r"\tfrac{\varepsilon\sigma}{\Delta_2}\right) \le \delta\ \text{(analytic Gaussian)}"
    )
    st.latex(
        r"\mathrm{Var}_{\text{sel}}(g) = \sum_{u \in g} \pi_u \operatorname{Var}(Y_u) + "
        r"\pi_u (1 - \pi_u)\, E[Y_u]^2,\quad \pi_u = \min(1, \ell_0 / k_u)"
        r"\quad\Big(= \sum_{u \in g} p_u (1 - p_u)\, v_u^2 \text{ with one record per unit}"
        r"\Big)"
    )
    st.latex(
        r"\varepsilon_{\text{week}} = \sum_{d=1}^{7} \varepsilon_d \ \ "
        r"\text{(sequential)},\qquad "
        r"\varepsilon_{\text{week}} = \min(\ell_0, 7)\,\varepsilon_d\ \ "
        r"\text{(a person is in at most } \ell_0 \text{ days)};\ "
        r"\delta \text{ adds up the same way}"
    )
    st.latex(
        r"P(c) \propto \exp\!\Big(\frac{\varepsilon\,\mathrm{score}(c)}{2\Delta}\Big),\ "
        r"\mathrm{score}(c) = -\big|(1 - \alpha)\,\#(x < c) - \alpha\,\#(x > c)\big|,\ "
        r"\Delta = m \max(\alpha, 1 - \alpha)"
    )
    st.markdown(
        f"Neighbouring datasets on this page: one {person} added or removed, with all their "
        f"{record}s (not one {record} replaced). "
        "ℓ0: groups per person, ℓ∞: records per person in a group, [L, U]: clipping bounds. "
        "Sensitivities: Wilson et al., *Differentially "
        "private SQL with bounded user contribution* (PoPETs 2020); Laplace mechanism and "
        "sequential (basic) composition of ε and δ: Dwork & Roth (2014), Thm 3.6 and 3.16; "
        "analytic Gaussian mechanism: Balle & Wang, *Improving the Gaussian mechanism for "
        "differential privacy* (ICML 2018), Thm 8. Error model as in "
        "PipelineDP's utility analysis, plus the selection term. A random choice keeps each "
        "of a person's k groups with probability π = min(1, ℓ0 / k) and, in a kept group, a "
        "uniformly random ℓ∞ of their r records. A unit u is one person's records in group "
        "g, Y_u what it adds to g once ℓ∞ and clipping apply: Var(Y_u) is the variance of a "
        "simple random sample of min(r, ℓ∞) of r values (Cochran, *Sampling Techniques*, "
        "Thm 2.2), 0 for counts and for pre-aggregated totals. The formula is exact for "
        "these two caps, because a person enters a group's answer through one unit only and "
        "persons choose independently. With at most one record per person per group (the "
        "restaurant week) it is Σ p(1 − p) v², p = min(1, ℓ0 / k), v the clipped value (1 "
        "for counts). That per-record sum is not the variance when someone has several "
        "records in a group (they are kept or dropped together by ℓ0 and compete for the ℓ∞ "
        "places), so the page uses the unit formula. DP cap and bounds: the exponential "
        "mechanism's α-quantile over a public grid (Smith 2011; McSherry & Talwar 2007; "
        "OpenDP's make_private_quantile), m values per person at most; the bounds spend "
        "ε/2 each. Released groups: public, declared, or chosen by Laplace-threshold "
        "partition selection (Wilson et al. 2020). Secure releases: OpenDP's discrete "
        "Laplace and Gaussian (Canonne, Kamath & Steinke 2020). Restaurant week: Google's "
        "differential-privacy library examples."
    )
