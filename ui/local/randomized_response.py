"""The randomized-response page's controls and sections: the coin game, the survey, error
against n, local vs central."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dp_core import laplace, local_estimation
from dp_core import randomized_response as rr
from ui.common import charts, formatting
from ui.common.sections import Section, story
from ui.common.shell import formula_box, page_rng, settings_area, what_to_notice
from ui.common.widgets import epsilon_input
from ui.local import charts as local_charts
from ui.local.guarantee import local_guarantee_box
from ui.local.inputs import Respondents, pick_respondents

PAGE = "rr"
EPSILON_MODE, COINS_MODE = "Set ε: the coins follow", "Set the coins: ε follows"
N_GRID = np.unique(np.geomspace(10, 1_000_000, 41).round().astype(int))
LOCAL_GRID = N_GRID[::2]  # the exact local error: 21 points draw its straight log-log line
SIMULATED_N = np.array([100, 1_000, 10_000, 100_000, 1_000_000])
SAMPLE_SIZES = (10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000)


@dataclass(frozen=True)
class Coins:
    """The game's two coins and what they give: report probabilities and ε."""

    truth: float  # t: coin 1 says "tell the truth"
    random_yes: float  # y: coin 2 says "yes"
    p: float  # P(yes | yes)
    q: float  # P(yes | no)
    no_given_yes: float
    no_given_no: float
    epsilon: float

    @property
    def can_estimate(self) -> bool:
        """The answers say something about the truth only when p > q."""
        return self.p > self.q


@dataclass(frozen=True, eq=False)
class Survey:
    """The survey's question: is a person's value in ``column`` equal to ``category``?"""

    respondents: Respondents
    category: str

    @property
    def population(self) -> int:
        return self.respondents.population

    @property
    def population_yes(self) -> int:
        return int(self.respondents.counts[self.respondents.labels.index(self.category)])


@dataclass(frozen=True, eq=False)
class Settings:
    """What every section of the page depends on."""

    coins: Coins
    survey: Survey | None  # None while the data cannot be used
    n: int  # respondents asked (a random sample of the population)
    n_yes: int  # how many of them truly say yes


def survey_controls() -> Survey | None:
    """The data and the question: settings that rerun the whole page (folded on a projector)."""
    with settings_area():
        return _survey()


def _survey() -> Survey | None:
    areas = st.columns(3)
    respondents = pick_respondents(PAGE, "Column", areas)
    if respondents is None:
        return None
    labels, column = list(respondents.labels), respondents.column
    category = areas[2].selectbox(
        "Question: is the person's value…",
        labels,
        key=f"rr_category_{respondents.key}_{column}",
        index=labels.index("Sales") if "Sales" in labels else 0,
    )
    if respondents.missing:
        verb = "answers" if respondents.missing == 1 else "answer"
        st.caption(
            f"{formatting.counted(respondents.missing, 'person')} with no {column} {verb} no."
        )
    if len(labels) == 1:
        everyone = (
            f"Everyone's {column} is “{category}”"
            if not respondents.missing
            else f"“{category}” is the only category of {column}"
        )
        st.info(
            f"{everyone}: every true answer is yes. The survey still works (its estimate should "
            "come near n), but for a real question pick a column with two or more values."
        )
    return Survey(respondents, category)


def _coins(left: DeltaGenerator, right: DeltaGenerator) -> Coins:
    """The mode, then the coins (or ε and the coins that follow it) in ``left`` and ``right``."""
    state = st.session_state
    state.setdefault("rr_truth", 0.5)
    state.setdefault("rr_random_yes", 0.5)
    mode = st.radio(
        "How do you want to set the game?",
        [COINS_MODE, EPSILON_MODE],
        key="rr_mode",
        horizontal=True,
    )
    target = None
    if mode == EPSILON_MODE:
        target = epsilon_input("rr_epsilon", default=rr.coin_flip_epsilon(0.5, 0.5))
        state["rr_truth"], state["rr_random_yes"] = rr.coin_flip_for_epsilon(target)
    truth = left.slider(
        "t: chance coin 1 says 'tell the truth'",
        0.0,
        1.0,
        step=0.001,
        format="%.3f",
        key="rr_truth",
        disabled=target is not None,
        help="In 'Set ε' mode the coins follow ε: t = tanh(ε/2) with a fair coin 2. Above about "
        "ε = 8.3 t shows as 1.000 but stays below 1: the table and ε come from ε itself.",
    )
    random_yes = right.slider(
        "y: chance coin 2 says 'yes'",
        0.0,
        1.0,
        step=0.001,
        format="%.3f",
        key="rr_random_yes",
        disabled=target is not None,
    )
    if target is not None:
        # From ε itself: t = tanh(ε/2) loses 1 - t past ε = 30 and rounds to 1 past 38,
        # while P(yes | no) = P(no | yes) = expit(-ε) stays positive.
        p, q = rr.epsilon_form_report_probabilities(target)
        epsilon = rr.report_probabilities_epsilon(p, q, no_given_yes=q, no_given_no=p)
        return Coins(truth, random_yes, p, q, q, p, epsilon)
    p, q = rr.coin_flip_report_probabilities(truth, random_yes)
    epsilon = rr.coin_flip_epsilon(truth, random_yes)
    return Coins(truth, random_yes, p, q, 1 - p, 1 - q, epsilon)


def _sample_size(survey: Survey, area: DeltaGenerator) -> int:
    """How many persons the survey asks: a random sample, everyone by default."""
    population = survey.population
    sizes = [s for s in SAMPLE_SIZES if s < population] + [population]
    if len(sizes) == 1:
        area.caption(f"All {population:,} persons answer: too few to take a sample of them.")
        return population
    key = f"rr_n_{survey.respondents.key}"
    if st.session_state.get(key) not in sizes:  # a new dataset, column or category list
        st.session_state[key] = population
    return int(
        area.select_slider(
            "Respondents: a random sample of n persons (all by default)",
            sizes,
            key=key,
            format_func=lambda s: f"{s:,}",
        )
    )


@st.fragment
def explore(survey: Survey | None, sections: list[Section]) -> None:
    """The coins (or ε), the sample size, the guarantee and the open section: a fragment, so a
    step of the coins reruns only this."""
    mode_area = st.container()  # the mode, and ε in "set ε" mode, above the three sliders
    left, middle, right = st.columns(3)
    with mode_area:
        coins = _coins(left, middle)
    n = n_yes = 0
    if survey is not None:
        n = _sample_size(survey, right)
        population, population_yes = survey.population, survey.population_yes
        n_yes = (
            population_yes
            if n == population
            else rr.sample_yes_count(page_rng(PAGE, "sample"), population_yes, population, n)
        )
        local_guarantee_box(survey.respondents, coins.epsilon, count=n, answers="yes/no answers")
    story(PAGE, sections, Settings(coins, survey, n, n_yes))


def coin_game(s: Settings) -> None:
    """Section 1: the two coins as a tree, the report probabilities and ε."""
    c = s.coins
    tree_col, table_col = st.columns([3, 2])
    with tree_col:
        charts.show(local_charts.coin_tree(c.truth, c.random_yes), key="rr_tree")
    with table_col:
        st.metric("ε of one answer", formatting.epsilon(c.epsilon))
        st.table(
            pd.DataFrame(
                {
                    "true answer": ["yes", "no"],
                    "says yes": [formatting.probability(c.p), formatting.probability(c.q)],
                    "says no": [
                        formatting.probability(c.no_given_yes),
                        formatting.probability(c.no_given_no),
                    ],
                }
            ).set_index("true answer")
        )
        if math.isinf(c.epsilon):
            st.warning(
                "ε = ∞: some answer can come from one truth and never from the other, so that "
                "answer gives the person away. Keep t below 1 and y strictly between 0 and 1."
            )
        elif c.epsilon == 0:
            st.warning("ε = 0: coin 1 never asks for the truth, so the answers say nothing at all.")
        else:
            yes_ratio = formatting.significant(c.p / c.q)
            no_ratio = formatting.significant(c.no_given_no / c.no_given_yes)
            st.markdown(
                f"A *yes* is {yes_ratio}× as likely from a true yes as from a true no; a *no* is "
                f"{no_ratio}× as likely from a true no. ε is the log of the larger: "
                f"**ε = {formatting.epsilon(c.epsilon)}**, so an answer shifts anyone's odds "
                f"about the truth by at most e^ε = {formatting.odds_factor(c.epsilon)}×."
            )
    st.markdown(
        "Each person flips **coin 1** in private. With probability *t* they tell the truth; "
        "otherwise they flip **coin 2** and say *yes* with probability *y*, whatever the truth. "
        "Nobody, not even the survey, knows which coin spoke, so every single answer is deniable."
    )
    st.caption(
        "Neighbouring datasets on this page: one person's answer replaced by the other answer "
        "(the number of respondents stays the same). ε bounds how much one answer can tell "
        "anyone who sees it, the survey's collector included."
    )


def _no_survey() -> None:
    st.info("The survey needs data: choose a dataset above, or finish setting up your file.")


@functools.lru_cache(maxsize=64)
def _distribution(n_yes: int, n: int, p: float, q: float) -> tuple[np.ndarray, np.ndarray]:
    """The exact distribution of the debiased estimate (dp_core), kept for repeated settings."""
    return local_estimation.estimate_distribution(n_yes, n, p, q)


def _expected_abs_error(n_yes: int, n: int, p: float, q: float) -> float:
    values, probs = _distribution(n_yes, n, p, q)
    return float(np.sum(probs * np.abs(values - n_yes)))


def survey(s: Settings) -> None:
    """Section 2: everyone answers through the coins; the debiased estimate against the truth."""
    if s.survey is None:
        _no_survey()
        return
    c, sv = s.coins, s.survey
    column = sv.respondents.column
    st.markdown(
        f"**The question:** *Is your {column} “{sv.category}”?*  In the whole data "
        f"{sv.population_yes:,} of {sv.population:,} persons would truly say yes."
    )
    if not c.can_estimate:
        st.error(
            "Nothing can be estimated: with t = 0 everyone answers by coin 2, so the answers are "
            "the same whatever the truth (p = P(yes | yes) equals q = P(yes | no)). Raise t "
            "above 0."
        )
    else:
        _estimate(s)
    _first_respondents(s)


def _estimate(s: Settings) -> None:
    c, sv, n, n_yes = s.coins, s.survey, s.n, s.n_yes
    minimum = local_estimation.minimum_respondents(c.p, c.q, share_half_width=0.25)
    if n < minimum:
        st.warning(
            f"Only {n:,} respondents: at these coins the 95% interval on the share of yes can be "
            f"wider than ±25 percentage points, so the estimate says little. These coins need "
            f"at least {minimum:,} respondents for that."
        )
    tally = rr.yes_tally(page_rng(PAGE, "survey"), n_yes, n - n_yes, c.p, c.q)
    estimate = float(local_estimation.debiased_count(tally, n, c.p, c.q))
    low, high = (float(v) for v in local_estimation.estimate_interval(estimate, n, c.p, c.q))
    error = estimate - n_yes + 0.0
    relative = formatting.percent(abs(error) / n_yes) if n_yes else None
    survey_metrics = [
        ("Said yes", formatting.fixed(tally), f"{formatting.percent(tally / n)} of answers"),
        (
            "Debiased estimate",
            formatting.fixed(estimate, 1),
            f"95%: {formatting.fixed(low)} to {formatting.fixed(high)}",
        ),
        ("Truth", formatting.fixed(n_yes), f"{formatting.percent(n_yes / n)} of respondents"),
        ("Error", ("+" if error >= 0 else "") + formatting.fixed(error, 1), relative),
    ]
    for area, (label, value, note) in zip(st.columns(4), survey_metrics, strict=True):
        area.metric(label, value, delta=note, delta_color="off", delta_arrow="off")
    of_truth = f" ({relative} of the truth)" if relative else ""
    st.markdown(
        f"**{formatting.percent(tally / n)} said yes, but the coins alone make "
        f"{formatting.percent(c.q)} of the true-no people say yes and "
        f"{formatting.percent(1 - c.p)} of the true-yes people say no. Undoing that on "
        f"average, (#yes − n·q) / (p − q), estimates {formatting.fixed(estimate)} yes answers "
        f"(truth {formatting.fixed(n_yes)}), off by {formatting.fixed(abs(error))}{of_truth}.**"
    )
    values, probs = _distribution(n_yes, n, c.p, c.q)
    charts.show(
        local_charts.estimate_distribution(values, probs, n_yes, estimate, (low, high)),
        key="rr_distribution",
    )
    st.caption(
        f"Exact distribution of the estimate: (Binomial({n_yes:,}, p) + Binomial({n - n_yes:,}, "
        "q) − n·q) / (p − q). 'Draw new noise' in the sidebar asks everyone again. The 95% "
        "interval is a Wald interval: estimate ± 1.96 standard errors, a normal approximation, "
        "with the exact variance formula evaluated at the estimate (plug-in, clipped to [0, n])."
    )
    respondents = sv.respondents
    if (respondents.key, respondents.column, sv.category) == ("census", "occupation", "Sales"):
        st.caption(
            "Published run with the fair coins (Near & Abuah, *Programming Differential "
            "Privacy*, local model chapter): estimate 3,861.5 for a truth of 3,650, 5.8% off."
        )


@st.fragment
def _first_respondents(s: Settings) -> None:
    """The first 20 respondents flipping their coins, in a lazy expander (its own fragment)."""
    box = st.expander("The first 20 respondents, one by one", key="rr_first20", on_change="rerun")
    if not box.open:
        return
    sv, c = s.survey, s.coins
    respondents = sv.respondents
    first = respondents.codes[:20] == respondents.labels.index(sv.category)
    answers = rr.coin_flip_answers(page_rng(PAGE, "respondents"), first, c.truth, c.random_yes)
    with box:
        st.dataframe(
            {
                "person": np.arange(1, first.size + 1),
                "true answer": np.where(first, "yes", "no"),
                "coin 1": np.where(answers.truthful, "tell the truth", "coin 2 answers"),
                "coin 2": np.where(
                    answers.truthful, "–", np.where(answers.random_yes, "yes", "no")
                ),
                "says": np.where(answers.reported, "yes", "no"),
            },
            hide_index=True,
        )
        st.caption(
            "Only these 20 are simulated person by person; the survey's tally above is drawn "
            "from its exact distribution, which is the same as flipping everyone's coins."
        )


def error_against_n(s: Settings) -> None:
    """Section 3: the error of the estimated share against the number of respondents."""
    if s.survey is None:
        _no_survey()
        return
    c = s.coins
    if not c.can_estimate:
        st.info("Nothing can be estimated with t = 0 (see the survey): raise t above 0.")
        return
    share = s.survey.population_yes / s.survey.population
    true_counts = np.round(share * N_GRID)
    standard_errors = np.sqrt(local_estimation.estimate_variance(true_counts, N_GRID, c.p, c.q))
    rng = page_rng(PAGE, "error")
    sim_true = np.round(share * SIMULATED_N).astype(int)
    rms = np.array(
        [
            np.sqrt(
                np.mean(
                    (
                        local_estimation.debiased_count(
                            rr.yes_tally(rng, k, m - k, c.p, c.q, 400), m, c.p, c.q
                        )
                        - k
                    )
                    ** 2
                )
            )
            / m
            for k, m in zip(sim_true, SIMULATED_N, strict=True)
        ]
    )
    if not np.any(standard_errors > 0) and not np.any(rms > 0):
        st.info("These coins add no noise (every answer is the truth): the error is 0 at every n.")
        return
    charts.show(
        local_charts.share_error_against_n(N_GRID, standard_errors / N_GRID, SIMULATED_N, rms, s.n),
        key="rr_error",
    )
    st.caption(
        f"For a true share of {formatting.percent(share)}: the error of the estimated share "
        "falls like 1/√n. Ten times more people, about three times less error."
    )


@st.cache_data(show_spinner=False, max_entries=64)
def local_error_curve(p: float, q: float, share: float) -> np.ndarray:
    """Exact expected |error| of the local count at each n of LOCAL_GRID, true count share * n."""
    return np.array(
        [local_estimation.expected_abs_error(round(share * n), int(n), p, q) for n in LOCAL_GRID]
    )


def local_vs_central(s: Settings) -> None:
    """Section 4: randomized response against a trusted curator's Laplace at the same ε."""
    if s.survey is None:
        _no_survey()
        return
    c, n = s.coins, s.n
    if not c.can_estimate:
        st.info("Nothing can be estimated with t = 0 (see the survey): raise t above 0.")
        return
    if math.isinf(c.epsilon):
        st.info("With ε = ∞ there is no privacy to compare: pick coins that give a finite ε.")
        return
    share = s.survey.population_yes / s.survey.population
    local_curve = local_error_curve(c.p, c.q, share)
    central = laplace.laplace_expected_abs_error(laplace.laplace_scale(1, c.epsilon))
    local_now = _expected_abs_error(s.n_yes, n, c.p, c.q)
    charts.show(
        local_charts.local_vs_central(LOCAL_GRID, local_curve, central, n), key="rr_central"
    )
    cols = st.columns(3)
    cols[0].metric(f"Local expected |error| at n = {n:,}", formatting.fixed(local_now, 1))
    cols[1].metric("Central Laplace expected |error|", formatting.fixed(central, 2))
    cols[2].metric("Local / central", f"{formatting.fixed(local_now / central)}×")
    st.markdown(
        f"**At ε = {formatting.epsilon(c.epsilon)}, a trusted curator adding Laplace noise of "
        f"scale 1/ε to the true count is off by {formatting.fixed(central, 2)} people on "
        f"average, whatever n. Randomized response is off by {formatting.fixed(local_now, 1)} "
        f"at n = {n:,}, and its error grows like √n.**"
    )
    st.caption(
        "Same ε and the same neighbouring relation on both sides (one person's answer "
        "replaced: the count moves by at most 1), but not the same trust: randomized "
        "response also protects each answer against the collector, while the central "
        "model needs a trusted curator who sees every true answer. Local error: exact "
        "E|estimate − truth|. Central error: E|Lap(1/ε)| = 1/ε. Published figures on the "
        "census Sales count: about 5.8% error locally (fair coins, ε = ln 3 ≈ 1.10) against "
        "about 0.02% for central Laplace at ε = 1 (Near & Abuah, *Programming Differential "
        "Privacy*), so the two ε differ there."
    )


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice(
        [
            "Every single answer is deniable, yet the crowd's share can be recovered: the coins' "
            "bias is known, so it can be subtracted.",
            "Fair coins give ε = ln 3 ≈ 1.10. Trusting coin 1 more (larger t) raises ε and lowers "
            "the error. A lopsided coin 2 (y near 0 or 1) also raises ε, fast: at y = 0 a 'yes' "
            "can only be true, and ε is infinite.",
            "The local error grows like √n in persons (shrinks like 1/√n as a share); the central "
            "error stays at 1/ε. That gap is why local DP is used only for very large populations.",
        ]
    )
    formula_box("randomized_response", _formulas)


def _formulas() -> None:
    """The formulas behind the page, with their sources."""
    st.latex(
        r"p = P(\text{yes}\mid\text{yes}) = t + (1-t)\,y,\qquad "
        r"q = P(\text{yes}\mid\text{no}) = (1-t)\,y"
    )
    st.latex(
        r"\varepsilon = \max\left(\ln\frac{p}{q},\ \ln\frac{1-q}{1-p}\right),\qquad "
        r"t = \tanh(\varepsilon/2),\ y = \tfrac12 \iff p = \frac{e^\varepsilon}"
        r"{1+e^\varepsilon}"
    )
    st.latex(
        r"\hat n_{\text{yes}} = \frac{\#\text{yes} - n\,q}{p - q}\quad"
        r"(=2(\#\text{yes} - n/4)\text{ for fair coins}),\qquad "
        r"\operatorname{Var} = \frac{n_{\text{yes}}\,p(1-p) + n_{\text{no}}\,q(1-q)}{(p-q)^2}"
    )
    st.markdown(
        "Warner (1965), *Randomized response: a survey technique for eliminating evasive "
        "answer bias*; Dwork & Roth (2014), Sec. 3.2; Wang, Blocki, Li & Jha (2017), "
        "*Locally differentially private protocols for frequency estimation*. The number of "
        "yes answers is exactly Binomial(n_yes, p) + Binomial(n_no, q)."
    )
