"""A workshop room, apart from any store or page: its codes, its secret and the view it shares.

A trainer opens a room and gets two links: the attendees' (a short code anyone in the room may
read off the projector) and the trainer's (the code and a secret: whoever holds it leads). The
store keeps only the secret's SHA-256, so reading the store does not let anyone lead. A view is
a page and its address (ui.common.address), less what stays each person's own: the language,
presenter mode and the room itself. Rooms close ``HOURS`` after they open.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import math
import os
import secrets
from dataclasses import dataclass
from typing import Any

from dp_core import coin_flip_epsilon

# No 0/O, 1/I/L: a code read off a projector at the back of a room and typed on a phone.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6  # 31^6 = 887 million codes
HOURS = 12.0  # a room closes this long after it opens (a day of workshop)
ROOM_KEY, LEAD_KEY = "room", "lead"  # the address parameters of the two links
# The browser keeps its room, so that a reload or a lost worker (a new session) is back in it:
# the trainer's "CODE.SECRET", an attendee's "CODE" (ui.workshop.room_cookies sets them).
LEAD_COOKIE, ROOM_COOKIE = "dpx_lead", "dpx_room"
# Address parameters each person keeps for themselves when following.
OWN = frozenset({"lang", "present", ROOM_KEY, LEAD_KEY})
MAX_VIEW_BYTES = 16_000  # an address is at most a few hundred bytes; a view above this is refused
MAX_NUMBER = 1e12  # a typed answer beyond this is no answer to any exercise here
MAX_CHOICE = 64  # characters of a choice's key
MAX_SURVEY = 200  # characters of a survey's question


class RoomError(ValueError):
    """A room that cannot be joined or led; ``code`` names the message (common catalogue)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def new_code() -> str:
    """A fresh room code: six characters of ``ALPHABET``, from the system's CSPRNG."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def new_secret() -> str:
    """The trainer's secret: 32 random bytes, URL-safe (256 bits)."""
    return secrets.token_urlsafe(32)


def secret_hash(secret: str) -> str:
    """SHA-256 of the secret, in hex: what the store keeps."""
    return hashlib.sha256(secret.encode()).hexdigest()


def leads(secret: str, kept_hash: str) -> bool:
    """Whether ``secret`` is the room's (compared in constant time)."""
    return hmac.compare_digest(secret_hash(secret), kept_hash)


FOLLOW_KEY_ENV = "DP_EXPLORER_ROOM_KEY"  # hex: the key of the follow tokens, the workers' own


@functools.cache
def _follow_key() -> bytes:
    """The key the follow tokens are made with: FOLLOW_KEY_ENV's (the workshop command gives
    all its workers one), else this process's own, drawn at its first use."""
    given = os.environ.get(FOLLOW_KEY_ENV, "")
    try:
        return bytes.fromhex(given) if len(given) >= 32 else secrets.token_bytes(32)
    except ValueError:
        return secrets.token_bytes(32)


def follow_token(code: str) -> str:
    """What a session that joined room ``code`` shows the room's routes (versions, events):
    HMAC-SHA256 of the code under the workers' key. A code guessed without joining (where
    guessing is limited) has none, and the routes answer it as a room that is not open."""
    return hmac.new(_follow_key(), code.encode(), hashlib.sha256).hexdigest()[:32]


def followed_path(code: str) -> str:
    """How the routes are asked about room ``code`` by a session that joined it: CODE.TOKEN."""
    return f"{code}.{follow_token(code)}"


def followed(path: str) -> str | None:
    """The room code of a route's ``CODE.TOKEN`` when TOKEN is its follow token (compared in
    constant time); None for any other path, as for a code that names no room."""
    typed, _dot, token = path.partition(".")
    code = clean_code(typed)
    # as bytes: compare_digest refuses a str that is not ASCII (a hostile path's "é")
    if code is None or not hmac.compare_digest(follow_token(code).encode(), token.encode()):
        return None
    return code


def clean_code(typed: str) -> str | None:
    """A code as typed ("abc 234", "ABC-234") in its canonical form; None when it cannot be one."""
    code = "".join(ch for ch in typed.upper() if ch.isalnum())
    ok = len(code) == CODE_LENGTH and all(ch in ALPHABET for ch in code)
    return code if ok else None


@dataclass(frozen=True)
class View:
    """What the trainer shows: a page (its url path) and its address, as (key, values) pairs."""

    page: str
    params: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @classmethod
    def of(cls, page: str, params: dict[str, list[str]]) -> View:
        """The view of ``page`` at the address ``params`` (every value of each key), less
        what each person keeps (``OWN``), in a stable order."""
        kept = sorted((k, tuple(v)) for k, v in params.items() if k not in OWN and v)
        return cls(page, tuple(kept))

    def query(self) -> dict[str, list[str]]:
        """The address to open for this view."""
        return {key: list(values) for key, values in self.params}

    def dumps(self) -> str:
        """The view as JSON (what the store keeps); ``RoomError("too_big")`` above the limit."""
        text = json.dumps({"page": self.page, "params": self.query()}, sort_keys=True)
        if len(text.encode()) > MAX_VIEW_BYTES:
            raise RoomError("too_big")
        return text

    @classmethod
    def loads(cls, text: str) -> View | None:
        """The view kept as JSON; None for anything else (a store holds nothing it cannot read)."""
        try:
            found: Any = json.loads(text)
            page, params = found["page"], found["params"]
            ok = isinstance(page, str) and isinstance(params, dict)
            ok = ok and all(
                isinstance(k, str) and isinstance(v, list) and all(isinstance(x, str) for x in v)
                for k, v in params.items()
            )
        except (ValueError, TypeError, KeyError):
            return None
        return cls.of(page, params) if ok else None


@dataclass(frozen=True)
class Question:
    """An exercise put to the room (ui.common.exercises, by its key) and its right answer for
    the trainer's settings, which attendees see once ``revealed``."""

    id: str  # fresh for each time it is asked: an answer belongs to one asking
    exercise: str
    answer: float | str
    revealed: bool = False

    @classmethod
    def ask(cls, exercise: str, answer: float | str) -> Question:
        return cls(secrets.token_hex(8), exercise, answer)

    def dumps(self) -> str:
        return json.dumps({"kind": "exercise", "id": self.id, "exercise": self.exercise,
                           "answer": self.answer, "revealed": self.revealed})  # fmt: skip


@dataclass(frozen=True)
class Survey:
    """A yes/no question the trainer types, answered by randomized response in each attendee's
    browser: the first coin says "the truth" with probability ``truth`` (t), else a second coin
    says "yes" with probability ``random_yes`` (y) (dp_core.randomized_response)."""

    id: str
    text: str
    truth: float
    random_yes: float

    @classmethod
    def ask(cls, text: str, truth: float, random_yes: float) -> Survey:
        """A survey of ``text``; ``RoomError("survey_text")`` for an empty or overlong one."""
        text = " ".join(text.split())
        if not text or len(text) > MAX_SURVEY:
            raise RoomError("survey_text")
        if not (0 <= truth < 1 and 0 <= random_yes <= 1):
            raise RoomError("survey_coins")
        if math.isinf(coin_flip_epsilon(truth, random_yes)):  # a report can give a truth away
            raise RoomError("survey_no_privacy")
        return cls(secrets.token_hex(8), text, float(truth), float(random_yes))

    def dumps(self) -> str:
        return json.dumps({"kind": "survey", "id": self.id, "text": self.text,
                           "truth": self.truth, "random_yes": self.random_yes})  # fmt: skip


def loads_asked(text: str | None) -> Question | Survey | None:
    """What the room is asked, kept as JSON (an exercise or a survey); None for anything else."""
    try:
        kept = json.loads(text or "")
        if kept["kind"] == "survey":
            survey = Survey(str(kept["id"]), str(kept["text"]), float(kept["truth"]),
                            float(kept["random_yes"]))  # fmt: skip
            ok = 0 <= survey.truth < 1 and 0 <= survey.random_yes <= 1
            ok = ok and not math.isinf(coin_flip_epsilon(survey.truth, survey.random_yes))
            return survey if ok and 0 < len(survey.text) <= MAX_SURVEY else None
        answer = kept["answer"]
        if kept["kind"] != "exercise" or isinstance(answer, bool):
            return None
        if not isinstance(answer, str | int | float):
            return None
        return Question(str(kept["id"]), str(kept["exercise"]), answer, bool(kept["revealed"]))
    except (ValueError, TypeError, KeyError):
        return None


def valid_answer(kind: str, choices: tuple[str, ...], given: object) -> str | None:
    """An attendee's answer as the store keeps it, or None when it is not one: a finite number
    within ``MAX_NUMBER`` (in full precision), or one of the choices' keys."""
    if kind == "choice":
        ok = isinstance(given, str) and len(given) <= MAX_CHOICE and given in choices
        return given if ok else None
    if isinstance(given, bool) or not isinstance(given, int | float):
        return None
    number = float(given)
    return repr(number) if math.isfinite(number) and abs(number) <= MAX_NUMBER else None


@dataclass(frozen=True)
class Room:
    """A room as the store holds it: its code, the trainer secret's hash, when it closes (Unix
    seconds), the view's version (0 before the trainer showed anything) and the view, and the
    question put to the room (None when none is) with its own version."""

    code: str
    lead_hash: str
    closes: float
    version: int = 0
    view: View | None = None
    asked: int = 0
    question: Question | Survey | None = None

    def open_at(self, now: float) -> bool:
        return now < self.closes
