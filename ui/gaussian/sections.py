"""The Gaussian page's controls and sections: noisy vs true, classic vs analytic σ, the two
noises, one person in k statistics, and what δ means."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import answers, gaussian, laplace
from dp_core.guarantee import Guarantee, Part
from dp_core.release import (
    noise_name,
    opendp_gaussian_sigma,
)
from ui.common import charts, formatting
from ui.common.address import keep, linked_index
from ui.common.catalog import entry
from ui.common.exercises import section_exercises
from ui.common.export import Export, export_buttons
from ui.common.i18n import N_, _, n_
from ui.common.labels import category_labels
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
from ui.common.shell import (
    DEFAULT_SEED,
    formula_box,
    page_rng,
    presenter_row,
    settings_area,
    what_to_notice,
)
from ui.common.widgets import delta_input, epsilon_input
from ui.gaussian import charts as gaussian_charts
from ui.gaussian.exercises import EXERCISES

Mechanism = Literal["laplace", "classic", "analytic"]
# Message ids: the choice's label, and the mechanism's name inside a sentence.
MECHANISMS = {
    "laplace": N_("gaussian.mechanism.laplace"),
    "classic": N_("gaussian.mechanism.classic"),
    "analytic": N_("gaussian.mechanism.analytic"),
}
NAMES = {
    "laplace": N_("gaussian.name.laplace"),
    "classic": N_("gaussian.name.classic"),
    "analytic": N_("gaussian.name.analytic"),
}
# The label of the metric with the σ the charts use, beside OpenDP's (message ids).
CHART_SIGMA = {
    "classic": N_("gaussian.answers.chart_sigma.classic"),
    "analytic": N_("gaussian.answers.chart_sigma.analytic"),
}
SHOWN = 30  # bars in a chart; the table lists every group
K_MAX = 100
DRAWS = 100_000
DELTAS = np.logspace(-12, -2, 41)


@functools.lru_cache(maxsize=128)
def _classic_sigma(l2: float, epsilon: float, delta: float) -> float | None:
    """The classic σ, or None where its proof does not hold (ε ≥ 1)."""
    try:
        return gaussian.classic_gaussian_sigma(l2, epsilon, delta)
    except ValueError:
        return None


@functools.lru_cache(maxsize=64)
def _sigma_curves(l2: float, epsilon: float) -> tuple[np.ndarray, np.ndarray | None]:
    """Analytic (and, for ε < 1, classic) σ over DELTAS at this ε."""
    analytic = gaussian.analytic_gaussian_sigmas(l2, epsilon, DELTAS)
    classic = None
    if epsilon < 1:
        classic = np.array([gaussian.classic_gaussian_sigma(l2, epsilon, d) for d in DELTAS])
    return analytic, classic


@functools.lru_cache(maxsize=128)
def _epsilon_bought(sigma: float, delta: float, l2: float) -> float:
    return gaussian.gaussian_epsilon_for(sigma, delta, l2)


@dataclass(frozen=True)
class Settings:
    """What every section of the page depends on (``choice`` None: no query can run yet)."""

    choice: QueryChoice | None
    mechanism: Mechanism
    epsilon: float
    delta: float
    secure: bool

    @property
    def l1(self) -> float:
        """L1 sensitivity (Laplace); 1 while no query can run."""
        return self.choice.query.sensitivity if self.choice is not None else 1.0

    @property
    def l2(self) -> float:
        """L2 sensitivity (Gaussian): smaller when one person is in several statistics."""
        return self.choice.query.l2_sensitivity if self.choice is not None else 1.0

    @property
    def laplace_b(self) -> float:
        return laplace.laplace_scale(self.l1, self.epsilon)

    @property
    def analytic_sigma(self) -> float:
        return gaussian.analytic_gaussian_sigma(self.l2, self.epsilon, self.delta)

    @property
    def classic_sigma(self) -> float | None:
        """Dwork & Roth's σ, None for ε ≥ 1 where its proof does not hold."""
        return _classic_sigma(self.l2, self.epsilon, self.delta)

    @property
    def withheld(self) -> bool:
        """The classic mechanism chosen where it is not proven: no noisy answers."""
        return self.mechanism == "classic" and self.classic_sigma is None

    @property
    def gaussian_kind(self) -> Mechanism:
        """The Gaussian the sections show: the one chosen, else the analytic one."""
        return "classic" if self.mechanism == "classic" and not self.withheld else "analytic"

    @property
    def sigma(self) -> float:
        """σ of ``gaussian_kind``."""
        if self.gaussian_kind == "classic":
            return float(self.classic_sigma)
        return self.analytic_sigma

    @property
    def kind(self) -> Mechanism:
        """The mechanism of the noisy answers: Laplace, or ``gaussian_kind``."""
        return "laplace" if self.mechanism == "laplace" else self.gaussian_kind

    @property
    def noise(self) -> Literal["laplace", "gaussian"]:
        return "laplace" if self.mechanism == "laplace" else "gaussian"

    @property
    def values_delta(self) -> float:
        """The δ of the noisy values: 0 for Laplace."""
        return 0.0 if self.mechanism == "laplace" else self.delta

    @property
    def guarantee(self) -> Guarantee | None:
        if self.choice is None or self.withheld:
            return None
        parts = [Part("values", self.epsilon, self.values_delta)]
        categories = self.choice.categories
        if categories is not None and categories.mode == "selected":
            parts.append(Part("categories", categories.epsilon, categories.delta))
        return guarantee(self.choice.data, parts, self.choice.reads)


def data_controls() -> tuple[QueryChoice | None, bool]:
    """The data, the query and the kind of noise: settings that rerun the whole page.

    The query is None (after a message) while it cannot run: the sections then use
    sensitivity 1.
    """
    with settings_area():
        secure = secure_toggle("gaussian")
        choice = pick_query("gaussian", rng=page_rng("gaussian", "categories"), secure=secure)
    return choice, secure


@st.fragment
def explore(choice: QueryChoice | None, secure: bool, sections: list[Section]) -> None:
    """ε, δ, the mechanism, the guarantee and the open section: a step reruns only this."""
    left, right = presenter_row(1, 1)
    with left:
        epsilon = epsilon_input("gaussian_epsilon", default=1.0)
    with right:
        delta = delta_input("gaussian_delta", default=1e-5)
    # A translated choice: kept in the address by its key (ui.common.address), not its label.
    # Labels translated here, in the run (a format_func is also called outside it, by tests).
    labels = {kind: _(msgid) for kind, msgid in MECHANISMS.items()}
    mechanism = st.radio(
        _("gaussian.mechanism.label"),
        list(MECHANISMS),
        format_func=labels.get,
        index=linked_index("gaussian_mechanism", list(MECHANISMS), default=2),
        horizontal=True,
        key="gaussian_mechanism",
    )
    keep("gaussian_mechanism", mechanism, default="analytic")
    settings = Settings(choice, mechanism, epsilon, delta, secure)
    _guarantee(settings)
    story("gaussian", sections, settings)


def _release_sigmas(s: Settings) -> dict[str, tuple[float, float]]:
    """(OpenDP's σ, analytic σ) of each Gaussian release of a secure run: "" for the one
    release, "sums_" and "counts_" for the two halves of a mean."""
    query = s.choice.query
    if query.kind != "mean":
        opendp = opendp_gaussian_sigma(s.l2, s.epsilon, s.delta, length=len(query.labels))
        return {"": (opendp, s.analytic_sigma)}
    half_eps, half_delta, size = s.epsilon / 2, s.delta / 2, len(query.labels)
    return {
        name: (
            opendp_gaussian_sigma(l2, half_eps, half_delta, length=size),
            gaussian.analytic_gaussian_sigma(l2, half_eps, half_delta),
        )
        for name, l2 in (("sums_", query.l2_sensitivity), ("counts_", query.rows_l2))
    }


def _sigma_sentence(s: Settings) -> str:
    """What σ a secure Gaussian release uses, against the analytic σ of the charts (one
    message per case: a sentence is never glued from pieces)."""
    values = {"sigma": formatting.significant(s.sigma, 4)}
    for name, (opendp, analytic) in _release_sigmas(s).items():
        values[f"{name}opendp"] = formatting.significant(opendp, 4)
        values[f"{name}analytic"] = formatting.significant(analytic, 4)
    mean = "sums_opendp" in values
    if s.gaussian_kind == "classic":
        msgid = N_("gaussian.secure.mean_classic") if mean else N_("gaussian.secure.one_classic")
    else:
        msgid = N_("gaussian.secure.mean") if mean else N_("gaussian.secure.one")
    return _(msgid, **values)


def _guarantee(s: Settings) -> None:
    """The guarantee box, or why there is none."""
    if s.choice is None:
        st.caption(_("gaussian.no_query"))
        return
    if s.withheld:
        st.warning(
            _("gaussian.withheld", epsilon=formatting.number(s.epsilon)),
            icon=":material/warning:",
        )
        return
    noise = draws_caption(s.secure, noise_name(s.noise))
    if s.secure and s.noise == "gaussian":  # its own paragraph: a sentence of another page
        noise += "\n\n" + _sigma_sentence(s)
    guarantee_box(s.choice.data, s.guarantee, outputs=_outputs(s), noise=noise)


def _outputs(s: Settings) -> str:
    """What the release publishes, for the guarantee: e.g. "4 noisy counts"."""
    query = s.choice.query
    n = len(query.labels)
    if query.kind == "predicate":
        return _("gaussian.outputs.predicate")
    if query.kind == "sum":
        return n_("gaussian.outputs.sum", "gaussian.outputs.sum.other", n)
    if query.kind == "mean":
        return n_("gaussian.outputs.mean", "gaussian.outputs.mean.other", n)
    return n_("gaussian.outputs.count", "gaussian.outputs.count.other", n)


# --- 1. Noisy vs true answers --------------------------------------------------------------


@dataclass(frozen=True)
class Answers:
    """The noisy answers shown, their 95% half-widths and expected |error|, and the noise."""

    noisy: np.ndarray
    half_widths: np.ndarray
    expected: np.ndarray
    band: str  # what the error bars are, in words
    std: float | None = None  # the noise's standard deviation (not for the mean)


def _answers(s: Settings) -> Answers:
    """Teaching draws, or the OpenDP release held for everything it depends on (a new cap
    changes the sensitivity, not the labels; a new language changes nothing)."""
    query = s.choice.query
    inputs = (
        s.choice.description,
        s.noise,
        s.epsilon,
        s.values_delta,
        s.l1,
        s.l2,
        tuple(query.labels),
        tuple(query.true_values.tolist()),
    )

    def make(secure: bool) -> answers.NoisyAnswers:
        return answers.noisy_answers(
            query,
            mechanism=s.kind,
            epsilon=s.epsilon,
            delta=s.delta,
            rng=page_rng("gaussian", "answers"),
            secure=secure,
        )

    found = held_release("gaussian", inputs, lambda: make(True)) if s.secure else make(False)
    band = _("gaussian.band.simulated") if found.simulated else _("gaussian.band.noise")
    return Answers(found.values, found.half_widths, found.expected_abs_errors, band, found.std)


def noisy_vs_true(s: Settings) -> None:
    """Section 1: the released answers beside the truth, with 95% bands, a table, an export."""
    if s.choice is None:
        st.info(_("gaussian.answers.no_query"))
        return
    if s.withheld:
        st.info(_("gaussian.answers.withheld"))
        return
    query = s.choice.query
    answers = _answers(s)
    name = _(NAMES[s.kind])
    if query.kind == "mean":
        _mean_summary(s, answers, name)
    else:
        _summary(s, answers, name)
    if s.secure:
        release_again_button("gaussian")
    answers_chart = _answers_chart(s, answers)
    table = st.expander(_("gaussian.table.title"), key="gaussian_table", on_change="rerun")
    if table.open:
        with table:
            st.dataframe(_results_table(s, answers), hide_index=True, width="stretch")
    export_buttons(
        "gaussian",
        s.choice.data,
        lambda: _results_export(s, answers, answers_chart),
        secure=s.secure,
    )
    if s.l1 != s.l2:
        st.caption(
            _(
                "gaussian.answers.l1_l2",
                l1=formatting.number(s.l1),
                l2=formatting.significant(s.l2, 4),
            )
        )
    if query.kind == "sum" and not np.allclose(query.raw_values, query.true_values):
        st.caption(_("gaussian.answers.clipping"))


def _mean_summary(s: Settings, answers: Answers, name: str) -> None:
    """The bands of a clipped mean (simulated: a noisy sum over a noisy count)."""
    st.markdown(
        _(
            "gaussian.answers.mean",
            name=name,
            low=formatting.significant(answers.half_widths.min()),
            high=formatting.significant(answers.half_widths.max()),
        )
    )
    cols = st.columns(2)
    cols[0].metric(
        _("gaussian.answers.expected_median"),
        formatting.significant(float(np.median(answers.expected)), 4),
    )
    cols[1].metric(
        _("gaussian.answers.half_median"),
        formatting.significant(float(np.median(answers.half_widths)), 4),
    )
    secure = s.secure and s.noise == "gaussian"
    halves = N_("gaussian.answers.halves_opendp") if secure else N_("gaussian.answers.halves")
    st.caption(_(halves))


def _summary(s: Settings, answers: Answers, name: str) -> None:
    """The band every answer shares, and the noise behind it."""
    values = {
        "name": name,
        "epsilon": formatting.number(s.epsilon),
        "delta": formatting.power_of_ten(s.delta),
        "what": s.choice.value_name,
        "half": formatting.significant(answers.half_widths[0]),
    }
    if s.noise == "laplace":
        st.markdown(_("gaussian.answers.within", **values))
    else:
        st.markdown(_("gaussian.answers.within_delta", **values))
    opendp = s.secure and s.noise == "gaussian"
    cols = st.columns(4 if opendp else 3)
    std_label = _("gaussian.answers.opendp_sigma") if opendp else _("gaussian.answers.std")
    cols[0].metric(std_label, formatting.significant(answers.std, 4))
    if opendp:
        cols[1].metric(
            _(CHART_SIGMA[s.gaussian_kind]),
            formatting.significant(s.sigma, 4),
            help=_("gaussian.answers.opendp_help"),
        )
    cols[-2].metric(
        _("gaussian.answers.expected"), formatting.significant(float(answers.expected[0]), 4)
    )
    cols[-1].metric(
        _("gaussian.answers.half"), formatting.significant(float(answers.half_widths[0]), 4)
    )


def _results_export(s: Settings, answers: Answers, answers_chart: charts.Spec) -> Export:
    """What the page's downloads hold: the table as on screen, every setting, the chart."""
    noise = noise_name(s.noise) if s.secure else _("gaussian.export.teaching")
    return Export(
        title=_("gaussian.export.title", dataset=s.choice.data.dataset.title),
        question=entry("gaussian").question,
        table=_results_table(s, answers),
        settings={
            _("gaussian.export.dataset"): s.choice.data.dataset.title,
            _("gaussian.export.mechanism"): _(MECHANISMS[s.kind]),
            _("gaussian.export.query"): s.choice.description,
            # ε and δ by their names: the file is named after them (ui.common.export.file_stem)
            "epsilon": formatting.number(s.epsilon),
            "delta": formatting.number(s.values_delta),
            _("gaussian.export.sensitivity"): (
                f"{formatting.number(s.l1)}, {formatting.significant(s.l2, 6)}"
            ),
            _("gaussian.export.noise"): noise,
        },
        guarantee=guarantee_text(s.choice.data, s.guarantee, outputs=_outputs(s)),
        unit=unit_words(s.choice.data),
        charts=[("answers", answers_chart)],
    )


def _answers_chart(s: Settings, answers: Answers) -> charts.Spec:
    query = s.choice.query
    labels = _group_labels(s)
    shown = np.arange(len(labels))
    if len(labels) > SHOWN:  # the largest noisy answers: ordering by them is post-processing
        shown = np.sort(np.argsort(-answers.noisy, kind="stable")[:SHOWN])
        st.caption(_("gaussian.answers.largest", shown=formatting.count(SHOWN), total=len(labels)))
    released = (
        _("gaussian.answers.released")
        if s.secure
        else _("gaussian.answers.noisy", band=answers.band)
    )
    spec = charts.noisy_vs_true(
        [labels[i] for i in shown],
        {
            _("gaussian.answers.true", what=s.choice.value_name): query.true_values[shown],
            released: answers.noisy[shown],
        },
        noisy=released,
        half_width=answers.half_widths[shown],
        value_title=s.choice.value_name,
    )
    charts.show(spec, key="gaussian_answers")
    return spec


def _group_labels(s: Settings) -> list[str]:
    """The groups as written on screen (a shipped category in the reader's language)."""
    query = s.choice.query
    return category_labels(query.spec.category or "", query.labels)


def _results_table(s: Settings, answers: Answers) -> pd.DataFrame:
    """The results as on screen: relative error in percent, two decimals."""
    query, what = s.choice.query, s.choice.value_name
    error = answers.noisy - query.true_values
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = np.where(
            query.true_values != 0, np.abs(error) / np.abs(query.true_values), np.nan
        )
    noisy = (
        _("gaussian.table.released", what=what)
        if s.secure
        else _("gaussian.table.noisy", what=what)
    )
    table = {
        _("gaussian.table.group"): _group_labels(s),
        _("gaussian.table.true", what=what): query.true_values,
        noisy: answers.noisy.round(2),
        _("gaussian.table.error"): error.round(2),
        _("gaussian.table.relative"): (100 * relative).round(2),
        _("gaussian.table.half"): answers.half_widths.round(2),
    }
    if query.kind == "sum":
        table[_("gaussian.table.unclipped")] = query.raw_values
    return pd.DataFrame(table)


# --- 2. Classic vs analytic σ --------------------------------------------------------------


def classic_vs_analytic(s: Settings) -> None:
    """Section 2: how much noise each calibration needs, and σ against δ."""
    eps, delta = formatting.number(s.epsilon), formatting.power_of_ten(s.delta)
    classic, analytic, l2 = s.classic_sigma, s.analytic_sigma, s.l2
    values = {
        "epsilon": eps,
        "delta": delta,
        "l2": formatting.significant(l2, 4),
        "l1": formatting.number(s.l1),
    }
    if classic is not None:
        st.markdown(_("gaussian.sigma.intro_both", **values))
    else:
        st.markdown(_("gaussian.sigma.intro_analytic", **values))
    laplace_std = laplace.laplace_std(s.laplace_b)
    cols = st.columns(4)
    cols[0].metric(
        _("gaussian.sigma.laplace_b"),
        formatting.significant(s.laplace_b, 4),
        help=_("gaussian.sigma.laplace_b_help", std=formatting.significant(laplace_std, 4)),
    )
    if classic is None:
        cols[1].metric(_("gaussian.sigma.classic"), "—")
        cols[1].markdown(":grey[" + _("gaussian.sigma.classic_unproven", epsilon=eps) + "]")
        cols[3].metric(_("gaussian.sigma.ratio"), "—")
    else:
        cols[1].metric(_("gaussian.sigma.classic"), formatting.significant(classic, 4))
        cols[3].metric(_("gaussian.sigma.ratio"), formatting.fixed(classic / analytic, 3))
    cols[2].metric(_("gaussian.sigma.analytic"), formatting.significant(analytic, 4))
    if classic is not None:
        st.caption(
            _(
                "gaussian.sigma.overshoot",
                classic=formatting.significant(classic, 4),
                bought=formatting.epsilon(_epsilon_bought(classic, s.delta, l2)),
                delta=delta,
                epsilon=eps,
                more=formatting.fixed(100 * (classic / analytic - 1)),
            )
        )
    st.caption(
        _(
            "gaussian.sigma.rho",
            rho=formatting.significant(gaussian.gaussian_zcdp_rho(analytic, l2), 4),
        )
    )
    if s.secure and s.choice is not None and s.noise == "gaussian" and not s.withheld:
        st.caption(_sigma_sentence(s))
    analytic_curve, classic_curve = _sigma_curves(l2, s.epsilon)
    st.subheader(_("gaussian.sigma.chart_title", epsilon=eps))
    charts.show(
        gaussian_charts.sigma_vs_delta(
            DELTAS,
            analytic_curve,
            classic_curve,
            laplace_std,
            charts.marker(s.delta, f"δ = {delta}"),
        ),
        key="gaussian_sigma_delta",
    )
    st.caption(
        _(
            "gaussian.sigma.growth",
            factor=formatting.fixed(analytic_curve[0] / analytic_curve[-1], 2),
        )
    )
    section_exercises(EXERCISES, "sigma", s)


def _unit_draws(seed: int, draw: int, _rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """DRAWS standard Laplace and standard normal draws, sorted, for the sidebar's seed and draw.

    Each σ or b rescales them (one standard draw, as everywhere on the page), so an ε or δ step
    neither redraws nor re-sorts 200,000 numbers.
    """
    return np.sort(laplace.sample_laplace(_rng, 1.0, DRAWS)), np.sort(
        gaussian.sample_gaussian(_rng, 1.0, DRAWS)
    )


def _share_within(sorted_draws: np.ndarray, half_width: float) -> float:
    """The share of (sorted) draws with |draw| <= half_width."""
    inside = np.searchsorted(sorted_draws, half_width, side="right") - np.searchsorted(
        sorted_draws, -half_width, side="left"
    )
    return float(inside / len(sorted_draws))


def noise_densities(s: Settings) -> None:
    """Section 3: the two noises' exact densities over 100,000 fresh draws each."""
    b, sigma, kind = s.laplace_b, s.sigma, s.gaussian_kind
    st.markdown(
        _(
            "gaussian.noise.title",
            name=_(NAMES[kind]),
            epsilon=formatting.number(s.epsilon),
            delta=formatting.power_of_ten(s.delta),
        )
    )
    st.markdown(_("gaussian.noise.normal"))
    state = st.session_state
    unit_laplace, unit_normal = _unit_draws(
        int(state.get("seed", DEFAULT_SEED)),
        int(state.get("draw", 0)),
        page_rng("gaussian", "noise"),
    )
    reach = max(laplace.laplace_half_width(b, 0.995), gaussian.gaussian_half_width(sigma, 0.995))
    x = np.linspace(-reach, reach, 401)
    laplace_name, gaussian_name = _("gaussian.noise.laplace"), _(MECHANISMS[kind])
    charts.show(
        gaussian_charts.noise_densities(
            x,
            {
                laplace_name: laplace.laplace_pdf(b, x),
                gaussian_name: gaussian.gaussian_pdf(sigma, x),
            },
            {
                laplace_name: _scaled_histogram(unit_laplace, b, reach),
                gaussian_name: _scaled_histogram(unit_normal, sigma, reach),
            },
            DRAWS,
        ),
        key="gaussian_densities",
    )
    laplace_half, gaussian_half = laplace.laplace_half_width(b), gaussian.gaussian_half_width(sigma)
    laplace_std = laplace.laplace_std(b)
    stds = {
        "sigma": formatting.significant(sigma),
        "laplace_std": formatting.significant(laplace_std),
    }
    shape = (
        N_("gaussian.noise.caption_wider")
        if sigma > laplace_std
        else N_("gaussian.noise.caption_narrower")
    )
    st.caption(
        _(
            shape,
            laplace_half=formatting.significant(laplace_half),
            laplace_share=formatting.percent(_share_within(unit_laplace, laplace_half / b)),
            draws=formatting.count(DRAWS),
            gaussian_half=formatting.significant(gaussian_half),
            gaussian_share=formatting.percent(_share_within(unit_normal, gaussian_half / sigma)),
            **stds,
        )
    )


def _scaled_histogram(unit_draws: np.ndarray, scale: float, reach: float) -> pd.DataFrame:
    """The histogram of ``scale`` times the unit draws over [-reach, reach]."""
    frame = gaussian_charts.histogram(unit_draws, -reach / scale, reach / scale)
    return frame.assign(x=frame["x"] * scale, x2=frame["x2"] * scale, y=frame["y"] / scale)


# --- 4. One person affects k statistics ----------------------------------------------------


@st.fragment(key="gaussian_k_section")
def k_statistics(s: Settings) -> None:
    """Section 4: Laplace grows like k, Gaussian like √k; its k slider reruns this alone."""
    st.markdown(_("gaussian.k.intro"))
    k_now = st.slider(_("gaussian.k.slider"), 1, K_MAX, 10, key="gaussian_k", bind="query-params")
    crossover = gaussian.laplace_gaussian_crossover(s.epsilon, s.delta)
    first_k = gaussian.first_k_gaussian_wins(crossover)
    ks = np.arange(1, min(K_MAX, max(20, 3 * first_k, k_now)) + 1)  # around the action
    laplace_k, analytic_k = gaussian.noise_per_statistic(ks, s.epsilon, s.delta)
    st.success(_k_advice(s, k_now, laplace_k[k_now - 1], analytic_k[k_now - 1]))
    cols = st.columns(2)
    cols[0].metric(_("gaussian.k.break_even"), formatting.fixed(crossover, 2))
    cols[1].metric(_("gaussian.k.first"), str(first_k))
    curves = {"laplace": laplace_k, "analytic": analytic_k}
    if s.classic_sigma is not None:
        curves["classic"] = gaussian.noise_per_statistic(
            ks, s.epsilon, s.delta, calibration="classic"
        )[1]
    on_chart = ks[0] <= crossover <= ks[-1]
    crossover_marker = charts.marker(
        crossover, _("gaussian.k.break_even_marker", k=formatting.fixed(crossover, 2))
    )
    charts.show(
        gaussian_charts.noise_per_statistic(
            ks,
            curves,
            crossover_marker if on_chart else crossover_marker.iloc[0:0],
            charts.marker(k_now, f"k = {k_now}"),
        ),
        key="gaussian_k_chart",
    )
    crossover_abs = gaussian.laplace_gaussian_crossover(s.epsilon, s.delta, measure="mean_abs")
    st.caption(
        _(
            "gaussian.k.caption",
            crossover=formatting.fixed(crossover, 2),
            crossover_abs=formatting.fixed(crossover_abs, 2),
        )
    )
    section_exercises(EXERCISES, "k", s)


def _k_advice(s: Settings, k: int, laplace_noise: float, gaussian_noise: float) -> str:
    """Which mechanism to pick for k statistics, with both noises."""
    values = {
        "k": k,
        "gaussian": formatting.significant(gaussian_noise),
        "laplace": formatting.significant(laplace_noise),
        "delta": formatting.power_of_ten(s.delta),
    }
    if gaussian_noise < laplace_noise:
        return _("gaussian.k.pick_gaussian", **values)
    return _("gaussian.k.pick_laplace", **values)


# --- 5. What δ means -----------------------------------------------------------------------


def what_delta_means(s: Settings) -> None:
    """Section 5: δ in plain words, precisely (the privacy-loss tail), and δ against 1/n."""
    st.markdown(_("gaussian.delta.plain"))
    sigma, l2 = s.sigma, s.l2
    loss_tail = gaussian.gaussian_privacy_loss_tail(sigma, s.epsilon, l2)
    exact_delta = float(gaussian.gaussian_delta_for(sigma, s.epsilon, l2))
    st.markdown(
        _(
            "gaussian.delta.precise",
            name=_(NAMES[s.gaussian_kind]),
            sigma=formatting.significant(sigma, 4),
            rho=formatting.significant(gaussian.gaussian_zcdp_rho(sigma, l2), 4),
            epsilon=formatting.number(s.epsilon),
            tail=formatting.power_of_ten(loss_tail),
            exact=formatting.power_of_ten(exact_delta),
            times=formatting.significant(loss_tail / exact_delta),
        )
    )
    n = s.choice.query.n_persons if s.choice is not None else None
    if n:
        _rule_of_thumb(s.delta, n)
    st.caption(_("gaussian.delta.caption"))


def _rule_of_thumb(delta: float, n: int) -> None:
    """δ against 1/n, with a warning when δ is not below it."""
    times = 1 / (delta * n)
    values = {
        "n": formatting.count(n),
        "one_over_n": formatting.power_of_ten(1 / n),
        "delta": formatting.power_of_ten(delta),
        "times": formatting.fixed(times, 0 if times > 10 else 2),
    }
    if times > 1:
        st.markdown(_("gaussian.delta.rule_smaller", **values))
        return
    st.markdown(_("gaussian.delta.rule_not_smaller", **values))
    st.warning(_("gaussian.delta.warning", **values), icon=":material/warning:")


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice(
        [
            _("gaussian.notice.delta"),
            _("gaussian.notice.cheap"),
            _("gaussian.notice.classic"),
            _("gaussian.notice.k"),
            _("gaussian.notice.one_over_n"),
            _("gaussian.notice.categories"),
        ]
    )
    formula_box("gaussian", _formulas)


def _formulas() -> None:
    """The formulas behind the page, with their sources (their words in the reader's language)."""
    st.latex(
        r"M(x) = f(x) + \mathcal{N}(0, \sigma^2),\qquad "
        r"\Delta_2 f = \max_{x \simeq x'} \lVert f(x) - f(x') \rVert_2"
    )
    st.caption(_("gaussian.formula.normal"))
    st.latex(
        r"\text{" + _("gaussian.formula.classic") + r"} \ (0<\varepsilon<1):\quad "
        r"\sigma = \frac{\sqrt{2\ln(1.25/\delta)}\,\Delta_2 f}{\varepsilon}"
    )
    st.latex(
        r"\text{" + _("gaussian.formula.analytic") + r"}\quad "
        r"\Phi\!\left(\tfrac{\Delta}{2\sigma} - \tfrac{\varepsilon\sigma}{\Delta}\right)"
        r" - e^{\varepsilon}\,\Phi\!\left(-\tfrac{\Delta}{2\sigma} - "
        r"\tfrac{\varepsilon\sigma}{\Delta}\right) \le \delta"
    )
    st.latex(
        r"E|Z| = \sigma\sqrt{2/\pi},\quad t_{95\%} = 1.96\,\sigma,\quad "
        r"P(|Z|>t) = 2\Phi(-t/\sigma),\quad \rho = \frac{\Delta^2}{2\sigma^2}"
    )
    st.latex(
        r"k \text{ " + _("gaussian.formula.k") + r"}:\ \Delta_1 = k,\ \Delta_2 = \sqrt{k};\quad "
        r"\sqrt{2}\,k/\varepsilon = \sqrt{k}\,\sigma_1 \iff "
        r"k^* = (\varepsilon\sigma_1)^2/2"
    )
    st.markdown(_("gaussian.formula.sources"))
