"""Section 4 of the synthetic-data page: what a synthetic table gets wrong, for a board to
hear. Rare combinations (cells a handful of persons share) come out smoothed: emptied or
filled with persons who do not exist; and a relationship between two columns the algorithm
did not measure is only as good as the model's guess."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dp_core.synthetic import rare_cells
from ui.common import formatting
from ui.common.address import linked
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.common.labels import category_labels, column_label
from ui.common.turns import fragment
from ui.synthetic.crosstab import pair
from ui.synthetic.declared import RARE
from ui.synthetic.exercises import EXERCISES
from ui.synthetic.settings import Settings

WORST = 5  # the unmeasured pairs listed


def rare(s: Settings, row: str, column: str, most: int) -> pd.DataFrame:
    """The cells of (row, column) that 1 to ``most`` real rows share, with synthetic counts."""
    r = s.release
    return rare_cells(r.real, r.synthetic, s.chosen.domain, (row, column), most)


@fragment
def pitfalls(s: Settings) -> None:
    """Section 4: rare cells of the chosen pair; the worst pairs that were not measured."""
    row, column = pair(s)
    most = linked(RARE, st.number_input, _("synthetic.pitfalls.most"), min_value=1,
                  max_value=100, step=1)  # fmt: skip
    cells = rare(s, row, column, int(most))
    if not len(cells):
        st.info(_("synthetic.pitfalls.none", row=row, column=column, most=formatting.count(most)))
    else:
        _rare_sentence(cells, int(most), row, column)
        shown = cells.assign(
            synthetic=cells["synthetic"].round(1),
            **{c: category_labels(c, cells[c]) for c in (row, column)},
        ).rename(
            columns={"real": _("synthetic.pitfalls.real"),
                     "synthetic": _("synthetic.pitfalls.synthetic"),
                     **{c: column_label(c, shipped=not s.chosen.data.own)
                        for c in (row, column)}}
        )  # fmt: skip
        st.dataframe(shown, hide_index=True, width="stretch", height=min(400, 38 + 35 * len(cells)))
    st.caption(_("synthetic.pitfalls.rare_caption"))
    unmeasured = s.release.distances
    unmeasured = unmeasured[(unmeasured["ways"] == 2) & ~unmeasured["measured"]]
    worst = unmeasured.sort_values("tvd", ascending=False).head(WORST)
    if len(worst):
        st.markdown(
            _(
                "synthetic.pitfalls.unmeasured",
                pairs="; ".join(
                    f"{' × '.join(c)} ({formatting.fixed(t, 3)})"
                    for c, t in zip(worst["columns"], worst["tvd"], strict=True)
                ),
                measured=formatting.fixed(s.release.twoway(True), 3),
            )
        )
    section_exercises(EXERCISES, "pitfalls", s)


def _rare_sentence(cells: pd.DataFrame, most: int, row: str, column: str) -> None:
    """How many rare cells, how many persons they hold, how many the synthetic table empties."""
    vanished = int((cells["synthetic"] < 0.5).sum())
    st.markdown(
        "**"
        + _(
            "synthetic.pitfalls.rare",
            cells=formatting.count(len(cells)),
            most=formatting.count(most),
            persons=formatting.count(int(cells["real"].sum())),
            vanished=formatting.count(vanished),
            row=row,
            column=column,
        )
        + "**"
    )
