"""The Gaussian page's controls and sections: noisy vs true, classic vs analytic σ, the two
noises, one person in k statistics, and what δ means."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import gaussian, laplace
from dp_core.guarantee import Guarantee, Part
from dp_core.release import (
    clipped_mean_release,
    gaussian_release,
    laplace_release,
    noise_name,
    opendp_gaussian_sigma,
)
from ui.common import charts, formatting
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
from ui.common.shell import DEFAULT_SEED, formula_box, page_rng, settings_area, what_to_notice
from ui.common.widgets import delta_input, epsilon_input
from ui.gaussian import charts as gaussian_charts

Mechanism = Literal["laplace", "classic", "analytic"]
MECHANISMS = {
    "laplace": "Laplace (pure ε-DP)",
    "classic": "Classic Gaussian",
    "analytic": "Analytic Gaussian",
}
NAMES = {"laplace": "Laplace", "classic": "classic Gaussian", "analytic": "analytic Gaussian"}
SHOWN = 30  # bars in a chart; the table lists every group
K_MAX = 100
DRAWS = 100_000
DELTAS = np.logspace(-12, -2, 41)


@functools.lru_cache(maxsize=128)
def _classic_sigma(l2: float, epsilon: float, delta: float) -> tuple[float | None, str]:
    """The classic σ, or None and the reason it does not apply (ε ≥ 1)."""
    try:
        return gaussian.classic_gaussian_sigma(l2, epsilon, delta), ""
    except ValueError as error:
        return None, str(error)


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
        return _classic_sigma(self.l2, self.epsilon, self.delta)[0]

    @property
    def classic_reason(self) -> str:
        return _classic_sigma(self.l2, self.epsilon, self.delta)[1]

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
        return guarantee(self.choice.data, parts)


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
    epsilon = epsilon_input("gaussian_epsilon", default=1.0)
    delta = delta_input("gaussian_delta", default=1e-5)
    mechanism = st.radio(
        "Mechanism for the noisy answers",
        list(MECHANISMS),
        format_func=MECHANISMS.get,
        index=2,
        horizontal=True,
        key="gaussian_mechanism",
    )
    settings = Settings(choice, mechanism, epsilon, delta, secure)
    _guarantee(settings)
    story("gaussian", sections, settings)


def _release_sigmas(s: Settings) -> list[tuple[str, float, float]]:
    """(what, OpenDP's σ, analytic σ) for each Gaussian release of a secure run."""
    query = s.choice.query
    if query.kind != "mean":
        opendp = opendp_gaussian_sigma(s.l2, s.epsilon, s.delta, length=len(query.labels))
        return [("", opendp, s.analytic_sigma)]
    half_eps, half_delta, size = s.epsilon / 2, s.delta / 2, len(query.labels)
    return [
        (
            what,
            opendp_gaussian_sigma(l2, half_eps, half_delta, length=size),
            gaussian.analytic_gaussian_sigma(l2, half_eps, half_delta),
        )
        for what, l2 in (("noisy sums", query.l2_sensitivity), ("noisy counts", query.rows_l2))
    ]


def _sigma_sentence(s: Settings) -> str:
    """What σ a secure Gaussian release uses, against the analytic σ of the charts."""
    pairs = _release_sigmas(s)
    if len(pairs) == 1:
        _, opendp, analytic = pairs[0]
        numbers = (
            f"σ = {formatting.significant(opendp, 4)}, larger than the analytic "
            f"σ = {formatting.significant(analytic, 4)} the charts use"
        )
    else:
        numbers = (
            "σ, larger than the analytic σ the charts use ("
            + "; ".join(
                f"{what}: {formatting.significant(opendp, 4)} against "
                f"{formatting.significant(analytic, 4)}"
                for what, opendp, analytic in pairs
            )
            + ")"
        )
    chosen = (
        " With the classic calibration chosen, the noise charts use the classic "
        f"σ = {formatting.significant(s.sigma, 4)}."
        if s.gaussian_kind == "classic"
        else ""
    )
    return (
        f"The release uses OpenDP's {numbers}: OpenDP accounts its Gaussian in "
        "zero-concentrated DP and converts that to (ε, δ) with a bound, not the Gaussian's "
        "exact privacy curve." + chosen
    )


def _guarantee(s: Settings) -> None:
    """The guarantee box, or why there is none."""
    if s.choice is None:
        st.caption(
            "No query can run yet: the sections use sensitivity 1 until the query above can run."
        )
        return
    if s.withheld:
        st.warning(
            f"{s.classic_reason} Pick the analytic Gaussian or Laplace to see noisy answers.",
            icon=":material/warning:",
        )
        return
    noise = draws_caption(s.secure, noise_name(s.noise))
    if s.secure and s.noise == "gaussian":
        noise += " " + _sigma_sentence(s)
    guarantee_box(s.choice.data, s.guarantee, outputs=_outputs(s), noise=noise)


def _outputs(s: Settings) -> str:
    """What the release publishes, for the guarantee: e.g. "4 noisy counts"."""
    query = s.choice.query
    noun = "noisy mean" if query.kind == "mean" else f"noisy {s.choice.value_name}"
    return noun if query.kind == "predicate" else f"{len(query.labels)} {noun}s"


# --- 1. Noisy vs true answers --------------------------------------------------------------


@dataclass(frozen=True)
class Answers:
    """The noisy answers shown, their 95% half-widths and expected |error|, and the noise."""

    noisy: np.ndarray
    half_widths: np.ndarray
    expected: np.ndarray
    band: str  # what the error bars are
    std: float | None = None  # the noise's standard deviation (not for the mean)


def _noise_of(s: Settings, scale: float, size: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Half-widths, expected |error| and std of Laplace (scale b) or Gaussian (scale σ) noise."""
    if s.noise == "laplace":
        half, mean_abs = (
            laplace.laplace_half_width(scale),
            laplace.laplace_expected_abs_error(scale),
        )
        std = laplace.laplace_std(scale)
    else:
        half = gaussian.gaussian_half_width(scale)
        mean_abs, std = gaussian.gaussian_expected_abs_error(scale), scale
    return np.full(size, half), np.full(size, mean_abs), std


def _answers(s: Settings) -> Answers:
    query = s.choice.query
    # Everything the release depends on: a new cap changes the sensitivity, not the labels.
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
    rng = page_rng("gaussian", "answers")
    if query.kind == "mean":
        mechanism = s.gaussian_kind if s.noise == "gaussian" else "laplace"
        simulated = query.release_mean(rng, epsilon=s.epsilon, mechanism=mechanism, delta=s.delta)
        noisy = simulated.noisy_mean
        if s.secure:
            noisy = held_release(
                "gaussian",
                inputs,
                lambda: clipped_mean_release(
                    query.true_values * query.counts,
                    query.counts,
                    lower=query.spec.lower,
                    upper=query.spec.upper,
                    epsilon=s.epsilon,
                    records_per_person=query.records_per_person,
                    rows_l2=query.rows_l2,
                    delta=s.values_delta,
                ),
            ).values
        band = "95% of error, simulated"
        return Answers(noisy, simulated.half_width, simulated.expected_abs_error, band)
    size = len(query.labels)
    if s.secure:
        released = held_release(
            "gaussian",
            inputs,
            lambda: (
                laplace_release(query.true_values, l1_sensitivity=s.l1, epsilon=s.epsilon)
                if s.noise == "laplace"
                else gaussian_release(
                    query.true_values, l2_sensitivity=s.l2, epsilon=s.epsilon, delta=s.delta
                )
            ),
        )
        half, expected, std = _noise_of(s, released.scale, size)
        return Answers(released.values, half, expected, "95% of noise", std)
    if s.noise == "laplace":
        noisy = laplace.laplace_mechanism(
            rng, query.true_values, sensitivity=s.l1, epsilon=s.epsilon
        )
        half, expected, std = _noise_of(s, s.laplace_b, size)
    else:
        noisy = gaussian.gaussian_mechanism(
            rng,
            query.true_values,
            sensitivity=s.l2,
            epsilon=s.epsilon,
            delta=s.delta,
            calibration=s.gaussian_kind,
        )
        half, expected, std = _noise_of(s, s.sigma, size)
    return Answers(noisy, half, expected, "95% of noise", std)


def noisy_vs_true(s: Settings) -> None:
    """Section 1: the released answers beside the truth, with 95% bands, a table, an export."""
    if s.choice is None:
        st.info("The noisy answers appear once the query above can run.")
        return
    if s.withheld:
        st.info("No noisy answers: the classic calibration does not apply at this ε (see above).")
        return
    query, eps, delta = (
        s.choice.query,
        formatting.number(s.epsilon),
        formatting.power_of_ten(s.delta),
    )
    answers = _answers(s)
    name = NAMES[s.gaussian_kind if s.noise == "gaussian" else "laplace"]
    if query.kind == "mean":
        st.markdown(
            f"**With the {name} mechanism, a noisy sum over a noisy count with half the budget "
            f"each, each mean is within ±{formatting.significant(answers.half_widths.min())} to "
            f"±{formatting.significant(answers.half_widths.max())} of the clipped mean 95% of "
            "the time (largest groups are the most accurate; simulated from the true data, so "
            "these bands are a teaching aid, not themselves private).**"
        )
        cols = st.columns(2)
        cols[0].metric(
            "Expected |error| (median group)",
            formatting.significant(float(np.median(answers.expected)), 4),
        )
        cols[1].metric(
            "95% half-width (median group)",
            formatting.significant(float(np.median(answers.half_widths)), 4),
        )
        st.caption(
            "Each half is calibrated on its own (ε/2, δ/2); the other sections show the noise "
            "for the clipped sum or a count released alone with the whole budget."
            + (
                " The bands are simulated with the teaching σ, smaller than OpenDP's (see the "
                "guarantee above)."
                if s.secure and s.noise == "gaussian"
                else ""
            )
        )
    else:
        st.markdown(
            f"**With the {name} mechanism at ε = {eps}"
            + ("" if s.noise == "laplace" else f" and δ = {delta}")
            + f", each {s.choice.value_name} is within "
            f"±{formatting.significant(answers.half_widths[0])} of the truth 95% of the time, "
            "whatever the true value.**"
        )
        opendp = s.secure and s.noise == "gaussian"
        cols = st.columns(4 if opendp else 3)
        std_label = "OpenDP σ (this release)" if opendp else "Noise standard deviation"
        cols[0].metric(std_label, formatting.significant(answers.std, 4))
        if opendp:
            cols[1].metric(
                f"{s.gaussian_kind.capitalize()} σ (used by the charts)",
                formatting.significant(s.sigma, 4),
                help="OpenDP's σ is larger: it accounts the Gaussian in zero-concentrated DP "
                "and converts to (ε, δ) with a bound.",
            )
        cols[-2].metric("Expected |error|", formatting.significant(float(answers.expected[0]), 4))
        cols[-1].metric(
            "95% half-width (exact)", formatting.significant(float(answers.half_widths[0]), 4)
        )
    if s.secure:
        release_again_button("gaussian")
    answers_chart = _answers_chart(s, answers)
    table = st.expander("The table", key="gaussian_table", on_change="rerun")
    if table.open:
        with table:
            st.dataframe(_results_table(s, answers), hide_index=True, width="stretch")
    export_buttons(
        "gaussian",
        s.choice.data,
        lambda: Export(
            title=f"Gaussian mechanism: {s.choice.data.dataset.title}",
            question="What does delta buy, and when does Gaussian noise beat Laplace?",
            table=_results_table(s, answers),
            settings={
                "dataset": s.choice.data.dataset.title,
                "mechanism": name,
                "query": s.choice.description,
                "epsilon": eps,
                "delta": formatting.number(s.values_delta),
                "sensitivity (L1, L2)": (
                    f"{formatting.number(s.l1)}, {formatting.significant(s.l2, 6)}"
                ),
                "noise": noise_name(s.noise) if s.secure else "numpy, seeded (teaching draw)",
            },
            guarantee=guarantee_text(s.choice.data, s.guarantee, outputs=_outputs(s)),
            unit=unit_words(s.choice.data),
            charts=[("answers", answers_chart)],
        ),
        secure=s.secure,
    )
    if s.l1 != s.l2:
        st.caption(
            f"One person can change several of these statistics: Laplace noise must cover the "
            f"L1 sensitivity {formatting.number(s.l1)}, Gaussian noise only the L2 sensitivity "
            f"{formatting.significant(s.l2, 4)} (see “4. One person affects k statistics”)."
        )
    if query.kind == "sum" and not np.allclose(query.raw_values, query.true_values):
        st.caption(
            "Clipping changed the true sums (compare the last two columns of the table): that "
            "bias is the price of a bounded sensitivity."
        )


def _answers_chart(s: Settings, answers: Answers) -> charts.Spec:
    labels = s.choice.query.labels
    shown = np.arange(len(labels))
    if len(labels) > SHOWN:  # the largest noisy answers: ordering by them is post-processing
        shown = np.sort(np.argsort(-answers.noisy, kind="stable")[:SHOWN])
        st.caption(f"The chart shows the {SHOWN} largest noisy answers of {len(labels)}.")
    released = "Released (OpenDP)" if s.secure else f"Noisy (± {answers.band})"
    spec = charts.noisy_vs_true(
        [labels[i] for i in shown],
        {
            f"True {s.choice.value_name}": s.choice.query.true_values[shown],
            released: answers.noisy[shown],
        },
        noisy=released,
        half_width=answers.half_widths[shown],
        value_title=s.choice.value_name,
    )
    charts.show(spec, key="gaussian_answers")
    return spec


def _results_table(s: Settings, answers: Answers) -> pd.DataFrame:
    query, name = s.choice.query, s.choice.value_name
    error = answers.noisy - query.true_values
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = np.where(
            query.true_values != 0, np.abs(error) / np.abs(query.true_values), np.nan
        )
    table = {
        "group": query.labels,
        f"true {name}": query.true_values,
        f"{'released' if s.secure else 'noisy'} {name}": answers.noisy.round(2),
        "error": error.round(2),
        "relative error (%)": (100 * relative).round(2),
        "95% half-width": answers.half_widths.round(2),
    }
    if query.kind == "sum":
        table["unclipped sum"] = query.raw_values
    return pd.DataFrame(table)


# --- 2. Classic vs analytic σ --------------------------------------------------------------


def classic_vs_analytic(s: Settings) -> None:
    """Section 2: how much noise each calibration needs, and σ against δ."""
    eps, delta = formatting.number(s.epsilon), formatting.power_of_ten(s.delta)
    classic, analytic, l2 = s.classic_sigma, s.analytic_sigma, s.l2
    st.markdown(
        ("Both calibrations give" if classic is not None else "The analytic calibration gives")
        + f" ({eps}, {delta})-DP for a query of L2 sensitivity {formatting.significant(l2, 4)} "
        f"(L1 sensitivity {formatting.number(s.l1)}, for Laplace). The classic formula is a "
        "simple sufficient bound; the analytic one is the smallest σ that works, read off the "
        "Gaussian's exact privacy curve."
    )
    laplace_std = laplace.laplace_std(s.laplace_b)
    cols = st.columns(4)
    cols[0].metric(
        "Laplace scale b = Δ₁/ε (δ = 0)",
        formatting.significant(s.laplace_b, 4),
        help=f"Its standard deviation is √2·b = {formatting.significant(laplace_std, 4)}.",
    )
    if classic is None:
        cols[1].metric("Classic σ (Dwork & Roth)", "—")
        cols[1].markdown(
            f":grey[Does not apply at ε = {eps}: its proof (Dwork & Roth 2014, Thm A.1) "
            "needs ε < 1, so it would be a guarantee without proof.]"
        )
        cols[3].metric("Ratio classic / analytic", "—")
    else:
        cols[1].metric("Classic σ (Dwork & Roth)", formatting.significant(classic, 4))
        cols[3].metric("Ratio classic / analytic", formatting.fixed(classic / analytic, 3))
    cols[2].metric("Analytic σ (Balle & Wang)", formatting.significant(analytic, 4))
    if classic is not None:
        st.caption(
            f"The classic σ = {formatting.significant(classic, 4)} in fact buys ε = "
            f"{formatting.epsilon(_epsilon_bought(classic, s.delta, l2))} at δ = {delta} "
            f"(exact), not just ε = {eps}: it adds "
            f"{formatting.fixed(100 * (classic / analytic - 1))}% more noise than needed."
        )
    st.caption(
        f"In zero-concentrated DP terms the analytic σ gives ρ = Δ²/(2σ²) = "
        f"{formatting.significant(gaussian.gaussian_zcdp_rho(analytic, l2), 4)}."
    )
    if s.secure and s.choice is not None and s.noise == "gaussian" and not s.withheld:
        st.caption(_sigma_sentence(s))
    analytic_curve, classic_curve = _sigma_curves(l2, s.epsilon)
    st.subheader(f"σ against δ at ε = {eps}")
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
        f"From δ = 10⁻² down to 10⁻¹², ten billion times smaller, the analytic σ grows only "
        f"×{formatting.fixed(analytic_curve[0] / analytic_curve[-1], 2)}: noise grows roughly "
        "like √ln(1/δ), so a tiny δ is cheap. Laplace noise (dotted) needs no δ at all."
    )


# --- 3. Laplace vs Gaussian noise ----------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=4)
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
        f"**Laplace vs {NAMES[kind]} noise at ε = {formatting.number(s.epsilon)}** "
        f"(the Gaussian with δ = {formatting.power_of_ten(s.delta)})"
    )
    state = st.session_state
    unit_laplace, unit_normal = _unit_draws(
        int(state.get("seed", DEFAULT_SEED)),
        int(state.get("draw", 0)),
        page_rng("gaussian", "noise"),
    )
    reach = max(laplace.laplace_half_width(b, 0.995), gaussian.gaussian_half_width(sigma, 0.995))
    x = np.linspace(-reach, reach, 401)
    gaussian_name = MECHANISMS[kind]
    charts.show(
        gaussian_charts.noise_densities(
            x,
            {"Laplace": laplace.laplace_pdf(b, x), gaussian_name: gaussian.gaussian_pdf(sigma, x)},
            {
                "Laplace": _scaled_histogram(unit_laplace, b, reach),
                gaussian_name: _scaled_histogram(unit_normal, sigma, reach),
            },
            DRAWS,
        ),
        key="gaussian_densities",
    )
    laplace_half, gaussian_half = laplace.laplace_half_width(b), gaussian.gaussian_half_width(sigma)
    laplace_std = laplace.laplace_std(b)
    st.caption(
        f"Laplace: 95% within ±{formatting.significant(laplace_half)} (exact); "
        f"{_share_within(unit_laplace, laplace_half / b):.1%} of {DRAWS:,} fresh draws. "
        f"Gaussian σ = {formatting.significant(sigma)}: 95% within "
        f"±{formatting.significant(gaussian_half)} (exact); "
        f"{_share_within(unit_normal, gaussian_half / sigma):.1%} of the draws. "
        "Laplace has a sharp peak and heavy tails; the Gaussian is "
        f"{'wider' if sigma > laplace_std else 'narrower'} here (standard deviation "
        f"{formatting.significant(sigma)} against {formatting.significant(laplace_std)}) and its "
        "tails die off much faster."
    )


def _scaled_histogram(unit_draws: np.ndarray, scale: float, reach: float) -> pd.DataFrame:
    """The histogram of ``scale`` times the unit draws over [-reach, reach]."""
    frame = gaussian_charts.histogram(unit_draws, -reach / scale, reach / scale)
    return frame.assign(x=frame["x"] * scale, x2=frame["x2"] * scale, y=frame["y"] / scale)


# --- 4. One person affects k statistics ----------------------------------------------------


@st.fragment(key="gaussian_k_section")
def k_statistics(s: Settings) -> None:
    """Section 4: Laplace grows like k, Gaussian like √k; its k slider reruns this alone."""
    st.markdown(
        "If one person can change **k** published statistics by at most 1 each (a histogram "
        "over k days, k answers in a survey), the L1 sensitivity is k but the L2 sensitivity "
        "only √k. Laplace noise must grow like k, Gaussian noise only like √k."
    )
    k_now = st.slider("k: statistics one person can change", 1, K_MAX, 10, key="gaussian_k")
    crossover = gaussian.laplace_gaussian_crossover(s.epsilon, s.delta)
    first_k = gaussian.first_k_gaussian_wins(crossover)
    ks = np.arange(1, min(K_MAX, max(20, 3 * first_k, k_now)) + 1)  # around the action
    laplace_k, analytic_k = gaussian.noise_per_statistic(ks, s.epsilon, s.delta)
    laplace_now, gaussian_now = laplace_k[k_now - 1], analytic_k[k_now - 1]
    delta = formatting.power_of_ten(s.delta)
    if gaussian_now < laplace_now:
        st.success(
            f"**For k = {k_now}, pick the Gaussian mechanism** (analytic σ): its noise on each "
            f"statistic has standard deviation {formatting.significant(gaussian_now)}, against "
            f"{formatting.significant(laplace_now)} for Laplace, if a δ of {delta} is acceptable."
        )
    else:
        st.success(
            f"**For k = {k_now}, pick the Laplace mechanism**: its noise on each statistic has "
            f"standard deviation {formatting.significant(laplace_now)}, against "
            f"{formatting.significant(gaussian_now)} for the analytic Gaussian, and it gives "
            "pure ε-DP (δ = 0)."
        )
    cols = st.columns(2)
    cols[0].metric("Break-even k (equal noise std)", formatting.fixed(crossover, 2))
    cols[1].metric("Gaussian noise is smaller from k =", str(first_k))
    curves = {
        "Laplace (L1 sensitivity k)": laplace_k,
        "analytic Gaussian (L2 sensitivity √k)": analytic_k,
    }
    if s.classic_sigma is not None:
        curves["classic Gaussian"] = gaussian.noise_per_statistic(
            ks, s.epsilon, s.delta, calibration="classic"
        )[1]
    on_chart = ks[0] <= crossover <= ks[-1]
    crossover_marker = charts.marker(crossover, f"break-even k = {formatting.fixed(crossover, 2)}")
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
        "Noise compared by standard deviation (the root mean squared error): Laplace √2·k/ε, "
        "Gaussian √k·σ₁ with σ₁ the analytic σ for sensitivity 1, equal at k = (ε σ₁)²/2 = "
        f"{formatting.fixed(crossover, 2)}. Compared by expected absolute error instead, the "
        f"break-even is k = {formatting.fixed(crossover_abs, 2)}."
    )


# --- 5. What δ means -----------------------------------------------------------------------


def what_delta_means(s: Settings) -> None:
    """Section 5: δ in plain words, precisely (the privacy-loss tail), and δ against 1/n."""
    st.markdown(
        "**In plain words.** A mechanism is (ε, δ)-DP when, for any set of outputs an attacker "
        "might look for, its probability with your data is at most e^ε times its probability "
        "without your data, **plus δ**. So δ is an extra allowance of probability that the e^ε "
        "factor does not have to cover. It is often read as “the chance the guarantee fails”, "
        "but that undersells it: the privacy loss can exceed ε more often than δ (see below). "
        "Laplace noise needs no δ. Gaussian noise always needs some, because far out in its "
        "tails the ratio of the two bell curves (with and without you) grows without limit, so "
        "no ε covers every output."
    )
    sigma, l2, eps = s.sigma, s.l2, formatting.number(s.epsilon)
    loss_tail = gaussian.gaussian_privacy_loss_tail(sigma, s.epsilon, l2)
    exact_delta = float(gaussian.gaussian_delta_for(sigma, s.epsilon, l2))
    st.markdown(
        f"**Precisely, for the {NAMES[s.gaussian_kind]} mechanism here** "
        f"(σ = {formatting.significant(sigma, 4)}): the privacy loss of an output, the log of "
        "how much more likely it is with one person's data than without, is itself normally "
        "distributed, with mean ρ and variance 2ρ "
        f"(ρ = {formatting.significant(gaussian.gaussian_zcdp_rho(sigma, l2), 4)}). The chance "
        f"that it exceeds ε = {eps} is P(loss > ε) = {formatting.power_of_ten(loss_tail)}. The "
        f"exact δ at this ε is smaller, {formatting.power_of_ten(exact_delta)}: it counts only "
        "the probability of those outputs beyond e^ε times their probability without the "
        "person, δ = P(loss > ε) − e^ε·P′(loss > ε). So reading δ as “ε holds except with "
        "probability δ” undersells the chance of a loss above ε (here "
        f"×{formatting.significant(loss_tail / exact_delta)}); what δ bounds is the excess."
    )
    n = s.choice.query.n_persons if s.choice is not None else None
    if n:
        delta, one_over_n = formatting.power_of_ten(s.delta), formatting.power_of_ten(1 / n)
        times = 1 / (s.delta * n)
        st.markdown(
            f"**Rule of thumb: δ much smaller than 1/n**, with n the number of people in the "
            f"data. Here n = {n:,} people, so 1/n = {one_over_n}"
            + (
                f": δ = {delta} is {formatting.fixed(times, 0 if times > 10 else 2)} times smaller."
                if times > 1
                else f", and δ = {delta} is not smaller."
            )
        )
        if times <= 1:
            st.warning(
                f"δ = {delta} is at least 1/n = {one_over_n}. Publishing the full record of one "
                "person picked at random satisfies (0, 1/n)-DP, so a δ this large allows a "
                "mechanism that exposes someone completely. Choose δ well below 1/n.",
                icon=":material/warning:",
            )
    st.caption(
        "Smaller δ is safer and, as the σ-against-δ chart shows, costs little noise. δ = 0 is "
        "pure DP, which the Gaussian mechanism cannot give: use the Laplace mechanism for that."
    )


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice(
        [
            "Gaussian noise buys its bell shape with δ > 0: a small additive slack on top of the "
            "e^ε factor, which must be kept far below 1/n.",
            "Making δ a million times smaller costs little extra noise: σ grows roughly like "
            "√ln(1/δ).",
            "The classic formula is proven only for ε < 1 and overshoots; the analytic σ is the "
            "exact minimum for every ε.",
            "For one statistic, Laplace adds less noise. When one person touches many "
            "statistics, Gaussian noise grows with √k instead of k and wins past the break-even k.",
            "Keep δ far below 1/n: δ ≥ 1/n would allow publishing a random person's whole record.",
            "The categories shown are part of the release: public, declared, or chosen with DP, "
            "never read off your file.",
        ]
    )
    formula_box("gaussian", _formulas)


def _formulas() -> None:
    """The formulas behind the page, with their sources."""
    st.latex(
        r"M(x) = f(x) + \mathcal{N}(0, \sigma^2),\qquad "
        r"\Delta_2 f = \max_{x \simeq x'} \lVert f(x) - f(x') \rVert_2"
    )
    st.latex(
        r"\text{classic } (0<\varepsilon<1):\quad "
        r"\sigma = \frac{\sqrt{2\ln(1.25/\delta)}\,\Delta_2 f}{\varepsilon}"
    )
    st.latex(
        r"\text{analytic: smallest } \sigma \text{ with }\; "
        r"\Phi\!\left(\tfrac{\Delta}{2\sigma} - \tfrac{\varepsilon\sigma}{\Delta}\right)"
        r" - e^{\varepsilon}\,\Phi\!\left(-\tfrac{\Delta}{2\sigma} - "
        r"\tfrac{\varepsilon\sigma}{\Delta}\right) \le \delta"
    )
    st.latex(
        r"E|Z| = \sigma\sqrt{2/\pi},\quad t_{95\%} = 1.96\,\sigma,\quad "
        r"P(|Z|>t) = 2\Phi(-t/\sigma),\quad \rho = \frac{\Delta^2}{2\sigma^2}"
    )
    st.latex(
        r"k \text{ statistics: } \Delta_1 = k,\ \Delta_2 = \sqrt{k};\quad "
        r"\sqrt{2}\,k/\varepsilon = \sqrt{k}\,\sigma_1 \iff "
        r"k^* = (\varepsilon\sigma_1)^2/2"
    )
    st.markdown(
        "Dwork & Roth, *The Algorithmic Foundations of Differential Privacy* (2014), Thm A.1 "
        "(classic σ, proven for ε < 1). Balle & Wang, *Improving the Gaussian Mechanism for "
        "Differential Privacy: Analytical Calibration and Optimal Denoising*, ICML 2018, "
        "Thm 8 (exact privacy curve; σ found here by bisection, within 10⁻⁹ of the exact "
        "value and never below it). Bun & Steinke (2016), Prop 1.6 (zCDP ρ). Checked against "
        "Google's dp-accounting, IBM's diffprivlib and OpenDP in the tests. Neighbouring "
        "datasets on this page: one person added or removed, with all their rows; the mean "
        "is a noisy clipped sum over a noisy count, (ε/2, δ/2) each (sequential composition, "
        "Dwork & Roth Thm 3.16). Released categories: public, declared, or chosen by "
        "Laplace-threshold partition selection (Wilson et al. 2020). Secure releases: "
        "OpenDP's discrete Gaussian on a 2⁻¹⁰⁰ grid (Canonne, Kamath & Steinke 2020), "
        "accounted in zCDP and converted to (ε, δ) with their Cor. 13, hence a σ a little "
        "above the analytic one; OpenDP's discrete Laplace for the Laplace mechanism."
    )
