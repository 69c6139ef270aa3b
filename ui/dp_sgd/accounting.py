"""Section 3 of the DP-SGD page: what the guarantee is made of. ε against the noise
multiplier for this schedule and ε as the epochs go by, by both of dp-accounting's
accountants (RDP and PLD, both proven upper bounds; PLD the tighter down to δ = 1e-11), and
the σ that each ε of a board's usual list needs."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from ui.common import charts, formatting
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.dp_sgd import charts as sgd_charts
from ui.dp_sgd.declared import ACCOUNTANTS
from ui.dp_sgd.exercises import EXERCISES
from ui.dp_sgd.settings import Settings
from ui.dp_sgd.training import epsilon_of, sigma_for
from ui.dp_sgd.words import schedule_sentence

SIGMAS = tuple(np.round(np.geomspace(0.5, 8.0, 9), 3))  # the ε-against-σ chart's points
MOST_EPOCH_POINTS = 10  # the ε-as-epochs-go-by chart's points, at most
TARGETS = (0.5, 1.0, 4.0, 10.0)  # the εs whose σ the table gives


def accounting(s: Settings) -> None:
    """Section 3: ε against σ and against the epochs; σ for a list of ε."""
    rdp, pld = s.spent("rdp"), s.spent("pld")
    st.markdown(
        "**"
        + _(
            "dp_sgd.accounting.headline",
            sigma=formatting.significant(s.sigma, 4),
            rdp=formatting.significant(rdp, 3),
            pld=formatting.significant(pld, 3),
            delta=formatting.power_of_ten(s.delta),
        )
        + "**"
    )
    st.caption(schedule_sentence(s))
    left, right = st.columns(2)
    with left, st.spinner(_("dp_sgd.accounting.computing")):
        charts.show(
            sgd_charts.accounting(
                _by_sigma(s),
                _("dp_sgd.chart.sigma"),
                s.sigma,
                f"σ = {formatting.significant(s.sigma, 3)}",
            ),
            key="dp_sgd_by_sigma",
        )
    with right, st.spinner(_("dp_sgd.accounting.computing")):
        epochs = s.training.epochs
        charts.show(
            sgd_charts.accounting(
                _by_epoch(s),
                _("dp_sgd.chart.epoch"),
                epochs,
                f"E = {formatting.count(epochs)}",
                whole=True,
            ),
            key="dp_sgd_by_epoch",
        )
    st.markdown(_("dp_sgd.accounting.table", name=_(ACCOUNTANTS[s.training.accountant])))
    st.dataframe(_targets(s), hide_index=True, width="stretch")
    st.caption(_("dp_sgd.accounting.caption"))
    section_exercises(EXERCISES, "accounting", s)


def _long(xs, s: Settings, epsilons) -> pd.DataFrame:
    """ε by each accountant at ``xs`` as series (names in the reader's language)."""
    frames = [
        pd.DataFrame(
            {
                "x": list(xs),
                "y": [epsilons(x, key) for x in xs],
                "series": _(ACCOUNTANTS[key]),
                "order": order,
            }
        )
        for order, key in enumerate(("rdp", "pld"))
    ]
    return pd.concat(frames)


def _by_sigma(s: Settings) -> pd.DataFrame:
    sigmas = sorted({*SIGMAS, round(s.sigma, 6)})
    return _long(sigmas, s, lambda sigma, key: epsilon_of(sigma, s.training, s.rows, key))


def epoch_points(epochs: int) -> list[int]:
    """Whole epochs from 1 to ``epochs``, at most MOST_EPOCH_POINTS of them."""
    count = min(epochs, MOST_EPOCH_POINTS)
    return sorted({round(e) for e in np.linspace(1, epochs, count)})


def _by_epoch(s: Settings) -> pd.DataFrame:
    def at(epochs: int, key: str) -> float:
        return epsilon_of(s.sigma, replace(s.training, epochs=epochs), s.rows, key)

    return _long(epoch_points(s.training.epochs), s, at)


def _targets(s: Settings) -> pd.DataFrame:
    """σ for each ε of TARGETS by the page's accountant, and ε by both at that σ."""
    rows = []
    for target in TARGETS:
        sigma = sigma_for(target, s.training, s.rows)
        rows.append(
            {
                _("dp_sgd.table.epsilon"): formatting.number(target),
                _("dp_sgd.table.sigma"): formatting.significant(sigma, 4),
                _("dp_sgd.table.noise"): formatting.significant(
                    sigma * s.training.clip / s.training.batch_size, 3
                ),
                _("dp_sgd.table.rdp"): formatting.significant(
                    epsilon_of(sigma, s.training, s.rows, "rdp"), 4
                ),
                _("dp_sgd.table.pld"): formatting.significant(
                    epsilon_of(sigma, s.training, s.rows, "pld"), 4
                ),
            }
        )
    return pd.DataFrame(rows)
