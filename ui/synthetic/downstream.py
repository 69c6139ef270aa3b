"""Section 3 of the synthetic-data page: a downstream task. A classifier (logistic regression,
every other column one-hot) trained on the synthetic table and tested on held-out real rows,
beside the same classifier trained on the real training rows and the majority guess."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace

import pandas as pd
import streamlit as st

from ui.common import charts, formatting
from ui.common.address import linked
from ui.common.exercises import section_exercises
from ui.common.i18n import N_, _
from ui.common.turns import fragment
from ui.synthetic import charts as synthetic_charts
from ui.synthetic.declared import CENSUS_LABEL, CENSUS_POSITIVE, LABEL, POSITIVE
from ui.synthetic.exercises import EXERCISES
from ui.synthetic.release import Release, downstream
from ui.synthetic.settings import Settings


def task(s: Settings) -> tuple[str, str] | None:
    """The label column and its positive value (a declared category); None without one."""
    domain = s.chosen.domain
    labels = [column for column, _cells in domain.categories]
    if not labels:
        st.info(_("synthetic.downstream.no_label"))
        return None
    left, right = st.columns(2)
    with left:
        label = linked(
            replace(LABEL, default=CENSUS_LABEL if CENSUS_LABEL in labels else labels[-1]),
            st.selectbox, _("synthetic.downstream.label"), options=labels, context=domain,
        )  # fmt: skip
    values = list(domain.labels(label)[:-1])
    with right:
        positive = linked(
            replace(POSITIVE, default=CENSUS_POSITIVE if CENSUS_POSITIVE in values else values[-1]),
            st.selectbox, _("synthetic.downstream.positive", column=label), options=values,
            context=(domain, label),
        )  # fmt: skip
    return label, positive


_CACHE: OrderedDict[tuple, dict[str, float]] = OrderedDict()
KEPT = 256  # downstream results kept per process
NAMES = {  # the curve's series, in order
    "synthetic": N_("synthetic.chart.synthetic"),
    "real": N_("synthetic.chart.real"),
    "majority": N_("synthetic.chart.majority"),
}


def accuracies(
    s: Settings, epsilon: float, r: Release, label: str, positive: str
) -> dict[str, float]:
    """The downstream accuracies of the release at ``epsilon`` with the page's other settings
    (kept per process: two trainings of about 0.1 s each)."""
    key = (s.data.source, s.chosen.domain, s.algorithm, s.seed, s.delta, epsilon, label, positive)
    if key not in _CACHE:
        _CACHE[key] = downstream(r, s.test, s.chosen.domain, label, positive)
        while len(_CACHE) > KEPT:
            _CACHE.popitem(last=False)
    return _CACHE[key]


@fragment
def downstream_task(s: Settings) -> None:
    """Section 3: accuracy trained on synthetic vs real rows, at this ε and against ε."""
    chosen = task(s)
    if chosen is None:
        return
    label, positive = chosen
    now = accuracies(s, s.epsilon, s.release, label, positive)
    st.markdown(
        "**"
        + _(
            "synthetic.downstream.headline",
            epsilon=formatting.number(s.epsilon),
            synthetic=_percent(now["synthetic"]),
            real=_percent(now["real"]),
            majority=_percent(now["majority"]),
            rows=formatting.count(len(s.test)),
        )
        + "**"
    )
    columns = st.columns(3)
    columns[0].metric(_("synthetic.metric.synthetic"), _percent(now["synthetic"]))
    columns[1].metric(_("synthetic.metric.real"), _percent(now["real"]))
    columns[2].metric(_("synthetic.metric.majority"), _percent(now["majority"]))
    rows = []
    for epsilon, r in s.curve:
        found = accuracies(s, epsilon, r, label, positive)
        for order, (name, msgid) in enumerate(NAMES.items()):
            rows.append({"x": epsilon, "y": found[name], "order": order, "series": _(msgid)})
    frame = pd.DataFrame(rows, columns=["x", "y", "order", "series"])
    charts.show(synthetic_charts.downstream_curve(frame, s.epsilon), key="synthetic_downstream")
    st.caption(_("synthetic.downstream.caption"))
    section_exercises(EXERCISES, "downstream", s)


def _percent(value: float) -> str:
    return f"{formatting.fixed(100 * value, 1)}%"
