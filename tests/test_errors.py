"""Coded errors: dp_core and data raise a code and its parameters, and the app writes the
sentence from its catalogue by code (no sentence is parsed back); every code has a message
with the same placeholders in every language, and the common ones read as dp_core's English."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from data.own_csv import read_csv_bytes
from dp_core import planner
from dp_core.errors import ENGLISH, CodedError
from dp_core.validation import check_bounds, check_epsilon, check_positive_int
from ui.common import errors
from ui.common.i18n import LANGUAGES, catalogue, placeholders
from ui.planner import messages

ROOT = Path(__file__).resolve().parent.parent
NAMES = re.compile(r"\{(\w+)(?:[:!][^}]*)?\}")


def _names(template: str) -> set[str]:
    return set(NAMES.findall(template))


@pytest.mark.parametrize("table", [errors.MESSAGES, messages.MESSAGES])
def test_every_code_has_a_message_with_its_placeholders_in_every_language(table):
    for code, msgid in table.items():
        assert code in ENGLISH
        for lang in LANGUAGES:
            text = catalogue(lang).gettext(msgid)
            assert text != msgid, (lang, msgid)
            assert placeholders(text) == _names(ENGLISH[code]), (lang, code)


def test_the_common_messages_in_english_are_dp_cores_sentences():
    english = catalogue("en")
    for code, msgid in errors.MESSAGES.items():
        assert english.gettext(msgid) == ENGLISH[code], code


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda: check_epsilon(0), "epsilon_positive"),
        (lambda: check_bounds(3, 1), "bounds_order"),
        (lambda: check_positive_int(0, "the cap"), "minimum"),
        (lambda: read_csv_bytes(b"", "up.csv"), "csv_empty"),
        (lambda: read_csv_bytes(b"PK\x03\x04\x00\x00binary", "up.xlsx"), "csv_binary"),
        (lambda: planner.split_budget([], 1.0), "plan_empty"),
    ],
)
def test_checks_raise_their_code_and_a_sentence(make, code):
    with pytest.raises(CodedError) as raised:
        make()
    assert raised.value.code == code
    assert str(raised.value) == ENGLISH[code].format(**raised.value.params)


def test_an_unreachable_target_keeps_its_numbers_for_the_readers_format():
    spec = planner.StatisticSpec("n", "count", target=1e-6)
    stat = planner.statistic_from_totals(spec, cap=1, counts=[100])
    with pytest.raises(planner.TargetUnreachable) as raised:
        planner.epsilon_for_target(stat)
    params = raised.value.params
    assert raised.value.code == "unreachable" and params["limit"] == planner.MAX_EPSILON
    assert params["epsilon"] > planner.MAX_EPSILON and params["wanted"] == 1e-6
    assert "needs ε = 2.996e+06, beyond 100" in str(raised.value)


def test_an_uncoded_error_keeps_its_sentence():
    assert errors.translated(ValueError("something else.")) == "something else."
    assert messages.planner_error(ValueError("something else.")) == "something else."


def _raises(folder: str) -> Iterator[tuple[str, ast.Raise]]:
    for path in sorted((ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                yield f"{path.relative_to(ROOT)}:{node.lineno}", node


def _codes(expression: ast.expr) -> list[str]:
    """The codes a raise names in place: a text, or either text of ``a if … else b`` (a code
    taken from a table is checked where the table is: CodedError looks it up in ENGLISH)."""
    if isinstance(expression, ast.Constant):
        return [expression.value]
    if isinstance(expression, ast.IfExp):
        return _codes(expression.body) + _codes(expression.orelse)
    return []


@pytest.mark.parametrize("folder", ["dp_core", "data"])
def test_what_dp_core_and_data_raise_for_a_user_carries_a_code(folder):
    """No plain ValueError: each error is a CodedError (or a subclass) whose code has a sentence
    in ENGLISH and a message in the app's catalogue, so a reader meets it in their language."""
    uncoded, unknown = [], []
    for where, node in _raises(folder):
        name = getattr(node.exc.func, "id", getattr(node.exc.func, "attr", ""))
        if name == "ValueError":
            uncoded.append(where)
        elif name == "CodedError" and node.exc.args:
            unknown.extend(f"{where} {c}" for c in _codes(node.exc.args[0]) if c not in ENGLISH)
    assert not uncoded, uncoded
    assert not unknown, unknown
    translated = set(errors.MESSAGES) | set(messages.MESSAGES)
    assert set(ENGLISH) == translated, set(ENGLISH) ^ translated
