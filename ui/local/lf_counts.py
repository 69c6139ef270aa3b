"""Local frequencies, section 2 ("counts"): true, raw and debiased counts per category, with
95% intervals, their table and the export. The chart and the numbers in words follow ε's
thumb while it is dragged: each stop's reports are drawn from the same stream of the page's
seed (numpy's binomial draws move smoothly with p and q)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import laplace, local_estimation, unary_encoding
from dp_core import randomized_response as rr
from ui.common import charts, formatting, live
from ui.common.catalog import entry
from ui.common.exercises import section_exercises
from ui.common.export import Export, export_buttons
from ui.common.i18n import _
from ui.common.labels import column_label
from ui.common.shell import page_rng
from ui.common.turns import fragment
from ui.local import lf_charts
from ui.local.guarantee import local_guarantee_text, local_unit
from ui.local.lf_settings import (
    OWN_EXERCISES,
    PAGE,
    PROTOCOLS,
    URL,
    Settings,
    answers,
    shown_labels,
)


def counts(s: Settings) -> None:
    """Section 2: true, raw and debiased counts per category, with 95% intervals."""
    n = s.n
    minimum = local_estimation.minimum_respondents(s.p, s.q, share_half_width=0.25)
    if n < minimum:
        st.warning(_("local.lf.few", n=formatting.count(n), minimum=formatting.count(minimum)))

    @functools.cache
    def drawn_at(*epsilon: float) -> tuple[Settings, Counts]:
        """The settings at a stop of ε's slider and their draw (each is read three times)."""
        at = s.at(*epsilon)
        return at, draw_counts(at)

    sliders, depends = list(s.sliders), s.identity
    bars = live.chart(sliders, lambda *e: _bars(*drawn_at(*e)), key="lf_counts", depends=depends)
    live.text(
        sliders,
        lambda *e: _sentence(*drawn_at(*e)),
        key="lf_counts_sentence",
        depends=depends,
        style="strong",
    )
    if not s.grr:
        live.text(
            sliders,
            lambda *e: _raw_sums(*drawn_at(*e)),
            key="lf_counts_raw_sums",
            depends=depends,
            style="caption",
        )
    drawn = drawn_at(*(stops.value for stops in sliders))[1]  # the draw the chart shows
    table = counts_table(s, drawn)
    _counts_table(table)
    st.caption(_("local.lf.counts.caption"))
    export_buttons(URL, s.respondents.data, lambda: _export(s, table, bars), secure=False)
    section_exercises(OWN_EXERCISES, "counts", s)


def _bars(s: Settings, drawn: Counts) -> charts.Spec:
    """Per category: the true count, the raw sum and the debiased estimate with its interval."""
    return lf_charts.frequency_bars(
        shown_labels(s),
        s.true_counts,
        drawn.raw,
        drawn.estimates,
        (drawn.high - drawn.low) / 2,
        drawn.raw_name,
    )


def _sentence(s: Settings, drawn: Counts) -> str:
    """How far this draw's estimates are off, what is expected, and the central error."""
    central = laplace.laplace_expected_abs_error(laplace.laplace_scale(2, s.epsilon))
    return _(
        "local.lf.counts.sentence",
        n=formatting.count(s.n),
        k=s.k,
        epsilon=formatting.epsilon(s.epsilon),
        off=formatting.fixed(np.mean(np.abs(drawn.estimates - s.true_counts))),
        expected=formatting.fixed(np.mean(drawn.expected)),
        central=formatting.fixed(central, 2),
    )


def _raw_sums(s: Settings, drawn: Counts) -> str:
    """Unary encoding: the raw sums exceed n by the q-flips."""
    return _(
        "local.lf.counts.raw_sums",
        total=formatting.count(int(drawn.raw.sum())),
        n=formatting.count(s.n),
        k=s.k,
    )


@fragment
def _counts_table(table: pd.DataFrame) -> None:
    """The counts as a table, in a lazy expander (its own fragment: opening it reruns only it)."""
    box = st.expander(_("local.lf.table.label"), key="lf_table", on_change="rerun")
    if not box.open:
        return
    decimals = table.columns[3:]
    with box:
        st.dataframe(
            table,
            hide_index=True,
            width="stretch",
            column_config={c: st.column_config.NumberColumn(format="%.1f") for c in decimals},
        )


@functools.lru_cache(maxsize=4096)
def _expected_abs_error(count: int, n: int, p: float, q: float) -> float:
    """Exact E|estimate − truth| of one category's count (dp_core), kept for repeated settings."""
    return local_estimation.expected_abs_error(count, n, p, q)


@dataclass(frozen=True, eq=False)
class Counts:
    """One draw of the reports' counts and what the page computes from them."""

    raw: np.ndarray
    raw_name: str
    estimates: np.ndarray
    low: np.ndarray
    high: np.ndarray
    expected: np.ndarray


def draw_counts(s: Settings) -> Counts:
    """The reported counts from the page's seed, debiased, with 95% intervals (section 2)."""
    n, p, q = s.n, s.p, s.q
    rng, true_counts = page_rng(PAGE, "counts"), s.true_counts
    if s.grr:
        raw, raw_name = rr.grr_report_counts(rng, true_counts, s.epsilon), _("local.lf.raw.grr")
    else:
        raw = unary_encoding.unary_report_counts(rng, true_counts, p, q, n=n)
        raw_name = _("local.lf.raw.unary")
    estimates = local_estimation.debiased_count(raw, n, p, q)
    low, high = local_estimation.estimate_interval(estimates, n, p, q)
    expected = np.array([_expected_abs_error(int(c), n, p, q) for c in true_counts])
    return Counts(raw, raw_name, estimates, low, high, expected)


def counts_table(s: Settings, drawn: Counts) -> pd.DataFrame:
    """The counts per category as on screen (estimates to one decimal)."""
    return pd.DataFrame(
        {
            column_label(s.respondents.column, shipped=not s.respondents.data.own): (
                shown_labels(s)
            ),
            _("local.lf.table.true"): s.true_counts,
            drawn.raw_name: drawn.raw,
            _("local.lf.table.estimate"): drawn.estimates.round(1),
            _("local.lf.table.low"): drawn.low.round(1),
            _("local.lf.table.high"): drawn.high.round(1),
            _("local.lf.table.error"): (drawn.estimates - s.true_counts).round(1),
            _("local.lf.table.expected"): drawn.expected.round(1),
        }
    )


def _export(s: Settings, table: pd.DataFrame, bars: charts.Spec) -> Export:
    data = s.respondents.data
    settings: dict[str, object] = {
        _("local.export.dataset"): data.title,
        _("local.lf.export.column"): s.respondents.column,
        _("local.lf.export.protocol"): _(PROTOCOLS[s.protocol]),
        "epsilon": formatting.epsilon_bound(s.epsilon),
        "p": formatting.probability(s.p),
        "q": formatting.probability(s.q),
        _("local.lf.export.persons"): formatting.count(s.n),
        _("local.lf.export.categories"): s.k,
        _("local.export.noise"): _("local.export.noise.value"),
    }
    return Export(
        title=_("local.lf.export.title", data=data.title),
        question=entry(URL).question,
        table=table,
        settings=settings,
        guarantee=local_guarantee_text(
            data, s.epsilon, count=s.n, answers=answers(s), reads=s.respondents.reads
        ),
        unit=local_unit(data),
        charts=[("counts", bars)],
    )
