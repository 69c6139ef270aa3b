"""The bounding page's fragment and its first sections: noisy answers before and after
bounding, and the contributions per person (ui.bounding.tradeoff and ui.bounding.budget hold
the other two)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from data import sources
from dp_core import bounding
from dp_core.bounding import Bounding, release_sensitivity
from dp_core.bounding import noise as bounding_noise
from dp_core.bounding.budget import WeekBudget, week_budget
from dp_core.bounding.error import expected_group_errors
from dp_core.bounding.noise import GroupNoise
from dp_core.gaussian import gaussian_half_width
from dp_core.guarantee import Guarantee, Part
from dp_core.laplace import laplace_half_width
from dp_core.release import noise_name
from ui.bounding import budget, pipeline, tradeoff
from ui.bounding import charts as bounding_charts
from ui.bounding.exercises import EXERCISES
from ui.bounding.inputs import (
    NOISES,
    PAGE,
    BoundingData,
    Choices,
    PrivateChoice,
    bounds_controls,
    path_seed,
    remembered,
    seed_and_draw,
)
from ui.bounding.settings import Settings
from ui.bounding.words import Words, capitalised
from ui.common import charts, formatting
from ui.common.address import linked_choice
from ui.common.errors import translated
from ui.common.exercises import section_exercises
from ui.common.export import Export, export_buttons
from ui.common.i18n import N_, _, language
from ui.common.release import (
    draws_caption,
    guarantee,
    guarantee_box,
    guarantee_text,
    held_release,
    release_again_button,
    unit_words,
)
from ui.common.sections import Section, story
from ui.common.shell import page_rng, presenter_mode, presenter_row
from ui.common.widgets import delta_input, epsilon_input

VIEWS = {  # how the answers chart shows them: the values, or their change from the truth
    "values": N_("bounding.view.values"),
    "difference": N_("bounding.view.difference"),
    "relative": N_("bounding.view.relative"),
}


def story_sections(words: Words) -> list[Section]:
    """The page's sections; the last one's title names the week (or the groups)."""
    cost = (
        _("bounding.section.week") if words.week else _("bounding.section.groups", **words.nouns())
    )
    return [
        Section("answers", _("bounding.section.answers"), noisy_answers),
        Section("contributions", _("bounding.section.contributions"), contributions),
        Section("tradeoff", _("bounding.section.tradeoff"), tradeoff.bias_against_noise),
        Section("budget", cost, budget.what_it_costs),
    ]


def _guarantee(
    data: BoundingData,
    private: PrivateChoice | None,
    week: WeekBudget,
    *,
    statistics: int,
    joint: bool,
    reads: tuple[str, ...],
) -> Guarantee:
    """The noisy answers (all groups at once: n ε per statistic; group by group, with the cap:
    min(l0, n) ε), then the DP choices of the groups, the cap and the bounds."""
    eps, delta = week.sequential if joint else week.capped
    parts = [Part("values", statistics * eps, statistics * delta)]
    categories = data.categories
    if categories.mode == "selected":
        parts.append(Part("categories", categories.epsilon, categories.delta))
    if private is not None and private.cap is not None:
        parts.append(Part("cap", private.cap_epsilon))
    if private is not None and private.bounds is not None:
        parts.append(Part("bounds", private.bounds_epsilon))
    return guarantee(data.data, parts, reads + data.categories.reads)


def outputs(data: BoundingData, statistics: list[str]) -> str:
    """What the release publishes, for the guarantee: "noisy counts and sums of the 7 days"."""
    n, nouns = formatting.count(len(data.labels)), data.words.nouns()
    if len(statistics) == 2:
        return _("bounding.outputs.both", n=n, **nouns)
    return _("bounding.outputs.counts", n=n, **nouns)


@st.fragment
def explore(data: BoundingData, choices: Choices, sections: list[Section]) -> None:
    """ε, the caps and bounds, the guarantee and the open section: an ε step reruns this only."""
    nouns = data.words.nouns()
    budget, caps = presenter_row(1, 1)
    with budget:
        epsilon = epsilon_input(
            f"{PAGE}_epsilon",
            label=_("bounding.epsilon", **nouns),
            default=0.5,
            minimum=0.01,
            maximum=10.0,
        )
        delta = 0.0
        if choices.mechanism == "gaussian":
            delta = delta_input(f"{PAGE}_delta", label=_("bounding.delta", **nouns), default=1e-6)
    with caps:
        bounds, private, reads = bounds_controls(data, choices)
    if bounds is None:
        return
    plan = bounding_noise.NoisePlan(epsilon, choices.joint, choices.mechanism, delta)
    statistics = ["count", "sum"] if bounds.clipped else ["count"]
    n = len(data.labels)
    try:
        noises = {
            name: bounding_noise.group_noise(
                release_sensitivity(name, bounds), plan, max_groups=bounds.max_groups, n_groups=n
            )
            for name in statistics
        }
        week = week_budget(
            release_sensitivity("count", bounds), plan, max_groups=bounds.max_groups, n_groups=n
        )
    except ValueError as error:
        st.error(_("bounding.noise.cannot", error=translated(error)))
        return
    total = _guarantee(
        data, private, week, statistics=len(statistics), joint=choices.joint, reads=reads
    )
    noise = draws_caption(choices.secure, noise_name(choices.mechanism))
    guarantee_box(data.data, total, outputs=outputs(data, statistics), noise=noise)
    settings = Settings(data, choices, plan, bounds, private, noises, week, total)
    story(PAGE, sections, settings)
    pipeline.opendp_box(settings)


# --- 1. Noisy answers, before and after bounding ----------------------------------------------


@st.cache_data(show_spinner=False, max_entries=64)
def _bounded_answers(
    key: tuple, bounds: Bounding, seed: int, draw: int, _frame: pd.DataFrame
) -> pd.DataFrame:
    """Per group: the truth and one bounded draw of the data (dp_core.bounding)."""
    _key, person, group, value, order, labels = key
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
    nouns = words.nouns()
    epsilon = formatting.number(noise.epsilon)
    if noise.mechanism != "gaussian":
        text = _(
            "bounding.answers.laplace_noise",
            sensitivity=formatting.number(noise.sensitivity),
            epsilon=epsilon,
            scale=formatting.readable(noise.scale),
            **nouns,
        )
        joint = _("bounding.answers.whole_l1", **nouns)
    else:
        text = _(
            "bounding.answers.gaussian_noise",
            sigma=formatting.readable(noise.scale),
            sensitivity=formatting.significant(noise.sensitivity, 4),
            epsilon=epsilon,
            delta=formatting.power_of_ten(noise.delta),
            **nouns,
        )
        joint = _("bounding.answers.whole_l2", **nouns)
    return text + (f" {joint}" if noise.joint else "")


def _metrics(s: Settings, answers: pd.DataFrame) -> list[tuple[int, str, str, str]]:
    """(column, label, value, note): records dropped, persons over the cap, the sensitivities."""
    w, b, rows = s.words, s.bounding, s.data.rows
    nouns = w.nouns()
    dropped = int(answers["true_count"].sum() - answers["bounded_count"].sum())
    label = capitalised(_("bounding.metric.dropped", **nouns))
    share = _(
        "bounding.metric.dropped_share", share=_share(dropped / rows), rows=formatting.count(rows)
    )
    metrics = [(0, label, formatting.count(dropped), share)]
    if s.data.person is not None:
        over = bounding.cap_summary(s.data.histogram, [b.max_groups]).iloc[0]
        count = formatting.count(b.max_groups)
        label = capitalised(
            _("bounding.metric.over.one", count=count, **nouns)
            if b.max_groups == 1
            else _("bounding.metric.over.other", count=count, **nouns)
        )
        share = _(
            "bounding.metric.over_share",
            share=_share(over["share_persons_losing_records"]),
            **nouns,
        )
        metrics.append((1, label, formatting.count(int(over["persons_losing_records"])), share))
    if s.has_sums:
        sens = release_sensitivity("sum", b)
        per_record = max(abs(b.lower), abs(b.upper))
        note = (
            _("bounding.metric.pre_aggregated", **nouns)
            if b.pre_aggregate
            else f"{b.max_per_group} × {formatting.number(per_record)}"
        )
        label = _("bounding.metric.sum_sensitivity", **nouns)
        metrics.append((2, label, formatting.number(sens.per_group), note))
        if s.plan.mechanism == "gaussian":
            norm, value = "L2", formatting.significant(sens.l2, 4)
            note = f"√{b.max_groups} × {formatting.number(sens.per_group)}; L1 "
            note += formatting.number(sens.l1)
        else:
            norm, value = "L1", formatting.number(sens.l1)
            note = f"{b.max_groups} × {formatting.number(sens.per_group)}; L2 "
            note += formatting.significant(sens.l2, 4)
        label = _("bounding.metric.sums_sensitivity", norm=norm, **nouns)
        metrics.append((3, label, value, note))
    return metrics


def _share(p: float) -> str:
    """A share as the page writes it: one decimal of a percent (12.5%)."""
    return formatting.fixed(100 * p, 1) + "%"


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
                _("bounding.answers.released_laplace", scale=formatting.readable(r.scale))
                if laplace
                else _("bounding.answers.released_gaussian", sigma=formatting.readable(r.scale)),
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


def _answers(s: Settings) -> pd.DataFrame | None:
    """Per group: the truth and the truth after bounding (this draw), kept while unchanged."""
    key = (s.data.key, s.bounding, *seed_and_draw())
    if s.data.units is not None:
        try:
            return remembered("answers", key, lambda: _path_answers(s.data, s.bounding))
        except ValueError as error:
            st.error(_("bounding.answers.cannot", error=translated(error)))
            return None
    return remembered("answers", key, lambda: _bounded_answers(*key, s.data.frame))


def _series_names(s: Settings) -> tuple[str, str, str]:
    """The chart's three series: the truth, the truth after bounding, the noisy answers."""
    noisy = _("bounding.series.released") if s.choices.secure else _("bounding.series.noisy")
    return _("bounding.series.true"), _("bounding.series.bounded"), noisy


def answers_chart(
    s: Settings, name: str, answers: pd.DataFrame, noisy: np.ndarray, half: float, view: str
) -> charts.Spec:
    """The answers chart of one statistic, as values or as their change from the truth."""
    true = answers[f"true_{name}"].to_numpy(dtype=float)
    bounded = answers[f"bounded_{name}"].to_numpy(dtype=float)
    names = _series_names(s)
    title = s.statistics[name]
    if view == "values":
        return bounding_charts.before_after_noisy(
            s.data.shown_labels, true, bounded, noisy, half, names=names, value_title=title
        )
    if view == "difference":
        value_title = _("bounding.view.difference_title", statistic=title)
        changes = (bounded - true, noisy - true)
        halves = np.full(true.shape, half)
    else:  # relative: percent of the true value (undefined where it is 0)
        value_title = _("bounding.view.relative_title", statistic=title)
        with np.errstate(divide="ignore", invalid="ignore"):
            base = np.where(true != 0, np.abs(true), np.nan)
            changes = (100 * (bounded - true) / base, 100 * (noisy - true) / base)
            halves = 100 * half / base
    return bounding_charts.changes(
        s.data.shown_labels, *changes, halves, names=names[1:], value_title=value_title
    )


def noisy_answers(s: Settings) -> None:
    """Section 1: the truth, the truth after bounding and the noisy answers, per statistic."""
    answers = _answers(s)
    if answers is None:
        return
    metrics = remembered(
        "metrics",
        (s.data.key, s.bounding, *seed_and_draw(), s.plan.mechanism, language()),
        lambda: _metrics(s, answers),
    )
    cols = st.columns(4)
    for column, label, value, note in metrics:
        cols[column].metric(label, value, delta=note, delta_color="off", delta_arrow="off")
    if s.choices.secure:
        release_again_button(PAGE)
    released = _released(s, answers)
    views = {key: _(msgid) for key, msgid in VIEWS.items()}  # shown in this run's language
    view = linked_choice(
        st.radio,
        _("bounding.view.label"),
        views,
        key=f"{PAGE}_view",
        default=next(iter(views)),
        horizontal=True,
        label_visibility="collapsed" if presenter_mode() else "visible",
        help=_("bounding.view.help"),
    )
    specs = []
    for name, title in s.statistics.items():
        noisy, half, release_note = released[name]
        st.subheader(capitalised(title))
        spec = answers_chart(s, name, answers, noisy, half, view)
        specs.append((name, spec))
        charts.show(spec, key=f"{PAGE}_{name}s")
        st.caption(
            _("bounding.sentence_join").join(
                filter(None, [_noise_words(s.noises[name], s.words), release_note])
            )
            + _("bounding.sentence_end")
        )
        box = st.expander(
            _("bounding.answers.table"), key=f"{PAGE}_table_{name}", on_change="rerun"
        )
        if box.open:
            with box:
                st.dataframe(
                    answers_table(s, name, answers, noisy), hide_index=True, width="stretch"
                )
                _table_caption(s)
    dropped = int(answers["true_count"].sum() - answers["bounded_count"].sum())
    noise = _("bounding.list_and").join(
        _("bounding.answers.std_of", std=formatting.readable(n.std), statistic=s.statistics[name])
        for name, n in s.noises.items()
    )
    st.markdown(
        _(
            "bounding.answers.summary",
            dropped=formatting.count(dropped),
            rows=formatting.count(s.data.rows),
            noise=noise,
            **s.words.nouns(),
        )
    )
    export_buttons(
        PAGE,
        s.data.data,
        lambda: page_export(s, answers, released, specs),
        secure=s.choices.secure,
    )
    section_exercises(EXERCISES, "answers", s)


def answers_table(s: Settings, name: str, answers: pd.DataFrame, noisy: np.ndarray) -> pd.DataFrame:
    """One statistic per group as on screen: the truths, the noisy answer, the expected errors."""
    columns = {
        capitalised(s.words.group): s.data.shown_labels,
        _("bounding.table.true"): answers[f"true_{name}"].to_numpy(),
        _("bounding.table.bounded"): answers[f"bounded_{name}"].to_numpy(),
        _("bounding.table.released") if s.choices.secure else _("bounding.table.noisy"): noisy,
    }
    if s.table is not None:
        errors = expected_group_errors(s.table, name, s.bounding, s.plan)
        columns |= {
            _("bounding.table.bias"): errors["bias"].to_numpy(),
            _("bounding.table.selection_sd"): errors["selection_std"].to_numpy(),
            _("bounding.table.noise_sd"): errors["noise_std"].to_numpy(),
            _("bounding.table.rmse"): errors["rmse"].to_numpy(),
        }
    return pd.DataFrame(columns).round(1)


def _table_caption(s: Settings) -> None:
    if s.table is None:
        st.caption(_("bounding.too_many_units"))
        return
    selection = (
        _("bounding.table.caption.random")
        if s.bounding.selection == "random"
        else _("bounding.table.caption.first")
    )
    st.caption(_("bounding.table.caption", selection=selection))


def export_settings(s: Settings) -> dict[str, object]:
    """Every setting that changes what the page shows, named in the reader's language."""
    b, data, plan = s.bounding, s.data, s.plan
    settings: dict[str, object] = {
        _("bounding.export.dataset"): data.data.title,
        _("bounding.export.group"): data.group,
        _("bounding.export.value"): data.value or "—",
        _("bounding.export.mechanism"): _(NOISES[plan.mechanism]),
        _("bounding.export.plan"): _("bounding.export.plan.joint")
        if plan.joint
        else _("bounding.export.plan.sequential"),
        "epsilon": formatting.number(plan.epsilon_per_group),
    }
    if plan.mechanism == "gaussian":
        settings["delta"] = formatting.number(plan.delta)
    if data.person is not None:
        settings |= {
            _("bounding.export.l0"): b.max_groups,
            _("bounding.export.linf"): b.max_per_group,
            _("bounding.export.selection"): b.selection,
        }
    if b.clipped:
        settings |= {
            _("bounding.export.lower"): formatting.number(b.lower),
            _("bounding.export.upper"): formatting.number(b.upper),
            _("bounding.export.pre_aggregate"): _("bounding.yes")
            if b.pre_aggregate
            else _("bounding.no"),
        }
    settings[_("bounding.export.private")] = _("bounding.yes") if s.private else _("bounding.no")
    for name, noise in s.noises.items():
        settings[_("bounding.export.scale", statistic=s.statistics[name])] = formatting.significant(
            noise.scale, 6
        )
    return settings


def page_export(
    s: Settings,
    answers: pd.DataFrame,
    released: dict[str, tuple[np.ndarray, float, str]],
    specs: list[tuple[str, charts.Spec]],
) -> Export:
    """The export of section 1: both statistics' tables in one, every setting, the charts."""
    statistic = _("bounding.export.statistic")
    frames = [
        answers_table(s, name, answers, released[name][0]).assign(**{statistic: s.statistics[name]})
        for name in s.statistics
    ]
    table = pd.concat(frames, ignore_index=True)
    table = table[[statistic, *[c for c in table.columns if c != statistic]]]
    title = _("bounding.export.title", dataset=s.data.data.title)
    return Export(
        title=title,
        question=_("bounding.export.question"),
        table=table,
        settings=export_settings(s),
        guarantee=guarantee_text(
            s.data.data, s.guarantee, outputs=outputs(s.data, list(s.statistics))
        ),
        unit=unit_words(s.data.data),
        charts=[(f"{name}s", spec) for name, spec in specs],
    )


# --- 2. Contributions per person ---------------------------------------------------------------


def contributions(s: Settings) -> None:
    """Section 2: the histogram of groups per person, and what each cap drops."""
    w = s.words
    nouns = w.nouns()
    if s.data.person is None:
        st.info(_("bounding.contributions.none", **nouns))
        return
    st.markdown(_("bounding.contributions.question", **nouns))
    histogram = s.data.histogram
    left, right = st.columns(2)
    with left:
        charts.show(
            bounding_charts.contribution_histogram(
                histogram,
                s.bounding.max_groups,
                x_title=_("bounding.contributions.x", **nouns),
                y_title=capitalised(w.persons),
                cap_label=_(
                    "bounding.contributions.cap", cap=formatting.count(s.bounding.max_groups)
                ),
            ),
            key=f"{PAGE}_histogram",
        )
    caps = bounding.cap_summary(histogram)
    right.dataframe(
        pd.DataFrame(
            {
                _("bounding.contributions.cap_column", **nouns): caps["cap"],
                _("bounding.contributions.dropped", **nouns): caps["records_dropped"],
                _("bounding.contributions.share", **nouns): (
                    100 * caps["share_records_dropped"]
                ).round(2),
                _("bounding.contributions.losing", **nouns): caps["persons_losing_records"],
            }
        ),
        hide_index=True,
    )
    right.caption(_("bounding.contributions.caption", **nouns))
