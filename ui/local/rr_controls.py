"""The randomized-response page's controls: who answers and the question (survey_controls,
rerunning the whole page), the coins or ε (coin_controls) and the sample size (asked), both
drawn inside the page's fragment.

Who answers: persons of a dataset (everyone, or a random sample of n of them), or a fixed group
described by its size and how many of its members would truly say yes (the Chinese local-DP
notebook asks 200 sales staff, all of whom truly say yes). Every setting is declared in
rr_settings and kept in the page's address by ui.common.address: the coins only while they set
the game and ε only in "set ε" mode (the code sets the coins there). A setting whose widget is
not drawn keeps its value and its parameter: the dataset's column, question and sample size
while the fixed group answers, the group's size and yes count while the dataset's persons do,
so a link reopens on everything it held.

The coins' sliders stop at 0, 0.05, ..., 1 and at the value in use (a link's, or the t that ε
sets): the charts that follow their thumbs (ui.common.live) are drawn at each stop, and each
step of one coin draws the other's stops again, which 1,001 or even 101 steps would make slow
(0.01 cost 160-280 ms of server time a step).
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dp_core import randomized_response as rr
from ui.common import formatting
from ui.common.address import assign, current, linked, publish
from ui.common.i18n import _, n_
from ui.common.labels import category_label, category_labels
from ui.common.live import Stops
from ui.common.presets import preset_buttons
from ui.common.setting import Choice, Number
from ui.common.shell import page_rng, settings_area
from ui.common.widgets import epsilon_slider
from ui.local.inputs import pick_respondents
from ui.local.rr_presets import PRESETS
from ui.local.rr_settings import (
    ANSWERING,
    COIN_STOPS,
    COLUMN,
    EPSILON,
    EPSILON_FROM_COINS,
    EPSILON_MODE,
    GROUP,
    GROUP_N,
    GROUP_YES,
    MODE,
    MODES,
    PAGE,
    QUESTION,
    RANDOM_YES,
    RANDOM_YES_FROM_EPSILON,
    SAMPLE,
    SAMPLE_SIZES,
    TRUTH,
    TRUTH_FROM_EPSILON,
    WHO,
    Coins,
    Survey,
    coins_for_epsilon,
    coins_from,
)


def survey_controls() -> Survey | None:
    """The examples, who answers and the question: settings that rerun the whole page (folded
    on a projector). An example sets the coins too, drawn in the page's fragment below."""
    with settings_area():
        preset_buttons(PAGE, PRESETS)
        who = _choice(ANSWERING, _("local.rr.who.label"), WHO)
        return _group() if who == GROUP else _survey()


def _choice(setting: Choice, label: str, options: dict[str, str]) -> str:
    """A horizontal radio over ``options`` (key -> message id), its key kept in the address."""
    labels = {option: _(msgid) for option, msgid in options.items()}  # this run's language
    return linked(setting, st.radio, label, labels=labels, horizontal=True)


def _whole(setting: Number, label: str, area: DeltaGenerator) -> int:
    """A whole number typed for the group (kept in the address while the data answer too)."""
    low, high = int(setting.minimum), int(setting.maximum)
    return int(linked(setting, area.number_input, label, min_value=low, max_value=high, step=1))


def _group() -> Survey | None:
    """A fixed group: its size and how many of its members truly say yes (typed)."""
    left, right = st.columns(2)
    n = _whole(GROUP_N, _("local.rr.group.n"), left)
    n_yes = _whole(GROUP_YES, _("local.rr.group.yes"), right)
    if n_yes > n:
        st.error(_("local.rr.group.too_many", yes=formatting.count(n_yes), n=formatting.count(n)))
        return None
    st.caption(_("local.rr.group.caption"))
    return Survey(n, n_yes)


def _survey() -> Survey | None:
    areas = st.columns(3)
    respondents = pick_respondents(PAGE, COLUMN, _("local.rr.column"), areas)
    if respondents is None:
        return None
    labels, column = list(respondents.labels), respondents.column
    category = linked(  # "Sales" when the column has it, else its first category
        QUESTION,
        areas[2].selectbox,
        _("local.rr.question.label"),
        labels=dict(zip(labels, category_labels(column, labels), strict=True)),
        context=(respondents.data.link_key, column),
    )
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
            if not respondents.no_value
            else _("local.rr.one_value.only", column=column, category=shown)
        )
        st.info(_("local.rr.one_value", everyone=everyone))
    counts = respondents.counts
    return Survey(
        respondents.population, int(counts[labels.index(category)]), respondents, category
    )


def _coin(
    setting: Number, area: DeltaGenerator, label: str, fixed: bool, help: str | None = None
) -> Stops:
    """A coin's chance: a select_slider over 0, 0.05, ..., 1 and the value in use (a link's
    0.125, or the t that ε sets, is a stop of its own), disabled while ε sets it; returns its
    stops (the charts that follow its thumb are drawn at each)."""
    options = sorted({*COIN_STOPS, current(setting)})
    value = linked(
        setting,
        area.select_slider,
        label,
        options=options,
        format_func=formatting.number,
        disabled=fixed,
        help=help,
    )
    return Stops(setting.key, tuple(options), options.index(value), setting.default)


def coin_controls(left: DeltaGenerator, right: DeltaGenerator) -> Coins:
    """The mode, then the coins (or ε and the coins that follow it) in ``left`` and ``right``."""
    mode = _choice(MODE, _("local.rr.mode.label"), MODES)
    target, coins = None, (TRUTH, RANDOM_YES)
    if mode == EPSILON_MODE:
        target = epsilon_slider(
            EPSILON, label=_("local.input.epsilon.label"), help=_("local.input.epsilon.help")
        )
        # The coins follow ε (disabled sliders: no thumb of the reader's to overwrite), and
        # leave the address: ε says them.
        assign(
            dict(
                zip(
                    (TRUTH.key, RANDOM_YES.key),
                    rr.coin_flip_for_epsilon(target.value),
                    strict=True,
                )
            )
        )
        coins = (TRUTH_FROM_EPSILON, RANDOM_YES_FROM_EPSILON)
    else:
        publish(EPSILON_FROM_COINS, None)  # the coins set ε: it leaves the address
    fixed = target is not None
    truth = _coin(coins[0], left, _("local.rr.truth.label"), fixed, _("local.rr.truth.help"))
    random_yes = _coin(coins[1], right, _("local.rr.random_yes.label"), fixed)
    if target is not None:
        return coins_for_epsilon(target.value, sliders=(target,))
    return coins_from(truth.value, random_yes.value, sliders=(truth, random_yes))


def _sample_size(survey: Survey, area: DeltaGenerator) -> int:
    """How many persons of the data the survey asks: a random sample, everyone by default."""
    population = survey.population
    sizes = [s for s in SAMPLE_SIZES if s < population] + [population]
    if len(sizes) == 1:
        area.caption(_("local.rr.sample.all", population=formatting.count(population)))
        return population
    n = linked(  # everyone by default; another population (data, column) starts there again
        replace(SAMPLE, default=population),
        area.select_slider,
        _("local.rr.sample.label"),
        labels={size: formatting.count(size) for size in sizes},
        context=(survey.respondents.data.link_key, population),
    )
    return int(n)


def asked(survey: Survey, area: DeltaGenerator) -> tuple[int, int]:
    """(n, n_yes): the persons asked and how many of them truly say yes."""
    if survey.group:
        return survey.population, survey.population_yes
    n = _sample_size(survey, area)
    population, population_yes = survey.population, survey.population_yes
    if n == population:
        return n, population_yes
    return n, rr.sample_yes_count(page_rng(PAGE, "sample"), population_yes, population, n)
