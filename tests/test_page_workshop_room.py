"""The workshop room through AppTest: opening a room, its links, joining it (by code, by link,
badly), the trainer's view reaching the store and a follower's page taking it on."""

from __future__ import annotations

import socket
import time

import pytest
from apptest_helpers import open_page, rerun

from ui.workshop import store as store_module
from ui.workshop.room import FOLLOWING, LEADING
from ui.workshop.room_panel import SECRET
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
    at = open_page("workshop")
    at.text_input(key="room_code").input(f" {code[:3].lower()}-{code[3:]} ")
    at.button(key="room_join_button").click()
    rerun(at)
    assert at.session_state[FOLLOWING] == code
    assert LEADING not in at.session_state


@pytest.mark.parametrize("typed", ["ABC", "NOPE22"])
def test_a_wrong_code_says_so_and_keeps_what_was_typed(rooms, typed: str) -> None:
    at = open_page("workshop")
    at.text_input(key="room_code").input(typed)
    at.button(key="room_join_button").click()
    rerun(at)
    assert [e.value for e in at.error] == [
        f"There is no open room with the code {typed}. Check the code on the projector."
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
    assert "There is no open room with the code ZZZZZZ" in at.toast[0].value
    trainer = open_page("workshop")
    code, _secret = opened_room(trainer)
    trainer.button(key="room_close").click()
    rerun(trainer)
    assert LEADING not in trainer.session_state and rooms.version(code, time.time()) is None
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
    assert at.title[0].value == "Laplace-Mechanismus"


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
