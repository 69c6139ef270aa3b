"""The randomized-response page's controls: who answers and the question (survey_controls,
rerunning the whole page), the coins or ε (coin_controls) and the sample size (asked), both
drawn inside the page's fragment.

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

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dp_core import randomized_response as rr
from ui.common import formatting
from ui.common.address import keep, linked_index, linked_value
from ui.common.i18n import _, n_
from ui.common.labels import category_label, category_labels
from ui.common.shell import link_param, page_rng, settings_area
from ui.common.widgets import epsilon_input
from ui.local.inputs import pick_respondents
from ui.local.rr_settings import (
    COIN_KEYS,
    EPSILON_KEY,
    EPSILON_MODE,
    FAIR,
    FAIR_EPSILON,
    GROUP,
    GROUP_SIZE,
    GROUP_YES,
    MAX_GROUP,
    MODES,
    PAGE,
    SAMPLE_SIZES,
    WHO,
    Coins,
    Survey,
)


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


def coin_controls(left: DeltaGenerator, right: DeltaGenerator) -> Coins:
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


def asked(survey: Survey, area: DeltaGenerator) -> tuple[int, int]:
    """(n, n_yes): the persons asked and how many of them truly say yes."""
    if survey.group:
        return survey.population, survey.population_yes
    n = _sample_size(survey, area)
    population, population_yes = survey.population, survey.population_yes
    if n == population:
        return n, population_yes
    return n, rr.sample_yes_count(page_rng(PAGE, "sample"), population_yes, population, n)
