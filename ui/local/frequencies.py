"""The local-frequencies page's controls and sections: each person's report, the estimated
counts, GRR against unary encoding as the number of categories grows.

Every setting is in the page's address: the protocol, p and q through Streamlit's binding
(unbound, hence dropped from the address, while another protocol is chosen), ε by the shared
slider and dropped here while p and q set the protocol.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import laplace, local_estimation, unary_encoding
from dp_core import randomized_response as rr
from ui.common import charts, formatting
from ui.common.address import keep, linked_index
from ui.common.catalog import entry
from ui.common.exercises import section_exercises
from ui.common.export import Export, export_buttons
from ui.common.i18n import N_, _, n_
from ui.common.labels import category_labels
from ui.common.sections import Section, story
from ui.common.shell import (
    formula_box,
    page_rng,
    presenter_mode,
    presenter_row,
    settings_area,
    what_to_notice,
)
from ui.common.widgets import epsilon_input
from ui.local import charts as local_charts
from ui.local.exercises import EXERCISES
from ui.local.guarantee import local_guarantee_box, local_guarantee_text, local_unit
from ui.local.inputs import Respondents, pick_respondents

PAGE = "lf"  # the prefix of the page's widget keys and random streams
URL = "local_frequencies"
OWN_EXERCISES = tuple(e for e in EXERCISES if e.page == URL)  # this page's, by section
OUE, SUE, MANUAL, GRR = "oue", "sue", "manual", "grr"
PROTOCOLS = {
    OUE: N_("local.lf.protocol.oue"),
    SUE: N_("local.lf.protocol.sue"),
    MANUAL: N_("local.lf.protocol.manual"),
    GRR: N_("local.lf.protocol.grr"),
}
EPSILON_KEY = "lf_epsilon"
K_GRID = np.arange(2, 257)
SHOWN_REPORTS = 12


@dataclass(frozen=True, eq=False)
class Settings:
    """What every section of the page depends on."""

    respondents: Respondents
    protocol: str
    epsilon: float
    p: float
    q: float

    @property
    def grr(self) -> bool:
        return self.protocol == GRR

    @property
    def labels(self) -> list[str]:
        return list(self.respondents.labels)

    @property
    def true_counts(self) -> np.ndarray:
        return self.respondents.counts

    @property
    def n(self) -> int:
        """Reports: with unary encoding every person, those with no value sending the all-zero
        vector (randomized like everyone's); GRR must name a category, so only the persons
        holding one answer."""
        return int(self.true_counts.sum()) if self.grr else self.respondents.population

    @property
    def zero_vectors(self) -> int:
        """Reports that are all-zero vectors before their bits are flipped (no value)."""
        return 0 if self.grr else self.respondents.missing

    @property
    def k(self) -> int:
        return len(self.respondents.labels)


def data_controls() -> Respondents | None:
    """The data and the question's column: settings that rerun the whole page (folded on a
    projector)."""
    with settings_area():
        return _respondents()


def _respondents() -> Respondents | None:
    respondents = pick_respondents(PAGE, _("local.lf.column"), st.columns(2))
    if respondents is None:
        return None
    column = respondents.column
    if respondents.missing:
        st.caption(
            n_(
                "local.lf.missing.zeros.one",
                "local.lf.missing.zeros.other",
                respondents.missing,
                count=formatting.count(respondents.missing),
                column=column,
            )
        )
    try:
        local_estimation.check_category_counts(respondents.counts)
    except ValueError as error:
        st.error(_("local.lf.unusable", column=column, error=_category_error(error)))
        return None
    return respondents


def _category_error(error: ValueError) -> str:
    """dp_core's reason a column cannot be used, in the reader's language when known."""
    if "at least 2 categories" in str(error):
        return _("local.lf.two_categories")
    return _("local.lf.no_one")


def _probabilities(protocol: str, k: int) -> tuple[float, float, float] | None:
    """ε and the report probabilities (p, q) of the protocol; None after a message."""
    if protocol == MANUAL:
        st.query_params.pop(EPSILON_KEY, None)  # p and q set ε here: the address drops it
        left, right = st.columns(2)
        p = left.slider(
            _("local.lf.p.label"), 0.01, 0.99, 0.75, 0.01, key="lf_p", bind="query-params"
        )
        q = right.slider(
            _("local.lf.q.label"), 0.01, 0.99, 0.25, 0.01, key="lf_q", bind="query-params"
        )
        if p <= q:
            st.error(_("local.lf.p_above_q", p=formatting.number(p), q=formatting.number(q)))
            return None
        return unary_encoding.unary_encoding_epsilon(p, q), p, q
    epsilon = epsilon_input(EPSILON_KEY, default=1.0)
    if protocol == GRR:
        p, q = (float(v) for v in rr.grr_probabilities(epsilon, k))
    elif protocol == OUE:
        p, q = unary_encoding.optimized_unary_encoding(epsilon)
    else:
        p, q = unary_encoding.symmetric_unary_encoding(epsilon)
    return epsilon, p, q


@st.fragment
def explore(respondents: Respondents, sections: list[Section]) -> None:
    """The protocol, ε (or p and q), the guarantee and the open section: a fragment, so an ε
    step reruns only this."""
    keys = list(PROTOCOLS)
    controls, figures = presenter_row(5, 3)
    with controls:
        protocol = st.radio(
            _("local.lf.protocol.label"),
            keys,
            index=linked_index("lf_protocol", keys, 0),
            format_func={key: _(msgid) for key, msgid in PROTOCOLS.items()}.__getitem__,
            key="lf_protocol",
            horizontal=True,
        )
        keep("lf_protocol", protocol, keys[0])
        chosen = _probabilities(protocol, len(respondents.labels))
    if chosen is None:
        return
    s = Settings(respondents, protocol, *chosen)
    cols = figures.columns(3)
    cols[0].metric(_("local.lf.metric.epsilon"), formatting.epsilon(s.epsilon))
    cols[1].metric(
        _("local.lf.metric.p_grr") if s.grr else _("local.lf.metric.p_unary"),
        formatting.probability(s.p),
    )
    cols[2].metric(
        _("local.lf.metric.q_grr") if s.grr else _("local.lf.metric.q_unary"),
        formatting.probability(s.q),
    )
    local_guarantee_box(
        respondents.data,
        s.epsilon,
        count=s.n,
        answers=_answers(s),
        reads=respondents.reads,
    )
    story(PAGE, sections, s)


def _answers(s: Settings) -> str:
    return _("local.lf.answers.grr") if s.grr else _("local.lf.answers.unary")


def _shown_labels(s: Settings) -> list[str]:
    """The categories as the reader sees them (translated where the data's have a name)."""
    return category_labels(s.respondents.column, s.labels)


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
    rng, names = page_rng(PAGE, "reports"), _shown_labels(s)
    if s.grr:
        reported = rr.grr_perturb(rng, first, s.k, s.epsilon)
        return pd.DataFrame(
            {
                _("local.lf.reports.person"): np.arange(1, first.size + 1),
                _("local.lf.reports.true", column=s.respondents.column): [names[c] for c in first],
                _("local.lf.reports.reports"): [names[c] for c in reported],
            }
        ).set_index(_("local.lf.reports.person"))
    bits = unary_encoding.unary_perturb(rng, first, s.k, s.p, s.q)
    cells = np.where(bits, "1", "0").astype(object)
    own = np.zeros(bits.shape, dtype=bool)
    held = first >= 0
    own[np.arange(first.size)[held], first[held]] = True
    cells[own] = cells[own] + "*"
    table = pd.DataFrame(cells.T, index=names, columns=[str(i) for i in range(1, first.size + 1)])
    table.index.name = s.respondents.column
    return table


def reports(s: Settings) -> None:
    """Section 1: what one person sends, and the first respondents' reports."""
    k = s.k
    if s.grr:
        st.markdown(_("local.lf.reports.grr", k=k, others=k - 1))
    else:
        st.markdown(_("local.lf.reports.unary", k=k))
        if s.zero_vectors:
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
    if not presenter_mode():  # said aloud on a projector
        st.caption(_("local.lf.neighbours"))
    table = report_table(s)
    if s.grr:
        st.table(table)
    else:
        st.markdown(_("local.lf.reports.matrix", shown=table.shape[1]))
        st.table(table.style.map(_bit_style))
    st.caption(_("local.lf.reports.caption"))
    section_exercises(OWN_EXERCISES, "reports", s)


def _bit_style(cell: str) -> str:
    """A bit sent as 1 in bold, the person's own category shaded."""
    style = "font-weight: bold;" if cell.startswith("1") else "color: #8a97a8;"
    return style + (" background-color: rgba(31, 90, 166, 0.15);" if cell.endswith("*") else "")


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
            s.respondents.column: _shown_labels(s),
            _("local.lf.table.true"): s.true_counts,
            drawn.raw_name: drawn.raw,
            _("local.lf.table.estimate"): drawn.estimates.round(1),
            _("local.lf.table.low"): drawn.low.round(1),
            _("local.lf.table.high"): drawn.high.round(1),
            _("local.lf.table.error"): (drawn.estimates - s.true_counts).round(1),
            _("local.lf.table.expected"): drawn.expected.round(1),
        }
    )


def counts(s: Settings) -> None:
    """Section 2: true, raw and debiased counts per category, with 95% intervals."""
    n, k = s.n, s.k
    minimum = local_estimation.minimum_respondents(s.p, s.q, share_half_width=0.25)
    if n < minimum:
        st.warning(_("local.lf.few", n=formatting.count(n), minimum=formatting.count(minimum)))
    drawn = draw_counts(s)
    bars = local_charts.frequency_bars(
        _shown_labels(s),
        s.true_counts,
        drawn.raw,
        drawn.estimates,
        (drawn.high - drawn.low) / 2,
        drawn.raw_name,
    )
    charts.show(bars, key="lf_counts")
    errors = drawn.estimates - s.true_counts
    central = laplace.laplace_expected_abs_error(laplace.laplace_scale(2, s.epsilon))
    st.markdown(
        _(
            "local.lf.counts.sentence",
            n=formatting.count(n),
            k=k,
            epsilon=formatting.epsilon(s.epsilon),
            off=formatting.fixed(np.mean(np.abs(errors))),
            expected=formatting.fixed(np.mean(drawn.expected)),
            central=formatting.fixed(central, 2),
        )
    )
    if not s.grr:
        st.caption(
            _(
                "local.lf.counts.raw_sums",
                total=formatting.count(int(drawn.raw.sum())),
                n=formatting.count(n),
                k=k,
            )
        )
    table = counts_table(s, drawn)
    _counts_table(table)
    st.caption(_("local.lf.counts.caption"))
    export_buttons(URL, s.respondents.data, lambda: _export(s, table, bars), secure=False)
    section_exercises(OWN_EXERCISES, "counts", s)


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
            data, s.epsilon, count=s.n, answers=_answers(s), reads=s.respondents.reads
        ),
        unit=local_unit(data),
        charts=[("counts", bars)],
    )


@st.fragment
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


def domain_curves(n: int, epsilon: float) -> dict[str, np.ndarray]:
    """Exact standard error of a count nobody holds against k, per protocol (section 3)."""
    grid_p, grid_q = rr.grr_probabilities(epsilon, K_GRID)
    oue = unary_encoding.optimized_unary_encoding(epsilon)
    sue = unary_encoding.symmetric_unary_encoding(epsilon)
    return {
        _("local.lf.domain.grr"): np.sqrt(local_estimation.estimate_variance(0, n, grid_p, grid_q)),
        _("local.lf.domain.oue"): np.full(
            K_GRID.shape, np.sqrt(local_estimation.estimate_variance(0, n, *oue))
        ),
        _("local.lf.domain.sue"): np.full(
            K_GRID.shape, np.sqrt(local_estimation.estimate_variance(0, n, *sue))
        ),
    }


def domain_size(s: Settings) -> None:
    """Section 3: GRR against unary encoding as the number of categories grows."""
    n, epsilon = s.n, s.epsilon
    crossover = unary_encoding.grr_oue_crossover_domain_size(epsilon)
    charts.show(
        local_charts.variance_against_domain(K_GRID, domain_curves(n, epsilon), crossover, s.k),
        key="lf_domain",
    )
    better = _("local.lf.domain.better_grr") if s.k < crossover else _("local.lf.domain.better_oue")
    st.markdown(
        _(
            "local.lf.domain.sentence",
            epsilon=formatting.epsilon(epsilon),
            crossover=formatting.fixed(crossover, 1),
            k=s.k,
            better=better,
        )
    )
    st.caption(_("local.lf.domain.caption", n=formatting.count(n)))
    section_exercises(OWN_EXERCISES, "domain", s)


def sections() -> list[Section]:
    """The page's story."""
    return [
        Section("reports", _("local.lf.section.reports"), reports),
        Section("counts", _("local.lf.section.counts"), counts),
        Section("domain", _("local.lf.section.domain"), domain_size),
    ]


def closing() -> None:
    """What to notice, and the formula with its sources."""
    what_to_notice(
        [
            _("local.lf.notice.raw"),
            _("local.lf.notice.small"),
            _("local.lf.notice.which"),
            _("local.lf.notice.central"),
            _("local.lf.notice.declared"),
        ]
    )
    formula_box("local_frequencies", _formulas)


def _formulas() -> None:
    """The formulas behind the page, with their sources."""
    st.latex(
        r"\text{unary: } \varepsilon = \ln\frac{p(1-q)}{(1-p)q};\quad "
        r"\text{SUE: } p = \frac{e^{\varepsilon/2}}{e^{\varepsilon/2}+1},\ q = 1-p;\quad "
        r"\text{OUE: } p = \tfrac12,\ q = \frac{1}{e^\varepsilon+1}"
    )
    st.latex(
        r"\text{GRR: } p = \frac{e^\varepsilon}{e^\varepsilon + k - 1},\ "
        r"q = \frac{1}{e^\varepsilon + k - 1}"
    )
    st.latex(
        r"\hat n_v = \frac{C_v - n q}{p - q},\qquad \operatorname{Var}(\hat n_v) = "
        r"\frac{n_v\,p(1-p) + (n-n_v)\,q(1-q)}{(p-q)^2},\qquad "
        r"k^* = 3e^\varepsilon + 2"
    )
    st.markdown(_("local.lf.sources"))
