"""The Laplace page's controls and sections: noisy vs true, the noise, error vs ε, averaging."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import composition, laplace
from dp_core.guarantee import Guarantee, Part
from dp_core.release import clipped_mean_release, laplace_release, noise_name
from ui.common import charts, formatting
from ui.common.exercises import exercise_box
from ui.common.export import Export, export_buttons
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


def _outputs(choice: QueryChoice) -> str:
    """What the release publishes, for the guarantee: e.g. "4 noisy counts"."""
    noun = "noisy mean" if choice.query.kind == "mean" else f"noisy {choice.value_name}"
    return noun if choice.query.kind == "predicate" else f"{len(choice.query.labels)} {noun}s"


@st.fragment
def explore(choice: QueryChoice, secure: bool, sections: list[Section]) -> None:
    """ε, the guarantee and the open section: a fragment, so an ε step reruns only this."""
    epsilon = epsilon_input("laplace_epsilon", default=1.0)
    parts = [Part("values", epsilon)]
    if choice.categories is not None and choice.categories.mode == "selected":
        parts.append(Part("categories", choice.categories.epsilon, choice.categories.delta))
    settings = Settings(choice, epsilon, secure, guarantee(choice.data, parts))
    guarantee_box(
        choice.data,
        settings.guarantee,
        outputs=_outputs(choice),
        noise=draws_caption(secure, noise_name("laplace")),
    )
    story("laplace", sections, settings)


def _release_key(s: Settings) -> tuple:
    """What a held release depends on: a new cap, bound or ε is a new release."""
    query = s.choice.query
    return (s.choice.description, s.epsilon, query.sensitivity, tuple(query.labels),
            tuple(query.true_values))  # fmt: skip


def _noisy_answers(s: Settings) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """The noisy answers shown, their 95% half-widths and expected |error|, and the band's name."""
    query = s.choice.query
    if query.kind == "mean":
        rng = page_rng("laplace", "answers")
        simulated = query.release_mean(rng, epsilon=s.epsilon)
        noisy = simulated.noisy_mean
        if s.secure:
            noisy = held_release(
                "laplace",
                _release_key(s),
                lambda: clipped_mean_release(
                    query.true_values * query.counts,
                    query.counts,
                    lower=query.spec.lower,
                    upper=query.spec.upper,
                    epsilon=s.epsilon,
                    records_per_person=query.records_per_person,
                ),
            ).values
        return noisy, simulated.half_width, simulated.expected_abs_error, "95% of error, simulated"
    if s.secure:
        noisy = held_release(
            "laplace",
            _release_key(s),
            lambda: laplace_release(
                query.true_values, l1_sensitivity=query.sensitivity, epsilon=s.epsilon
            ),
        ).values
    else:
        noisy = laplace.laplace_mechanism(
            page_rng("laplace", "answers"),
            query.true_values,
            sensitivity=query.sensitivity,
            epsilon=s.epsilon,
        )
    size = len(query.labels)
    half = np.full(size, laplace.laplace_half_width(s.scale))
    return noisy, half, np.full(size, laplace.laplace_expected_abs_error(s.scale)), "95% of noise"


def noisy_vs_true(s: Settings) -> None:
    """Section 1: the released answers beside the truth, with exact 95% bands and a table."""
    query, eps = s.choice.query, formatting.number(s.epsilon)
    noisy, half_widths, expected, band_label = _noisy_answers(s)
    if query.kind == "mean":
        sentence = (
            f"With ε = {eps}, split in half between a noisy sum and a noisy count, each mean is "
            f"within ±{formatting.significant(half_widths.min())} to "
            f"±{formatting.significant(half_widths.max())} of the clipped mean 95% of the time "
            "(largest groups are the most accurate; simulated from the true data, so these "
            "bands are a teaching aid, not themselves private)."
        )
    else:
        truth = "true count" if query.kind in ("count", "predicate") else "clipped sum"
        sentence = (
            f"With ε = {eps}, each answer is within ±{formatting.significant(half_widths[0])} of "
            f"the {truth} 95% of the time, whatever the true value."
        )
    st.markdown(f"**{sentence}**")
    cols = st.columns(3)
    part = "of the clipped sum" if query.kind == "mean" else "(one person's effect)"
    cols[0].metric(f"Sensitivity {part}", formatting.number(query.sensitivity))
    formula = "Δ / (ε/2)" if query.kind == "mean" else "Δ / ε"
    cols[1].metric(f"Noise scale b = {formula}", formatting.significant(s.scale))
    cols[2].metric("Expected |error|", formatting.significant(float(np.median(expected))))
    if s.secure:
        release_again_button("laplace")
    labels = query.labels
    shown = np.arange(len(labels))
    if len(labels) > SHOWN:  # the largest noisy answers: ordering by them is post-processing
        shown = np.sort(np.argsort(-noisy, kind="stable")[:SHOWN])
        st.caption(f"The chart shows the {SHOWN} largest noisy answers of {len(labels)}.")
    released = "Released (OpenDP)" if s.secure else f"Noisy (± {band_label})"
    answers_chart = charts.noisy_vs_true(
        [labels[i] for i in shown],
        {f"True {s.choice.value_name}": query.true_values[shown], released: noisy[shown]},
        noisy=released,
        half_width=half_widths[shown],
        value_title=s.choice.value_name,
    )
    charts.show(answers_chart, key="laplace_answers")
    table = st.expander("The table", key="laplace_table", on_change="rerun")
    if table.open:
        with table:
            st.dataframe(_results_table(s, noisy, half_widths), hide_index=True, width="stretch")
    export_buttons(
        "laplace",
        s.choice.data,
        lambda: Export(
            title=f"Laplace mechanism: {s.choice.data.dataset.title}",
            question="How much noise does epsilon cost, and how wrong are the published answers?",
            table=_results_table(s, noisy, half_widths),
            settings={
                "dataset": s.choice.data.dataset.title,
                "query": s.choice.description,
                "epsilon": eps,
                "sensitivity (L1)": formatting.number(query.sensitivity),
                "noise": noise_name("laplace") if s.secure else "numpy, seeded (teaching draw)",
            },
            guarantee=guarantee_text(s.choice.data, s.guarantee, outputs=_outputs(s.choice)),
            unit=unit_words(s.choice.data),
            charts=[("answers", answers_chart)],
        ),
        secure=s.secure,
    )
    if query.kind == "sum" and not np.allclose(query.raw_values, query.true_values):
        st.caption(
            "Clipping changed the true sums (compare the last two columns of the table): that "
            "bias is the price of a bounded sensitivity. Widen [L, U] to shrink it, at the cost "
            "of more noise."
        )
    for exercise in EXERCISES:
        if exercise.section == "answers":
            exercise_box(exercise, s)


def _results_table(s: Settings, noisy: np.ndarray, half_widths: np.ndarray) -> pd.DataFrame:
    query, name = s.choice.query, s.choice.value_name
    error = noisy - query.true_values
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = np.where(
            query.true_values != 0, np.abs(error) / np.abs(query.true_values), np.nan
        )
    table = {
        "group": query.labels,
        f"true {name}": query.true_values,
        f"{'released' if s.secure else 'noisy'} {name}": noisy.round(2),
        "error": error.round(2),
        "relative error (%)": (100 * relative).round(2),
        "95% half-width": half_widths.round(2),
    }
    if query.kind == "sum":
        table["unclipped sum"] = query.raw_values
    return pd.DataFrame(table)


def noise_itself(s: Settings) -> None:
    """Section 2: the Laplace density over 100,000 fresh draws."""
    draws = laplace.sample_laplace(page_rng("laplace", "noise"), s.scale, 100_000)
    x = np.linspace(-6 * s.scale, 6 * s.scale, 401)
    half = laplace.laplace_half_width(s.scale)
    charts.show(
        laplace_charts.density_with_draws(
            x, laplace.laplace_pdf(s.scale, x), draws, half, name="Laplace noise"
        ),
        key="laplace_noise",
    )
    mean_note = (
        " (each half of the mean's budget: the noisy sum's noise is shown)"
        if s.choice.query.kind == "mean"
        else ""
    )
    st.caption(
        f"Scale b = {formatting.significant(s.scale)}{mean_note}. "
        f"{np.mean(np.abs(draws) <= half):.1%} of these {len(draws):,} draws fall inside "
        f"±{formatting.significant(half)}; the exact share is 95%."
    )


def error_against_epsilon(s: Settings) -> None:
    """Section 3: expected error against ε, absolute and relative to the smallest group."""
    query = s.choice.query
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
        absolute = {"largest group (simulated)": curves[:, 0]}
        relative = {query.labels[largest]: curves[:, 0] / max(values[largest], 1e-300)}
        if smallest != largest and values[smallest] > 0:
            relative[query.labels[smallest]] = curves[:, 1] / values[smallest]
    else:
        absolute = {"expected |error| = b": query.sensitivity / GRID}
        relative = {
            query.labels[i]: query.sensitivity / GRID / values[i]
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
            st.info("Relative error is undefined here: the true answer is 0.")
    st.caption(
        "Ten times less epsilon means ten times more noise. The same noise is a rounding error "
        "for a large group and can swamp a small one."
    )


@st.fragment
def averaging_attack(s: Settings) -> None:
    """Section 4: asking the same question k times and averaging wins the truth back."""
    query = s.choice.query
    labels = query.labels
    attacked = labels.index(
        st.selectbox(
            "Which answer does the attacker ask for again and again?",
            labels,
            key="laplace_attacked",
        )
    )
    repeats = st.select_slider(
        "Ask the same question k times and average the answers",
        options=REPEATS,
        value=100,
        key="laplace_repeats",
        format_func=lambda k: f"{k:,}",
    )
    mean = query.kind == "mean"
    target = query.true_values[attacked] * (query.counts[attacked] if mean else 1.0)
    title = (
        f"clipped sum for {labels[attacked]} (released with ε/2 each time)"
        if mean
        else f"{s.choice.value_name} for {labels[attacked]}"
    )
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
    cols = st.columns(3)
    cols[0].metric(
        f"Average of {repeats:,} answers",
        formatting.fixed(averages[-1], 2),
        delta=f"{averages[-1] - target:+,.2f} from the truth",
        delta_color="off",
    )
    cols[1].metric("True answer", formatting.fixed(target, 2))
    cols[2].metric(
        "Privacy spent",
        f"ε = {formatting.number(round(total, 6))}",
        delta=f"{repeats:,} × {formatting.number(s.epsilon)}",
        delta_color="off",
    )
    st.caption(
        "Averaging k answers shrinks the noise by √k, so a curator who answers the same question "
        "again must count every answer against the budget (sequential composition), or return "
        "the same cached answer."
    )
    for exercise in EXERCISES:
        if exercise.section == "averaging":
            exercise_box(exercise, s)


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice(
        [
            "The noise does not depend on the data, only on the sensitivity and ε: the error bars "
            "have the same length for every count.",
            "So the *relative* error is worst for the smallest groups: the same noise blurs a "
            "small count far more, relative to its size, than a large one.",
            "Halving ε doubles the noise. There is no free lunch: the error is sensitivity / ε "
            "on average.",
            "Repeating a query and averaging wins the truth back, which is why the budget adds up.",
            "The categories shown are part of the release: public, declared, or chosen with DP, "
            "never read off your file.",
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
    st.markdown(
        "Dwork, McSherry, Nissim & Smith (2006); Dwork & Roth, *The Algorithmic Foundations "
        "of Differential Privacy* (2014), Def. 3.3 and Thm. 3.6. Neighbouring datasets on "
        "this page: one person added or removed, with all their rows. Sensitivity: one row "
        "changes a count by 1 and a sum of values clipped to [L, U] by max(|L|, |U|); a "
        "person with up to m rows (the cap) changes the answers by m times that in total. "
        "The mean is a noisy clipped sum over a noisy count, ε/2 each (sequential "
        "composition, Thm. 3.16). Released categories: public, declared, or chosen by "
        "Laplace-threshold partition selection (Wilson et al. 2020; OpenDP's "
        "make_laplace_threshold). Secure releases: OpenDP's discrete Laplace on a 2⁻¹⁰⁰ "
        "grid (Canonne, Kamath & Steinke 2020), immune to Mironov's floating-point attack "
        "(2012)."
    )
