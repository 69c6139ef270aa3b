"""Section 1 of the synthetic-data page: how close the synthetic table's marginals are to the
real ones, against ε and marginal by marginal; the budget split inside the algorithm; the
downloads (the synthetic rows, the noisy marginals they were fitted to, the report)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dp_core.synthetic import budget_split
from ui.common import charts, formatting
from ui.common.catalog import entry
from ui.common.exercises import section_exercises
from ui.common.export import Export, export_buttons
from ui.common.i18n import N_, _
from ui.common.release import guarantee_text, unit_words
from ui.synthetic import charts as synthetic_charts
from ui.synthetic.declared import ALGORITHMS, PAGE
from ui.synthetic.exercises import EXERCISES
from ui.synthetic.release import Release
from ui.synthetic.settings import Settings

SERIES = (  # message ids of the three kinds of marginal, in their order
    N_("synthetic.chart.oneway"),
    N_("synthetic.chart.measured"),
    N_("synthetic.chart.unmeasured"),
)


def fidelity(s: Settings) -> None:
    """Section 1: mean TVD against ε, each marginal's TVD, the budget split, downloads."""
    r = s.release
    st.markdown(
        "**"
        + _(
            "synthetic.fidelity.headline",
            epsilon=formatting.number(s.epsilon),
            oneway=formatting.fixed(r.oneway, 3),
            measured=formatting.fixed(r.twoway(True), 3),
            unmeasured=formatting.fixed(r.twoway(False), 3),
        )
        + "**"
    )
    columns = st.columns(3)
    columns[0].metric(_("synthetic.metric.rows"), formatting.count(len(r.synthesis.synthetic)))
    columns[1].metric(_("synthetic.metric.rho"), formatting.significant(s.rho, 3))
    columns[2].metric(_("synthetic.metric.seconds"), formatting.fixed(r.seconds, 1))
    curve = curve_frame(s.curve)
    charts.show(synthetic_charts.fidelity_curve(curve, s.epsilon), key="synthetic_curve")
    st.caption(_("synthetic.fidelity.curve_caption", releases=formatting.count(len(s.curve))))
    bars = marginal_frame(r)
    spec = synthetic_charts.marginal_bars(bars)
    charts.show(spec, key="synthetic_marginals")
    st.markdown(_("synthetic.fidelity.split", name=_(ALGORITHMS[s.algorithm])))
    st.dataframe(split_table(s), hide_index=True, width="stretch")
    section_exercises(EXERCISES, "fidelity", s)
    export_buttons(PAGE, s.data, lambda: _export(s, bars, spec), secure=True)


def _series(ways: int, measured: bool) -> int:
    return 0 if ways == 1 else (1 if measured else 2)


def marginal_frame(r: Release) -> pd.DataFrame:
    """Each marginal's TVD with its name and series (one-way, measured or not measured)."""
    frame = r.distances.copy()
    frame["order"] = [_series(w, m) for w, m in zip(frame["ways"], frame["measured"], strict=True)]
    frame["series"] = [_(SERIES[o]) for o in frame["order"]]
    frame["name"] = [" × ".join(c) for c in frame["columns"]]
    return frame[["name", "tvd", "series", "order"]]


def curve_frame(curve: tuple[tuple[float, Release], ...]) -> pd.DataFrame:
    """Mean TVD per ε of the releases at hand, one series per kind of marginal."""
    rows = []
    for epsilon, r in curve:
        for order, value in enumerate((r.oneway, r.twoway(True), r.twoway(False))):
            rows.append({"x": epsilon, "y": value, "series": _(SERIES[order]), "order": order})
    return pd.DataFrame(rows, columns=["x", "y", "series", "order"])


def split_table(s: Settings) -> pd.DataFrame:
    """ρ's shares inside the algorithm, and the noise each measured marginal got."""
    marginals = s.release.synthesis.marginals
    std = marginals.groupby("marginal", sort=False)["std"].first()
    oneway = [m for m in std.index if " × " not in m]
    twoway = [m for m in std.index if " × " in m]
    shares = budget_split(s.algorithm)
    rows = [
        (_("synthetic.split.oneway"), shares["oneway"], len(oneway), std[oneway].mean()),
        (_("synthetic.split.select"), shares["select"], 0, float("nan")),
        (_("synthetic.split.measure"), shares["measure"], len(twoway), std[twoway].mean()),
    ]
    return pd.DataFrame(
        {
            _("synthetic.split.step"): [r[0] for r in rows],
            _("synthetic.split.share"): [f"{formatting.fixed(100 * r[1])}%" for r in rows],
            _("synthetic.split.rho"): [formatting.significant(r[1] * s.rho, 3) for r in rows],
            _("synthetic.split.marginals"): [formatting.count(r[2]) if r[2] else "–" for r in rows],
            _("synthetic.split.std"): [
                "–" if pd.isna(r[3]) else formatting.significant(r[3], 3) for r in rows
            ],
        }
    )


def _export(s: Settings, bars: pd.DataFrame, spec: charts.Spec) -> Export:
    """The downloads: each marginal's TVD, every setting, the synthetic rows and the noisy
    marginals (the release's own product), the chart."""
    r = s.release
    table = pd.DataFrame(
        {
            _("synthetic.table.marginal"): bars["name"],
            _("synthetic.table.kind"): bars["series"],
            _("synthetic.table.tvd"): [formatting.fixed(v, 4) for v in bars["tvd"]],
        }
    )
    marginals = r.synthesis.marginals.rename(
        columns={"marginal": _("synthetic.table.marginal"), "cell": _("synthetic.table.cell"),
                 "noisy_count": _("synthetic.table.noisy"), "std": _("synthetic.table.std")}
    )  # fmt: skip
    return Export(
        title=_("synthetic.export.title", dataset=s.data.title),
        question=entry(PAGE).question,
        table=table,
        settings={
            _("synthetic.export.dataset"): s.data.title,
            _("synthetic.export.columns"): ", ".join(s.chosen.domain.columns),
            "epsilon": formatting.number(s.epsilon),
            "delta": formatting.number(s.delta),
            "rho": formatting.significant(s.rho, 6),
            _("synthetic.algorithm.label"): _(ALGORITHMS[s.algorithm]),
            _("synthetic.export.domain"): "; ".join(
                f"{c}: {', '.join(s.chosen.domain.labels(c))}" for c in s.chosen.domain.columns
            ),
        },
        guarantee=guarantee_text(s.data, s.guarantee, outputs=_("synthetic.outputs")),
        unit=unit_words(s.data),
        charts=[("marginals", spec)],
        notes=(_("synthetic.export.files"),),
        files={"synthetic_table": r.synthesis.synthetic, "noisy_marginals": marginals},
    )
