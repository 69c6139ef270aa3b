"""How the exponential-mechanism page writes its table cells (probabilities and weights from
their logs, counts, log weights) and shows a table of candidates."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from ui.common import formatting
from ui.common.i18n import _
from ui.exponential.candidates import Candidates

SHOWN = 30  # bars in a chart; the tables list every candidate
LOG_10 = math.log(10)
FLOAT_FLOOR = 1e-300  # formatting.probability_from_log writes a float down to here
WEIGHT_FIXED = 1e4  # a weight below it with 3 decimals (3.320), from it as m×10ⁿ
MANTISSA_LIMIT = 1e12  # beyond 10^(±10¹²) a float log has no digit left for a mantissa
SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")  # formatting.power_of_ten's


def power_text(log10: float, digits: int) -> str:
    """10^log10 as formatting.power_of_ten writes a power, m×10ⁿ, from its log: 6.1×10⁻²²⁸⁸.

    For a number no float holds: written as a float (6.1e-2288) it would read as one, and a
    spreadsheet would take it for 0. ``digits`` significant digits; a mantissa rounded up to
    10 carries (9.97 is 1.0×10ⁿ⁺¹). Beyond 10^(±10¹²) the log's own rounding leaves no
    digit of a mantissa, so only the power is written: 10^(−2.2×10³⁰⁶).
    """
    if abs(log10) >= MANTISSA_LIMIT:
        sign = "−" if log10 < 0 else ""
        return f"10^({sign}{power_text(math.log10(abs(log10)), 2)})"
    exponent = math.floor(log10)
    mantissa = 10 ** (log10 - exponent)
    if round(mantissa, digits - 1) >= 10:
        mantissa, exponent = 1.0, exponent + 1
    return f"{formatting.fixed(mantissa, digits - 1)}×10{str(exponent).translate(SUPERSCRIPTS)}"


def probability_text(log_p: float) -> str:
    """A probability from its log: 0.881, 4.0e-05 (formatting.probability_from_log) while a
    float holds it; below 10⁻³⁰⁰ in the power-of-ten style, 6.1×10⁻²²⁸⁸ (power_text).

    -inf is a log probability below what a float holds (λ times a gap beyond -1.8e308).
    """
    if log_p == -math.inf:
        return "< e^(−10³⁰⁸)"
    if math.exp(log_p) >= FLOAT_FLOOR:  # the test formatting.probability_from_log makes
        return formatting.probability_from_log(log_p)
    return power_text(log_p / LOG_10, 2)


def weight_text(log_w: float) -> str:
    """An unnormalised weight exp(λ·u) from its log λ·u: 3.320 (the notebook's 3 decimals);
    from 10,000 on 1.20×10⁶ or 5.03×10¹²¹ (power_text), however far beyond a float.

    inf is a log weight beyond what a float holds (λ times a count beyond 1.8e308).
    """
    if log_w == math.inf:
        return "> e^(10³⁰⁸)"
    if log_w < math.log(WEIGHT_FIXED):
        return formatting.fixed(math.exp(log_w), 3)
    return power_text(log_w / LOG_10, 3)


def lost_text(lost: float) -> str:
    """The expected count lost, as the sentence and the metric both write it."""
    return formatting.fixed(lost, 2)


def count_text(count: float) -> str:
    """A count as the table shows it: 3,510; 1e+308 (never 309 digits)."""
    return formatting.fixed(count) if count < 1e15 else formatting.number(count)


def gap_text(gap: float) -> str:
    """A log weight λ·(count − best): -11.500, -2.5e+300, -inf."""
    return formatting.fixed(gap, 3) if abs(gap) < 1e6 else formatting.significant(gap)


def show_table(
    table: pd.DataFrame, *, key: str | None = None, order: np.ndarray | None = None
) -> None:
    """A table of candidates (text cells, one row each), cheap to repaint on a slider step.

    Up to SHOWN rows: a plain HTML table (a data grid costs the browser about 0.25 s more per
    ε step). More rows: with ``order``, the SHOWN largest by it in the list's order and every
    row in a lazy expander (``key``); without, a scrollable grid.
    """
    if len(table) <= SHOWN:
        st.table(table)
        return
    if order is None or key is None:
        st.dataframe(table, width="stretch")
        return
    st.table(table.iloc[np.sort(np.argsort(-order, kind="stable")[:SHOWN])])
    box = st.expander(
        _("exponential.table.all", n=formatting.count(len(table))), key=key, on_change="rerun"
    )
    if box.open:
        with box:
            st.dataframe(table, width="stretch")


def candidate_index(c: Candidates) -> pd.Index:
    """The candidates as a table's index, in the reader's language."""
    return pd.Index(c.names, name=_("exponential.table.candidate"))
