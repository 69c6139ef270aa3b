"""The Laplace page's controls and sections: noisy vs true, the noise, error vs ε, averaging."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from data.registry import category_counts
from dp_core import answers, composition, laplace
from dp_core.guarantee import Guarantee, Part
from dp_core.release import noise_name
from ui.common import charts, formatting
from ui.common.address import keep, linked_index
from ui.common.catalog import entry
from ui.common.exercises import section_exercises
from ui.common.export import Export, export_buttons
from ui.common.i18n import _, n_
from ui.common.labels import category_label, category_labels
from ui.common.query_picker import QueryChoice, pick_query
from ui.common.release import (
    draws_caption,
    guarantee,
    guarantee_box,
    guarantee_text,
    held_release,
    release_again_button,
    secure_toggle,
    unit_words,
)
from ui.common.sections import Section, story
from ui.common.shell import formula_box, page_rng, settings_area, what_to_notice
from ui.common.widgets import epsilon_input, log_grid
from ui.laplace import charts as laplace_charts
from ui.laplace.exercises import EXERCISES

SHOWN = 30  # bars in a chart; the table lists every group
GRID = np.array(log_grid(0.01, 10))
REPEATS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 100_000]
DEFAULT_REPEATS = 100


@dataclass(frozen=True)
class Settings:
    """What every section of the page depends on."""

    choice: QueryChoice
    epsilon: float
    secure: bool
    guarantee: Guarantee

    @property
    def scale(self) -> float:
        """b = Δ / ε, or Δ / (ε/2) for the mean's clipped sum (half the budget)."""
        query = self.choice.query
        share = self.epsilon / 2 if query.kind == "mean" else self.epsilon
        return laplace.laplace_scale(query.sensitivity, share)


def data_controls() -> tuple[QueryChoice, bool] | None:
    """The data, the query and the kind of noise: settings that rerun the whole page."""
    with settings_area():
        secure = secure_toggle("laplace")
        choice = pick_query("laplace", rng=page_rng("laplace", "categories"), secure=secure)
    return None if choice is None else (choice, secure)


def try_this(choice: QueryChoice | None) -> str:
    """The header's "try this": it names the smallest category of a shipped dataset's column
    (the query's, else the first), and speaks of no category by name for the user's own data."""
    if choice is None or choice.data.own:
        return _("laplace.try_this.generic")
    dataset = choice.data.dataset
    column = choice.query.spec.category or next(iter(dataset.categorical), None)
    if column is None:
        return _("laplace.try_this.generic")
    counts = category_counts(dataset.key, column)  # largest first, ties by category
    smallest = str(counts[counts == counts.iloc[-1]].index[0])
    # A number alone ("2") says nothing: name its column as a predicate does ("day = 2").
    shown = f"{column} = {smallest}" if smallest.isdigit() else category_label(column, smallest)
    return _("laplace.try_this", category=shown)


def _display_labels(choice: QueryChoice) -> list[str]:
    """The groups as the reader sees them: a shipped column's categories translated (the
    data keep theirs), an own file's categories and a predicate as they are."""
    query = choice.query
    if choice.data.own or query.kind == "predicate":
        return list(query.labels)
    return category_labels(query.spec.category, query.labels)


def _outputs(choice: QueryChoice) -> str:
    """What the release publishes, for the guarantee: e.g. "4 noisy counts"."""
    query = choice.query
    size = len(query.labels)
    values = {"count": formatting.count(size), "column": query.spec.value}
    if query.kind == "predicate":
        return _("laplace.outputs.predicate")
    if query.kind == "mean":
        return n_("laplace.outputs.mean", "laplace.outputs.mean.other", size, **values)
    if query.kind == "sum":
        return n_("laplace.outputs.sum", "laplace.outputs.sum.other", size, **values)
    return n_("laplace.outputs.count", "laplace.outputs.count.other", size, **values)


@st.fragment
def explore(choice: QueryChoice, secure: bool, sections: list[Section]) -> None:
    """ε, the guarantee and the open section: a fragment, so an ε step reruns only this."""
    epsilon = epsilon_input("laplace_epsilon", default=1.0)
    parts = [Part("values", epsilon)]
    if choice.categories is not None and choice.categories.mode == "selected":
        parts.append(Part("categories", choice.categories.epsilon, choice.categories.delta))
    settings = Settings(choice, epsilon, secure, guarantee(choice.data, parts, choice.reads))
    guarantee_box(
        choice.data,
        settings.guarantee,
        outputs=_outputs(choice),
        noise=draws_caption(secure, noise_name("laplace")),
    )
    story("laplace", sections, settings)


def _release_key(s: Settings) -> tuple:
    """What a held release depends on: a new cap, bound or ε is a new release (a new language
    is not)."""
    query = s.choice.query
    return (s.choice.data.source, query.spec, s.epsilon, query.sensitivity, tuple(query.labels),
            tuple(query.true_values))  # fmt: skip


def _noisy_answers(s: Settings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The noisy answers shown, their 95% half-widths and their expected |error|: teaching
    draws, or the OpenDP release held for these inputs (dp_core.answers)."""

    def make(secure: bool) -> answers.NoisyAnswers:
        return answers.noisy_answers(
            s.choice.query,
            mechanism="laplace",
            epsilon=s.epsilon,
            rng=page_rng("laplace", "answers"),
            secure=secure,
        )

    found = (
        held_release("laplace", _release_key(s), lambda: make(True)) if s.secure else make(False)
    )
    return found.values, found.half_widths, found.expected_abs_errors


def _within(s: Settings, half_widths: np.ndarray) -> str:
    """The section's headline: how far from the truth an answer is 95% of the time."""
    kind, eps = s.choice.query.kind, formatting.number(s.epsilon)
    if kind == "mean":
        return _(
            "laplace.answers.within_mean",
            epsilon=eps,
            low=formatting.significant(half_widths.min()),
            high=formatting.significant(half_widths.max()),
        )
    half = formatting.significant(half_widths[0])
    if kind == "sum":
        return _("laplace.answers.within_sum", epsilon=eps, half=half)
    return _("laplace.answers.within_count", epsilon=eps, half=half)


def _series_names(s: Settings) -> tuple[str, str]:
    """The chart's two series: the truth and the released (or noisy) answers with their band."""
    true = _("laplace.series.true", value=s.choice.value_name)
    if s.secure:
        return true, _("laplace.series.released")
    if s.choice.query.kind == "mean":
        return true, _("laplace.series.noisy_mean")
    return true, _("laplace.series.noisy")


def noisy_vs_true(s: Settings) -> None:
    """Section 1: the released answers beside the truth, with exact 95% bands and a table."""
    query = s.choice.query
    mean = query.kind == "mean"
    noisy, half_widths, expected = _noisy_answers(s)
    st.markdown(f"**{_within(s, half_widths)}**")
    cols = st.columns(3)
    if mean:
        sensitivity, scale = _("laplace.metric.sensitivity_mean"), _("laplace.metric.scale_mean")
    else:
        sensitivity, scale = _("laplace.metric.sensitivity"), _("laplace.metric.scale")
    cols[0].metric(sensitivity, formatting.number(query.sensitivity))
    cols[1].metric(scale, formatting.significant(s.scale))
    cols[2].metric(_("laplace.metric.expected"), formatting.significant(float(np.median(expected))))
    if s.secure:
        release_again_button("laplace")
    labels = _display_labels(s.choice)
    shown = np.arange(len(labels))
    if len(labels) > SHOWN:  # the largest noisy answers: ordering by them is post-processing
        shown = np.sort(np.argsort(-noisy, kind="stable")[:SHOWN])
        st.caption(
            _(
                "laplace.answers.largest",
                shown=formatting.count(SHOWN),
                total=formatting.count(len(labels)),
            )
        )
    true_name, noisy_name = _series_names(s)
    answers_chart = charts.noisy_vs_true(
        [labels[i] for i in shown],
        {true_name: query.true_values[shown], noisy_name: noisy[shown]},
        noisy=noisy_name,
        half_width=half_widths[shown],
        value_title=s.choice.value_name,
    )
    charts.show(answers_chart, key="laplace_answers")
    table = st.expander(
        _("laplace.table.title"), key="laplace_table", on_change="rerun", bind="query-params"
    )
    if table.open:
        with table:
            shown = _on_screen(_results_table(s, noisy, half_widths))
            st.dataframe(shown, hide_index=True, width="stretch")
    export_buttons(
        "laplace",
        s.choice.data,
        lambda: _results_export(s, noisy, half_widths, answers_chart),
        secure=s.secure,
    )
    if query.kind == "sum" and not np.allclose(query.raw_values, query.true_values):
        st.caption(_("laplace.answers.clipping"))
    section_exercises(EXERCISES, "answers", s)


def _results_table(s: Settings, noisy: np.ndarray, half_widths: np.ndarray) -> pd.DataFrame:
    """The results as on screen: the groups as shown, two decimals, relative error in %."""
    query, value = s.choice.query, s.choice.value_name
    error = noisy - query.true_values
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = np.where(
            query.true_values != 0, np.abs(error) / np.abs(query.true_values), np.nan
        )
    if s.secure:
        released = _("laplace.table.released", value=value)
    else:
        released = _("laplace.table.noisy", value=value)
    truth = np.round(query.true_values, 2)
    if query.kind in ("count", "predicate"):
        truth = truth.astype(np.int64)  # a count is whole
    table = {
        _("laplace.table.group"): _display_labels(s.choice),
        _("laplace.table.true", value=value): truth,
        released: noisy.round(2),
        _("laplace.table.error"): error.round(2),
        _("laplace.table.relative"): (100 * relative).round(2),
        _("laplace.table.half_width"): half_widths.round(2),
    }
    if query.kind == "sum":
        table[_("laplace.table.unclipped")] = np.round(query.raw_values, 2)
    return pd.DataFrame(table)


def _on_screen(table: pd.DataFrame) -> Styler:
    """The table in the reader's number format (decimal comma, grouping); the cells stay
    numbers, as in the CSV."""

    def shown(value: float) -> str:
        if pd.isna(value):
            return "—"  # a relative error of a true 0
        if isinstance(value, (int, np.integer)):
            return formatting.count(value)
        return formatting.fixed(value, 2)

    return table.style.format(shown, subset=list(table.select_dtypes("number").columns))


def _results_export(
    s: Settings, noisy: np.ndarray, half_widths: np.ndarray, answers_chart: charts.Spec
) -> Export:
    """What the downloads hold: the table as on screen, every setting, the guarantee, the chart."""
    page, data, query = entry("laplace"), s.choice.data, s.choice.query
    settings = {
        _("laplace.export.dataset"): data.title,
        _("laplace.export.query"): s.choice.description,
        _("laplace.export.epsilon"): formatting.number(s.epsilon),
    }
    if data.person is not None:
        settings[_("laplace.export.cap")] = formatting.count(query.spec.cap)
    settings[_("laplace.export.sensitivity")] = formatting.number(query.sensitivity)
    settings[_("laplace.export.noise")] = (
        noise_name("laplace") if s.secure else _("laplace.export.teaching_noise")
    )
    return Export(
        title=_("laplace.export.title", page=page.title, dataset=data.title),
        question=page.question,
        table=_results_table(s, noisy, half_widths),
        settings=settings,
        guarantee=guarantee_text(data, s.guarantee, outputs=_outputs(s.choice)),
        unit=unit_words(data),
        charts=[("answers", answers_chart)],
    )


def noise_itself(s: Settings) -> None:
    """Section 2: the Laplace density over 100,000 fresh draws."""
    draws = laplace.sample_laplace(page_rng("laplace", "noise"), s.scale, 100_000)
    x = np.linspace(-6 * s.scale, 6 * s.scale, 401)
    half = laplace.laplace_half_width(s.scale)
    charts.show(
        laplace_charts.density_with_draws(x, laplace.laplace_pdf(s.scale, x), draws, half),
        key="laplace_noise",
    )
    values = {
        "scale": formatting.significant(s.scale),
        "share": formatting.fixed(100 * np.mean(np.abs(draws) <= half), 1),
        "draws": formatting.count(len(draws)),
        "half": formatting.significant(half),
    }
    if s.choice.query.kind == "mean":
        st.caption(_("laplace.noise.caption_mean", **values))
    else:
        st.caption(_("laplace.noise.caption", **values))


def error_against_epsilon(s: Settings) -> None:
    """Section 3: expected error against ε, absolute and relative to the smallest group."""
    query = s.choice.query
    labels = _display_labels(s.choice)
    values = np.abs(query.true_values)
    largest, smallest = int(np.argmax(values)), int(np.argmin(values))
    if query.kind == "mean":
        picks = [largest, smallest]
        rng = page_rng("laplace", "error")
        curves = np.array(
            [
                query.release_mean(
                    rng, epsilon=e, groups=picks, simulations=2000
                ).expected_abs_error
                for e in GRID
            ]
        )
        absolute = {_("laplace.error.largest_simulated"): curves[:, 0]}
        relative = {labels[largest]: curves[:, 0] / max(values[largest], 1e-300)}
        if smallest != largest and values[smallest] > 0:
            relative[labels[smallest]] = curves[:, 1] / values[smallest]
    else:
        absolute = {_("laplace.error.expected_b"): query.sensitivity / GRID}
        relative = {
            labels[i]: query.sensitivity / GRID / values[i]
            for i in dict.fromkeys([largest, smallest])
            if values[i] != 0
        }
    left, right = st.columns(2)
    with left:
        charts.show(
            laplace_charts.error_against_epsilon(GRID, absolute, s.epsilon, relative=False),
            key="laplace_error_abs",
        )
    with right:
        if relative:
            charts.show(
                laplace_charts.error_against_epsilon(GRID, relative, s.epsilon, relative=True),
                key="laplace_error_rel",
            )
        else:
            st.info(_("laplace.error.undefined"))
    st.caption(_("laplace.error.caption"))


def _repeats() -> int:
    """How often the attacker asks: a slider whose labels are grouped in the reader's language,
    kept in the address as a plain number (?laplace_repeats=1000)."""
    options = [str(k) for k in REPEATS]
    start = REPEATS[linked_index("laplace_repeats", options, REPEATS.index(DEFAULT_REPEATS))]
    repeats = st.select_slider(
        _("laplace.attack.repeats"),
        options=REPEATS,
        value=start,
        key="laplace_repeats",
        format_func=formatting.count,
    )
    keep("laplace_repeats", str(repeats), str(DEFAULT_REPEATS))
    return repeats


@st.fragment
def averaging_attack(s: Settings) -> None:
    """Section 4: asking the same question k times and averaging wins the truth back."""
    query = s.choice.query
    shown = dict(zip(query.labels, _display_labels(s.choice), strict=True))
    label = st.selectbox(
        _("laplace.attack.which"),
        query.labels,
        index=linked_index("laplace_attacked", query.labels, 0),
        format_func=shown.get,
        key="laplace_attacked",
    )
    keep("laplace_attacked", label, query.labels[0])
    attacked = query.labels.index(label)
    repeats = _repeats()
    mean = query.kind == "mean"
    target = query.true_values[attacked] * (query.counts[attacked] if mean else 1.0)
    group = shown[query.labels[attacked]]
    if mean:
        title = _("laplace.attack.title_mean", group=group)
    else:
        title = _("laplace.attack.title", value=s.choice.value_name, group=group)
    averages = laplace.running_average_of_releases(
        page_rng("laplace", "attack"), target, s.scale, repeats
    )
    steps = np.unique(np.geomspace(1, repeats, min(repeats, 300)).astype(int))
    band = 2 * laplace.laplace_average_std(s.scale, steps)
    charts.show(
        laplace_charts.averaging_attack(steps, averages[steps - 1], target, band, title=title),
        key="laplace_attack",
    )
    total = float(composition.basic_composition(s.epsilon, 0.0, repeats)[0])
    difference = averages[-1] - target
    cols = st.columns(3)
    cols[0].metric(
        _("laplace.attack.average", k=formatting.count(repeats)),
        formatting.fixed(averages[-1], 2),
        delta=_(
            "laplace.attack.from_truth",
            difference=("+" if difference >= 0 else "") + formatting.fixed(difference, 2),
        ),
        delta_color="off",
    )
    cols[1].metric(_("laplace.attack.true"), formatting.fixed(target, 2))
    cols[2].metric(
        _("laplace.attack.spent"),
        f"ε = {formatting.number(round(total, 6))}",
        delta=f"{formatting.count(repeats)} × {formatting.number(s.epsilon)}",
        delta_color="off",
    )
    st.caption(_("laplace.attack.caption"))
    section_exercises(EXERCISES, "averaging", s)


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice(
        [
            _("laplace.notice.same_noise"),
            _("laplace.notice.relative"),
            _("laplace.notice.halving"),
            _("laplace.notice.averaging"),
            _("laplace.notice.categories"),
        ]
    )
    formula_box("laplace", _formulas)


def _formulas() -> None:
    """The formulas behind the page, with their sources."""
    st.latex(
        r"M(x) = f(x) + \mathrm{Lap}(b),\quad b = \frac{\Delta_1 f}{\varepsilon},\quad "
        r"p(z) = \frac{1}{2b} e^{-|z|/b}"
    )
    st.latex(
        r"E|Z| = b,\quad \mathrm{sd}(Z) = \sqrt{2}\,b,\quad "
        r"P(|Z| \le t) = 1 - e^{-t/b} \Rightarrow t_{95\%} = b \ln 20"
    )
    st.markdown(_("laplace.formula.sources"))
