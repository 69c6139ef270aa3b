"""Section 5 of the exponential-mechanism page: a score that is not a count.

"Which occupation works the most hours per week on average?" on the census data: the score of
an occupation is the mean of its persons' hours clipped to [L, U], over at least a public
floor n_min of persons (dp_core.selection_scores.floored_clipped_means), so one person moves
any score by at most Δ = (U − L) / n_min, whatever the group sizes. The unclipped mean has no
such bound: that trap is stated beside the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import streamlit as st

from data.registry import DATASETS, load_dataset
from dp_core import selection as sel
from dp_core.exponential import exponential_probabilities
from dp_core.guarantee import Part
from dp_core.selection_scores import floored_clipped_mean_sensitivity, floored_clipped_means
from ui.common import formatting, live
from ui.common.address import linked
from ui.common.data_picker import DataChoice
from ui.common.exercises import section_exercises
from ui.common.export import Export, export_buttons
from ui.common.i18n import _
from ui.common.labels import category_labels
from ui.common.release import guarantee, guarantee_box, guarantee_text, unit_words
from ui.common.turns import fragment
from ui.exponential import charts as exp_charts
from ui.exponential.candidates import PAGE
from ui.exponential.declared import HOURS_BOUNDS, HOURS_FLOOR, WEEK
from ui.exponential.exercises import EXERCISES
from ui.exponential.settings import Settings

DATASET, GROUP, VALUE = "census", "occupation", "hours_per_week"
TRAP_HOURS = 10_000  # what one person could report if nothing were clipped


@dataclass(frozen=True)
class HoursSettings:
    """The hours section's settings: the page's ε, the clipping bounds and the floor."""

    epsilon: float
    lower: float
    upper: float
    min_group: int

    @property
    def sensitivity(self) -> float:
        """Δ = (U − L) / n_min (dp_core.selection_scores.floored_clipped_mean_sensitivity)."""
        return floored_clipped_mean_sensitivity(self.lower, self.upper, self.min_group)

    def at(self, epsilon: float) -> HoursSettings:
        """The settings at another stop of the page's ε slider."""
        return replace(self, epsilon=epsilon)

    def probabilities(self, scores: np.ndarray) -> np.ndarray:
        """P(the mechanism names each occupation): exp(ε · score / (2Δ)) normalised, the
        score not being monotonic."""
        return exponential_probabilities(scores, self.epsilon, self.sensitivity, monotonic=False)

    def probability_of_best(self, scores: np.ndarray) -> float:
        """P(the mechanism names an occupation with the highest score)."""
        return float(sel.probability_of_best(self.probabilities(scores), scores))


@dataclass(frozen=True)
class HoursResult:
    """Per occupation: persons, unclipped and clipped means, the score, its probability."""

    occupations: tuple[str, ...]
    persons: np.ndarray
    means: np.ndarray
    clipped_means: np.ndarray
    scores: np.ndarray
    probabilities: np.ndarray


def census() -> DataChoice:
    return DataChoice(DATASETS[DATASET], load_dataset(DATASET), DATASET)


def hours_result(h: HoursSettings) -> HoursResult:
    """What the section shows for these settings (the census' public occupations in order)."""
    frame = load_dataset(DATASET)
    occupations = DATASETS[DATASET].domains[GROUP]
    grouped = frame.groupby(GROUP)[VALUE]
    persons = grouped.size().reindex(occupations, fill_value=0).to_numpy()
    clipped = frame[VALUE].clip(h.lower, h.upper).groupby(frame[GROUP]).mean()
    scores = floored_clipped_means(
        frame[VALUE], frame[GROUP], occupations, lower=h.lower, upper=h.upper,
        min_group_size=h.min_group,
    )  # fmt: skip
    return HoursResult(
        occupations,
        persons,
        grouped.mean().reindex(occupations).to_numpy(),
        clipped.reindex(occupations).to_numpy(),
        scores,
        h.probabilities(scores),
    )


def _controls(epsilon: float) -> HoursSettings | None:
    """The clipping bounds and the floor (in the address); None after a message."""
    left, right = st.columns([3, 2])
    lower, upper = linked(
        HOURS_BOUNDS,
        left.slider,
        _("exponential.hours.bounds"),
        min_value=0,
        max_value=WEEK,
        help=_("exponential.hours.bounds_help"),
    )
    floor = linked(
        HOURS_FLOOR,
        right.number_input,
        _("exponential.hours.floor"),
        min_value=1,
        max_value=100_000,
        step=1,
        help=_("exponential.hours.floor_help"),
    )
    if lower >= upper:
        st.error(_("exponential.hours.bad_bounds"))
        return None
    return HoursSettings(epsilon, float(lower), float(upper), int(floor))


@fragment
def average_hours(s: Settings) -> None:
    """Section 5: the exponential mechanism with the average hours per occupation as score.

    The sentence, P(best) and the chart follow the ε thumb (the scores do not move with ε,
    only their probabilities); the table follows once it is let go.
    """
    st.markdown(_("exponential.hours.intro"))
    h = _controls(s.epsilon)
    if h is None:
        return
    result = hours_result(h)
    names = category_labels(GROUP, result.occupations)
    data = census()
    statement = _guarantee(data, h)
    depends = (h.lower, h.upper, h.min_group)
    live.text(
        [s.stops],
        lambda e: _sentence(h.at(e), result.scores, names),
        key=f"{PAGE}_hours",
        depends=depends,
    )
    _metrics(s, h, result, depends)
    spec = live.chart(
        [s.stops],
        lambda e: exp_charts.score_bars(names, h.at(e).probabilities(result.scores)),
        key=f"{PAGE}_hours_bars",
        depends=depends,
    )
    st.table(_screen_table(result, names))
    _small_groups(h, result, names)
    _trap(result, names)
    export_buttons(
        PAGE, data, lambda: _export(data, h, result, names, statement, spec), secure=False
    )
    section_exercises(EXERCISES, "hours", h)


def _metrics(s: Settings, h: HoursSettings, result: HoursResult, depends: tuple) -> None:
    """Δ, P(the best is named) following the ε thumb, the best score, and where Δ comes from."""
    cols = st.columns(3)
    cols[0].metric(_("exponential.hours.metric.delta"), formatting.significant(h.sensitivity))
    with cols[1]:
        live.text(
            [s.stops],
            lambda e: formatting.fixed(h.at(e).probability_of_best(result.scores), 3),
            key=f"{PAGE}_hours_p_best",
            depends=depends,
            style="metric",
            label=_("exponential.metric.p_best"),
        )
    best = int(np.argmax(result.scores))
    cols[2].metric(_("exponential.hours.metric.best"), formatting.fixed(result.scores[best], 2))
    st.caption(
        _(
            "exponential.hours.delta_caption",
            lower=formatting.number(h.lower),
            upper=formatting.number(h.upper),
            floor=formatting.count(h.min_group),
            delta=formatting.significant(h.sensitivity),
        )
    )


def _small_groups(h: HoursSettings, result: HoursResult, names: list[str]) -> None:
    """The occupations below the floor, whose score is pulled towards the lower bound."""
    small = [names[i] for i in np.flatnonzero(result.persons < h.min_group)]
    if small:
        st.caption(
            _(
                "exponential.hours.small",
                groups=", ".join(small),
                floor=formatting.count(h.min_group),
                lower=formatting.number(h.lower),
            )
        )


def _sentence(h: HoursSettings, scores: np.ndarray, names: list[str]) -> str:
    """The section's headline: the occupation with the highest score and P(it is named)."""
    best = int(np.argmax(scores))
    return _(
        "exponential.hours.sentence",
        epsilon=formatting.number(h.epsilon),
        best=names[best],
        score=formatting.fixed(scores[best], 2),
        p=formatting.fixed(h.probability_of_best(scores), 3),
    )


def _guarantee(data: DataChoice, h: HoursSettings) -> str:
    """The section's own release, on the census: the selected occupation at the page's ε."""
    if h.epsilon == 0:
        statement = _("exponential.hours.zero")
        st.info(statement)
        return statement
    total = guarantee(data, [Part("selection", h.epsilon)])
    outputs = _("exponential.hours.outputs")
    guarantee_box(data, total, outputs=outputs, noise=_("exponential.hours.noise"))
    return guarantee_text(data, total, outputs=outputs)


def _screen_table(result: HoursResult, names: list[str]) -> pd.DataFrame:
    """The table as on screen (text cells)."""
    return pd.DataFrame(
        {
            _("exponential.hours.column.persons"): [
                formatting.count(int(n)) for n in result.persons
            ],
            _("exponential.hours.column.mean"): [formatting.fixed(v, 2) for v in result.means],
            _("exponential.hours.column.clipped"): [
                formatting.fixed(v, 2) for v in result.clipped_means
            ],
            _("exponential.hours.column.score"): [formatting.fixed(v, 2) for v in result.scores],
            _("exponential.column.probability"): [
                formatting.probability(p) for p in result.probabilities
            ],
        },
        index=pd.Index(names, name=_("exponential.hours.column.occupation")),
    )


def _trap(result: HoursResult, names: list[str]) -> None:
    """Why the mean must be clipped (and floored): one person moves an unclipped mean anywhere."""
    smallest = int(np.argmin(result.persons))
    n, mean = int(result.persons[smallest]), float(result.means[smallest])
    moved = (n * mean + TRAP_HOURS) / (n + 1)
    st.markdown(
        _(
            "exponential.hours.trap",
            group=names[smallest],
            n=formatting.count(n),
            hours=formatting.count(TRAP_HOURS),
            before=formatting.fixed(mean, 1),
            after=formatting.fixed(moved, 1),
        )
    )


def _export(
    data: DataChoice,
    h: HoursSettings,
    result: HoursResult,
    names: list[str],
    statement: str,
    spec: dict,
) -> Export:
    """The hours table for a spreadsheet, the settings, the guarantee and the chart."""
    table = pd.DataFrame(
        {
            _("exponential.hours.column.occupation"): names,
            _("exponential.hours.column.persons"): result.persons,
            _("exponential.hours.column.mean"): np.round(result.means, 2),
            _("exponential.hours.column.clipped"): np.round(result.clipped_means, 2),
            _("exponential.hours.column.score"): np.round(result.scores, 2),
            _("exponential.column.probability"): [float(f"{p:.4g}") for p in result.probabilities],
        }
    )
    return Export(
        title=_("exponential.hours.export_title"),
        question=_("exponential.hours.question"),
        table=table,
        settings={
            "epsilon": formatting.number(h.epsilon),
            _("exponential.hours.export.lower"): formatting.number(h.lower),
            _("exponential.hours.export.upper"): formatting.number(h.upper),
            _("exponential.hours.floor"): h.min_group,
            _("exponential.export.sensitivity"): formatting.significant(h.sensitivity),
            _("exponential.export.rate"): "ε/(2Δ)",
        },
        guarantee=statement,
        unit=unit_words(data),
        charts=[("hours", spec)],
    )
