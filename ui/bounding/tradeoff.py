"""Section 3 of the bounding page: the expected error of every cap and every bound, the best
starred (dp_core.bounding.search: exact bias, selection spread and noise, no sampling)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dp_core.bounding import Bounding
from dp_core.bounding import search as bounding_search
from dp_core.bounding.noise import NoisePlan
from dp_core.bounding.table import ContributionTable
from ui.bounding import charts as bounding_charts
from ui.bounding.data import PAGE
from ui.bounding.declared import TRADEOFF_BOUND, TRADEOFF_STATISTIC
from ui.bounding.exercises import EXERCISES
from ui.bounding.settings import Settings
from ui.bounding.words import capitalised
from ui.common import charts, formatting
from ui.common.address import linked
from ui.common.exercises import section_exercises
from ui.common.i18n import _


@st.cache_data(show_spinner=False, max_entries=32)
def _best_bounds(
    key: tuple, bounds: Bounding, plan: NoisePlan, grid: tuple, _table: ContributionTable
) -> tuple[float, float, float]:
    """The best pair (L, U) over the grid (dp_core.bounding.search.best_bounds)."""
    return bounding_search.best_bounds(_table, bounds, plan, lowers=grid, uppers=grid)


def _spread(s: Settings, which: str) -> tuple[float, float, float, str] | None:
    """The DP choice of the cap, L or U, and the range holding 90% of such draws."""
    p = s.private
    if p is None or (p.cap if which == "cap" else p.bounds) is None:
        return None
    label = _("bounding.tradeoff.spread")
    if which == "cap":  # a band one cap wide around each whole number
        return p.cap.cap, p.cap_spread.low - 0.5, p.cap_spread.high + 0.5, label
    spread = p.lower_spread if which == "lower" else p.upper_spread
    chosen = p.bounds.lower if which == "lower" else p.bounds.upper
    return chosen, spread.low, spread.high, label


def cap_summary(s: Settings, statistic: str, plan: NoisePlan) -> tuple[np.ndarray, object]:
    """Every cap 1..n and its expected errors (bias, selection sd, noise sd, RMSE)."""
    caps = np.arange(1, s.n_groups + 1)
    return caps, bounding_search.cap_tradeoff(s.table, statistic, s.bounding, plan, caps=caps)


def _cap_tradeoff(s: Settings, statistic: str, y_title: str) -> None:
    w, b = s.words, s.bounding
    nouns = w.nouns()
    caps, by_cap = cap_summary(s, statistic, s.plan)
    best, best_rmse = bounding_search.best_setting(by_cap, caps)
    charts.show(
        bounding_charts.tradeoff(
            "cap",
            by_cap,
            "cap",
            best=(best, best_rmse, _("bounding.tradeoff.best", value=formatting.number(best))),
            current=(b.max_groups, f"{s.current_label}: {b.max_groups}"),
            private=_spread(s, "cap"),
            with_selection=bool(by_cap["selection_std"].any()),
            x_title=_("bounding.tradeoff.cap_axis", **nouns),
            y_title=y_title,
            caps=True,
        ),
        key=f"{PAGE}_cap_tradeoff",
    )
    mine = float(by_cap.loc[by_cap["cap"] == b.max_groups, "rmse"].iloc[0])
    who = (
        _("bounding.tradeoff.who_dp")
        if s.private and s.private.cap
        else _("bounding.tradeoff.yours")
    )
    st.markdown(
        _(
            "bounding.tradeoff.best_cap",
            best=formatting.count(best),
            rmse=formatting.readable(best_rmse),
            who=who,
            cap=formatting.count(b.max_groups),
            mine=formatting.readable(mine),
            **nouns,
        )
    )
    if not s.plan.joint:
        st.caption(capitalised(_("bounding.tradeoff.sequential_note", **nouns)))
    section_exercises(EXERCISES, "tradeoff", s)


def _side(s: Settings, bound: str) -> tuple[np.ndarray, object, float, str]:
    """One bound's values (the other held), their expected errors, the bound in use, and the
    other bound as the chart names it."""
    b, g = s.bounding, formatting.significant
    lower, upper = b.lower, b.upper
    if bound == "upper":
        values = np.linspace(lower, lower + 2 * (upper - lower), 101)[1:]
        summary = bounding_search.upper_tradeoff(s.table, b, s.plan, uppers=values)
        return values, summary, upper, f"L = {g(lower, 6)}"
    values = np.linspace(upper - 2 * (upper - lower), upper, 101)[:-1]
    summary = bounding_search.lower_tradeoff(s.table, b, s.plan, lowers=values)
    # from the largest L down, so that on a tie the narrowest bounds win
    return values[::-1], summary.iloc[::-1], lower, f"U = {g(upper, 6)}"


def _bounds_tradeoff(s: Settings, y_title: str) -> None:
    w, b, data = s.words, s.bounding, s.data
    g = formatting.significant
    grid = np.linspace(*data.bound_range, 51 if len(s.table.unit_group) <= 20_000 else 21)
    pair_lower, pair_upper, pair_rmse = _best_bounds(data.key, b, s.plan, tuple(grid), s.table)
    sides = {"upper": _("bounding.tradeoff.side.upper"), "lower": _("bounding.tradeoff.side.lower")}
    bound = linked(
        TRADEOFF_BOUND, st.radio, _("bounding.tradeoff.side"), labels=sides, horizontal=True
    )
    values, summary, current, other = _side(s, bound)
    if bound == "upper":
        pair = (pair_upper, f"L = {g(pair_lower, 4)}")
    else:
        pair = (pair_lower, f"U = {g(pair_upper, 4)}")
    best, best_rmse = bounding_search.best_setting(summary, values)
    charts.show(
        bounding_charts.tradeoff(
            "bound",
            summary,
            bound,
            best=(best, best_rmse, _("bounding.tradeoff.best", value=g(best, 4))),
            current=(current, f"{s.current_label}: {g(current, 4)}"),
            pair=(pair[0], pair_rmse, _("bounding.tradeoff.pair_label", other=pair[1])),
            private=_spread(s, bound),
            with_selection=bool(summary["selection_std"].any()),
            x_title=_("bounding.tradeoff.upper_axis", column=data.value)
            if bound == "upper"
            else _("bounding.tradeoff.lower_axis", column=data.value),
            y_title=y_title,
            caps=False,
        ),
        key=f"{PAGE}_bound_tradeoff",
    )
    best_text = (
        _("bounding.tradeoff.best_upper", value=g(best, 4))
        if bound == "upper"
        else _("bounding.tradeoff.best_lower", value=g(best, 4))
    )
    st.markdown(
        best_text
        + " "
        + _(
            "bounding.tradeoff.best_bounds",
            rmse=formatting.readable(best_rmse),
            other=other,
            cap=formatting.count(b.max_groups),
            lower=g(pair_lower, 4),
            upper=g(pair_upper, 4),
            pair_rmse=formatting.readable(pair_rmse),
            size=formatting.count(grid.size),
            start=g(grid[0], 6),
            end=g(grid[-1], 6),
            **w.nouns(),
        )
    )


@st.fragment
def bias_against_noise(s: Settings) -> None:
    """Section 3: the expected error of every cap and every bound, the best starred."""
    w = s.words
    if s.table is None:
        st.info(_("bounding.too_many_units"))
        return
    chosen = linked(  # the sums when there are any, else the counts (the options' first)
        TRADEOFF_STATISTIC,
        st.radio,
        _("bounding.tradeoff.statistic"),
        labels=s.statistics,
        horizontal=True,
    )
    y_title = _("bounding.tradeoff.y", **w.nouns())
    if s.data.person is not None:
        _cap_tradeoff(s, chosen, y_title)
    if chosen == "sum":
        _bounds_tradeoff(s, y_title)
    gaussian = s.plan.mechanism == "gaussian"
    private = _("bounding.tradeoff.private_note") if s.private else _("bounding.tradeoff.or_dp")
    st.caption(
        _(
            "bounding.tradeoff.caption",
            noise=_("bounding.tradeoff.noise_gaussian")
            if gaussian
            else _("bounding.tradeoff.noise_laplace"),
            private=private,
        )
    )
