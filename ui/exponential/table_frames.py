"""Section 1's tables: the probability table as on screen (text cells) and for a spreadsheet
(numbers), and what the section's downloads hold."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dp_core.exponential import exponential_log_weights, exponential_unnormalised_log_weights
from ui.common import formatting
from ui.common.catalog import entry
from ui.common.export import Export
from ui.common.i18n import _
from ui.common.release import unit_words
from ui.exponential.candidates import PAGE
from ui.exponential.controls import guarantee_sentence
from ui.exponential.settings import Settings
from ui.exponential.tables import (
    LOG_10,
    candidate_index,
    count_text,
    gap_text,
    probability_text,
    weight_text,
)


def _weight_exponent(s: Settings) -> str:
    """The exponent of the unnormalised weight as the table's header writes it."""
    return "ε·u / Δ" if s.monotonic else "ε·u / 2Δ"


def probability_frame(
    s: Settings, log_p: np.ndarray, sampled: np.ndarray, n_draws: int
) -> pd.DataFrame:
    """The probability table as on screen (text cells)."""
    c = s.candidates
    kwargs = {"monotonic": s.monotonic}
    gaps = exponential_log_weights(c.counts, s.epsilon, c.sensitivity, **kwargs)
    log_w = exponential_unnormalised_log_weights(c.counts, s.epsilon, c.sensitivity, **kwargs)
    return pd.DataFrame(
        {
            _("exponential.column.count"): [count_text(v) for v in c.counts],
            _("exponential.column.log_weight", rate=s.rate_name): [gap_text(v) for v in gaps],
            _("exponential.column.weight", exponent=_weight_exponent(s)): [
                weight_text(v) for v in log_w
            ],
            _("exponential.column.probability"): [probability_text(v) for v in log_p],
            _("exponential.column.runs"): [formatting.count(int(n)) for n in sampled],
            _("exponential.column.share", n=formatting.count(n_draws)): [
                formatting.fixed(v, 3) for v in sampled / n_draws
            ],
        },
        index=candidate_index(c),
    )


def export_table(s: Settings, log_p: np.ndarray, sampled: np.ndarray, n_draws: int) -> pd.DataFrame:
    """The probability table for a spreadsheet: numbers, rounded as on screen.

    A probability below what a float holds is 0 there, a weight beyond it inf; their log10
    columns keep them.
    """
    c = s.candidates
    log_w = exponential_unnormalised_log_weights(
        c.counts, s.epsilon, c.sensitivity, monotonic=s.monotonic
    )
    with np.errstate(under="ignore", over="ignore"):
        probabilities, weights = np.exp(log_p), np.exp(log_w)
    return pd.DataFrame(
        {
            _("exponential.table.candidate"): c.names,
            _("exponential.column.count"): c.counts,
            _("exponential.column.weight", exponent=_weight_exponent(s)): [
                float(f"{w:.4g}") for w in weights
            ],
            _("exponential.column.log10_weight"): np.round(log_w / LOG_10, 3),
            _("exponential.column.probability"): [float(f"{p:.4g}") for p in probabilities],
            _("exponential.column.log10"): np.round(log_p / LOG_10, 3),
            _("exponential.column.runs"): sampled,
            _("exponential.column.share", n=formatting.count(n_draws)): np.round(
                sampled / n_draws, 3
            ),
        }
    )


def table_export(s: Settings, table: pd.DataFrame, n_draws: int, runs: int, spec: dict) -> Export:
    """The probability table's export: the table, every setting, the guarantee, the chart."""
    c = s.candidates
    title = c.data.dataset.title if c.data is not None else _("exponential.export.typed")
    return Export(
        title=_("exponential.export.title", data=title),
        question=entry(PAGE).question,
        table=table,
        settings={
            _("exponential.export.dataset"): title,
            _("exponential.export.candidates"): c.origin,
            "epsilon": formatting.number(s.epsilon),
            _("exponential.export.sensitivity"): formatting.number(c.sensitivity),
            _("exponential.export.rate"): s.rate_name,
            _("exponential.export.draws"): n_draws,
            _("exponential.export.runs"): runs,
            _("exponential.export.noise"): _("exponential.export.noise_value"),
        },
        guarantee=guarantee_sentence(s),
        unit=unit_words(c.data) if c.data is not None else _("exponential.export.typed_unit"),
        charts=[("probabilities", spec)],
    )
