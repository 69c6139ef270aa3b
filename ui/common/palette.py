"""The charts' colours and the cues beside them, so that no series differs by colour alone.

Every two colours that share a chart stay at least 10 CIEDE2000 apart in normal vision and
as a protanope, deuteranope or tritanope sees them, and each mark colour is at least 3:1 on
white (WCAG 1.4.11): tests/test_palette.py. Grey #8a97a8 was 2.97:1, amber #edae49 1.95:1,
and green #4f9d69 fell 4.8 from the red under deuteranopia: hence slate, ochre and teal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

TRUE_COLOR = "#7d8899"
NOISY_COLOR = "#1f5aa6"
ACCENT_COLOR = "#d1495b"
SECOND_COLOR = "#c4891d"
SECOND_TEXT_COLOR = "#9a6a12"  # a label of a SECOND_COLOR mark: 4.7:1 on white, as text needs
GOOD_COLOR = "#279378"

# The dashes of a chart's line series in order (solid first), as its legend shows them.
DASHES = ([1, 0], [6, 4], [2, 3], [8, 3, 2, 3], [12, 3])
# A grouped bar's fill opacity and outline dash: the truth, a second true series (e.g. after
# bounding), the noisy answer: pale in a solid outline, half-filled in a dashed one, solid.
BAR_LOOKS = ((0.3, [1, 0]), (0.6, [4, 2]), (1.0, [1, 0]))


def same_series(color: dict, values: Sequence[Any]) -> dict:
    """Another channel on ``color``'s series (its field, order, domain and legend), mapping
    them to ``values`` in order: a second cue beside colour, in the same legend."""
    scale = {k: v for k, v in color.get("scale", {}).items() if k == "domain"}
    return {**color, "scale": {**scale, "range": list(values)}}


def bar_cues(color: dict, names: Sequence[str], noisy: str) -> dict:
    """Grouped bars' encodings beside ``color`` (``BAR_LOOKS``): each series' outline in its
    colour, its fill opacity and its outline's dash."""
    looks = [BAR_LOOKS[2] if n == noisy else BAR_LOOKS[min(i, 1)] for i, n in enumerate(names)]
    return {
        "stroke": color,
        "fillOpacity": same_series(color, [look[0] for look in looks]),
        "strokeDash": same_series(color, [look[1] for look in looks]),
        "strokeWidth": {"value": 2},
    }
