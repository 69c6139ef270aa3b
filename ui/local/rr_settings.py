"""The randomized-response page's constants, its declared settings (widget keys and address
parameters) and the frozen settings every section reads: the coins (Coins), who answers
(Survey), and both with the number asked (Settings). The coins know the sliders that set
them (t and y, or ε): a chart that follows their thumbs (ui.common.live) draws itself with
the coins at each stop (``Settings.at``)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import streamlit as st

from dp_core import randomized_response as rr
from ui.common.catalog import entry
from ui.common.i18n import N_, _
from ui.common.live import Stops
from ui.common.setting import Choice, Number
from ui.common.widgets import epsilon_setting
from ui.local.exercises import EXERCISES
from ui.local.inputs import Respondents, respondents_dataset

URL = "randomized_response"
PAGE = entry(URL).prefix  # of the page's widget keys and random streams ("rr")
OWN_EXERCISES = tuple(e for e in EXERCISES if e.page == URL)  # this page's, by section
COINS_MODE, EPSILON_MODE = "coins", "epsilon"
MODES = {COINS_MODE: N_("local.rr.mode.coins"), EPSILON_MODE: N_("local.rr.mode.epsilon")}
DATA, GROUP = "data", "group"
WHO = {DATA: N_("local.rr.who.data"), GROUP: N_("local.rr.who.group")}
FAIR = 0.5
FAIR_EPSILON = rr.coin_flip_epsilon(FAIR, FAIR)  # ln 3
MAX_GROUP = 10_000_000
N_GRID = np.unique(np.geomspace(10, 1_000_000, 41).round().astype(int))
LOCAL_GRID = N_GRID[::2]  # the exact local error: 21 points draw its straight log-log line
SIMULATED_N = np.array([100, 1_000, 10_000, 100_000, 1_000_000])
SAMPLE_SIZES = (10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000)
COIN_STOPS = tuple(i / 20 for i in range(21))  # a coin's slider: 0, 0.05, ..., 1

# The page's settings. The address holds the coins only in "set the coins" mode and ε only in
# "set ε" mode (the other is the one's consequence there, written with in_address=False). The
# dataset's column, question and sample size stay in it while the fixed group answers, and the
# group's size and yes count while the dataset's persons do: a setting whose widget is not
# drawn is left as it is, so a link reopens on everything it held.
DATASET = respondents_dataset(PAGE)  # drawn by ui.local.inputs
ANSWERING = Choice("rr_who", DATA, options=tuple(WHO))
MODE = Choice("rr_mode", COINS_MODE, options=tuple(MODES))
# As many as the Chinese notebook's sales staff (all yes there).
GROUP_N = Number("rr_group_n", 200, minimum=1, maximum=MAX_GROUP, integer=True)
GROUP_YES = Number("rr_group_yes", 50, minimum=0, maximum=MAX_GROUP, integer=True)
COLUMN = Choice("rr_column", "occupation")  # options: the dataset's category columns
QUESTION = Choice("rr_category", "Sales")  # the category asked about: the column's
SAMPLE = Choice("rr_n", None)  # persons asked; default: everyone (the population, per run)
TRUTH = Number("rr_truth", FAIR, minimum=0.0, maximum=1.0)  # coin 1: tell the truth
RANDOM_YES = Number("rr_random_yes", FAIR, minimum=0.0, maximum=1.0)  # coin 2: say yes
EPSILON = epsilon_setting("rr_epsilon", FAIR_EPSILON)
TRUTH_FROM_EPSILON = replace(TRUTH, in_address=False)
RANDOM_YES_FROM_EPSILON = replace(RANDOM_YES, in_address=False)
EPSILON_FROM_COINS = replace(EPSILON, in_address=False)


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
    sliders: tuple[Stops, ...] = ()  # what sets them: t's and y's sliders, or ε's

    @property
    def can_estimate(self) -> bool:
        """The answers say something about the truth only when p > q."""
        return self.p > self.q

    def at(self, *values: float) -> Coins:
        """The coins with their sliders at other stops (t and y, or ε)."""
        sliders = tuple(s.at(v) for s, v in zip(self.sliders, values, strict=True))
        if self.mode == EPSILON_MODE:
            return coins_for_epsilon(*values, sliders=sliders)
        return coins_from(*values, sliders=sliders)


def coins_from(truth: float, random_yes: float, *, sliders: tuple[Stops, ...] = ()) -> Coins:
    """The coins t and y: p = t + (1 − t) y, q = (1 − t) y and ε = max(ln p/q, ln (1−q)/(1−p))
    (dp_core.randomized_response)."""
    p, q = rr.coin_flip_report_probabilities(truth, random_yes)
    epsilon = rr.coin_flip_epsilon(truth, random_yes)
    return Coins(truth, random_yes, p, q, 1 - p, 1 - q, epsilon, COINS_MODE, sliders)


def coins_for_epsilon(epsilon: float, *, sliders: tuple[Stops, ...] = ()) -> Coins:
    """The coins ε sets: t = tanh(ε/2), y = ½. p = e^ε/(1 + e^ε) and q = 1 − p from ε itself:
    t loses 1 − t past ε = 30 and rounds to 1 past 38, while q = expit(−ε) stays positive."""
    truth, random_yes = rr.coin_flip_for_epsilon(epsilon)
    p, q = rr.epsilon_form_report_probabilities(epsilon)
    exact = rr.report_probabilities_epsilon(p, q, no_given_yes=q, no_given_no=p)
    return Coins(truth, random_yes, p, q, q, p, exact, EPSILON_MODE, sliders)


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

    @property
    def sliders(self) -> list[Stops]:
        """The sliders the coins follow: t and y, or ε."""
        return list(self.coins.sliders)

    @property
    def epsilon_sliders(self) -> list[Stops]:
        """ε's slider in "set ε" mode, none in "set the coins" mode: what a section follows
        when its stop costs too much for two sliders of 101 stops (each step of one coin
        builds the other's stops again)."""
        return self.sliders if self.coins.mode == EPSILON_MODE else []

    @property
    def identity(self) -> tuple:
        """What the sections' charts draw from besides the sliders (ui.common.live keeps their
        stops for it): the mode and who is asked."""
        sv = self.survey
        asked = () if sv is None else (sv.population, sv.population_yes, self.n, self.n_yes)
        return (self.coins.mode, *asked)

    def at(self, *values: float) -> Settings:
        """The settings with the coins' sliders at other stops; with no values (a section
        drawn still, following no slider), these settings."""
        return replace(self, coins=self.coins.at(*values)) if values else self


def no_survey() -> None:
    """What the survey's sections say while the data cannot be used."""
    st.info(_("local.rr.no_survey"))
