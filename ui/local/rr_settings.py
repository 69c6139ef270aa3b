"""The randomized-response page's constants, its declared settings (widget keys and address
parameters) and the frozen settings every section reads: the coins (Coins), who answers
(Survey), and both with the number asked (Settings)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import streamlit as st

from dp_core import randomized_response as rr
from ui.common.i18n import N_, _
from ui.common.setting import Choice, Number
from ui.common.widgets import epsilon_setting
from ui.local.exercises import EXERCISES
from ui.local.inputs import Respondents

PAGE = "rr"  # the prefix of the page's widget keys and random streams
URL = "randomized_response"
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

# The page's settings. The address holds the coins only in "set the coins" mode and ε only in
# "set ε" mode (the other is the one's consequence there, written with in_address=False). The
# dataset's column, question and sample size stay in it while the fixed group answers, and the
# group's size and yes count while the dataset's persons do: a setting whose widget is not
# drawn is left as it is, so a link reopens on everything it held.
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


def no_survey() -> None:
    """What the survey's sections say while the data cannot be used."""
    st.info(_("local.rr.no_survey"))
