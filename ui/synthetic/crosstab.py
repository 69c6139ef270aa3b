"""Section 2 of the synthetic-data page: one cross-tabulation, real beside synthetic, with
its TVD and whether the algorithm measured that pair."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

from dp_core.synthetic import total_variation
from ui.common import charts, formatting
from ui.common.address import linked
from ui.common.i18n import _
from ui.common.labels import category_labels, column_label, column_options
from ui.common.turns import fragment
from ui.synthetic import charts as synthetic_charts
from ui.synthetic.declared import COLUMN, ROW
from ui.synthetic.settings import Settings

PREFERRED = ("occupation", "sex")  # the census' pair the algorithm rarely measures


def pair(s: Settings) -> tuple[str, str]:
    """The rows and columns of the cross-tab: two different columns of the release."""
    columns, shipped = list(s.chosen.domain.columns), not s.chosen.data.own
    left, right = st.columns(2)
    first = PREFERRED[0] if PREFERRED[0] in columns else columns[0]
    with left:
        row = linked(replace(ROW, default=first), st.selectbox, _("synthetic.crosstab.row"),
                     labels=column_options(columns, shipped=shipped),
                     context=s.chosen.domain)  # fmt: skip
    others = [c for c in columns if c != row]
    second = PREFERRED[1] if PREFERRED[1] in others else others[0]
    with right:
        column = linked(replace(COLUMN, default=second), st.selectbox,
                        _("synthetic.crosstab.column"),
                        labels=column_options(others, shipped=shipped),
                        context=(s.chosen.domain, row))  # fmt: skip
    return row, column


def cells(s: Settings, row: str, column: str) -> pd.DataFrame:
    """Each cell's share of the real and of the synthetic rows (every cell of the domain)."""
    domain, r = s.chosen.domain, s.release
    full = pd.MultiIndex.from_product([domain.labels(row), domain.labels(column)],
                                      names=[row, column])  # fmt: skip
    frames = []
    for order, (name, table) in enumerate(
        ((_("synthetic.crosstab.real"), r.real), (_("synthetic.crosstab.synthetic"), r.synthetic))
    ):
        counts = table.groupby([row, column]).size().reindex(full, fill_value=0)
        frames.append(
            (counts / max(counts.sum(), 1)).rename("share").reset_index()
            .assign(table=name, order=order)
        )  # fmt: skip
    return pd.concat(frames, ignore_index=True)


@fragment
def crosstab(s: Settings) -> None:
    """Section 2: the chosen pair, real and synthetic (its selectboxes rerun this alone)."""
    row, column = pair(s)
    frame = cells(s, row, column)
    real = frame[frame["order"] == 0]["share"].to_numpy()
    made = frame[frame["order"] == 1]["share"].to_numpy()
    measured = frozenset((row, column)) in {frozenset(p) for p in s.release.synthesis.measured}
    tvd = formatting.fixed(total_variation(real, made), 3)
    if measured:
        said = _("synthetic.crosstab.measured", row=row, column=column, tvd=tvd)
    else:
        said = _("synthetic.crosstab.unmeasured", row=row, column=column, tvd=tvd)
    st.markdown(f"**{said}**")
    shown = frame.assign(  # the shipped data's categories in the reader's language
        **{c: category_labels(c, frame[c]) for c in (row, column)}
    )
    titles = tuple(column_label(c, shipped=not s.chosen.data.own) for c in (row, column))
    charts.show(synthetic_charts.crosstab(shown, row, column, titles), key="synthetic_crosstab")
    st.caption(_("synthetic.crosstab.caption"))
