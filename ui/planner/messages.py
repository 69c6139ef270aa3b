"""dp_core.planner's errors in the reader's language.

dp_core.planner raises ``dp_core.errors.CodedError`` for the sentences a planner meets (a target
no ε can meet, a row without a target when working backwards, a histogram without its
categories): written here from the catalogue by code, with their numbers in the reader's
format. Anything else goes to the shared translator (ui.common.errors).
"""

from __future__ import annotations

from dp_core.errors import CodedError
from ui.common import formatting
from ui.common.errors import translated
from ui.common.i18n import N_, _

MESSAGES = {  # CodedError code -> message id
    "zero_value": N_("planner.error.zero_value"),
    "zero_target": N_("planner.error.zero_target"),
    "zero_minimax": N_("planner.error.zero_minimax"),
    "unreachable": N_("planner.error.unreachable"),
    "no_targets": N_("planner.error.no_targets"),
    "no_target": N_("planner.error.no_target"),
    "histogram_categories": N_("planner.error.categories"),
    "count_table_values": N_("planner.error.count_table"),
    "plan_empty": N_("planner.parse.empty"),
}
# How each number is written: as typed (a target, the limit), or to 4 significant digits.
_NUMBERS = {
    "wanted": formatting.number,
    "epsilon": lambda value: formatting.significant(value, 4),
    "limit": formatting.number,
}


def planner_error(error: Exception | str) -> str:
    """An error of dp_core.planner (or any dp_core check) in the reader's language."""
    if isinstance(error, CodedError) and error.code in MESSAGES:
        values = {
            name: _NUMBERS[name](float(value)) if name in _NUMBERS else value
            for name, value in error.params.items()
        }
        return _(MESSAGES[error.code], **values)
    return translated(error)


def statistic_error(name: str, error: Exception | str) -> str:
    """A statistic's error, prefixed with its name unless the sentence already names it."""
    sentence = planner_error(error)
    if f"“{name}”" in str(error):  # dp_core's sentence names it (so does its translation)
        return sentence
    return _("planner.error.named", name=name, error=sentence)
