"""The address codec of ui.common.setting: pure functions, checked without Streamlit."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.common.setting import Choice, Flag, Many, Number, Span, Text, number_code, option_code
from ui.common.widgets import epsilon_setting


@pytest.mark.parametrize(
    "value, code",
    [(1.0, "1"), (0.5, "0.5"), (1e-05, "1e-05"), (0.12, "0.12"), (3, "3"), (1e20, "1e+20")],
)
def test_numbers_are_written_one_way_in_every_language(value, code) -> None:
    assert number_code(value) == code


@given(st.floats(min_value=1e-12, max_value=1e12))
def test_a_number_survives_its_code(value: float) -> None:
    assert Number("k", 1.0).decode(number_code(value)) == value


def test_a_value_at_its_default_is_left_out_unless_always_written() -> None:
    assert Number("k", 1.0).encode(1.0) is None
    assert Number("k", 1.0, always=True).encode(1.0) == "1"
    assert Number("k", 1.0).encode(0.5) == "0.5"
    assert Number("k", None).encode(None) is None  # an empty box
    assert Choice("k", "a", options=("a", "b"), in_address=False).encode("b") is None


@pytest.mark.parametrize("raw", ["", "abc", "nan", "inf", "-1", "101", "1e400"])
def test_a_number_the_setting_does_not_accept_decodes_to_none(raw) -> None:
    assert Number("k", 1.0, minimum=0.0, maximum=100.0).decode(raw) is None


def test_integers_accept_whole_numbers_only() -> None:
    cap = Number("cap", None, minimum=1, maximum=10_000, integer=True)
    assert cap.decode("3") == 3 and isinstance(cap.decode("3"), int)
    assert cap.decode("3.0") == 3
    assert cap.decode("2.5") is None and cap.decode("0") is None
    assert cap.accepts(None) and cap.accepts(3) and not cap.accepts(True)


def test_a_choice_is_written_by_its_key_and_read_among_this_runs_options() -> None:
    kind = Choice("kind", "count", options=("count", "sum"))
    assert kind.encode("sum") == "sum" and kind.decode("sum") == "sum"
    assert kind.decode("Summe") is None  # a translated label is not a key
    column = Choice("column")  # options from the data
    assert column.decode("age", ["age", "sex"]) == "age"
    assert column.decode("age", ["sex"]) is None
    runs = Choice("runs", 1000, options=(100, 200, 1000))
    assert runs.encode(200) == "200" and runs.decode("200") == 200
    assert option_code((0.5, 2.0)) == "0.5,2"


def test_flags_read_true_false_and_one_zero() -> None:
    present = Flag("present", on="1")
    assert present.encode(True) == "1" and present.encode(False) is None
    assert present.decode("1") is True and present.decode("true") is True
    assert present.decode("0") is False and present.decode("yes") is None
    assert Flag("secure").encode(True) == "true"


def test_text_is_kept_as_typed_up_to_its_length() -> None:
    assert Text("t").decode("a b,c") == "a b,c"
    assert Text("t", longest=3).decode("abcd") is None


def test_many_is_a_repeated_parameter_of_known_options() -> None:
    chosen = Many("cats", options=("a", "b", "c"))
    assert chosen.encode(["a", "c"]) == ["a", "c"]
    assert chosen.decode(["a", "c"]) == ("a", "c")
    assert chosen.decode("b") == ("b",)
    assert chosen.decode(["a", "z"]) is None
    assert chosen.encode(()) is None


def test_a_span_is_low_comma_high_in_order() -> None:
    bounds = Span("b", (0.0, 10.0), minimum=0.0, maximum=100.0)
    assert bounds.encode((1.0, 5.0)) == "1,5" and bounds.decode("1,5") == (1.0, 5.0)
    assert bounds.decode(["1", "5"]) == (1.0, 5.0)  # Streamlit's repeated form
    assert bounds.decode("5,1") is None and bounds.decode("1") is None
    assert bounds.decode("1,500") is None
    levels = Span("a", (0.05, 0.5), options=(0.05, 0.1, 0.5))
    assert levels.decode("0.1,0.5") == (0.1, 0.5) and levels.decode("0.5,0.1") is None


@given(st.floats(min_value=1e-4, max_value=100))
def test_an_epsilon_round_trips_through_the_address(epsilon: float) -> None:
    setting = epsilon_setting("laplace_epsilon", 1.0)
    assert setting.decode(setting.encode(epsilon)) == epsilon
    assert setting.decode(number_code(math.nextafter(100.0, math.inf))) is None
