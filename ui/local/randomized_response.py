"""The randomized-response page's controls and sections: the coin game, the survey, error
against n, local vs central.

Who answers: persons of a dataset (everyone, or a random sample of n of them), or a fixed group
described by its size and how many of its members would truly say yes (the Chinese local-DP
notebook asks 200 sales staff, all of whom truly say yes). Every setting is in the page's
address, written by the page: the coins only while they set the game and ε only in "set ε"
mode (the code sets the coins there, so they cannot be bound widgets). The dataset's column,
question and sample size stay in the address while the fixed group answers, and the group's
size and yes count while the dataset's persons do (a bound widget's parameter would leave the
address whenever its widget is not drawn), so a link reopens on everything it held.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dp_core import laplace, local_estimation
from dp_core import randomized_response as rr
from ui.common import charts, formatting
from ui.common.address import keep, linked_index, linked_value
from ui.common.catalog import entry
from ui.common.exercises import section_exercises
from ui.common.export import Export, export_buttons
from ui.common.i18n import N_, _, n_
from ui.common.labels import category_label, category_labels
from ui.common.sections import Section, story
from ui.common.shell import formula_box, link_param, page_rng, settings_area, what_to_notice
from ui.common.widgets import epsilon_input
from ui.local import charts as local_charts
from ui.local import estimates
from ui.local.exercises import EXERCISES
from ui.local.guarantee import local_guarantee_box, local_guarantee_text, local_unit
from ui.local.inputs import Respondents, pick_respondents

PAGE = "rr"  # the prefix of the page's widget keys and random streams
URL = "randomized_response"
OWN_EXERCISES = tuple(e for e in EXERCISES if e.page == URL)  # this page's, by section
COINS_MODE, EPSILON_MODE = "coins", "epsilon"
MODES = {COINS_MODE: N_("local.rr.mode.coins"), EPSILON_MODE: N_("local.rr.mode.epsilon")}
DATA, GROUP = "data", "group"
WHO = {DATA: N_("local.rr.who.data"), GROUP: N_("local.rr.who.group")}
FAIR = 0.5
FAIR_EPSILON = rr.coin_flip_epsilon(FAIR, FAIR)  # ln 3
GROUP_SIZE, GROUP_YES = 200, 50  # as many as the Chinese notebook's sales staff (all yes there)
MAX_GROUP = 10_000_000
N_GRID = np.unique(np.geomspace(10, 1_000_000, 41).round().astype(int))
LOCAL_GRID = N_GRID[::2]  # the exact local error: 21 points draw its straight log-log line
SIMULATED_N = np.array([100, 1_000, 10_000, 100_000, 1_000_000])
SAMPLE_SIZES = (10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000)
COIN_KEYS = ("rr_truth", "rr_random_yes")
EPSILON_KEY = "rr_epsilon"


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
    mode: str = COINS_MODE

    @property
    def can_estimate(self) -> bool:
        """The answers say something about the truth only when p > q."""
        return self.p > self.q


@dataclass(frozen=True, eq=False)
class Survey:
    """Who is asked: persons of a dataset, asked "is your ``column`` ``category``?", or a fixed
    group (``respondents`` None) of ``population`` persons, ``population_yes`` of them yes."""

    population: int
    population_yes: int
    respondents: Respondents | None = None
    category: str | None = None

    @property
    def group(self) -> bool:
        return self.respondents is None


@dataclass(frozen=True, eq=False)
class Settings:
    """What every section of the page depends on."""

    coins: Coins
    survey: Survey | None  # None while the data cannot be used
    n: int  # respondents asked (everyone, a random sample of the data, or the group)
    n_yes: int  # how many of them truly say yes

    @property
    def share(self) -> float:
        """The true share of yes in the population asked (the data, or the group)."""
        return self.survey.population_yes / self.survey.population


def survey_controls() -> Survey | None:
    """Who answers and the question: settings that rerun the whole page (folded on a
    projector)."""
    with settings_area():
        who = _choice("rr_who", _("local.rr.who.label"), WHO)
        return _group() if who == GROUP else _survey()


def _choice(key: str, label: str, options: dict[str, str]) -> str:
    """A horizontal radio over ``options`` (key -> message id), its key kept in the address."""
    keys = list(options)
    shown = {option: _(msgid) for option, msgid in options.items()}  # in this run's language
    chosen = st.radio(
        label,
        keys,
        index=linked_index(key, keys, 0),
        format_func=shown.__getitem__,
        key=key,
        horizontal=True,
    )
    keep(key, chosen, keys[0])
    return chosen


def _whole(key: str, label: str, default: int, minimum: int, area: DeltaGenerator) -> int:
    """A whole number typed for the group, kept in the address by the page (not bound, so it
    stays there while the dataset's persons answer)."""

    def linked(raw: str) -> int:
        value = int(raw)
        if not minimum <= value <= MAX_GROUP:
            raise ValueError("out of range")
        return value

    if key not in st.session_state:  # first appearance: the address's value
        st.session_state[key] = link_param(key, linked, default)
    value = int(area.number_input(label, min_value=minimum, max_value=MAX_GROUP, step=1, key=key))
    keep(key, str(value), str(default))
    return value


def _group() -> Survey | None:
    """A fixed group: its size and how many of its members truly say yes (typed)."""
    left, right = st.columns(2)
    n = _whole("rr_group_n", _("local.rr.group.n"), GROUP_SIZE, 1, left)
    n_yes = _whole("rr_group_yes", _("local.rr.group.yes"), GROUP_YES, 0, right)
    if n_yes > n:
        st.error(_("local.rr.group.too_many", yes=formatting.count(n_yes), n=formatting.count(n)))
        return None
    st.caption(_("local.rr.group.caption"))
    return Survey(n, n_yes)


def _survey() -> Survey | None:
    areas = st.columns(3)
    respondents = pick_respondents(PAGE, _("local.rr.column"), areas)
    if respondents is None:
        return None
    labels, column = list(respondents.labels), respondents.column
    key, default = (
        f"rr_category_{respondents.key}_{column}",
        "Sales" if "Sales" in labels else labels[0],
    )
    category = areas[2].selectbox(
        _("local.rr.question.label"),
        labels,
        key=key,
        index=linked_index(key, labels, labels.index(default)),
        format_func=dict(zip(labels, category_labels(column, labels), strict=True)).__getitem__,
    )
    keep(key, category, default)
    shown = category_label(column, category)
    if respondents.missing:
        st.caption(
            n_(
                "local.rr.missing.one",
                "local.rr.missing.other",
                respondents.missing,
                count=formatting.count(respondents.missing),
                column=column,
            )
        )
    if len(labels) == 1:
        everyone = (
            _("local.rr.one_value.everyone", column=column, category=shown)
            if not respondents.missing
            else _("local.rr.one_value.only", column=column, category=shown)
        )
        st.info(_("local.rr.one_value", everyone=everyone))
    counts = respondents.counts
    return Survey(
        respondents.population, int(counts[labels.index(category)]), respondents, category
    )


def _sync_address(mode: str, truth: float, random_yes: float) -> None:
    """Keep the coins in the address in "set the coins" mode and ε in "set ε" mode, each only
    while it is in use (a coin at its fair default is left out)."""
    params = st.query_params
    if mode == EPSILON_MODE:
        for key in COIN_KEYS:
            params.pop(key, None)
        return
    params.pop(EPSILON_KEY, None)
    for key, value in zip(COIN_KEYS, (truth, random_yes), strict=True):
        if value == FAIR:
            params.pop(key, None)
        elif params.get(key) != repr(value):
            params[key] = repr(value)


def _probability(raw: str) -> float:
    value = float(raw)
    if not 0 <= value <= 1:
        raise ValueError("not a probability")
    return round(value, 3)


def _coins(left: DeltaGenerator, right: DeltaGenerator) -> Coins:
    """The mode, then the coins (or ε and the coins that follow it) in ``left`` and ``right``."""
    state = st.session_state
    for key in COIN_KEYS:
        if key not in state:
            state[key] = link_param(key, _probability, FAIR)
    mode = _choice("rr_mode", _("local.rr.mode.label"), MODES)
    target = None
    if mode == EPSILON_MODE:
        target = epsilon_input(
            EPSILON_KEY,
            label=_("local.input.epsilon.label"),
            default=FAIR_EPSILON,
            help=_("local.input.epsilon.help"),
        )
        state["rr_truth"], state["rr_random_yes"] = rr.coin_flip_for_epsilon(target)
    truth = left.slider(
        _("local.rr.truth.label"),
        0.0,
        1.0,
        step=0.001,
        format="%.3f",
        key="rr_truth",
        disabled=target is not None,
        help=_("local.rr.truth.help"),
    )
    random_yes = right.slider(
        _("local.rr.random_yes.label"),
        0.0,
        1.0,
        step=0.001,
        format="%.3f",
        key="rr_random_yes",
        disabled=target is not None,
    )
    _sync_address(mode, truth, random_yes)
    if target is not None:
        # From ε itself: t = tanh(ε/2) loses 1 - t past ε = 30 and rounds to 1 past 38,
        # while P(yes | no) = P(no | yes) = expit(-ε) stays positive.
        p, q = rr.epsilon_form_report_probabilities(target)
        epsilon = rr.report_probabilities_epsilon(p, q, no_given_yes=q, no_given_no=p)
        return Coins(truth, random_yes, p, q, q, p, epsilon, EPSILON_MODE)
    p, q = rr.coin_flip_report_probabilities(truth, random_yes)
    epsilon = rr.coin_flip_epsilon(truth, random_yes)
    return Coins(truth, random_yes, p, q, 1 - p, 1 - q, epsilon)


def _sample_size(survey: Survey, area: DeltaGenerator) -> int:
    """How many persons of the data the survey asks: a random sample, everyone by default."""
    population = survey.population
    sizes = [s for s in SAMPLE_SIZES if s < population] + [population]
    if len(sizes) == 1:
        area.caption(_("local.rr.sample.all", population=formatting.count(population)))
        return population
    key = f"rr_n_{survey.respondents.key}"
    if key in st.session_state and st.session_state[key] not in sizes:  # new data or column
        del st.session_state[key]
    options = [str(size) for size in sizes]  # the address holds the plain number
    linked = linked_value(key, options) if key not in st.session_state else None
    n = area.select_slider(
        _("local.rr.sample.label"),
        sizes,
        value=population if linked is None else int(linked),
        key=key,
        format_func=formatting.count,
    )
    keep(key, str(n), str(population))
    return int(n)


def _asked(survey: Survey, area: DeltaGenerator) -> tuple[int, int]:
    """(n, n_yes): the persons asked and how many of them truly say yes."""
    if survey.group:
        return survey.population, survey.population_yes
    n = _sample_size(survey, area)
    population, population_yes = survey.population, survey.population_yes
    if n == population:
        return n, population_yes
    return n, rr.sample_yes_count(page_rng(PAGE, "sample"), population_yes, population, n)


def _data(s: Settings):
    """The dataset behind the survey (None for a described group, or without data)."""
    return None if s.survey is None or s.survey.group else s.survey.respondents.data


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
        n, n_yes = _asked(survey, right)
        local_guarantee_box(
            None if survey.group else survey.respondents.data,
            coins.epsilon,
            count=n,
            answers=_("local.rr.answers"),
            reads=() if survey.group else survey.respondents.reads,
        )
    story(PAGE, sections, Settings(coins, survey, n, n_yes))


def _probability_table(c: Coins) -> pd.DataFrame:
    """P(answer | truth) as on screen."""
    yes, no = _("local.rr.yes"), _("local.rr.no")
    return pd.DataFrame(
        {
            _("local.rr.table.truth"): [yes, no],
            _("local.rr.table.says_yes"): [
                formatting.probability(c.p),
                formatting.probability(c.q),
            ],
            _("local.rr.table.says_no"): [
                formatting.probability(c.no_given_yes),
                formatting.probability(c.no_given_no),
            ],
        }
    ).set_index(_("local.rr.table.truth"))


def _gamma_form(c: Coins) -> str:
    """The coins in the γ form of the teaching notebooks: the truth with probability ½ + γ.

    One γ describes the game when a true yes and a true no are told with the same probability
    (coin 2 fair, or "set ε"); then ε = ln((½ + γ)/(½ − γ)). Otherwise each answer has its own.
    """
    gamma_yes, gamma_no = rr.truth_gammas(c.p, c.q)
    if math.isclose(c.p, c.no_given_no, rel_tol=0, abs_tol=1e-12):
        return _(
            "local.rr.gamma.symmetric",
            gamma=formatting.significant(gamma_yes, 4),
            truth=formatting.significant(c.p, 4),
            lie=formatting.significant(c.q, 4),
            epsilon=formatting.epsilon(c.epsilon),
        )
    return _(
        "local.rr.gamma.asymmetric",
        gamma_yes=formatting.significant(gamma_yes, 4),
        truth_yes=formatting.significant(c.p, 4),
        gamma_no=formatting.significant(gamma_no, 4),
        truth_no=formatting.significant(c.no_given_no, 4),
    )


def coin_game(s: Settings) -> None:
    """Section 1: the two coins as a tree, the report probabilities and ε."""
    c = s.coins
    tree_col, table_col = st.columns([3, 2])
    with tree_col:
        charts.show(local_charts.coin_tree(c.truth, c.random_yes), key="rr_tree")
    with table_col:
        st.metric(_("local.rr.metric.epsilon"), formatting.epsilon(c.epsilon))
        st.table(_probability_table(c))
        st.markdown(_gamma_form(c))
        if math.isinf(c.epsilon):
            st.warning(_("local.rr.infinite"))
        elif c.epsilon == 0:
            st.warning(_("local.rr.zero"))
        else:
            st.markdown(
                _(
                    "local.rr.ratios",
                    yes_ratio=formatting.significant(c.p / c.q),
                    no_ratio=formatting.significant(c.no_given_no / c.no_given_yes),
                    epsilon=formatting.epsilon(c.epsilon),
                    odds=formatting.odds_factor(c.epsilon),
                )
            )
    st.markdown(_("local.rr.game"))
    st.caption(_("local.rr.neighbours"))
    section_exercises(OWN_EXERCISES, "coins", s)


def _no_survey() -> None:
    st.info(_("local.rr.no_survey"))


def _question(s: Settings) -> str:
    sv = s.survey
    if sv.group:
        return _(
            "local.rr.question.group",
            yes=formatting.count(sv.population_yes),
            population=formatting.count(sv.population),
        )
    column = sv.respondents.column
    return _(
        "local.rr.question.data",
        column=column,
        category=category_label(column, sv.category),
        yes=formatting.count(sv.population_yes),
        population=formatting.count(sv.population),
    )


def survey(s: Settings) -> None:
    """Section 2: everyone answers through the coins; the debiased estimate against the truth."""
    if s.survey is None:
        _no_survey()
        return
    st.markdown(_question(s))
    if not s.coins.can_estimate:
        st.error(_("local.rr.cannot_estimate"))
    else:
        _estimate(s)
    _first_respondents(s)


@dataclass(frozen=True)
class Result:
    """One survey: the tally, the debiased estimate and its 95% interval (raw and clipped)."""

    tally: int
    estimate: float
    low: float
    high: float
    error: float

    def clipped(self, n: int) -> tuple[float, float]:
        """The interval within the possible counts [0, n]."""
        return min(max(self.low, 0.0), n), min(max(self.high, 0.0), n)


def survey_result(s: Settings) -> Result:
    """The survey of these settings, drawn from the page's seed (what section 2 shows)."""
    c, n, n_yes = s.coins, s.n, s.n_yes
    tally = int(rr.yes_tally(page_rng(PAGE, "survey"), n_yes, n - n_yes, c.p, c.q))
    estimate = float(local_estimation.debiased_count(tally, n, c.p, c.q))
    low, high = (float(v) for v in local_estimation.estimate_interval(estimate, n, c.p, c.q))
    return Result(tally, estimate, low, high, estimate - n_yes + 0.0)


def _interval_text(result: Result, n: int) -> str:
    low, high = result.clipped(n)
    wald = _(
        "local.rr.interval", low=formatting.fixed(result.low), high=formatting.fixed(result.high)
    )
    if (low, high) == (result.low, result.high):
        return wald
    return _("local.rr.interval.clipped", wald=wald, low=formatting.fixed(low),
             high=formatting.fixed(high))  # fmt: skip


def _estimate(s: Settings) -> None:
    c, n, n_yes = s.coins, s.n, s.n_yes
    minimum = local_estimation.minimum_respondents(c.p, c.q, share_half_width=0.25)
    if n < minimum:
        st.warning(_("local.rr.few", n=formatting.count(n), minimum=formatting.count(minimum)))
    result = survey_result(s)
    relative = formatting.percent(abs(result.error) / n_yes) if n_yes else None
    survey_metrics = [
        (
            _("local.rr.metric.said_yes"),
            formatting.count(result.tally),
            _("local.rr.metric.of_answers", share=formatting.percent(result.tally / n)),
        ),
        (
            _("local.rr.metric.estimate"),
            formatting.fixed(result.estimate, 1),
            _interval_text(result, n),
        ),
        (
            _("local.rr.metric.truth"),
            formatting.count(n_yes),
            _("local.rr.metric.of_respondents", share=formatting.percent(n_yes / n)),
        ),
        (
            _("local.rr.metric.error"),
            ("+" if result.error >= 0 else "") + formatting.fixed(result.error, 1),
            relative,
        ),
    ]
    for area, (label, value, note) in zip(st.columns(4), survey_metrics, strict=True):
        area.metric(label, value, delta=note, delta_color="off", delta_arrow="off")
    st.markdown(
        _(
            "local.rr.undo",
            said=formatting.percent(result.tally / n),
            q=formatting.percent(c.q),
            not_p=formatting.percent(1 - c.p),
            estimate=formatting.fixed(result.estimate),
            truth=formatting.count(n_yes),
            off=formatting.fixed(abs(result.error)),
            of_truth=_("local.rr.undo.relative", relative=relative) if relative else "",
        )
    )
    distribution_chart = _distribution_chart(s, result)
    charts.show(distribution_chart, key="rr_distribution")
    st.caption(
        _(
            "local.rr.distribution",
            yes=formatting.count(n_yes),
            no=formatting.count(n - n_yes),
        )
    )
    if result.low < 0 or result.high > n:
        st.caption(_("local.rr.outside", n=formatting.count(n)))
    sv = s.survey
    if not sv.group and (sv.respondents.key, sv.respondents.column, sv.category) == (
        "census",
        "occupation",
        "Sales",
    ):
        st.caption(_("local.rr.published"))
    export_buttons(URL, _data(s), lambda: _export(s, result, distribution_chart), secure=False)
    section_exercises(OWN_EXERCISES, "survey", s)


def _distribution_chart(s: Settings, result: Result) -> charts.Spec:
    values, probs = estimates.distribution(s.n_yes, s.n, s.coins.p, s.coins.q)
    return local_charts.estimate_distribution(
        values, probs, s.n_yes, result.estimate, result.clipped(s.n)
    )


def results_table(s: Settings, result: Result) -> pd.DataFrame:
    """The survey's numbers as one row, in the units on screen (shares in %)."""
    n, low, high = s.n, *result.clipped(s.n)
    relative = 100 * abs(result.error) / s.n_yes if s.n_yes else float("nan")
    return pd.DataFrame(
        {
            _("local.rr.export.n"): [n],
            _("local.rr.export.truth"): [s.n_yes],
            _("local.rr.export.said_yes"): [result.tally],
            _("local.rr.export.said_yes_percent"): [round(100 * result.tally / n, 2)],
            _("local.rr.export.estimate"): [round(result.estimate, 1)],
            _("local.rr.export.low"): [round(result.low, 1)],
            _("local.rr.export.high"): [round(result.high, 1)],
            _("local.rr.export.clipped_low"): [round(low, 1)],
            _("local.rr.export.clipped_high"): [round(high, 1)],
            _("local.rr.export.error"): [round(result.error, 1)],
            _("local.rr.export.relative"): [round(relative, 2)],
            _("local.rr.export.expected"): [
                round(estimates.expected_abs_error(s.n_yes, n, s.coins.p, s.coins.q), 2)
            ],
        }
    )


def _export(s: Settings, result: Result, distribution_chart: charts.Spec) -> Export:
    c, sv, data = s.coins, s.survey, _data(s)
    source = data.title if data else _("local.rr.export.group")
    settings: dict[str, object] = {
        _("local.export.dataset"): source,
        _("local.rr.export.question"): _question(s).replace("*", ""),
        _("local.rr.export.who"): _(WHO[GROUP if sv.group else DATA]),
        _("local.rr.export.n"): formatting.count(s.n),
        _("local.rr.export.mode"): _(MODES[c.mode]),
        "t": formatting.number(round(c.truth, 3)),
        "y": formatting.number(round(c.random_yes, 3)),
        "epsilon": formatting.epsilon_bound(c.epsilon),
        _("local.rr.export.p"): formatting.probability(c.p),
        _("local.rr.export.q"): formatting.probability(c.q),
        _("local.export.noise"): _("local.export.noise.value"),
    }
    return Export(
        title=_("local.rr.export.title", data=source),
        question=entry(URL).question,
        table=results_table(s, result),
        settings=settings,
        guarantee=local_guarantee_text(
            data,
            c.epsilon,
            count=s.n,
            answers=_("local.rr.answers"),
            reads=s.survey.respondents.reads if data is not None else (),
        ),
        unit=local_unit(data),
        charts=[
            ("coin_tree", local_charts.coin_tree(c.truth, c.random_yes)),
            ("estimate_distribution", distribution_chart),
        ],
    )


@st.fragment
def _first_respondents(s: Settings) -> None:
    """The first 20 respondents flipping their coins, in a lazy expander (its own fragment)."""
    box = st.expander(_("local.rr.first.label"), key="rr_first20", on_change="rerun")
    if not box.open:
        return
    sv, c = s.survey, s.coins
    if sv.group:  # a seeded order of the group: who of them comes first
        size = min(20, sv.population)
        drawn = page_rng(PAGE, "group").choice(sv.population, size=size, replace=False)
        first = drawn < sv.population_yes
    else:
        respondents = sv.respondents
        first = respondents.codes[:20] == respondents.labels.index(sv.category)
    answers = rr.coin_flip_answers(page_rng(PAGE, "respondents"), first, c.truth, c.random_yes)
    yes, no = _("local.rr.yes"), _("local.rr.no")
    truthful, by_coin2 = _("local.rr.first.truthful"), _("local.rr.first.coin2_answers")
    with box:
        st.dataframe(
            {
                _("local.rr.first.person"): np.arange(1, first.size + 1),
                _("local.rr.table.truth"): np.where(first, yes, no),
                _("local.rr.first.coin1"): np.where(answers.truthful, truthful, by_coin2),
                _("local.rr.first.coin2"): np.where(
                    answers.truthful, "–", np.where(answers.random_yes, yes, no)
                ),
                _("local.rr.first.says"): np.where(answers.reported, yes, no),
            },
            hide_index=True,
        )
        st.caption(_("local.rr.first.caption"))


def error_against_n(s: Settings) -> None:
    """Section 3: the error of the estimated share against the number of respondents."""
    if s.survey is None:
        _no_survey()
        return
    c = s.coins
    if not c.can_estimate:
        st.info(_("local.rr.raise_t"))
        return
    standard_errors = estimates.share_errors(c.p, c.q, s.share, N_GRID)
    rng = page_rng(PAGE, "error")
    sim_true = np.round(s.share * SIMULATED_N).astype(int)
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
        st.info(_("local.rr.no_noise"))
        return
    charts.show(
        local_charts.share_error_against_n(N_GRID, standard_errors, SIMULATED_N, rms, s.n),
        key="rr_error",
    )
    st.caption(_("local.rr.error.caption", share=formatting.percent(s.share)))
    section_exercises(OWN_EXERCISES, "error", s)


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
        st.info(_("local.rr.raise_t"))
        return
    if math.isinf(c.epsilon):
        st.info(_("local.rr.central.infinite"))
        return
    local_curve = local_error_curve(c.p, c.q, s.share)
    central = laplace.laplace_expected_abs_error(laplace.laplace_scale(1, c.epsilon))
    local_now = estimates.expected_abs_error(s.n_yes, n, c.p, c.q)
    charts.show(
        local_charts.local_vs_central(LOCAL_GRID, local_curve, central, n), key="rr_central"
    )
    cols = st.columns(3)
    cols[0].metric(
        _("local.rr.central.local", n=formatting.count(n)), formatting.fixed(local_now, 1)
    )
    cols[1].metric(_("local.rr.central.central"), formatting.fixed(central, 2))
    cols[2].metric(_("local.rr.central.ratio"), f"{formatting.fixed(local_now / central)}×")
    st.markdown(
        _(
            "local.rr.central.sentence",
            epsilon=formatting.epsilon(c.epsilon),
            central=formatting.fixed(central, 2),
            local=formatting.fixed(local_now, 1),
            n=formatting.count(n),
        )
    )
    st.caption(_("local.rr.central.caption"))
    section_exercises(OWN_EXERCISES, "central", s)


def sections() -> list[Section]:
    """The page's story."""
    return [
        Section("coins", _("local.rr.section.coins"), coin_game),
        Section("survey", _("local.rr.section.survey"), survey),
        Section("error", _("local.rr.section.error"), error_against_n),
        Section("central", _("local.rr.section.central"), local_vs_central),
    ]


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice(
        [_("local.rr.notice.deniable"), _("local.rr.notice.coins"), _("local.rr.notice.root_n")]
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
        r"(=2(\#\text{yes} - n/4)\text{ for } t = y = \tfrac12),\qquad "
        r"\operatorname{Var} = \frac{n_{\text{yes}}\,p(1-p) + n_{\text{no}}\,q(1-q)}{(p-q)^2}"
    )
    st.markdown(_("local.rr.sources"))
