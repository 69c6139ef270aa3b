"""Section 4 of the Laplace page: the averaging attack, the same question asked k times and
averaged, and the ε the k answers spend together."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dp_core import composition, laplace
from ui.common import charts, formatting, live
from ui.common.address import linked
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.common.shell import page_rng
from ui.common.turns import fragment
from ui.laplace import charts as laplace_charts
from ui.laplace.exercises import EXERCISES
from ui.laplace.settings import ATTACKED, REPEATS, REPEATS_SETTING, Settings
from ui.laplace.words import display_labels


def _repeats() -> int:
    """How often the attacker asks: a slider whose labels are grouped in the reader's language,
    kept in the address as a plain number (?laplace_repeats=1000)."""
    return linked(
        REPEATS_SETTING,
        st.select_slider,
        _("laplace.attack.repeats"),
        labels={k: formatting.count(k) for k in REPEATS},
    )


@fragment
def averaging_attack(s: Settings) -> None:
    """Section 4: asking the same question k times and averaging wins the truth back."""
    query = s.choice.query
    shown = dict(zip(query.labels, display_labels(s.choice), strict=True))
    label = linked(
        ATTACKED,
        st.selectbox,
        _("laplace.attack.which"),
        labels=shown,
        context=(s.choice.data.link_key, s.choice.description),
    )
    attacked = query.labels.index(label)
    repeats = _repeats()
    mean = query.kind == "mean"
    target = query.true_values[attacked] * (query.counts[attacked] if mean else 1.0)
    group = shown[query.labels[attacked]]
    if mean:
        title = _("laplace.attack.title_mean", group=group)
    else:
        title = _("laplace.attack.title", value=s.choice.value_name, group=group)
    # The average of j answers true + b Z_i is true + b × (the average of j standard draws):
    # the same standard draws at every ε, so the chart follows the ε thumb.
    unit = laplace.running_average_of_releases(page_rng("laplace", "attack"), 0.0, 1.0, repeats)
    steps = np.unique(np.geomspace(1, repeats, min(repeats, 300)).astype(int))

    def chart(epsilon: float) -> charts.Spec:
        scale = s.at(epsilon).scale
        band = 2 * laplace.laplace_average_std(scale, steps)
        averages = target + scale * unit[steps - 1]
        return laplace_charts.averaging_attack(steps, averages, target, band, title=title)

    live.chart([s.stops], chart, key="laplace_attack", depends=(s.identity, attacked, repeats))
    averages = target + s.scale * unit
    _metrics(s, repeats, averages[-1], target)
    st.caption(_("laplace.attack.caption"))
    section_exercises(EXERCISES, "averaging", s)


def _metrics(s: Settings, repeats: int, average: float, target: float) -> None:
    """The average of the k answers against the truth, and the ε they spend together."""
    total = float(composition.basic_composition(s.epsilon, 0.0, repeats)[0])
    difference = average - target
    cols = st.columns(3)
    cols[0].metric(
        _("laplace.attack.average", k=formatting.count(repeats)),
        formatting.fixed(average, 2),
        delta=_(
            "laplace.attack.from_truth",
            difference=("+" if difference >= 0 else "") + formatting.fixed(difference, 2),
        ),
        delta_color="off",
    )
    cols[1].metric(_("laplace.attack.true"), formatting.fixed(target, 2))
    cols[2].metric(
        _("laplace.attack.spent"),
        f"ε = {formatting.number(round(total, 6))}",
        delta=f"{formatting.count(repeats)} × {formatting.number(s.epsilon)}",
        delta_color="off",
    )
