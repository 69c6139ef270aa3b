"""Text a person typed, shown inside one of the app's markdown sentences exactly as typed.

    st.markdown(_("workshop.survey.to_you", question=literal(survey.text)))

Streamlit's markdown would otherwise draw what the text spells: a link, an image fetched
from any server by every attendee's browser, a colour, an icon, emphasis; and GitHub's
markdown makes a link of a bare address (``https://...``, ``www.``, ``a@b.org``), escaped or
not. A right-to-left override inside it would reorder the sentence's own words around it.
"""

from __future__ import annotations

import re

# CommonMark's backslash escapes (any ASCII punctuation), for every mark Streamlit's markdown
# reads: emphasis, code, links and images, headings, lists, tables, :colour[...] and
# :material/icon: directives, $maths$, and HTML's angle brackets.
_MARKS = re.compile(r"([\\`*_{}\[\]()#+\-.!~|:$<>&])")
# An address is made a link only where "://", "www." or a domain after "@" is written whole:
# an invisible word joiner after each ":", "." and "@" keeps every one of them apart.
_JOINED = re.compile(r"([:.@])")
WORD_JOINER = "\u2060"
FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"


def literal(text: str) -> str:
    """``text`` with every markdown mark escaped and no address a link, set apart from the
    sentence's direction (Unicode's FSI … PDI, UAX #9: an override or embedding opened
    inside ends at the PDI)."""
    escaped = _MARKS.sub(r"\\\1", _JOINED.sub(r"\1" + WORD_JOINER, text))
    return FIRST_STRONG_ISOLATE + escaped + POP_DIRECTIONAL_ISOLATE
