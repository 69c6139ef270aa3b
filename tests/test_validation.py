"""dp_core.validation: every check accepts good values and explains bad ones."""

import math

import numpy as np
import pytest

from dp_core.validation import (
    check_bounds,
    check_delta,
    check_epsilon,
    check_positive_int,
    check_probability,
    check_sensitivity,
)


def test_good_values_come_back_as_numbers() -> None:
    assert check_epsilon("0.5") == 0.5
    assert check_epsilon(np.float32(2)) == 2.0
    assert check_epsilon(0, allow_zero=True) == 0.0
    assert check_delta(0) == 0.0
    assert check_delta(1e-9, allow_zero=False) == 1e-9
    assert check_sensitivity(3) == 3.0
    assert check_bounds(-1, 5) == (-1.0, 5.0)
    assert check_probability(0.75, "p") == 0.75
    assert check_probability(1, "p", open_interval=False) == 1.0
    assert check_positive_int(4.0, "cap") == 4


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: check_epsilon(0), "greater than 0"),
        (lambda: check_epsilon(-0.1), "greater than 0"),
        (lambda: check_epsilon(-1, allow_zero=True), "cannot be negative"),
        (lambda: check_epsilon("ten"), "must be a number"),
        (lambda: check_epsilon(None), "must be a number"),
        (lambda: check_epsilon(True), "must be a number"),
        (lambda: check_epsilon(math.nan), "NaN"),
        (lambda: check_epsilon(math.inf), "finite"),
        (lambda: check_delta(1), "below 1"),
        (lambda: check_delta(-1e-9), "at least 0"),
        (lambda: check_delta(0, allow_zero=False), "Laplace"),
        (lambda: check_sensitivity(0), "greater than 0"),
        (lambda: check_sensitivity(math.inf), "finite"),
        (lambda: check_bounds(5, 5), "lower bound must be below"),
        (lambda: check_bounds(6, 5), "lower bound must be below"),
        (lambda: check_bounds(0, math.inf), "finite"),
        (lambda: check_probability(0, "p"), "strictly between"),
        (lambda: check_probability(1.5, "p", open_interval=False), "between 0 and 1"),
        (lambda: check_positive_int(0, "cap"), "at least 1"),
        (lambda: check_positive_int(2.5, "cap"), "whole number"),
    ],
)
def test_bad_values_raise_a_sentence_a_user_can_read(call, message) -> None:
    with pytest.raises(ValueError, match=message):
        call()
