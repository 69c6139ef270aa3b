"""The workshop room through AppTest: opening a room, its links, joining it (by code, by link,
badly), the trainer's view reaching the store and a follower's page taking it on."""

from __future__ import annotations

import socket
import time

import pytest
from apptest_helpers import open_page, rerun, widget

from ui.common.formatting import significant
from ui.workshop import store as store_module
from ui.workshop.room import FOLLOWING, LEADING, SECRET
from ui.workshop.rooms import View, leads


@pytest.fixture(autouse=True)
def rooms(tmp_path, monkeypatch):
    """A store of this test's own (a SQLite file), as every worker of a workshop would share."""
    monkeypatch.setenv(store_module.ENV, f"sqlite:///{tmp_path / 'rooms.sqlite'}")
    store_module.store.cache_clear()
    yield store_module.store()
    store_module.store.cache_clear()


def strip(at) -> str:
    return " ".join(m.value for m in at.markdown if m.value.startswith("**Room "))


def opened_room(at):
    at.button(key="room_open").click()
    rerun(at)
    code = at.session_state[LEADING]
    return code, at.session_state[SECRET]


def joined_by_code(at, typed: str):
    """``at`` after typing ``typed`` in the join box and pressing Join."""
    at.text_input(key="room_code").input(typed)
    at.button(key="room_join_button").click()
    return rerun(at)


def test_opening_a_room_gives_its_code_and_both_links(rooms) -> None:
    at = open_page("workshop")
    assert not strip(at)  # outside a room, no strip
    code, secret = opened_room(at)
    assert strip(at).startswith(f"**Room {code}**: you lead")
    joining = next(m.value for m in at.markdown if m.value.startswith("### Join room"))
    assert f"/workshop?room={code}" in joining and secret not in joining
    assert any(f"room={code}&lead={secret}" in c.value for c in at.code)  # the trainer's own
    kept = rooms.room(code)
    assert kept is not None and leads(secret, kept.lead_hash)
    assert kept.closes > time.time() + 11 * 3600  # open for the day
    # The trainer's strip made the page in view the room's view, without the room's links.
    assert kept.view is not None and kept.view.page == "workshop"
    assert not {"room", "lead"} & set(kept.view.query())


def test_an_attendee_joins_by_the_code_however_typed(rooms) -> None:
    code, _secret = opened_room(open_page("workshop"))
    at = joined_by_code(open_page("workshop"), f" {code[:3].lower()}-{code[3:]} ")
    assert at.session_state[FOLLOWING] == code
    assert LEADING not in at.session_state


@pytest.mark.parametrize(
    ("typed", "said"), [("ABC", "ABC"), ("NOPE22", "NOPE22"), ("[a](b)", r"\[a\]\(b\)")]
)
def test_a_wrong_code_says_so_and_keeps_what_was_typed(rooms, typed: str, said: str) -> None:
    """What was typed is said as typed: a link in it is not drawn (ui.common.user_text)."""
    at = joined_by_code(open_page("workshop"), typed)
    assert [e.value for e in at.error] == [
        f"There is no open room with the code \u2068{said}\u2069. Check the code on the projector."
    ]
    assert at.text_input(key="room_code").value == typed
    assert FOLLOWING not in at.session_state


def test_the_trainer_link_leads_and_leaves_the_address_a_wrong_secret_follows(rooms) -> None:
    code, secret = opened_room(open_page("workshop"))
    trainer = open_page("workshop", query={"room": code, "lead": secret})
    assert trainer.session_state[LEADING] == code
    assert "lead" not in trainer.query_params  # a projected address never shows the secret
    wrong = open_page("workshop", query={"room": code, "lead": secret[:-2] + "xx"})
    assert LEADING not in wrong.session_state and wrong.session_state[FOLLOWING] == code
    assert "lead" not in wrong.query_params
    assert [w.value for w in wrong.warning] == [
        "This trainer link does not lead its room. You follow the room instead."
    ]


def test_a_closed_or_unknown_room_link_says_so(rooms) -> None:
    at = open_page("home", query={"room": "ZZZZZZ"})  # one run: the toast is on it
    assert FOLLOWING not in at.session_state and "room" not in at.query_params
    assert "There is no open room with the code \u2068ZZZZZZ\u2069" in at.toast[0].value
    trainer = open_page("workshop")
    code, _secret = opened_room(trainer)
    trainer.button(key="room_close").click()
    rerun(trainer)
    assert LEADING not in trainer.session_state and rooms.poll(code, time.time()) is None
    late = open_page("workshop", query={"room": code})
    assert FOLLOWING not in late.session_state


def test_a_follower_takes_on_the_trainers_view_whatever_it_held(rooms) -> None:
    code, _secret = opened_room(open_page("workshop"))
    rooms.show(code, View.of("laplace", {"laplace_epsilon": ["0.3"], "seed": ["7"]}), time.time())
    # The attendee had moved ε and the seed on their own before joining.
    at = open_page("laplace", query={"laplace_epsilon": "5", "seed": "9", "lang": "de"})
    at.switch_page("pages/workshop.py")
    at.query_params["room"] = code
    rerun(at)  # the strip switches to the trainer's page within this run
    assert at.session_state["laplace_epsilon"] == 0.3
    assert at.session_state["seed"] == 7
    assert at.query_params["room"] == code
    assert at.query_params["lang"] == "de"  # each attendee keeps their language
    # A following page leads with the trainer's view: a one-line header (no title, no "try
    # this" box), and the data and query folded under the trainer's name.
    header = [m.value for m in at.main.markdown if m.value.startswith("**Laplace-Mechanismus**")]
    assert not at.title and header[0].startswith("**Laplace-Mechanismus**: Wie viel Rauschen")
    assert at.main.expander[0].label == "Daten und Abfrage (die der Trainerin)"
    # ε is the trainer's: its slider alone, with no box to type another value into.
    assert "laplace_epsilon__text" not in [box.key for box in at.main.text_input]
    assert [s.key for s in at.main.select_slider] == ["laplace_epsilon"]
    at.session_state["room__alone"] = True  # exploring alone: the page as everyone has it
    at.switch_page("pages/laplace.py")
    rerun(at)
    assert at.title[0].value == "Laplace-Mechanismus"
    assert "laplace_epsilon__text" in [box.key for box in at.main.text_input]
    assert "Daten und Abfrage (die der Trainerin)" not in [e.label for e in at.main.expander]


def test_a_store_out_of_reach_is_a_sentence_not_a_traceback(monkeypatch) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv(store_module.ENV, f"redis://127.0.0.1:{port}/0")  # nothing listens
    store_module.store.cache_clear()
    at = open_page("workshop")
    at.button(key="room_open").click()
    rerun(at)
    assert [e.value for e in at.error] == [
        "The room's store cannot be reached just now, so the room neither leads nor follows. "
        "The app keeps trying; ask whoever runs the server to check the store."
    ]
    assert LEADING not in at.session_state


def test_the_room_box_in_german(rooms) -> None:
    at = open_page("workshop", query={"lang": "de"})
    assert at.button(key="room_open").label == "Raum öffnen"
    opened_room(at)
    assert strip(at) == ""  # the German strip starts with "**Raum "
    assert any(m.value.startswith("**Raum ") and "Sie führen" in m.value for m in at.markdown)


# --- Ask the room --------------------------------------------------------------------------------


def _leading_on_laplace():
    """A trainer leading a room, on the Laplace page with the half-width exercise open."""
    trainer = open_page("workshop")
    code, secret = opened_room(trainer)
    at = open_page("laplace", query={"room": code, "lead": secret, "laplace_epsilon": "0.5"})
    at.session_state["exercise_laplace.half_width"] = True
    return code, rerun(at)


def _attendee(code: str, lang: str = "en"):
    return open_page("workshop", query={"room": code, "lang": lang})


def test_a_trainer_asks_the_room_and_the_right_answer_is_the_pages_own(rooms) -> None:
    from ui.workshop.asking import VOTER

    code, trainer = _leading_on_laplace()
    assert not [b for b in trainer.button if b.key == "room_reveal"]
    trainer.button(key="exercise_laplace.half_width_ask").click()
    rerun(trainer)
    question = rooms.room(code).question
    assert question is not None and question.exercise == "laplace.half_width"
    stated = next(i.value for i in _reveal_on(trainer) if i.value.startswith("±"))
    assert stated.startswith(f"±{significant(float(question.answer))}:")
    assert "**Asked to the room:** Set ε to 0.5." in " ".join(m.value for m in trainer.markdown)

    # Three attendees answer (one in German); one tries to answer twice.
    answers = [float(question.answer), 2.0, float(question.answer) * 1.01]
    for given, lang in zip(answers, ["en", "de", "en"], strict=True):
        at = _attendee(code, lang)
        box = " ".join(m.value for m in at.markdown)
        assert ("**The trainer asks:**" in box) or ("**Die Trainerin fragt:**" in box)
        widget(at.number_input, f"room_answer_{question.id}").set_value(given)
        at.button(key=f"room_answer_{question.id}_send").click()
        rerun(at)
        shown = significant(given) if lang == "en" else significant(given).replace(".", ",")
        assert f"**{shown}**" in " ".join(m.value for m in at.markdown)
    assert not [n for n in at.number_input if n.key == f"room_answer_{question.id}"]
    voter = at.session_state[VOTER]
    assert not rooms.answer(code, question.id, voter, "99.0")  # one answer per session
    assert sorted(map(float, rooms.answers(code, question.id))) == sorted(answers)
    assert voter not in str(rooms.answers(code, question.id))

    rerun(trainer)
    assert "Answered so far: **3**" in [m.value for m in trainer.markdown]
    trainer.button(key="room_reveal").click()
    rerun(trainer)
    assert any(s.value.endswith("Right: 2 of 3 (66.7%).") for s in trainer.success)
    rerun(at)
    assert [s.value for s in at.success] == [
        f"Right: the answer is **{significant(float(question.answer))}**."
    ]
    trainer.button(key="room_end").click()
    rerun(trainer)
    assert rooms.room(code).question is None
    assert not [c for c in rerun(at).main if getattr(c, "key", "") == "room_question"]


@pytest.mark.parametrize("pushed", [True, False])
def test_the_trainers_strip_looks_four_times_a_second_only_while_a_question_is_open(
    rooms, monkeypatch, pushed
) -> None:
    """Each look is a run the trainer's browser draws: with no question open, the strip looks
    every IDLE_EVERY seconds; a question asked (from a section's fragment too) or ended makes
    the page run again at the other pace. Without the push routes it always looks four times a
    second, since it publishes the trainer's view itself."""
    from streamlit.testing.v1 import local_script_runner

    from ui.workshop import room_strip
    from ui.workshop.room_strip import IDLE_EVERY, LEAD_EVERY

    paces: list[list[float]] = []  # the looks each run asks the browser for
    sent = local_script_runner.LocalScriptRunner.forward_msgs

    def forward_msgs(runner):
        messages = sent(runner)
        paces.append([m.auto_rerun.interval for m in messages if m.HasField("auto_rerun")])
        return messages

    monkeypatch.setattr(local_script_runner.LocalScriptRunner, "forward_msgs", forward_msgs)
    monkeypatch.setattr(room_strip, "served", lambda: pushed)
    quiet = IDLE_EVERY if pushed else LEAD_EVERY
    _code, trainer = _leading_on_laplace()
    assert paces[-1] == [quiet]
    trainer.button(key="exercise_laplace.half_width_ask").click()
    rerun(trainer)
    assert paces[-1] == [LEAD_EVERY]
    trainer.button(key="room_end").click()
    rerun(trainer)
    assert paces[-1] == [quiet]


def _reveal_on(at):
    widget(at.toggle, "exercise_laplace.half_width_show").set_value(True)
    return rerun(at).info


@pytest.mark.parametrize("given", [float("inf"), 1e13, None])
def test_an_answer_that_is_no_answer_is_refused_with_a_sentence(rooms, given) -> None:
    code, trainer = _leading_on_laplace()
    trainer.button(key="exercise_laplace.half_width_ask").click()
    rerun(trainer)
    question = rooms.room(code).question
    at = _attendee(code)
    at.session_state[f"room_answer_{question.id}"] = given
    at.button(key=f"room_answer_{question.id}_send").click()
    rerun(at)
    assert [e.value for e in at.error] == [
        "Type a number, or pick one of the answers, then send it."
    ]
    assert rooms.answers(code, question.id) == []


def test_an_attendee_cannot_flood_the_room(rooms) -> None:
    from ui.workshop import asking

    code, trainer = _leading_on_laplace()
    at = _attendee(code)
    for _round in range(asking.MOST_SENDS + 1):  # a new question each time, answered at once
        trainer.button(key="exercise_laplace.half_width_ask").click()
        rerun(trainer)
        question = rooms.room(code).question
        rerun(at)
        widget(at.number_input, f"room_answer_{question.id}").set_value(1.0)
        at.button(key=f"room_answer_{question.id}_send").click()
        rerun(at)
    assert [e.value for e in at.error] == [
        "That was many answers in a few seconds: wait a moment, then send again."
    ]
    assert rooms.answers(code, question.id) == []


def _flooding_page() -> None:
    """A page (an AppTest script) whose send was clicked again and again once its answer was
    in (a double click, a hostile page: bench_soak's flood), then its coins report."""
    import streamlit as st

    from ui.workshop.asking import keep

    code, question, survey = st.session_state["asked"]
    for value in ("1", "2", "3", "4", "5", "6"):
        keep(code, question, value)
    keep(code, survey, "yes")


def test_an_answer_sent_again_changes_nothing_and_counts_for_no_limit(rooms) -> None:
    """Six sends of one question from one session: the first is the answer, the others
    change nothing, and none counts for the limit of five sends in ten seconds, which refused
    the survey's report that followed (bench_soak's flood lost three reports so)."""
    from streamlit.testing.v1 import AppTest
    from test_rooms import a_room

    from ui.workshop.room import FAILED
    from ui.workshop.rooms import Question, Survey

    room, _secret = a_room()
    rooms.open_room(room)
    question = Question.ask("laplace.half_width", 1.0)
    survey = Survey.ask("Ever reused a password?", 0.5, 0.5)
    at = AppTest.from_function(_flooding_page)
    at.session_state["asked"] = (room.code, question.id, survey.id)
    at.run()
    assert not at.exception
    assert rooms.answers(room.code, question.id) == ["1"]
    assert rooms.answers(room.code, survey.id) == ["yes"]
    assert FAILED not in at.session_state


def test_an_attendee_never_leads_and_never_sees_the_answer_before_it_is_shown(rooms) -> None:
    code, trainer = _leading_on_laplace()
    trainer.button(key="exercise_laplace.half_width_ask").click()
    rerun(trainer)
    question = rooms.room(code).question
    at = _attendee(code)
    assert at.query_params["laplace_epsilon"] == "0.5"  # following the trainer's view
    assert not [b for b in at.button if b.key in ("room_reveal", "room_end")]
    page = " ".join(str(e.value) for e in at.main if hasattr(e, "value"))
    # the page's own sentence at ε = 0.5 is what the question asks the room to read; the
    # answer as revealed ("±5.99: the 95% half-width is b · ln 20 …") is not shown yet
    assert f"±{significant(float(question.answer))}:" not in page
    assert "half-width is b · ln 20" not in page
    at.session_state["exercise_laplace.half_width"] = True  # an attendee's own exercise box
    assert not [b for b in rerun(at).button if b.key.endswith("_ask")]


# --- The room as the data: a randomized-response survey ------------------------------------------


def _surveying(truth: float = 0.5, random_yes: float = 0.5, text: str = "Ever reused a password?"):
    trainer = open_page("workshop")
    code, _secret = opened_room(trainer)
    trainer.text_input(key="survey_text").input(text)
    trainer.slider(key="survey_truth").set_value(truth)
    trainer.slider(key="survey_random_yes").set_value(random_yes)
    trainer.button(key="survey_ask").click()
    return code, rerun(trainer)


def test_a_survey_states_its_epsilon_and_estimates_the_room_exactly(rooms) -> None:
    from dp_core import coin_flip_epsilon, coin_flip_report_probabilities, debiased_count
    from dp_core.local_estimation import exact_count_interval

    code, trainer = _surveying(0.5, 0.5)
    assert "Each answer is **ε = 1.099**-differentially private" in " ".join(
        m.value for m in trainer.markdown
    )
    assert round(coin_flip_epsilon(0.5, 0.5), 3) == 1.099  # ln 3
    survey = rooms.room(code).question
    assert survey.text == "Ever reused a password?" and (survey.truth, survey.random_yes) == (
        0.5,
        0.5,
    )
    attendee = _attendee(code)
    assert "**Survey:** \u2068Ever reused a password?\u2069" in [m.value for m in attendee.markdown]
    reports = ["yes"] * 13 + ["no"] * 7
    for i, report in enumerate(reports):
        rooms.answer(code, survey.id, f"session {i}", report)
    rerun(trainer)
    p, q = coin_flip_report_probabilities(0.5, 0.5)
    low, high = exact_count_interval(13, 20, p, q)
    share = debiased_count(13, 20, p, q) / 20
    assert (share, low, high) == (0.8, 8, 20)  # 2 (13 - 5) / 20: the fair coins' estimator
    assert (
        "Randomized answers: 13 yes of 20. Estimated share who would truly say yes: **80.0%** "
        "(exact 95% interval 40.0% to 100%)."
    ) in [m.value for m in trainer.markdown]
    trainer.button(key="survey_end").click()
    rerun(trainer)
    assert rooms.room(code).question is None


@pytest.mark.parametrize("text", ["", "   ", "x" * 201])
def test_a_survey_without_a_question_is_not_asked(rooms, text) -> None:
    code, trainer = _surveying(text=text)
    assert rooms.room(code).question is None
    assert [e.value for e in trainer.error] == [
        "Type the survey's yes/no question (up to 200 characters) before asking the room."
    ]


@pytest.mark.parametrize(("truth", "random_yes"), [(0.95, 0.0), (0.5, 1.0)])
def test_coins_that_give_an_answer_away_are_not_a_survey(rooms, truth, random_yes) -> None:
    """y = 0 or 1 with t > 0: a report of the other answer is a true answer (ε = ∞)."""
    from ui.workshop.rooms import RoomError, Survey

    with pytest.raises(RoomError):
        Survey.ask("Ever reused a password?", truth, random_yes)
    code, trainer = _surveying(truth, random_yes)
    assert trainer.button(key="survey_ask").disabled
    assert "ε = ∞" in trainer.error[0].value
    assert not any("-differentially private" in m.value for m in trainer.markdown)
    assert rooms.room(code).question is None


def test_guessing_room_codes_at_speed_is_refused_for_the_session(rooms) -> None:
    """After MOST_MISSES codes of no open room in a minute, the session's next try, even the
    right code, is refused with a sentence; a minute later it joins. The limit is the
    session's: another attendee (behind the same NAT, as a whole room often is) joins at once."""
    from ui.workshop import room

    code, _secret = opened_room(open_page("workshop"))
    guesser = open_page("workshop")
    for guess in ("AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE", "ABC")[: room.MOST_MISSES]:
        assert guess != code
        joined_by_code(guesser, guess)
    joined_by_code(guesser, code)
    assert [e.value for e in guesser.error] == [
        "That was many room codes in a minute that opened no room: wait a minute, then check "
        "the code on the projector."
    ]
    assert FOLLOWING not in guesser.session_state
    neighbour = joined_by_code(open_page("workshop"), code)
    assert neighbour.session_state[FOLLOWING] == code
    guesser.session_state[room.MISSES] = [
        t - room.MISS_SECONDS for t in guesser.session_state[room.MISSES]
    ]  # a minute on
    guesser.button(key="room_join_button").click()
    rerun(guesser)
    assert guesser.session_state[FOLLOWING] == code


def _store_down(monkeypatch, rooms, calls=("answer", "answers", "poll", "room")) -> None:
    """The room's store out of reach for these ``calls`` (all: Redis restarting; "answer"
    alone: the SQLite file locked past its timeout, which readers do not wait for)."""
    from ui.workshop.rooms import RoomError

    def unreachable(*_args, **_kwargs):
        raise RoomError("unreachable")

    for name in calls:
        monkeypatch.setattr(rooms, name, unreachable)


UNSENT_SENTENCE = (
    "Your answer is not in yet: the room's store could not take it just now. This page keeps "
    "it and sends it again every few seconds until it is in."
)


def test_an_answer_the_store_cannot_take_is_sent_again_until_it_is_in(rooms, monkeypatch):
    """The store goes down as an attendee sends an answer: the page says the answer is kept
    and will be sent again (not a traceback, not the box to fill in again), and the strip's
    timed runs send it; once the store is back the next one stores it and the page says so."""
    from ui.workshop import asking

    monkeypatch.setattr(asking, "SEND_AGAIN_EVERY", 0.0)  # each run here plays a timed one
    code, trainer = _leading_on_laplace()
    trainer.button(key="exercise_laplace.half_width_ask").click()
    rerun(trainer)
    question = rooms.room(code).question
    at = _attendee(code)
    widget(at.number_input, f"room_answer_{question.id}").set_value(2.0)
    at.button(key=f"room_answer_{question.id}_send").click()
    with monkeypatch.context() as down:
        _store_down(down, rooms)
        rerun(at)
        assert UNSENT_SENTENCE in [i.value for i in at.info]
        assert not at.exception
        assert not [n for n in at.number_input if n.key == f"room_answer_{question.id}"]
        rerun(at)  # a timed run while the store is still down: kept, not lost
        assert UNSENT_SENTENCE in [i.value for i in at.info]
    assert rooms.answers(code, question.id) == []
    rerun(at)  # the first timed run once the store is back
    assert rooms.answers(code, question.id) == ["2.0"]
    assert "Your answer is in: **2**. The room's answers appear on the projector." in [
        m.value for m in at.markdown
    ]
    assert UNSENT_SENTENCE not in [i.value for i in at.info] and not at.error


def test_a_survey_report_the_store_cannot_take_is_sent_again(rooms, monkeypatch) -> None:
    """The coins report once (a trigger value, which the next run no longer holds): a report
    the store could not take is kept in the session (``asking.keep``, as an answer is) and
    sent again, never asked of the coins again, so the room's count loses no one."""
    import streamlit as st
    from test_rooms import a_room

    from ui.workshop import asking
    from ui.workshop import survey as survey_module
    from ui.workshop.rooms import Survey

    monkeypatch.setattr(asking, "SEND_AGAIN_EVERY", 0.0)  # each run here plays a timed one

    reported = []

    def coins(*, key: str, data: dict, on_report_change, **_options) -> None:
        """The coins' component, reporting "yes" once, as the browser's does after a tap."""
        if not reported:
            reported.append(data["survey"])
            st.session_state[key] = {"report": {"survey": data["survey"], "answer": "yes"}}
            on_report_change()

    # The room and its survey straight in the store: AppTest cannot run the attendee's page
    # again beside a trainer's on the same page, nor once it has drawn the real coins.
    room, _secret = a_room()
    rooms.open_room(room)
    code, survey = room.code, Survey.ask("Ever reused a password?", 0.5, 0.5)
    rooms.ask(code, survey, time.time())
    monkeypatch.setattr(survey_module, "_COINS", coins)
    with monkeypatch.context() as down:
        _store_down(down, rooms, ["answer"])
        at = _attendee(code)  # the coins report while the store cannot write
        assert reported == [survey.id]
        rerun(at)
        assert UNSENT_SENTENCE in [i.value for i in at.info]
        _store_down(down, rooms)  # then cannot be reached at all (the strip's own sentence)
        rerun(at)
        assert UNSENT_SENTENCE in [i.value for i in at.info]
    assert rooms.answers(code, survey.id) == []
    rerun(at)
    assert rooms.answers(code, survey.id) == ["yes"]
    assert any(m.value.startswith("Sent: **yes**.") for m in at.markdown)


def test_a_flood_of_sessions_guessing_codes_is_held_for_all(rooms, monkeypatch) -> None:
    """Sessions opened by the dozen, each under its own limit, name codes of no room: once
    the store has counted MOST_ALL_MISSES of them in its window, every session's next try,
    even the right code by a newcomer, is refused with a sentence before the store is asked
    for the room, so it tells nothing about the code tried."""
    from ui.workshop import room

    monkeypatch.setattr(room, "MOST_ALL_MISSES", 3 * room.MOST_MISSES)  # 3 guessers' worth
    code, _secret = opened_room(open_page("workshop"))
    for guesser in range(3):
        at = open_page("workshop")
        for n in range(room.MOST_MISSES):
            guess = f"GUES{'ABCDEFGH'[guesser]}{'ABCDEFGH'[n]}"
            joined_by_code(at, guess)
            assert [e.value for e in at.error] == [
                f"There is no open room with the code \u2068{guess}\u2069. Check the code on the "
                "projector."
            ]
    assert rooms.misses(time.time()) == 3 * room.MOST_MISSES  # every worker's, in the store
    asked, looked_up = [], rooms.room
    monkeypatch.setattr(rooms, "room", lambda code: asked.append(code))
    newcomer = joined_by_code(open_page("workshop"), code)
    assert [e.value for e in newcomer.error] == [
        "Many room codes that open no room have been tried on this server in the last minute "
        "or two, so no room can be joined by its code just now. Wait a minute, then try again."
    ]
    assert FOLLOWING not in newcomer.session_state and asked == []
    monkeypatch.setattr(rooms, "room", looked_up)
    monkeypatch.setattr(room, "MOST_ALL_MISSES", 3 * room.MOST_MISSES + 1)  # one more allowed
    assert joined_by_code(newcomer, code).session_state[FOLLOWING] == code


def test_a_survey_question_is_shown_as_typed_never_drawn(rooms) -> None:
    """Markup in the trainer's question (a link, an image every attendee's browser would
    fetch, a colour, emphasis, HTML) is escaped, and right-to-left text or an override is
    set apart from the sentence (FSI ... PDI): the attendee reads the question as typed."""
    from test_rooms import a_room

    from ui.workshop.rooms import Survey

    typed = ("**Free** [prize](https://x.example) ![](https://x.example/p.png) :red[now] "
             "<b>x</b> &lt; $x$ \u202eevil \u05e9\u05dc\u05d5\u05dd")  # fmt: skip
    room, _secret = a_room()
    rooms.open_room(room)
    rooms.ask(room.code, Survey.ask(typed, 0.5, 0.5), time.time())
    shown = [m.value for m in _attendee(room.code).markdown if m.value.startswith("**Survey:**")]
    j = "\u2060"  # a word joiner after ":", "." and "@": no address is made a link
    assert shown == [
        f"**Survey:** \u2068\\*\\*Free\\*\\* \\[prize\\]\\(https\\:{j}//x\\.{j}example\\) "
        f"\\!\\[\\]\\(https\\:{j}//x\\.{j}example/p\\.{j}png\\) \\:{j}red\\[now\\] "
        "\\<b\\>x\\</b\\> \\&lt; \\$x\\$ \u202eevil \u05e9\u05dc\u05d5\u05dd\u2069"
    ]
