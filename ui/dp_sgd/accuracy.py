"""Section 1 of the DP-SGD page: the model these settings train, beside the same training
without DP and the majority guess, and held-out accuracy against ε; the downloads."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import attacks
from ui.common import charts, formatting
from ui.common.catalog import entry
from ui.common.exercises import section_exercises
from ui.common.export import Export, export_buttons
from ui.common.i18n import _
from ui.common.release import guarantee_text, unit_words
from ui.common.shell import compact
from ui.dp_sgd import charts as sgd_charts
from ui.dp_sgd.curves import accuracy_curve
from ui.dp_sgd.declared import ACCOUNTANTS, PAGE
from ui.dp_sgd.exercises import EXERCISES
from ui.dp_sgd.settings import Settings
from ui.dp_sgd.words import accuracy_text, outputs, schedule_sentence


def accuracy_against_epsilon(s: Settings) -> None:
    """Section 1: the model at the slider's ε, and the curve over ε."""
    model, baseline = s.model, s.baseline
    st.markdown(
        "**"
        + _(
            "dp_sgd.accuracy.headline",
            epsilon=formatting.number(s.epsilon),
            private=accuracy_text(model.test_accuracy),
            baseline=accuracy_text(baseline.test_accuracy),
            majority=accuracy_text(s.problem.majority),
        )
        + "**"
    )
    columns = st.columns(4)
    columns[0].metric(_("dp_sgd.metric.sigma"), formatting.significant(s.sigma, 4))
    columns[1].metric(_("dp_sgd.metric.steps"), formatting.count(s.schedule.steps))
    columns[2].metric(_("dp_sgd.metric.private"), accuracy_text(model.test_accuracy))
    columns[3].metric(_("dp_sgd.metric.baseline"), accuracy_text(baseline.test_accuracy))
    if not compact():  # on a projector or a phone the chart comes first
        st.caption(schedule_sentence(s))
    curve = accuracy_curve(s)
    spec = sgd_charts.accuracy_curve(
        curve,
        baseline=float(curve.loc[~np.isfinite(curve["epsilon"]), "accuracy"].mean()),
        majority=s.problem.majority,
        epsilon=s.epsilon,
        now=model.test_accuracy,
    )
    charts.show(spec, key="dp_sgd_curve")
    st.caption(
        _(
            "dp_sgd.accuracy.curve_caption",
            trainings=formatting.count(int(np.isfinite(curve["epsilon"]).sum())),
            rows=formatting.count(len(s.problem.train_y)),
            held=formatting.count(len(s.problem.test_y)),
        )
    )
    section_exercises(EXERCISES, "accuracy", s)
    export_buttons(PAGE, s.data, lambda: _export(s, curve, spec), secure=False)


def curve_table(s: Settings, curve: pd.DataFrame) -> pd.DataFrame:
    """The curve as on screen: per ε, σ, held-out accuracy (mean, lowest, highest), the
    loss-threshold attack's advantage and the most any attack can have."""
    rows = []
    for epsilon, group in curve.groupby("epsilon", sort=True):
        finite = np.isfinite(epsilon)
        rows.append(
            {
                _("dp_sgd.table.epsilon"): formatting.number(epsilon) if finite else "∞",
                _("dp_sgd.table.sigma"): formatting.significant(group["sigma"].iloc[0], 4)
                if finite
                else "0",
                _("dp_sgd.table.accuracy"): accuracy_text(group["accuracy"].mean()),
                _("dp_sgd.table.lowest"): accuracy_text(group["accuracy"].min()),
                _("dp_sgd.table.highest"): accuracy_text(group["accuracy"].max()),
                _("dp_sgd.table.advantage"): formatting.percent(group["advantage"].mean()),
                _("dp_sgd.table.bound"): formatting.percent(
                    float(attacks.best_advantage(epsilon, s.delta)) if finite else 1.0
                ),
            }
        )
    return pd.DataFrame(rows)


def _export(s: Settings, curve: pd.DataFrame, spec: charts.Spec) -> Export:
    """The downloads: the curve's table, every setting, the chart, the model's weights."""
    training = s.training
    weights = "; ".join(
        f"{name} {formatting.significant(w, 4)}"
        for name, w in zip(
            (*s.problem.names, _("dp_sgd.export.intercept")), s.model.weights, strict=True
        )
    )
    return Export(
        title=_("dp_sgd.export.title", dataset=s.data.title),
        question=entry(PAGE).question,
        table=curve_table(s, curve),
        settings={
            _("dp_sgd.export.dataset"): s.data.title,
            _("dp_sgd.export.label"): f"{s.chosen.encoding.label} = {s.chosen.encoding.positive}",
            _("dp_sgd.export.features"): ", ".join(s.problem.names),
            "epsilon": formatting.number(s.epsilon),
            "delta": formatting.number(s.delta),
            _("dp_sgd.export.sigma"): formatting.significant(s.sigma, 6),
            _("dp_sgd.batch"): formatting.count(training.batch_size),
            _("dp_sgd.epochs"): formatting.count(training.epochs),
            _("dp_sgd.clip"): formatting.number(training.clip),
            _("dp_sgd.rate"): formatting.number(training.learning_rate),
            _("dp_sgd.share"): formatting.percent(s.share),
            _("dp_sgd.accountant.label"): _(ACCOUNTANTS[training.accountant]),
            _("dp_sgd.export.schedule"): schedule_sentence(s),
        },
        guarantee=guarantee_text(s.data, s.guarantee, outputs=outputs(s)),
        unit=unit_words(s.data),
        charts=[("accuracy", spec)],
        notes=(_("dp_sgd.export.weights", weights=weights), _("dp_sgd.export.held_out")),
    )
