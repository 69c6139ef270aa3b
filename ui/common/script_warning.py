"""The warning a generated OpenDP script carries when its plan read values from the data.

Such a script uses those values (a cap, clipping bounds, a category list) as constants, so its
release is not differentially private whatever OpenDP's privacy maps print (dp_core.guarantee,
``read_from_data``). The scripts are code, so their words are English like their comments.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

__all__ = ["script_warning"]

WORDS = {  # what was read from the data, in the scripts' English
    "cap": "the cap on rows per person is the data's own largest number of rows per person",
    "bounds": "clipping bounds are the data's own smallest and largest values",
    "categories": "released categories were filled in from the values in the data",
}


def script_warning(reads: Sequence[str]) -> str:
    """The script docstring's opening paragraph for ``reads`` (empty when nothing was read)."""
    if not reads:
        return ""
    text = (
        "WARNING: NOT DIFFERENTIALLY PRIVATE AS SET. Values were read from the data without "
        f"noise ({'; '.join(WORDS[read] for read in reads)}), and this script uses them as "
        "constants, so its output can reveal them whatever OpenDP's maps print. Replace them "
        "with values fixed in advance (or chosen with DP) before releasing."
    )
    return textwrap.fill(text, width=92) + "\n\n"
