"""The DP choice of the bounding page's cap and bounds (dp_core.private_quantile): the cap
l0 as a quantile of the groups per person, then the clipping bounds as two quantiles of the
values so capped, on a public grid; asked, drawn once per setting, and described with where
such draws land."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from dp_core import bounding, private_quantile
from dp_core.bounding.table import ContributionTable
from ui.bounding.choices import Choices
from ui.bounding.data import PAGE, BoundingData, remembered, seed_and_draw
from ui.bounding.declared import (
    BOUND_QUANTILES,
    BOUNDS_EPSILON,
    BOUNDS_QUANTILES,
    CAP_EPSILON,
    CAP_QUANTILE,
    CAP_QUANTILES,
)
from ui.common import formatting
from ui.common.address import linked
from ui.common.i18n import _
from ui.common.shell import page_rng
from ui.common.widgets import epsilon_input

CANDIDATES = 101  # points of the public grid the DP bounds are chosen from


@dataclass(frozen=True, eq=False)
class PrivateChoice:
    """The cap and bounds chosen with DP, and where such a choice lands (for the data's owner)."""

    cap: private_quantile.PrivateCap | None
    cap_spread: private_quantile.QuantileSpread | None
    bounds: private_quantile.PrivateBounds | None
    lower_spread: private_quantile.QuantileSpread | None
    upper_spread: private_quantile.QuantileSpread | None
    cap_epsilon: float
    bounds_epsilon: float


def candidates(data: BoundingData) -> np.ndarray:
    """The DP bounds' public grid: CANDIDATES points over the bounds slider's range."""
    return np.linspace(*data.bound_range, CANDIDATES)


@dataclass(frozen=True)
class _Asked:
    """What the DP choice was asked for: ε and quantile levels, and the caps it applies."""

    cap_alpha: float | None  # None: no cap to choose (one row per person)
    cap_epsilon: float
    bound_alphas: tuple[float, float] | None  # None: no value to bound
    bounds_epsilon: float
    max_per_group: int
    pre_aggregate: bool


def _table_bound_values(
    table: ContributionTable, cap: int, asked: _Asked
) -> tuple[np.ndarray, np.ndarray, int]:
    """As _bound_values from a (weighted) contribution table: the values of each person's
    first ``cap`` units (their first linf records, or their totals), with their weights."""
    weight = np.ones(len(table.unit_group)) if table.unit_weight is None else table.unit_weight
    kept_units = table.unit_rank < cap
    if asked.pre_aggregate:
        return table.unit_total[kept_units], weight[kept_units], cap
    kept = kept_units[table.row_unit] & (table.row_rank < asked.max_per_group)
    return table.values()[kept], weight[table.row_unit][kept], cap * asked.max_per_group


def _bound_values(
    data: BoundingData, cap: int, asked: _Asked
) -> tuple[np.ndarray, np.ndarray | None, int]:
    """The values the DP bounds are read from, each person capped (first rows kept), their
    weights (None: each value once) and the most values one person has.

    Records (a person keeps cap x linf of them), or with pre-aggregation one total per
    person and kept group (cap of them). A data path reads them off its units' table.
    """
    person, group, value, frame = data.person, data.group, data.value, data.frame
    if data.units is not None:
        return _table_bound_values(data.table, cap, asked)
    if person is None:
        return frame[value].to_numpy(dtype=float), None, 1
    kept = bounding.cap_contributions(
        frame,
        person,
        group_column=group,
        max_groups_per_id=cap,
        max_per_id_per_group=None if asked.pre_aggregate else asked.max_per_group,
        order_column=data.order,
    )
    if asked.pre_aggregate:
        totals = bounding.person_group_totals(kept, person, group, value)
        return totals["total"].to_numpy(dtype=float), None, cap
    return kept[value].to_numpy(dtype=float), None, cap * asked.max_per_group


def _choose(data: BoundingData, asked: _Asked, rng_for) -> PrivateChoice:
    """The DP cap, then the DP bounds on the data capped by it; and where such draws land."""
    cap = cap_spread = bounds = lower_spread = upper_spread = None
    if asked.cap_alpha is not None:  # one value per person: k, weighted by the histogram
        contributions, persons = data.histogram.index.to_numpy(), data.histogram.to_numpy()
        quantile = {"alpha": asked.cap_alpha, "epsilon": asked.cap_epsilon, "weights": persons}
        n = len(data.labels)
        cap = private_quantile.private_cap(rng_for("cap"), contributions, max_cap=n, **quantile)
        cap_spread = private_quantile.quantile_spread(contributions, range(1, n + 1), **quantile)
    if asked.bound_alphas is not None:
        values, weights, most = _bound_values(data, cap.cap if cap else 1, asked)
        grid, (low, high) = candidates(data), asked.bound_alphas
        each = {"max_rows_per_person": most, "weights": weights}
        bounds = private_quantile.private_bounds(
            rng_for("bounds"),
            values,
            grid,
            epsilon=asked.bounds_epsilon,
            lower_alpha=low,
            upper_alpha=high,
            **each,
        )
        lower_spread, upper_spread = (
            private_quantile.quantile_spread(
                values, grid, alpha=alpha, epsilon=asked.bounds_epsilon / 2, **each
            )
            for alpha in asked.bound_alphas
        )
    return PrivateChoice(
        cap,
        cap_spread,
        bounds,
        lower_spread,
        upper_spread,
        asked.cap_epsilon,
        asked.bounds_epsilon,
    )


def _shown(levels: tuple[float, ...]) -> dict[float, str]:
    """Quantile levels as this run's language writes them (0,9 in German)."""
    return {level: formatting.number(level) for level in levels}


def _ask(data: BoundingData, choices: Choices, max_per_group: int) -> _Asked | None:
    """The ε and quantile inputs of the DP choice (None after a message)."""
    words, cols = data.words, st.columns(2)
    cap_alpha = bound_alphas = None
    cap_epsilon = bounds_epsilon = 0.0
    if data.person is not None:
        with cols[0]:
            cap_epsilon = epsilon_input(CAP_EPSILON, label=_("bounding.private.cap_epsilon"))
            cap_alpha = linked(
                CAP_QUANTILE,
                st.select_slider,
                _("bounding.private.cap_quantile", **words.nouns()),
                labels=_shown(CAP_QUANTILES),
            )
    if data.value is not None and data.table is None:
        cols[1].caption(_("bounding.private.too_many_units"))
    elif data.value is not None:
        with cols[1]:
            bounds_epsilon = epsilon_input(
                BOUNDS_EPSILON, label=_("bounding.private.bounds_epsilon")
            )
            bound_alphas = linked(
                BOUNDS_QUANTILES,
                st.select_slider,
                _("bounding.private.bounds_quantiles"),
                labels=_shown(BOUND_QUANTILES),
            )
        if bound_alphas[0] >= bound_alphas[1]:
            st.error(_("bounding.private.quantile_order"))
            return None
    return _Asked(
        cap_alpha,
        cap_epsilon,
        bound_alphas,
        bounds_epsilon,
        max_per_group,
        choices.pre_aggregate,
    )


def private_choice(
    data: BoundingData, choices: Choices, max_per_group: int
) -> PrivateChoice | None:
    """The DP cap and bounds: drawn once per setting and kept while the setting stays.

    Teaching draws come from the page's seed; a secure release draws from the operating
    system's randomness, a new draw (a new release) for each new setting.
    """
    asked = _ask(data, choices, max_per_group)
    if asked is None:
        return None

    def rng_for(part: str) -> np.random.Generator:
        return np.random.default_rng() if choices.secure else page_rng(PAGE, f"dp {part}")

    key = (data.key, asked, choices.secure, *(() if choices.secure else seed_and_draw()))
    choice = remembered("dp choice", key, lambda: _choose(data, asked, rng_for))
    _describe(data, choice)
    return choice


def _describe(data: BoundingData, choice: PrivateChoice) -> None:
    """What the DP choice picked, what it cost, and where it could have landed."""
    words, parts, g = data.words, [], formatting.significant
    if choice.cap is not None:
        spread = choice.cap_spread
        parts.append(
            _(
                "bounding.private.cap_chosen",
                cap=formatting.count(choice.cap.cap),
                epsilon=formatting.number(choice.cap_epsilon),
                low=g(spread.low),
                high=g(spread.high),
            )
        )
    if choice.bounds is not None:
        b, low, high = choice.bounds, choice.lower_spread, choice.upper_spread
        parts.append(
            _(
                "bounding.private.bounds_chosen",
                lower=g(b.lower),
                upper=g(b.upper),
                epsilon=formatting.number(choice.bounds_epsilon),
                lower_low=g(low.low),
                lower_high=g(low.high),
                upper_low=g(high.low),
                upper_high=g(high.high),
                points=formatting.count(CANDIDATES),
                start=g(data.bound_range[0]),
                end=g(data.bound_range[1]),
            )
        )
    if not parts:
        return
    st.markdown(_("bounding.private.chosen", parts=_("bounding.list_separator").join(parts)))
    note = _("bounding.private.how", **words.nouns())
    if data.data.own and choice.bounds is not None:
        note += " " + _("bounding.private.grid_own")
    st.caption(note)
