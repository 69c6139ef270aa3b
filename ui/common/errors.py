"""dp_core's error sentences in the reader's language.

dp_core raises ValueError with plain English sentences (it knows nothing of the app's
languages). The sentences a user meets most, the argument checks of dp_core.validation and the
own-file checks of data.own_csv, are matched here and written from the catalogue; any other
sentence is shown as dp_core wrote it.
"""

from __future__ import annotations

import re

from ui.common.i18n import N_, _

# (pattern of dp_core's sentence, message id); named groups become the message's placeholders.
PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), msgid)
    for pattern, msgid in (
        (r"^(?P<name>.+) must be a number \(got (?P<got>.+)\)\.$", N_("common.error.number")),
        (r"^epsilon must be finite", N_("common.error.epsilon_finite")),
        (
            r"^epsilon cannot be negative \(got (?P<got>.+)\)\.$",
            N_("common.error.epsilon_negative"),
        ),
        (
            r"^epsilon must be greater than 0 \(got (?P<got>[^)]+)\)",
            N_("common.error.epsilon_positive"),
        ),
        (
            r"^delta must be at least 0 and below 1 \(got (?P<got>.+)\)\.$",
            N_("common.error.delta_range"),
        ),
        (r"^delta must be greater than 0 for this mechanism", N_("common.error.delta_positive")),
        (
            r"^the lower bound must be below the upper bound \(got (?P<got>.+)\)\.$",
            N_("common.error.bounds_order"),
        ),
        (r"^clipping bounds must be finite numbers\.$", N_("common.error.bounds_finite")),
        (r"^(?P<name>.+) must be a whole number \(got (?P<got>.+)\)\.$", N_("common.error.whole")),
        (
            r"^(?P<name>.+) must be at least (?P<minimum>\d+) \(got (?P<got>.+)\)\.$",
            N_("common.error.minimum"),
        ),
    )
)


def translated(error: Exception | str) -> str:
    """The error's sentence in the session's language (dp_core's English when not known)."""
    text = str(error)
    for pattern, msgid in PATTERNS:
        match = pattern.search(text)
        if match:
            return _(msgid, **match.groupdict())
    return text
