"""Local frequencies, section 1 ("reports"): what one person sends, and the first
respondents' reports."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import randomized_response as rr
from dp_core import unary_encoding
from ui.common import formatting
from ui.common.exercises import section_exercises
from ui.common.i18n import _, n_
from ui.common.labels import column_label
from ui.common.shell import on_a_phone, page_rng, presenter_mode
from ui.local.lf_settings import OWN_EXERCISES, PAGE, SHOWN_REPORTS, Settings, shown_labels


def reports(s: Settings) -> None:
    """Section 1: what one person sends, and the first respondents' reports. On a phone the
    tables follow the first sentence; what explains them further comes after them."""
    k, phone = s.k, on_a_phone()
    if s.grr:
        st.markdown(_("local.lf.reports.grr", k=k, others=k - 1))
    else:
        st.markdown(_("local.lf.reports.unary", k=k))
    if not phone:
        _context(s)
    table = report_table(s)
    if s.grr:
        st.table(table)
    else:
        _one_hot(s, sentence_first=not phone)
        st.markdown(_("local.lf.reports.matrix", shown=table.shape[1]))
        st.table(table.style.map(_bit_style))
    st.caption(_("local.lf.reports.caption"))
    if phone:
        _context(s)
    section_exercises(OWN_EXERCISES, "reports", s)


def _context(s: Settings) -> None:
    """The reports of persons holding no category, and the neighbouring datasets: said aloud
    on a projector."""
    if presenter_mode():
        return
    if not s.grr and s.zero_vectors:
        st.markdown(
            n_(
                "local.lf.reports.zeros.one",
                "local.lf.reports.zeros.other",
                s.zero_vectors,
                count=formatting.count(s.zero_vectors),
                column=s.respondents.column,
                reports=formatting.count(s.n),
            )
        )
    st.caption(_("local.lf.neighbours"))


def report_table(s: Settings) -> pd.DataFrame:
    """The first respondents' reports, as on screen.

    GRR: one row per person, their true category and the one they report. Unary encoding: one
    row per category and one column per person (1 = the bit is sent as 1), so k bits fit the
    page's width whatever the categories' names; the person's own category is marked "1*" /
    "0*" (their bit before flipping was 1). A person with no value sends the all-zero vector,
    flipped the same way: none of their cells is marked.
    """
    codes = s.respondents.codes
    first = codes[codes >= 0][:SHOWN_REPORTS] if s.grr else codes[:SHOWN_REPORTS]
    names = shown_labels(s)
    if s.grr:
        reported = rr.grr_perturb(page_rng(PAGE, "reports"), first, s.k, s.epsilon)
        return pd.DataFrame(
            {
                _("local.lf.reports.person"): np.arange(1, first.size + 1),
                _("local.lf.reports.true", column=_column(s)): [names[c] for c in first],
                _("local.lf.reports.reports"): [names[c] for c in reported],
            }
        ).set_index(_("local.lf.reports.person"))
    bits = _sent_bits(s)
    cells = np.where(bits, "1", "0").astype(object)
    own = np.zeros(bits.shape, dtype=bool)
    held = first >= 0
    own[np.arange(first.size)[held], first[held]] = True
    cells[own] = cells[own] + "*"
    table = pd.DataFrame(cells.T, index=names, columns=[str(i) for i in range(1, first.size + 1)])
    table.index.name = _column(s)
    return table


def _sent_bits(s: Settings) -> np.ndarray:
    """The bits the first SHOWN_REPORTS persons send under unary encoding, (persons, k)."""
    first = s.respondents.codes[:SHOWN_REPORTS]
    return unary_encoding.unary_perturb(page_rng(PAGE, "reports"), first, s.k, s.p, s.q)


def _one_hot(s: Settings, sentence_first: bool) -> None:
    """The first person holding a category: their answer's one-hot vector (dp_core's
    ``unary_encode``) under the categories' names, and the bits they send (the matrix's column);
    the sentence saying so above the table or below it."""
    first = s.respondents.codes[:SHOWN_REPORTS]
    held = np.flatnonzero(first >= 0)
    if not held.size:
        return
    person, names = int(held[0]), shown_labels(s)
    value, label = names[first[person]], s.labels[first[person]]  # as written, as in the data
    encoded = unary_encoding.unary_encode(first[person : person + 1], s.k)[0]
    sent = _sent_bits(s)[person]
    sentence = _(
        "local.lf.reports.encode",
        person=person + 1,
        value=value,
        label=label,
        bits=", ".join(str(int(bit)) for bit in encoded),
    )
    if sentence_first:
        st.markdown(sentence)
    rows = [
        _("local.lf.reports.encoded", label=label),
        _("local.lf.reports.sent", person=person + 1),
    ]
    cells = np.where(np.array([encoded, sent]), "1", "0")
    st.table(pd.DataFrame(cells, index=rows, columns=names).style.map(_bit_style))
    if not sentence_first:
        st.markdown(sentence)


def _column(s: Settings) -> str:
    """The respondents' column as the table's header writes it (in the reader's language)."""
    return column_label(s.respondents.column, shipped=not s.respondents.data.own)


def _bit_style(cell: str) -> str:
    """A bit sent as 1 in bold, a 0 in a lighter grey that still reads at 4.5:1 (WCAG 1.4.3:
    #5b6270, 6.1:1 on white, 4.9:1 on the own category's shade), the own category shaded."""
    style = "font-weight: bold;" if cell.startswith("1") else "color: #5b6270;"
    return style + (" background-color: rgba(31, 90, 166, 0.15);" if cell.endswith("*") else "")
