"""Section 4 of the planner page, “ε in the wild”: published deployments' budgets, with their
units, beside the plan's total, and the table of sources."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from data.registry import load_reference
from ui.common import charts, formatting, live
from ui.common.i18n import N_, _
from ui.common.release import unit_words
from ui.planner import charts as planner_charts
from ui.planner.settings import PAGE, Settings

SOURCE_HEADERS = {  # the deployments table's columns -> message ids of their headers
    "organisation": N_("planner.wild.organisation"),
    "deployment": N_("planner.wild.deployment"),
    "model": N_("planner.wild.model"),
    "unit": N_("planner.wild.unit"),
    "per": N_("planner.wild.per_header"),
    "period": N_("planner.wild.period"),
    "year": N_("planner.wild.year"),
    "source": N_("planner.wild.source"),
    "registry": N_("planner.wild.registry"),
    "note": N_("planner.wild.note"),
}


def _deployment_label(row: pd.Series) -> str:
    text = f"{row['organisation']}: {row['deployment']}"
    return text if len(text) <= 64 else text[:61] + "…"


def _models(values: pd.Series) -> pd.Series:
    """Central or local, in the reader's language."""
    return values.map(lambda model: _(planner_charts.MODELS.get(model, model)))


def in_the_wild(s: Settings) -> None:
    """Section 4: published deployments' budgets, with their units, and the plan's total (the
    marker and the caption follow the ε and δ thumbs)."""
    st.warning(_("planner.wild.warning"), icon=":material/warning:")
    table = load_reference("deployments")
    published = table[table["epsilon"].notna()]
    points = pd.DataFrame(
        {
            "deployment": published.apply(_deployment_label, axis=1),
            "epsilon": published["epsilon"],
            "model": _models(published["model"]),
            "per": published["per"].map(lambda per: _("planner.wild.per", per=per)),
            "unit": published["unit"],
            "period": published["period"],
        }
    )

    def chart(at: Settings) -> charts.Spec:
        """The deployments beside the plan's total at these settings."""
        total = at.plan.epsilon
        label = _("planner.wild.marker", epsilon=formatting.epsilon(total))
        shown = points.assign(pad=4.0 * float(max(points["epsilon"].max(), total)))
        return planner_charts.in_the_wild(shown, charts.marker(total, label))

    unit = unit_words(s.data)
    live.follow_chart(s, chart, key=f"{PAGE}_wild")
    live.follow_text(
        s,
        lambda at: _(
            "planner.wild.caption", epsilon=formatting.epsilon(at.plan.epsilon), unit=unit
        ),
        key=f"{PAGE}_wild_caption",
        depends=unit,
        style="caption",
    )
    box = st.expander(_("planner.wild.sources"), key=f"{PAGE}_sources", on_change="rerun")
    if box.open:
        with box:
            _sources(table)


def _sources(table: pd.DataFrame) -> None:
    """Every deployment, published budget or not, with its source and registry links."""
    shown = table.assign(model=_models(table["model"]))
    headers = {column: _(SOURCE_HEADERS[column]) for column in SOURCE_HEADERS}
    headers.update({"epsilon": "ε", "delta": "δ", "rho": "ρ (zCDP)"})
    st.dataframe(
        shown.rename(columns=headers),
        hide_index=True,
        width="stretch",
        column_config={
            headers["source"]: st.column_config.LinkColumn(headers["source"]),
            headers["registry"]: st.column_config.LinkColumn(headers["registry"]),
            headers["year"]: st.column_config.NumberColumn(headers["year"], format="%d"),
        },
    )
    st.caption(_("planner.wild.sources_note"))
