"""Ask the room: the trainer puts an exercise to the room, attendees answer on their devices,
and the projector shows how the room answered (the right answer when the trainer says).

    ask_button(exercise, settings)   # in an exercise's box (ui.common.exercises), for the trainer
    results(code, question)          # in the trainer's strip while a question is open
    answer_box(code, question)       # in an attendee's strip while a question is open

The right answer is the exercise's own (``solve``) at the trainer's settings, kept in the store
and shown to attendees only once revealed. An answer is kept under a random token of the
session that gave it (one per session and question, never shown), checked (a finite number, or
one of the choices), and only the distribution is ever shown.
"""

from __future__ import annotations

import functools
import secrets
import time
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from ui.common import charts
from ui.common.accessible import status
from ui.common.exercises import Answer, Exercise, answer_input
from ui.common.formatting import count, percent, significant
from ui.common.i18n import _
from ui.workshop.room import LEADING, fail, failure, said, succeeded
from ui.workshop.rooms import Question, RoomError, valid_answer
from ui.workshop.store import store

VOTER = "room__voter"  # session state: this session's token for its answers
GIVEN = "room__given"  # session state: question id -> the answer this session gave
ASKED_NOW = "room__asked_now"  # session state: the trainer put a question in this click
SENDS = "room__sends"  # session state: when this session last sent answers (a rate limit)
UNSENT = "room__unsent"  # session state: question id -> (an answer not stored, when last tried)
MOST_SENDS, PER_SECONDS = 5, 10.0  # a session sends at most this many answers in this time
SEND_AGAIN_EVERY = 3.0  # seconds between a session's tries to send an answer again
BINS = 12  # bars of a numeric answer's histogram


@functools.cache
def exercises() -> dict[str, Exercise]:
    """Every exercise of the app by its key (ui.workshop.listing)."""
    from ui.workshop.listing import all_exercises

    return {exercise.key: exercise for exercise in all_exercises()}


def ask_button(exercise: Exercise, settings: Any) -> None:
    """For the trainer leading a room: put ``exercise`` to the room, answered at ``settings``."""
    code = st.session_state.get(LEADING)
    if code is None:
        return
    if st.session_state.pop(ASKED_NOW, False):  # the strip, above, shows the answers at once
        st.rerun(scope="app")  # (a click in a section's fragment runs that section alone)
    st.button(
        _("workshop.ask.button"),
        icon=":material/campaign:",
        key=f"exercise_{exercise.key}_ask",
        on_click=_ask,
        args=(code, exercise, settings),
    )


def _ask(code: str, exercise: Exercise, settings: Any) -> None:
    question = Question.ask(exercise.key, exercise.solve(settings).value)
    st.session_state[ASKED_NOW] = stored(lambda: store().ask(code, question, time.time()))


def stored(write: Any) -> bool:
    try:
        write()
    except RoomError as error:
        fail(said(error))
        return False
    succeeded()
    return True


def _shown(exercise: Exercise, value: float | str) -> str:
    """An answer as the reader reads it: a number in their format, a choice by its label."""
    if exercise.kind == "choice":
        return _(dict(exercise.choices).get(str(value), str(value)))
    return significant(float(value))


def results(code: str, question: Question) -> None:
    """How the room answered: the question, the count, the distribution; the buttons to show
    the right answer and to end the question."""
    exercise = exercises().get(question.exercise)
    if exercise is None:  # a question from another version of the app
        return
    try:
        given = store().answers(code, question.id)
    except RoomError as error:
        st.warning(said(error), icon=":material/error:")
        return
    with st.container(border=True, key="room_results"):
        st.markdown(_("workshop.ask.asked", question=_(exercise.question)))
        status(_("workshop.ask.count", n=count(len(given))), "room_answers")
        if given:
            _distribution(exercise, question, given)
        if question.revealed:
            right = sum(_right(exercise, question, g) for g in given)
            st.success(
                _(
                    "workshop.ask.revealed",
                    answer=_shown(exercise, question.answer),
                    right=count(right),
                    n=count(len(given)),
                    share=percent(right / len(given)) if given else "–",
                ),
                icon=":material/lightbulb:",
            )
        row = st.container(horizontal=True)
        if not question.revealed:
            row.button(
                _("workshop.ask.reveal"),
                icon=":material/visibility:",
                key="room_reveal",
                on_click=_reveal,
                args=(code, question),
            )
        row.button(
            _("workshop.ask.end"),
            icon=":material/stop_circle:",
            key="room_end",
            on_click=end,
            args=(code,),
        )


def end(code: str) -> None:
    """Put nothing to the room any more (an exercise or a survey)."""
    stored(lambda: store().ask(code, None, time.time()))


def _reveal(code: str, question: Question) -> None:
    shown = Question(question.id, question.exercise, question.answer, revealed=True)
    stored(lambda: store().ask(code, shown, time.time()))


def _right(exercise: Exercise, question: Question, given: str) -> bool:
    value = given if exercise.kind == "choice" else float(given)
    return exercise.is_right(value, Answer(question.answer, ""))


def _distribution(exercise: Exercise, question: Question, given: list[str]) -> None:
    """Bars of the answers: one per choice, or a histogram of the numbers (the middle 90%
    and, once revealed, the right answer; the rest counted below it)."""
    if exercise.kind == "choice":
        counts = pd.Series(given).value_counts()
        frame = pd.DataFrame(
            {
                "answer": [_(label) for _key, label in exercise.choices],
                "n": [int(counts.get(key, 0)) for key, _label in exercise.choices],
                "color": [
                    charts.GOOD_COLOR
                    if question.revealed and key == question.answer
                    else charts.NOISY_COLOR
                    for key, _label in exercise.choices
                ],
            }
        )
        spec = charts.chart(
            charts.bars(
                "answers",
                x=charts.nominal("answer", _("workshop.ask.answer"), sort=None),
                y=charts.quantitative("n", _("workshop.ask.people")),
                color={"field": "color", "type": "nominal", "scale": None},
            ),
            datasets={"answers": frame},
            height=220,
        )
        charts.show(spec, key="room_answers")
        return
    numbers = np.array([float(g) for g in given])
    low, high = (
        np.quantile(numbers, [0.05, 0.95]) if len(numbers) >= 20 else (numbers.min(), numbers.max())
    )
    if question.revealed:
        low, high = min(low, float(question.answer)), max(high, float(question.answer))
    shown = numbers[(numbers >= low) & (numbers <= high)]
    if high <= low:
        low, high = low - 0.5, high + 0.5
    tally, edges = np.histogram(shown, bins=BINS, range=(low, high))
    frame = pd.DataFrame({"low": edges[:-1], "high": edges[1:], "n": tally})
    layers: list[Any] = [
        charts.layer(
            "answers",
            "bar",
            x=charts.quantitative("low", _("workshop.ask.answer")),
            x2={"field": "high"},
            y2={"datum": 0},
            y=charts.quantitative("n", _("workshop.ask.people")),
            color={"value": charts.NOISY_COLOR},
        )
    ]
    datasets = {"answers": frame}
    if question.revealed:
        layers.append(charts.rule_x("right", color=charts.GOOD_COLOR))
        datasets["right"] = charts.marker(float(question.answer), _shown(exercise, question.answer))
    charts.show(charts.chart(*layers, datasets=datasets, height=220), key="room_answers")
    outside = len(numbers) - len(shown)
    if outside:
        st.caption(_("workshop.ask.outside", n=count(outside)))


def answer_box(code: str, question: Question) -> None:
    """The question on an attendee's device: a place to answer, then what they gave (and,
    once the trainer shows it, the right answer)."""
    exercise = exercises().get(question.exercise)
    if exercise is None:
        return
    state = st.session_state
    given = state.setdefault(GIVEN, {}).get(question.id)
    with st.container(border=True, key="room_question"):
        st.markdown(_("workshop.ask.to_you", question=_(exercise.question)))
        failed = failure()
        if failed:
            st.error(failed, icon=":material/error:")
        if given is None and unsent(question.id):
            send_unsent(code)
        elif given is None:
            _answer_input(code, exercise, question)
        else:
            st.markdown(_("workshop.ask.yours", answer=_shown(exercise, given)))
        if question.revealed:
            answer = _shown(exercise, question.answer)
            if given is not None and _right(exercise, question, given):
                st.success(_("workshop.ask.right", answer=answer), icon=":material/check_circle:")
            else:
                st.info(_("workshop.ask.the_answer", answer=answer), icon=":material/lightbulb:")


def _answer_input(code: str, exercise: Exercise, question: Question) -> None:
    key = f"room_answer_{question.id}"
    answer_input(exercise, key)
    st.button(
        _("workshop.ask.send"),
        icon=":material/send:",
        key=f"{key}_send",
        type="primary",
        on_click=_send,
        args=(code, exercise, question),
    )


def _send(code: str, exercise: Exercise, question: Question) -> None:
    state = st.session_state
    raw = state.get(f"room_answer_{question.id}")
    choices = tuple(key for key, _label in exercise.choices)
    value = valid_answer(exercise.kind, choices, raw)
    if value is None:
        fail(_("workshop.ask.invalid"))
        return
    keep(code, question.id, value)


def keep(code: str, asked: str, value: str) -> None:
    """Keep this session's answer ``value`` (already checked) to the question ``asked``, under
    the session's token, at most ``MOST_SENDS`` answers in ``PER_SECONDS`` seconds. A session
    answers a question once: a send once its answer is in or kept (a double click, a page
    flooding the room) changes nothing and counts for no limit, which would refuse its next
    question or its survey's report. An answer the store cannot take just now (Redis
    restarting, the file locked past its timeout) is kept in the session and sent again
    (``send_unsent``): a survey's coins report only once."""
    state = st.session_state
    if asked in state.get(GIVEN, {}) or asked in state.get(UNSENT, {}):
        return
    now = time.monotonic()
    recent = [t for t in state.get(SENDS, []) if now - t < PER_SECONDS]
    if len(recent) >= MOST_SENDS:
        fail(_("workshop.ask.too_fast"))
        return
    state[SENDS] = [*recent, now]
    _store_answer(code, asked, value)


def _store_answer(code: str, asked: str, value: str) -> bool:
    """Store the session's answer; whether it is in (or was already)."""
    state = st.session_state
    voter = state.setdefault(VOTER, secrets.token_hex(16))
    waiting = state.setdefault(UNSENT, {})
    try:
        store().answer(code, asked, voter, value)
    except RoomError as error:
        fail(said(error))
        if error.code == "unreachable":
            waiting[asked] = (value, time.monotonic())
        return False
    succeeded()
    waiting.pop(asked, None)
    state.setdefault(GIVEN, {})[asked] = value
    return True


def unsent(asked: str) -> bool:
    """Whether this session holds an answer to ``asked`` that the store could not take."""
    return asked in st.session_state.get(UNSENT, {})


def send_unsent(code: str) -> None:
    """Where an answer box would be, or where the strip says the store is out of reach: the
    session's answers not yet in, sent again every ``SEND_AGAIN_EVERY`` seconds."""
    for asked in list(st.session_state.get(UNSENT, {})):
        _send_again(code, asked)


# st.fragment itself, not ui.common.turns': it is drawn inside the strip's fragment, whose
# turn a nested one would wait for.
@st.fragment(run_every=SEND_AGAIN_EVERY)
def _send_again(code: str, asked: str) -> None:
    """Says the answer is kept here, and sends it again at each of its own timed runs (not
    sooner: a refusal may have waited out the store's timeout); once it is in, the whole
    page runs again to show it."""
    value, tried = st.session_state.get(UNSENT, {}).get(asked, (None, 0.0))
    if value is None:
        return
    if time.monotonic() - tried >= SEND_AGAIN_EVERY and _store_answer(code, asked, value):
        st.rerun()
    st.info(_("workshop.ask.unsent"), icon=":material/schedule_send:")
