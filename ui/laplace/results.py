"""Section 1's results: the noisy answers (teaching draws or a held OpenDP release), the table
as on screen, and what the page's downloads hold."""

from __future__ import annotations

import numpy as np
import pandas as pd
from pandas.io.formats.style import Styler

from dp_core import answers
from dp_core.release import noise_name
from ui.common import charts, formatting
from ui.common.catalog import entry
from ui.common.export import Export
from ui.common.i18n import _
from ui.common.release import guarantee_text, held_release, unit_words
from ui.common.shell import page_rng
from ui.laplace.settings import Settings
from ui.laplace.words import display_labels, outputs


def _release_key(s: Settings) -> tuple:
    """What a held release depends on: a new cap, bound or ε is a new release (a new language
    is not)."""
    query = s.choice.query
    return (s.choice.data.source, query.spec, s.epsilon, query.sensitivity, tuple(query.labels),
            tuple(query.true_values))  # fmt: skip


def noisy_answers(s: Settings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The noisy answers shown, their 95% half-widths and their expected |error|: teaching
    draws, or the OpenDP release held for these inputs (dp_core.answers)."""

    def make(secure: bool) -> answers.NoisyAnswers:
        return answers.noisy_answers(
            s.choice.query,
            mechanism="laplace",
            epsilon=s.epsilon,
            rng=page_rng("laplace", "answers"),
            secure=secure,
        )

    found = (
        held_release("laplace", _release_key(s), lambda: make(True)) if s.secure else make(False)
    )
    return found.values, found.half_widths, found.expected_abs_errors


def results_table(s: Settings, noisy: np.ndarray, half_widths: np.ndarray) -> pd.DataFrame:
    """The results as on screen: the groups as shown, two decimals, relative error in %."""
    query, value = s.choice.query, s.choice.value_name
    error = noisy - query.true_values
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = np.where(
            query.true_values != 0, np.abs(error) / np.abs(query.true_values), np.nan
        )
    if s.secure:
        released = _("laplace.table.released", value=value)
    else:
        released = _("laplace.table.noisy", value=value)
    truth = np.round(query.true_values, 2)
    if query.kind in ("count", "predicate"):
        truth = truth.astype(np.int64)  # a count is whole
    table = {
        _("laplace.table.group"): display_labels(s.choice),
        _("laplace.table.true", value=value): truth,
        released: noisy.round(2),
        _("laplace.table.error"): error.round(2),
        _("laplace.table.relative"): (100 * relative).round(2),
        _("laplace.table.half_width"): half_widths.round(2),
    }
    if query.kind == "sum":
        table[_("laplace.table.unclipped")] = np.round(query.raw_values, 2)
    return pd.DataFrame(table)


def on_screen(table: pd.DataFrame) -> Styler:
    """The table in the reader's number format (decimal comma, grouping); the cells stay
    numbers, as in the CSV."""

    def shown(value: float) -> str:
        if pd.isna(value):
            return "—"  # a relative error of a true 0
        if isinstance(value, (int, np.integer)):
            return formatting.count(value)
        return formatting.fixed(value, 2)

    return table.style.format(shown, subset=list(table.select_dtypes("number").columns))


def results_export(
    s: Settings, noisy: np.ndarray, half_widths: np.ndarray, answers_chart: charts.Spec
) -> Export:
    """What the downloads hold: the table as on screen, every setting, the guarantee, the chart."""
    page, data, query = entry("laplace"), s.choice.data, s.choice.query
    settings = {
        _("laplace.export.dataset"): data.title,
        _("laplace.export.query"): s.choice.description,
        _("laplace.export.epsilon"): formatting.number(s.epsilon),
    }
    if data.person is not None:
        settings[_("laplace.export.cap")] = formatting.count(query.spec.cap)
    settings[_("laplace.export.sensitivity")] = formatting.number(query.sensitivity)
    settings[_("laplace.export.noise")] = (
        noise_name("laplace") if s.secure else _("laplace.export.teaching_noise")
    )
    return Export(
        title=_("laplace.export.title", page=page.title, dataset=data.title),
        question=page.question,
        table=results_table(s, noisy, half_widths),
        settings=settings,
        guarantee=guarantee_text(data, s.guarantee, outputs=outputs(s.choice)),
        unit=unit_words(data),
        charts=[("answers", answers_chart)],
    )
