"""Section 1's results: the noisy answers (teaching draws or a held OpenDP release), the table
as on screen, and what the page's downloads hold."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from dp_core import answers
from dp_core.release import noise_name
from ui.common import charts, formatting
from ui.common.catalog import entry
from ui.common.export import Export
from ui.common.i18n import _
from ui.common.labels import category_labels
from ui.common.release import guarantee_text, held_release, unit_words
from ui.common.shell import page_rng
from ui.gaussian.settings import MECHANISMS, Settings
from ui.gaussian.words import outputs


@dataclass(frozen=True)
class Answers:
    """The noisy answers shown, their 95% half-widths and expected |error|, and the noise."""

    noisy: np.ndarray
    half_widths: np.ndarray
    expected: np.ndarray
    band: str  # what the error bars are, in words
    std: float | None = None  # the noise's standard deviation (not for the mean)


def noisy_answers(s: Settings) -> Answers:
    """Teaching draws, or the OpenDP release held for everything it depends on (a new cap
    changes the sensitivity, not the labels; a new language changes nothing)."""
    query = s.choice.query
    inputs = (
        s.choice.description,
        s.noise,
        s.epsilon,
        s.values_delta,
        s.l1,
        s.l2,
        tuple(query.labels),
        tuple(query.true_values.tolist()),
    )

    def make(secure: bool) -> answers.NoisyAnswers:
        return answers.noisy_answers(
            query,
            mechanism=s.kind,
            epsilon=s.epsilon,
            delta=s.delta,
            rng=page_rng("gaussian", "answers"),
            secure=secure,
        )

    found = held_release("gaussian", inputs, lambda: make(True)) if s.secure else make(False)
    band = _("gaussian.band.simulated") if found.simulated else _("gaussian.band.noise")
    return Answers(found.values, found.half_widths, found.expected_abs_errors, band, found.std)


def group_labels(s: Settings) -> list[str]:
    """The groups as written on screen (a shipped category in the reader's language)."""
    query = s.choice.query
    return category_labels(query.spec.category or "", query.labels)


def results_table(s: Settings, answers: Answers) -> pd.DataFrame:
    """The results as on screen: relative error in percent, two decimals."""
    query, what = s.choice.query, s.choice.value_name
    error = answers.noisy - query.true_values
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = np.where(
            query.true_values != 0, np.abs(error) / np.abs(query.true_values), np.nan
        )
    noisy = (
        _("gaussian.table.released", what=what)
        if s.secure
        else _("gaussian.table.noisy", what=what)
    )
    table = {
        _("gaussian.table.group"): group_labels(s),
        _("gaussian.table.true", what=what): query.true_values,
        noisy: answers.noisy.round(2),
        _("gaussian.table.error"): error.round(2),
        _("gaussian.table.relative"): (100 * relative).round(2),
        _("gaussian.table.half"): answers.half_widths.round(2),
    }
    if query.kind == "sum":
        table[_("gaussian.table.unclipped")] = query.raw_values
    return pd.DataFrame(table)


def results_export(s: Settings, answers: Answers, answers_chart: charts.Spec) -> Export:
    """What the page's downloads hold: the table as on screen, every setting, the chart."""
    noise = noise_name(s.noise) if s.secure else _("gaussian.export.teaching")
    return Export(
        title=_("gaussian.export.title", dataset=s.choice.data.dataset.title),
        question=entry("gaussian").question,
        table=results_table(s, answers),
        settings={
            _("gaussian.export.dataset"): s.choice.data.dataset.title,
            _("gaussian.export.mechanism"): _(MECHANISMS[s.kind]),
            _("gaussian.export.query"): s.choice.description,
            # ε and δ by their names: the file is named after them (ui.common.export.file_stem)
            "epsilon": formatting.number(s.epsilon),
            "delta": formatting.number(s.values_delta),
            _("gaussian.export.sensitivity"): (
                f"{formatting.number(s.l1)}, {formatting.significant(s.l2, 6)}"
            ),
            _("gaussian.export.noise"): noise,
        },
        guarantee=guarantee_text(s.choice.data, s.guarantee, outputs=outputs(s)),
        unit=unit_words(s.choice.data),
        charts=[("answers", answers_chart)],
    )
