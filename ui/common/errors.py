"""dp_core's error sentences in the reader's language.

dp_core and data raise ValueError with plain English sentences (they know nothing of the
app's languages). The sentences a user meets most, the argument checks of dp_core.validation
and the checks of an own CSV file (data.own_csv, data.registry), are matched here and written
from the catalogue; any other sentence is shown as it was written.
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
        # An own CSV file (data.own_csv, data.registry).
        (r"^“(?P<name>.*)” is empty: a CSV needs", N_("common.error.csv_empty")),
        (
            r"^“(?P<name>.*)” is (?P<size>\d+) MB; files up to (?P<limit>\d+) MB",
            N_("common.error.csv_size"),
        ),
        (r"^“(?P<name>.*)” does not look like a text file", N_("common.error.csv_binary")),
        (r"^“(?P<name>.*)” has rows with more fields than", N_("common.error.csv_fields")),
        (r"^“(?P<name>.*)” has no columns to read\.$", N_("common.error.csv_columns")),
        (
            r"^“(?P<name>.*)” could not be read as CSV: (?P<error>.*)$",
            N_("common.error.csv_unreadable"),
        ),
        (r"^“(?P<name>.*)” has more than (?P<rows>[\d,]+) rows", N_("common.error.csv_rows")),
        (r"^“(?P<name>.*)” has a header row but no data rows", N_("common.error.csv_no_rows")),
        (r"^The table is empty: it needs at least one row", N_("common.error.table_empty")),
        (r"^Every column needs a text name", N_("common.error.column_names")),
        (
            r"^No usable column: a column needs numbers or at most (?P<limit>\d+) distinct",
            N_("common.error.no_usable_column"),
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
