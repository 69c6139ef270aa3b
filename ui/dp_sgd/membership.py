"""Section 4 of the DP-SGD page: can an attacker tell that a person was in the training
rows? The loss-threshold attack (Yeom et al. 2018: "a member's loss is lower") on each
trained model, beside the most any attack can reach against an (ε, δ)-DP model
(dp_core.attacks.best_advantage, Kairouz et al. 2015), and the model without DP."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import attacks
from ui.common import charts, formatting
from ui.common.catalog import entry
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.dp_sgd import charts as sgd_charts
from ui.dp_sgd.curves import accuracy_curve
from ui.dp_sgd.exercises import EXERCISES
from ui.dp_sgd.settings import Settings

BOUND_EPSILONS = np.geomspace(0.01, 10.0, 31)  # the bound's curve


def membership(s: Settings) -> None:
    """Section 4: measured advantage against the bound, over ε."""
    model, baseline = s.model, s.baseline
    bound = float(attacks.best_advantage(s.epsilon, s.delta))
    st.markdown(
        "**"
        + _(
            "dp_sgd.membership.headline",
            measured=formatting.percent(model.advantage),
            bound=formatting.percent(bound),
            epsilon=formatting.number(s.epsilon),
            delta=formatting.power_of_ten(s.delta),
        )
        + "**"
    )
    columns = st.columns(3)
    columns[0].metric(_("dp_sgd.metric.measured"), formatting.percent(model.advantage))
    columns[1].metric(_("dp_sgd.metric.bound"), formatting.percent(bound))
    columns[2].metric(_("dp_sgd.metric.measured_baseline"), formatting.percent(baseline.advantage))
    curve = accuracy_curve(s)
    line = pd.DataFrame({"x": BOUND_EPSILONS, "y": attacks.best_advantage(BOUND_EPSILONS, s.delta)})
    no_dp = float(curve.loc[~np.isfinite(curve["epsilon"]), "advantage"].mean())
    charts.show(sgd_charts.membership(curve, line, no_dp, s.epsilon), key="dp_sgd_membership")
    st.caption(_("dp_sgd.membership.caption"))
    attacker = entry("attacker")
    st.page_link(attacker.path, label=_("dp_sgd.membership.attacker"), icon=attacker.icon)
    section_exercises(EXERCISES, "membership", s)
