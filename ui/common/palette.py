"""The charts' colours and the cues beside them, so that no series differs by colour alone.

Every two colours that share a chart stay at least 10 CIEDE2000 apart in normal vision and
as a protanope, deuteranope or tritanope sees them, and each mark colour is at least 3:1 on
white (WCAG 1.4.11), or outlined in one that is; text is 4.5:1 (WCAG 1.4.3), in a darker shade
of its mark's hue where needed: tests/test_palette.py. Grey #8a97a8 was 2.97:1, amber #edae49
1.95:1, and green #4f9d69 fell 4.8 from the red under deuteranopia: hence slate, ochre, teal.
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
MUTED_COLOR = "#c4ccd6"  # 1.62:1 on white: a fill only inside its OUTLINES colour
INK = "#1d2733"  # text inside a pale bar: 15:1 on white
# The darker shade of a colour that text in it takes (4.5:1 on white, same hue) and the
# outline that a pale fill's mark takes (3:1): the charts ask text_color and outline_color.
TEXT_SHADES = {ACCENT_COLOR: "#bc4151", TRUE_COLOR: "#646d7b", SECOND_COLOR: SECOND_TEXT_COLOR}
OUTLINES = {MUTED_COLOR: "#606876"}

# The dashes of a chart's line series in order (solid first), as its legend shows them.
DASHES = ([1, 0], [6, 4], [2, 3], [8, 3, 2, 3], [12, 3])
# A grouped bar's fill opacity and outline dash: the truth, a second true series (e.g. after
# bounding), the noisy answer: pale in a solid outline, half-filled in a dashed one, solid.
BAR_LOOKS = ((0.3, [1, 0]), (0.6, [4, 2]), (1.0, [1, 0]))


def text_color(color: str) -> str:
    """The colour text takes for a mark in ``color``: its darker shade if it has one."""
    return TEXT_SHADES.get(color, color)


def same_series(color: dict, values: Sequence[Any]) -> dict:
    """Another channel on ``color``'s series (its field, order, domain and legend), mapping
    them to ``values`` in order: a second cue beside colour, in the same legend."""
    scale = {k: v for k, v in color.get("scale", {}).items() if k == "domain"}
    return {**color, "scale": {**scale, "range": list(values)}}


def bar_cues(color: dict, names: Sequence[str], noisy: str) -> dict:
    """Grouped bars' encodings beside ``color`` (``BAR_LOOKS``): the truth's pale, a second
    series half-filled, the ``noisy`` one solid (see ``looks_cues``)."""
    looks = [BAR_LOOKS[2] if n == noisy else BAR_LOOKS[min(i, 1)] for i, n in enumerate(names)]
    return looks_cues(color, looks)


def looks_cues(color: dict, looks: Sequence[tuple[float, list[int]]]) -> dict:
    """Bars' encodings beside ``color``: each series' outline in its colour (or its
    ``OUTLINES`` colour), its fill opacity and its outline's dash from ``looks`` in order."""
    return {
        "stroke": same_series(color, [OUTLINES.get(c, c) for c in color["scale"]["range"]]),
        "fillOpacity": same_series(color, [look[0] for look in looks]),
        "strokeDash": same_series(color, [look[1] for look in looks]),
        "strokeWidth": {"value": 2},
    }
