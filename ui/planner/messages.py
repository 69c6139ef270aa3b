"""dp_core.planner's error sentences in the reader's language.

dp_core writes plain English; the sentences a planner meets (a target no ε can meet, a row
without a target when working backwards, a histogram without its categories) are matched here
and written from the catalogue, with their numbers in the reader's format. Anything else goes
to the shared translator (ui.common.errors), which keeps dp_core's English when it does not
know the sentence.
"""

from __future__ import annotations

import re

from ui.common import formatting
from ui.common.errors import translated
from ui.common.i18n import N_, _

_NAME = r"“(?P<name>.+?)”"
PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), msgid)
    for pattern, msgid in (
        (rf"^{_NAME}: its true value is 0, so no ε", N_("planner.error.zero_value")),
        (rf"^{_NAME}: a target of ±0 needs infinite ε", N_("planner.error.zero_target")),
        (
            rf"^{_NAME}: ±(?P<wanted>\S+) at 95% needs ε = (?P<epsilon>\S+), beyond "
            r"(?P<limit>[0-9.e+]+),",
            N_("planner.error.unreachable"),
        ),
        (
            r"^every statistic needs a target to work backwards; (?P<names>.+) has none\.",
            N_("planner.error.no_targets"),
        ),
        (rf"^{_NAME} has no target", N_("planner.error.no_target")),
        (rf"^{_NAME}: a histogram needs its public categories", N_("planner.error.categories")),
        (rf"^{_NAME}: a count table has no values", N_("planner.error.count_table")),
        (r"^the plan is empty", N_("planner.parse.empty")),
    )
)
# How each number is written: as typed (a target, the limit), or to 4 significant digits.
_NUMBERS = {
    "wanted": formatting.number,
    "epsilon": lambda value: formatting.significant(value, 4),
    "limit": formatting.number,
}


def planner_error(error: Exception | str) -> str:
    """An error of dp_core.planner (or any dp_core check) in the reader's language."""
    text = str(error)
    for pattern, msgid in PATTERNS:
        match = pattern.search(text)
        if match:
            values = match.groupdict()
            for name, write in _NUMBERS.items():
                if name in values:
                    values[name] = write(float(values[name]))
            return _(msgid, **values)
    return translated(error)


def statistic_error(name: str, error: Exception | str) -> str:
    """A statistic's error, prefixed with its name unless the sentence already names it."""
    sentence = planner_error(error)
    if f"“{name}”" in str(error):  # dp_core's sentence names it (so does its translation)
        return sentence
    return _("planner.error.named", name=name, error=sentence)
