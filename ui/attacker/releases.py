"""Section 3 of the attacker page: many releases, their total by every accounting, what the
total means to the attacker, and the averaging attack."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import attacks, composition, laplace
from ui.attacker import charts as attacker_charts
from ui.attacker.exercises import EXERCISES
from ui.attacker.settings import DELTA_PRIME, DELTA_PRIMES, K_OPTIONS, SLACK, K, Settings
from ui.attacker.totals import GENERIC, Total, composition_totals, tightest
from ui.attacker.words import common_settings, listed, posterior_caveat, whole_percent
from ui.common import charts, live
from ui.common.address import linked
from ui.common.catalog import entry
from ui.common.exercises import section_exercises
from ui.common.export import Export, export_buttons
from ui.common.formatting import count, epsilon, fixed, number, percent, significant
from ui.common.formatting import power_of_ten as format_delta
from ui.common.i18n import N_, _
from ui.common.live import Stops
from ui.common.turns import fragment

KS = np.round(np.geomspace(1, 1000, 31))  # with the k slider's stops: smooth on log-log axes
# each accounting's name (as in a sentence), what it holds for, and its source
NAMES = {
    "basic": N_("attacker.accounting.basic"),
    "advanced": N_("attacker.accounting.advanced"),
    "optimal": N_("attacker.accounting.optimal"),
    "zcdp": N_("attacker.accounting.zcdp"),
    "pld": N_("attacker.accounting.pld"),
    "gaussian": N_("attacker.accounting.gaussian"),
}
SOURCES = {
    "basic": N_("attacker.source.basic"),
    "advanced": N_("attacker.source.advanced"),
    "optimal": N_("attacker.source.optimal"),
    "zcdp": N_("attacker.source.zcdp"),
    "pld": N_("attacker.source.pld"),
    "gaussian": N_("attacker.source.gaussian"),
}


@dataclass(frozen=True)
class ReleaseSettings:
    """Section 3's settings: the page's, the number of releases k and the extra δ′."""

    page: Settings
    k: int
    delta_prime: float

    @property
    def totals(self) -> tuple[Total, ...]:
        s = self.page
        return composition_totals(s.epsilon, s.delta, self.k, self.delta_prime)


def accounting_name(key: str) -> str:
    return _(NAMES[key])


def noise_words(s: Settings) -> str:
    """The noise of one release: Laplace, b = 1/ε, or the analytic Gaussian's σ."""
    if s.sigma is None:
        return _("attacker.noise.laplace", scale=significant(laplace.laplace_scale(1, s.epsilon)))
    return _("attacker.noise.gaussian", sigma=significant(s.sigma, 4))


def _holds_for(s: Settings, key: str) -> str:
    if key in GENERIC:
        if s.pure:
            return _("attacker.holds.any_pure", epsilon=s.eps_text)
        return _("attacker.holds.any", epsilon=s.eps_text, delta=s.delta_text)
    if key == "gaussian":
        return _("attacker.holds.gaussian", noise=noise_words(s))
    return _("attacker.holds.noise", noise=noise_words(s))


def composition_table(r: ReleaseSettings) -> pd.DataFrame:
    """The totals at k as exported: total ε to 4 significant digits (empty when void)."""
    return pd.DataFrame(
        {
            _("attacker.table.accounting"): [accounting_name(t.key) for t in r.totals],
            _("attacker.table.total_epsilon"): [
                float(significant_value(t.epsilon)) for t in r.totals
            ],
            _("attacker.table.total_delta"): [float(f"{t.delta:.3g}") for t in r.totals],
            _("attacker.table.holds_for"): [_holds_for(r.page, t.key) for t in r.totals],
            _("attacker.table.source"): [_(SOURCES[t.key]) for t in r.totals],
        }
    )


def significant_value(value: float, digits: int = 4) -> float:
    """``value`` rounded to ``digits`` significant digits (NaN and ∞ kept)."""
    if not math.isfinite(value) or value == 0:
        return value
    return round(value, digits - 1 - math.floor(math.log10(abs(value))))


def _shown_table(r: ReleaseSettings) -> pd.DataFrame:
    """The same table with the numbers written in the reader's language."""
    table = composition_table(r)
    eps_column, delta_column = table.columns[1], table.columns[2]
    table[eps_column] = [epsilon(t.epsilon) for t in r.totals]
    table[delta_column] = [format_delta(t.delta) for t in r.totals]
    return table


@functools.lru_cache(maxsize=1024)
def _composed(
    eps: float, delta: float, delta_prime: float
) -> tuple[np.ndarray, composition.CompositionCurves]:
    """The chart's totals over k = 1 … 1,000 (every stop of the k slider included); exact, so
    computed once for each (ε, δ, δ′): the ε and δ sliders' stops (31 × 11) at a few δ′."""
    ks = np.unique(np.concatenate([KS, K_OPTIONS]))
    return ks, composition.compose_releases(eps, delta, ks, delta_prime)


def _composition_chart(s: Settings, k_now: int, delta_prime: float) -> charts.Spec:
    """Total ε against k by basic, advanced, optimal and (δ > 0) exact Gaussian composition,
    k marked."""
    ks, curves = _composed(s.epsilon, s.delta, delta_prime)
    return attacker_charts.composition(
        ks,
        curves.basic_epsilon,
        curves.advanced_epsilon,
        curves.optimal_epsilon,
        curves.gaussian_epsilon,
        k_now,
    )


def _controls() -> tuple[Stops, float]:
    """k (its stops, which the chart follows) and δ′, both kept in the address."""
    k_col, slack_col = st.columns([3, 2])
    with k_col:
        k_now = linked(
            K, st.select_slider, _("attacker.releases.k"), labels={k: number(k) for k in K_OPTIONS}
        )
    with slack_col:
        delta_prime = linked(
            DELTA_PRIME,
            st.select_slider,
            _("attacker.releases.delta_prime"),
            labels={d: format_delta(d) for d in DELTA_PRIMES},
            help=_("attacker.releases.delta_prime.help"),
        )
    return Stops(K.key, K_OPTIONS, K_OPTIONS.index(k_now), K.default), float(delta_prime)


@fragment
def many_releases(s: Settings) -> None:
    """Section 3: k releases by every accounting, what the total means, averaging attacks.

    A fragment: moving k or δ′ reruns this section only. The chart follows the ε, δ and k
    thumbs; the table and the sentences read the privacy-loss-distribution totals (about
    0.1 s each), too slow to draw at every stop.
    """
    st.markdown(_("attacker.releases.intro"))
    k_stops, delta_prime = _controls()
    k_now = int(k_stops.value)
    r = ReleaseSettings(s, k_now, delta_prime)
    totals = {t.key: t for t in r.totals}
    void = math.isnan(totals["advanced"].epsilon)
    if void:
        st.warning(
            _(
                "attacker.releases.void",
                total_delta=significant(totals["advanced"].delta, 3),
                k=count(k_now),
                delta=s.delta_text,
            )
        )
    st.dataframe(_shown_table(r), hide_index=True, width="stretch", key="attacker_totals")
    chart = live.chart(
        [*s.stops, k_stops],
        lambda *values: _composition_chart(s.at(*values[:-1]), int(values[-1]), delta_prime),
        key="attacker_composition",
        depends=(s.pure, delta_prime),
    )
    caption = (
        N_("attacker.releases.caption_pure") if s.pure else N_("attacker.releases.caption_delta")
    )
    st.caption(_(caption, delta_prime=format_delta(delta_prime)))
    best = None if void else _best_total(r)
    export_buttons("attacker", None, lambda: composition_export(r, chart), secure=False)
    _averaging(s, k_now, best)
    section_exercises(EXERCISES, "releases", r)


def composition_export(r: ReleaseSettings, chart: charts.Spec) -> Export:
    """Section 3's export: the totals table, the settings, the best total and the chart."""
    s = r.page
    best = tightest(r.totals)
    guarantee = (
        _(
            "attacker.guarantee.total",
            k=count(r.k),
            noise=noise_words(s),
            name=accounting_name(best.key),
            total=epsilon(best.epsilon),
            total_delta=format_delta(best.delta),
        )
        if best is not None
        else _("attacker.guarantee.total_void", k=count(r.k))
    )
    return Export(
        title=_("attacker.export.releases.title"),
        question=entry("attacker").question,
        table=composition_table(r),
        settings={
            **common_settings(s),
            _("attacker.export.k"): number(r.k),
            _("attacker.export.delta_prime"): format_delta(r.delta_prime),
            _("attacker.export.noise"): noise_words(s),
        },
        guarantee=guarantee,
        unit=_("attacker.export.unit"),
        charts=[("composition", chart)],
    )


# The best total for any mechanism, by whether it is optimal composition's (which randomized
# response reaches) and whether another one ties it at a larger δ (message ids).
BEST = {
    (False, False): N_("attacker.best.generic"),
    (False, True): N_("attacker.best.generic_tie"),
    (True, False): N_("attacker.best.optimal"),
    (True, True): N_("attacker.best.optimal_tie"),
}


def _best_total(r: ReleaseSettings) -> Total:
    """Which accounting wins for any mechanism and for this noise, why advanced composition may
    lose, and what the total means to the attacker; returns the best total for this noise."""
    s, k = r.page, count(r.k)
    generic = tightest(r.totals, GENERIC)
    best = tightest(r.totals)
    smaller = [t for t in r.totals if t.key in GENERIC and t.epsilon < generic.epsilon]
    values = {
        "k": k,
        "mechanisms": _holds_for(s, "basic"),
        "name": accounting_name(generic.key),
        "total": epsilon(generic.epsilon),
        "total_delta": format_delta(generic.delta),
    }
    if smaller:
        values["names"] = listed([accounting_name(t.key) for t in smaller])
    best_id = BEST[generic.key == "optimal", bool(smaller)]
    st.markdown(_(best_id, **values))
    if best.key not in GENERIC:
        st.markdown(
            _(
                "attacker.best.noise",
                noise=noise_words(s),
                name=accounting_name(best.key),
                total=epsilon(best.epsilon),
                total_delta=format_delta(best.delta),
            )
        )
    _advanced_caption(s, r)
    _meaning(s, r, best)
    return best


# Advanced composition below or above k·ε, and whether it can ever beat it (ε < ln 2).
ADVANCED = {
    (True, True): N_("attacker.advanced.below_crossover"),
    (True, False): N_("attacker.advanced.below_never"),
    (False, True): N_("attacker.advanced.above_crossover"),
    (False, False): N_("attacker.advanced.above_never"),
}


def _advanced_caption(s: Settings, r: ReleaseSettings) -> None:
    """Why advanced composition is above or below k·ε here."""
    totals = {t.key: t for t in r.totals}
    below = totals["advanced"].epsilon < totals["basic"].epsilon
    crossover = composition.advanced_composition_crossover(s.epsilon, r.delta_prime)
    if not math.isfinite(crossover):
        st.caption(_(ADVANCED[below, False]))
        return
    st.caption(_(ADVANCED[below, True], crossover=fixed(crossover, 1)))


def _meaning(s: Settings, r: ReleaseSettings, best: Total) -> None:
    """What the best total means to the attacker (section 1 at the total ε)."""
    total_chance = attacks.loss_excess_probability(best.delta, SLACK)
    if s.certain:
        return
    if best.delta == 0 or total_chance < 1:
        exact = best.delta == 0
        holding = best.epsilon if exact else best.epsilon + SLACK
        total_high = percent(float(attacks.posterior_bounds(s.prior, holding)[1]))
        if exact:
            text = _(
                "attacker.meaning.pure",
                prior=whole_percent(s.prior),
                k=count(r.k),
                high=total_high,
            )
        else:
            text = _(
                "attacker.meaning.delta",
                prior=whole_percent(s.prior),
                k=count(r.k),
                high=total_high,
                chance=format_delta(total_chance),
                slack_epsilon=significant(best.epsilon + SLACK, 4),
            )
        st.markdown(text)
    if best.delta > 0:
        st.caption(posterior_caveat(s.prior, best.epsilon, best.delta, scope="total"))


def _averaging(s: Settings, k_now: int, best: Total | None) -> None:
    """The averaging attack: the noise on the mean of k answers and what it gives away."""
    st.subheader(_("attacker.averaging.title"))
    sigma = s.sigma
    k = count(k_now)
    if sigma is not None:
        one, one_label = sigma, _("attacker.averaging.one_gaussian")
    else:
        one = laplace.laplace_std(laplace.laplace_scale(1, s.epsilon))
        one_label = _("attacker.averaging.one_laplace")
    averaged = one / math.sqrt(k_now)
    cols = st.columns(3)
    cols[0].metric(one_label, significant(one, 4))
    cols[1].metric(_("attacker.averaging.average", k=k), significant(averaged, 4))
    if sigma is not None:
        averaged_adv = float(attacks.gaussian_advantage(math.sqrt(k_now) / sigma))
        one_accuracy = float(attacks.attacker_accuracy(attacks.gaussian_advantage(1 / sigma)))
        cols[2].metric(
            _("attacker.averaging.accuracy", k=k),
            percent(float(attacks.attacker_accuracy(averaged_adv))),
            delta=_("attacker.averaging.one_answer", accuracy=percent(one_accuracy)),
            delta_color="off",
            delta_arrow="off",
        )
    elif best is not None:
        advantage = attacks.best_advantage(best.epsilon, best.delta)
        cols[2].metric(
            _("attacker.averaging.any_test", k=k),
            percent(float(attacks.attacker_accuracy(advantage))),
            delta=_("attacker.averaging.from_total", total=epsilon(best.epsilon)),
            delta_color="off",
            delta_arrow="off",
        )
    caption = (
        N_("attacker.averaging.caption_gaussian")
        if sigma is not None
        else N_("attacker.averaging.caption_laplace")
    )
    st.caption(_(caption, root=significant(math.sqrt(k_now), 3)))
