"""Section 3 of the bounding page: the expected error of every cap and every bound, the best
starred (dp_core.bounding.search: exact bias, selection spread and noise, no sampling)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from dp_core.bounding import Bounding, release_sensitivity
from dp_core.bounding import search as bounding_search
from dp_core.bounding.error import noise_std_by_cap
from dp_core.bounding.noise import NoisePlan, group_noise
from dp_core.bounding.table import ContributionTable
from ui.bounding import charts as bounding_charts
from ui.bounding.data import PAGE, remembered
from ui.bounding.declared import TRADEOFF_BOUND, TRADEOFF_STATISTIC
from ui.bounding.exercises import EXERCISES
from ui.bounding.settings import Settings
from ui.bounding.words import capitalised
from ui.common import charts, formatting, live
from ui.common.address import linked
from ui.common.exercises import section_exercises
from ui.common.i18n import _
from ui.common.turns import fragment

# Any plan: the bias and the spread of the random choice do not depend on the noise. One with
# almost none keeps the (L, U) grid's RMSE² − noise² (its bias² + spread²) exact to rounding.
NOISELESS = NoisePlan(1e6)


def _noise_unit(s: Settings) -> float:
    """The noise sd of one group's sum per unit of max(|L|, |U|), at the settings' plan: the
    sum's sensitivity, hence its noise, is proportional to it (dp_core.bounding.search)."""
    unit = release_sensitivity("sum", s.bounding.with_bounds(0.0, 1.0))
    return group_noise(unit, s.plan, max_groups=s.bounding.max_groups, n_groups=s.n_groups).std


def _with_noise(parts: pd.DataFrame, noise: np.ndarray) -> pd.DataFrame:
    """A trade-off table (setting, bias, selection_std) with its noise sd and
    RMSE = √(bias² + selection sd² + noise sd²) (dp_core.bounding.error.error_summary)."""
    columns = {name: parts[name].to_numpy() for name in parts.columns}  # numpy: one per stop
    rmse = np.sqrt(columns["bias"] ** 2 + columns["selection_std"] ** 2 + noise**2)
    return pd.DataFrame({**columns, "noise_std": noise, "rmse": rmse})


@st.cache_data(show_spinner=False, max_entries=32)
def _grid_bias_and_spread(
    key: tuple, bounds: Bounding, grid: tuple, _table: ContributionTable
) -> np.ndarray:
    """bias² + selection variance (mean over groups) of the sums for every (L, U) of the grid:
    dp_core.bounding.search.bounds_rmse_grid's RMSE² less its noise² (inf where L >= U)."""
    rmse = bounding_search.bounds_rmse_grid(_table, bounds, NOISELESS, lowers=grid, uppers=grid)
    unit = release_sensitivity("sum", bounds.with_bounds(0.0, 1.0))
    n_groups = len(_table.groups)
    noise = group_noise(unit, NOISELESS, max_groups=bounds.max_groups, n_groups=n_groups).std
    values = np.abs(np.asarray(grid))
    return rmse**2 - (noise * np.maximum(values[:, None], values[None, :])) ** 2


def _best_pair(
    s: Settings, grid: np.ndarray, mean_square: np.ndarray
) -> tuple[float, float, float]:
    """The pair (L, U) with the smallest RMSE on the grid at the settings' noise, and it (the
    smallest L, then U, on ties: dp_core.bounding.search.best_bounds)."""
    values = np.abs(grid)
    noise = _noise_unit(s) * np.maximum(values[:, None], values[None, :])
    rmse = np.sqrt(np.maximum(mean_square, 0.0) + noise**2)
    i, j = np.unravel_index(int(np.argmin(rmse)), rmse.shape)
    return float(grid[i]), float(grid[j]), float(rmse[i, j])


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


def _cap_parts(s: Settings, statistic: str) -> tuple[np.ndarray, pd.DataFrame]:
    """Every cap 1..n and its bias and selection sd (dp_core.bounding.search.cap_tradeoff),
    kept while the data, caps and bounds stay: an ε or δ step changes only the noise."""
    caps = np.arange(1, s.n_groups + 1)
    parts = remembered(
        "cap_parts",
        (s.data.key, s.bounding, statistic),
        lambda: bounding_search.cap_tradeoff(s.table, statistic, s.bounding, NOISELESS, caps=caps)[
            ["cap", "bias", "selection_std"]
        ],
    )
    return caps, parts


def cap_summary(s: Settings, statistic: str) -> tuple[np.ndarray, pd.DataFrame]:
    """Every cap 1..n and its expected errors (bias, selection sd, noise sd, RMSE) at the
    settings' noise."""
    caps, parts = _cap_parts(s, statistic)
    noise = noise_std_by_cap(s.table, statistic, s.bounding, s.plan, caps)
    return caps, _with_noise(parts, noise)


def _cap_tradeoff(s: Settings, statistic: str, y_title: str) -> None:
    """The expected error of every cap, the best starred, following the ε and δ thumbs."""
    w, b = s.words, s.bounding
    nouns = w.nouns()
    who = (
        _("bounding.tradeoff.who_dp")
        if s.private and s.private.cap
        else _("bounding.tradeoff.yours")
    )

    @functools.cache
    def at(*values: float) -> tuple[pd.DataFrame, float, float]:
        """Every cap's errors, the best cap and its RMSE, at a stop (the chart's and the
        sentence's)."""
        caps, by_cap = cap_summary(s.at(*values), statistic)
        return by_cap, *bounding_search.best_setting(by_cap, caps)

    current, private = (b.max_groups, f"{s.current_label}: {b.max_groups}"), _spread(s, "cap")
    x_title = _("bounding.tradeoff.cap_axis", **nouns)

    def chart(*values: float) -> charts.Spec:
        by_cap, best, best_rmse = at(*values)
        return bounding_charts.tradeoff(
            "cap",
            by_cap,
            "cap",
            best=(best, best_rmse, _("bounding.tradeoff.best", value=formatting.number(best))),
            current=current,
            private=private,
            with_selection=bool(by_cap["selection_std"].any()),
            x_title=x_title,
            y_title=y_title,
            caps=True,
        )

    def sentence(*values: float) -> str:
        by_cap, best, best_rmse = at(*values)
        mine = float(by_cap.loc[by_cap["cap"] == b.max_groups, "rmse"].iloc[0])
        return _(
            "bounding.tradeoff.best_cap",
            best=formatting.count(best),
            rmse=formatting.readable(best_rmse),
            who=who,
            cap=formatting.count(b.max_groups),
            mine=formatting.readable(mine),
            **nouns,
        )

    depends = (s.identity, statistic, y_title)
    live.chart(s.stops, chart, key=f"{PAGE}_cap_tradeoff", depends=depends)
    live.text(s.stops, sentence, key=f"{PAGE}_best_cap", depends=depends)
    if not s.plan.joint:
        st.caption(capitalised(_("bounding.tradeoff.sequential_note", **nouns)))
    section_exercises(EXERCISES, "tradeoff", s)


def _side(s: Settings, bound: str) -> tuple[np.ndarray, pd.DataFrame, np.ndarray, float, str]:
    """One bound's values (the other held), their bias and selection sd, their max(|L|, |U|)
    (the noise's multiple of ``_noise_unit``), the bound in use, and the other bound as the
    chart names it."""
    b, g = s.bounding, formatting.significant
    lower, upper = b.lower, b.upper
    key = (s.data.key, b, bound)
    columns = [bound, "bias", "selection_std"]
    if bound == "upper":
        values = np.linspace(lower, lower + 2 * (upper - lower), 101)[1:]
        parts = remembered(
            "bound_parts",
            key,
            lambda: bounding_search.upper_tradeoff(s.table, b, NOISELESS, uppers=values)[columns],
        )
        return values, parts, np.maximum(abs(lower), np.abs(values)), upper, f"L = {g(lower, 6)}"
    values = np.linspace(upper - 2 * (upper - lower), upper, 101)[:-1]
    parts = remembered(
        "bound_parts",
        key,
        lambda: bounding_search.lower_tradeoff(s.table, b, NOISELESS, lowers=values)[columns],
    )
    # from the largest L down, so that on a tie the narrowest bounds win
    values = values[::-1]
    scale = np.maximum(np.abs(values), abs(upper))
    return values, parts.iloc[::-1], scale, lower, f"U = {g(upper, 6)}"


def _bounds_tradeoff(s: Settings, y_title: str) -> None:
    """The expected error of every upper (or lower) bound, the best starred and the best pair
    a diamond, following the ε and δ thumbs."""
    data = s.data
    grid = np.linspace(*data.bound_range, 51 if len(s.table.unit_group) <= 20_000 else 21)
    mean_square = _grid_bias_and_spread(data.key, s.bounding, tuple(grid), s.table)
    sides = {"upper": _("bounding.tradeoff.side.upper"), "lower": _("bounding.tradeoff.side.lower")}
    bound = linked(
        TRADEOFF_BOUND, st.radio, _("bounding.tradeoff.side"), labels=sides, horizontal=True
    )
    values, parts, scale, current, other = _side(s, bound)
    at = _bound_errors(s, values, parts, scale, grid, mean_square)
    chart = _bound_chart(s, bound, at, current, y_title)
    sentence = _bound_sentence(s, bound, at, other, grid)
    depends = (s.identity, bound, y_title)
    live.chart(s.stops, chart, key=f"{PAGE}_bound_tradeoff", depends=depends)
    live.text(s.stops, sentence, key=f"{PAGE}_best_bound", depends=depends)


# A bound's errors at a stop: the side's table, its best value and RMSE, and the best pair
# (L, U, RMSE).
_BoundErrors = tuple[pd.DataFrame, float, float, tuple[float, float, float]]


def _bound_errors(
    s: Settings,
    values: np.ndarray,
    parts: pd.DataFrame,
    scale: np.ndarray,
    grid: np.ndarray,
    mean_square: np.ndarray,
) -> Callable[..., _BoundErrors]:
    """The side's errors at a stop of the ε and δ sliders (``_side``'s values, parts and
    scale), kept for the chart and the sentence."""

    @functools.cache
    def at(*values_: float) -> _BoundErrors:
        """The side's errors, its best value and RMSE, and the best pair, at a stop."""
        moved = s.at(*values_)
        summary = _with_noise(parts, _noise_unit(moved) * scale)
        best, best_rmse = bounding_search.best_setting(summary, values)
        return summary, best, best_rmse, _best_pair(moved, grid, mean_square)

    return at


def _bound_chart(
    s: Settings, bound: str, at: Callable[..., _BoundErrors], current: float, y_title: str
) -> Callable[..., charts.Spec]:
    """The side's trade-off chart at a stop: the bound in use dashed, the best starred, the
    best pair a diamond, the DP choice's band."""
    g = formatting.significant
    marked, private = (current, f"{s.current_label}: {g(current, 4)}"), _spread(s, bound)
    x_title = (
        _("bounding.tradeoff.upper_axis", column=s.data.value)
        if bound == "upper"
        else _("bounding.tradeoff.lower_axis", column=s.data.value)
    )

    def chart(*values_: float) -> charts.Spec:
        summary, best, best_rmse, (pair_lower, pair_upper, pair_rmse) = at(*values_)
        if bound == "upper":
            pair = (pair_upper, f"L = {g(pair_lower, 4)}")
        else:
            pair = (pair_lower, f"U = {g(pair_upper, 4)}")
        return bounding_charts.tradeoff(
            "bound",
            summary,
            bound,
            best=(best, best_rmse, _("bounding.tradeoff.best", value=g(best, 4))),
            current=marked,
            pair=(pair[0], pair_rmse, _("bounding.tradeoff.pair_label", other=pair[1])),
            private=private,
            with_selection=bool(summary["selection_std"].any()),
            x_title=x_title,
            y_title=y_title,
            caps=False,
        )

    return chart


def _bound_sentence(
    s: Settings, bound: str, at: Callable[..., _BoundErrors], other: str, grid: np.ndarray
) -> Callable[..., str]:
    """The side's best value and the best pair on the grid, in words, at a stop."""
    g, nouns = formatting.significant, s.words.nouns()

    def sentence(*values_: float) -> str:
        _summary, best, best_rmse, (pair_lower, pair_upper, pair_rmse) = at(*values_)
        best_text = (
            _("bounding.tradeoff.best_upper", value=g(best, 4))
            if bound == "upper"
            else _("bounding.tradeoff.best_lower", value=g(best, 4))
        )
        return (
            best_text
            + " "
            + _(
                "bounding.tradeoff.best_bounds",
                rmse=formatting.readable(best_rmse),
                other=other,
                cap=formatting.count(s.bounding.max_groups),
                lower=g(pair_lower, 4),
                upper=g(pair_upper, 4),
                pair_rmse=formatting.readable(pair_rmse),
                size=formatting.count(grid.size),
                start=g(grid[0], 6),
                end=g(grid[-1], 6),
                **nouns,
            )
        )

    return sentence


@fragment
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
