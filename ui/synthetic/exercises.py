"""The synthetic-data page's exercises, each answered by the section it sits in.

``solve`` takes the page's settings (ui.synthetic.settings.Settings, its release included) and
the section's own choices as the reader left them (the cross-tab's pair, the label), and
computes with the functions the sections draw from, so an answer quotes the page's numbers.
"""

from __future__ import annotations

import streamlit as st

from dp_core.synthetic import rare_cells
from ui.common import formatting
from ui.common.exercises import TRUE_FALSE, Answer, Exercise
from ui.common.i18n import N_, _
from ui.synthetic.declared import (
    CENSUS_LABEL,
    CENSUS_POSITIVE,
    COLUMN,
    LABEL,
    POSITIVE,
    RARE,
    ROW,
)
from ui.synthetic.release import downstream


def _chosen(setting, options: list[str], preferred: str) -> str:
    """A section's choice as the reader left it, else what the section starts with."""
    value = st.session_state.get(setting.key)
    if value in options:
        return value
    return preferred if preferred in options else options[-1]


def _unmeasured(s) -> Answer:
    r = s.release
    measured, unmeasured = r.twoway(True), r.twoway(False)
    values = {
        "measured": formatting.fixed(measured, 3),
        "unmeasured": formatting.fixed(unmeasured, 3),
    }
    if unmeasured <= measured:
        return Answer("true", _("synthetic.exercise.unmeasured.answer_true", **values))
    return Answer("false", _("synthetic.exercise.unmeasured.answer_false", **values))


def _points(s) -> Answer:
    domain = s.chosen.domain
    labels = [c for c, _labels in domain.categories]
    label = _chosen(LABEL, labels, CENSUS_LABEL)
    values = list(domain.labels(label)[:-1])
    positive = _chosen(POSITIVE, values, CENSUS_POSITIVE)
    found = downstream(s.release, s.test, domain, label, positive)
    points = 100 * (found["real"] - found["synthetic"])
    return Answer(
        points,
        _(
            "synthetic.exercise.points.answer",
            points=formatting.fixed(points, 1),
            real=formatting.fixed(100 * found["real"], 1),
            synthetic=formatting.fixed(100 * found["synthetic"], 1),
        ),
    )


def _vanished(s) -> Answer:
    domain = s.chosen.domain
    columns = list(domain.columns)
    row = _chosen(ROW, columns, "occupation")
    column = _chosen(COLUMN, [c for c in columns if c != row], "sex")
    most = int(st.session_state.get(RARE.key) or RARE.default)
    cells = rare_cells(s.release.real, s.release.synthetic, domain, (row, column), most)
    vanished = int((cells["synthetic"] < 0.5).sum())
    return Answer(
        float(vanished),
        _(
            "synthetic.exercise.vanished.answer",
            vanished=formatting.count(vanished),
            cells=formatting.count(len(cells)),
            most=formatting.count(most),
        ),
    )


EXERCISES = (
    Exercise(
        key="synthetic.unmeasured",
        page="synthetic",
        section="fidelity",
        question=N_("synthetic.exercise.unmeasured.question"),
        kind="choice",
        choices=TRUE_FALSE,
        solve=_unmeasured,
    ),
    Exercise(
        key="synthetic.points",
        page="synthetic",
        section="downstream",
        question=N_("synthetic.exercise.points.question"),
        kind="number",
        solve=_points,
        tolerance=0.05,
    ),
    Exercise(
        key="synthetic.vanished",
        page="synthetic",
        section="pitfalls",
        question=N_("synthetic.exercise.vanished.question"),
        kind="number",
        solve=_vanished,
        tolerance=1e-9,
    ),
)
