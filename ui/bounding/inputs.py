"""The bounding page's inputs: the data and how to speak of it, the noise plan, and the bounds.

``data_controls`` (they rerun the whole page): the dataset, the user's CSV or a data path
(read where it lies by DuckDB or Spark: its released groups reduced by the engine to distinct
contribution units, data.sources.contribution_units), the group and value columns, the
released groups (public, declared or DP-selected), the noise, the plan, the selection,
pre-aggregation, and the two switches (DP cap and bounds, secure release).
``bounds_controls`` (in the page's fragment): the caps l0 and linf and the clipping bounds,
from sliders or chosen with DP quantiles (dp_core.private_quantile).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Literal, TypeVar

import numpy as np
import pandas as pd
import streamlit as st

from data import sources
from data.registry import MAX_CATEGORIES
from dp_core import bounding, domains, private_quantile
from dp_core.bounding import Bounding
from dp_core.bounding.table import (
    ContributionTable,
    contribution_table,
    weighted_contribution_table,
)
from ui.bounding.words import Words, capitalised
from ui.common import formatting
from ui.common.address import linked_choice
from ui.common.categories import Categories, mode_key, pick_categories
from ui.common.data_picker import DataChoice, about, pick_data
from ui.common.errors import translated
from ui.common.i18n import N_, _
from ui.common.labels import category_labels
from ui.common.release import secure_toggle
from ui.common.shell import DEFAULT_SEED, page_rng, presenter_mode
from ui.common.widgets import epsilon_input

T = TypeVar("T")
PAGE = "bounding"
NOISES = {
    "laplace": N_("bounding.noise.laplace"),
    "gaussian": N_("bounding.noise.gaussian"),
}
CANDIDATES = 101  # points of the public grid the DP bounds are chosen from
CAP_QUANTILES = [0.5, 0.75, 0.8, 0.9, 0.95, 0.99]
BOUND_QUANTILES = [0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.98, 0.99]
SELECTION_L0 = 1  # choosing the groups with DP: each person counts in their first group


@dataclass(frozen=True)
class Preset:
    """A shipped dataset's columns and words (the person column: None, one row per person)."""

    person: str | None
    group: str
    value: str
    order: str | None
    words: Words


PRESETS = {
    "restaurant": Preset("visitor_id", "day", "money_spent", "day", Words("restaurant", True)),
    "census": Preset(None, "marital_status", "hours_per_week", None, Words("census")),
    "tips": Preset(None, "day", "total_bill", None, Words("tips")),
}
OWN_WORDS = Words("own")


@dataclass(frozen=True, eq=False)
class BoundingData:
    """The rows to bound (only those in the released groups, groups as text) and their words.

    ``value`` is None when no column can be summed (``value_error`` says why): counts only.
    ``natural``: the value's range, public for shipped data, read from the file for the
    user's own (a leak the page states). For a data path ``frame`` is None and ``units``
    holds the engine's distinct contribution units; ``table`` is then their weighted
    contribution table, or None when there were too many distinct units to bring back.
    """

    data: DataChoice
    frame: pd.DataFrame | None
    person: str | None
    group: str
    value: str | None
    value_error: str | None
    order: str | None
    categories: Categories
    words: Words
    natural: tuple[float, float] | None
    table: ContributionTable | None  # the rows reduced to contribution units
    histogram: pd.Series | None  # persons by number of groups (None: one row per person)
    units: sources.ContributionUnits | None = None  # a data path's units, from the engine

    @property
    def labels(self) -> tuple[str, ...]:
        return self.categories.labels

    @property
    def rows(self) -> int:
        """Rows in the released groups."""
        return len(self.frame) if self.units is None else self.units.rows

    @property
    def max_groups_per_person(self) -> int:
        if self.units is not None:
            return self.units.max_groups_per_person
        return self.table.max_groups_per_person

    @property
    def max_records_per_unit(self) -> int:
        if self.units is not None:
            return self.units.max_records_per_unit
        return self.table.max_records_per_unit

    @property
    def key(self) -> tuple:
        """Names these rows for caches: the source, the columns and the released groups."""
        return (self.data.source, self.person, self.group, self.value, self.order, self.labels)

    @property
    def sum_title(self) -> str:
        preset = PRESETS.get(self.data.source)
        if self.words.sum_word and preset and self.value == preset.value:
            return self.words.sum_word
        return _("bounding.data.sum_of", column=self.value)

    @property
    def shown_labels(self) -> list[str]:
        """The released groups as shown: a shipped dataset's in the reader's language."""
        if self.data.own:
            return list(self.labels)
        return category_labels(self.group, self.labels)

    @property
    def bound_range(self) -> tuple[float, float]:
        """The bounds slider's range, also the public grid of the DP bounds."""
        low, high = self.natural
        high = max(high, low + 1)
        return float(min(0.0, low)), float(max(2 * high, high + 1))


@dataclass(frozen=True)
class Choices:
    """The page-level choices of how to bound and release."""

    mechanism: Literal["laplace", "gaussian"]
    joint: bool
    selection: Literal["random", "first"]
    pre_aggregate: bool
    private: bool  # choose the cap and bounds with DP quantiles
    secure: bool  # release through OpenDP


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


# --- cached reductions of the data ------------------------------------------------------------


def remembered(name: str, key: Hashable, make: Callable[[], T]) -> T:
    """make() for ``key``, kept in this session until the key changes (one value per name).

    For what an ε step does not change (the bounded data, the metrics, a DP choice): cheaper
    than a st.cache_data lookup, which hashes its arguments and copies its result each call.
    """
    store = st.session_state.setdefault(f"{PAGE}__remembered", {})
    held = store.get(name)
    if held is None or held[0] != key:
        held = store[name] = (key, make())
    return held[1]


def seed_and_draw() -> tuple[int, int]:
    """The sidebar's seed and draw number (ui.common.shell): they name a teaching draw."""
    state = st.session_state
    return int(state.get("seed", DEFAULT_SEED)), int(state.get("draw", 0))


@st.cache_data(show_spinner=False, max_entries=32)
def _released(source: str, group: str, labels: tuple, _frame: pd.DataFrame):
    """The rows whose group is released, the group as text; and how many rows were dropped."""
    keys = domains.category_keys(_frame[group]).to_numpy(dtype=object)
    inside = pd.Index(labels).get_indexer(keys) >= 0
    return _frame[inside].assign(**{group: keys[inside]}), int((~inside).sum())


@st.cache_resource(show_spinner=False, max_entries=32)
def contribution_units(key: tuple, _frame: pd.DataFrame) -> ContributionTable:
    """The contribution table of ``key``'s rows (dp_core.bounding.table); not copied."""
    _, person, group, value, order, labels = key
    return contribution_table(_frame, person, group, value, order_column=order, groups=labels)


@st.cache_data(show_spinner=False, max_entries=32)
def groups_per_person(key: tuple, _frame: pd.DataFrame) -> pd.Series:
    """Persons with k released groups, k = 1 .. max (dp_core.bounding.contribution_histogram)."""
    _, person, group, *_ = key
    return bounding.contribution_histogram(_frame, person, group)


@st.cache_resource(show_spinner=False, max_entries=16)
def path_table(key: tuple, _units: sources.ContributionUnits) -> ContributionTable | None:
    """The weighted contribution table of a data path's units (None when incomplete)."""
    if not _units.complete:
        return None
    units = _units.units
    return weighted_contribution_table(
        key[-1],
        unit_group=units["group"].to_numpy(),
        unit_groups_of_person=units["k"].to_numpy(),
        unit_rank=units["rank"].to_numpy(),
        unit_size=units["size"].to_numpy(),
        unit_weight=units["weight"].to_numpy(),
        row_value=_units.values,
        name=key[2],
    )


def path_seed() -> int:
    """The seed of a data path's random selection: the sidebar's seed and draw, as the
    in-memory page's numpy draw of the kept records."""
    return int(page_rng(PAGE, "bounding").integers(2**62))


# --- page-level controls --------------------------------------------------------------------------


def _column_names(data: DataChoice) -> list[str]:
    if data.path:
        return list(sources.schema(data.origin).names)
    return list(data.frame.columns)


def _columns(data: DataChoice, preset: Preset | None, words: Words) -> tuple[str, str | None]:
    dataset = data.dataset
    person = preset.person if preset else data.person
    groups = list(dataset.categorical)
    cols = st.columns(2)
    group = cols[0].selectbox(
        _("bounding.controls.group_by", groups=words.groups),
        groups,
        index=groups.index(preset.group) if preset else 0,
        key=f"{PAGE}_group_{data.link_key}",
        bind="query-params",
    )
    values = [c for c in _column_names(data) if c not in (dataset.person_id, person, group)]
    default = preset.value if preset else next((c for c in dataset.numeric if c in values), None)
    value = cols[1].selectbox(
        _("bounding.controls.value"),
        values,
        index=values.index(default) if default in values else (0 if values else None),
        key=f"{PAGE}_value_{data.link_key}",
        bind="query-params",
    )
    return group, value


def _rows_per_person_caption(data: DataChoice, person: str | None, words: Words) -> None:
    if data.source == "tips":
        st.caption(_("bounding.data.tips_assumption"))
    elif person is None:
        st.caption(_("bounding.data.one_row_each", **words.nouns()))


def _value_error(frame: pd.DataFrame, person: str | None, group: str, value: str | None):
    if value is None:
        return _("bounding.data.nothing_to_sum")
    try:
        bounding.check_bounding_frame(frame, person, group, value)
    except ValueError as error:
        return translated(error)
    return None


def _natural(data: DataChoice, frame: pd.DataFrame, value: str) -> tuple[float, float]:
    public = data.dataset.numeric.get(value)
    if public is not None:
        return float(public[0]), float(public[1])
    values = frame[value]
    return float(values.min()), float(values.max())


def _groups(data: DataChoice, person: str | None, group: str, secure: bool) -> Categories | None:
    """The released groups: public for shipped data, declared or DP-selected for the user's."""
    frame = data.frame
    selected = st.session_state.get(mode_key(PAGE, data, group)) == "selected"
    if data.own and selected and not data.path:  # DP selection needs a bound on groups per person
        frame = bounding.cap_contributions(
            frame, person, group_column=group, max_groups_per_id=SELECTION_L0
        )
    categories = pick_categories(
        PAGE,
        data,
        group,
        frame=frame,
        cap=SELECTION_L0,
        rng=page_rng(PAGE, "categories"),
        secure=secure,
    )
    if data.own and selected:
        st.caption(
            _("bounding.data.selection_random") if data.path else _("bounding.data.selection_first")
        )
    return categories


def _first_order(data: BoundingData) -> str:
    """The order "first" keeps the earliest records in: days, the table's, or the group's."""
    if data.data.path:
        return _("bounding.controls.order_column", column=data.order)  # no row order of its own
    return _("bounding.controls.order_day") if data.order else _("bounding.controls.order_table")


def _choices(data: BoundingData, words: Words, secure: bool) -> Choices:
    nouns = words.nouns()
    noises = {key: _(msgid) for key, msgid in NOISES.items()}  # shown in this run's language
    mechanism = linked_choice(
        st.radio,
        _("bounding.controls.noise"),
        noises,
        key=f"{PAGE}_mechanism",
        default=next(iter(noises)),
        horizontal=True,
    )
    plans = {
        "day by day": capitalised(_("bounding.controls.plan.sequential", **nouns)),
        "whole week at once": _("bounding.controls.plan.joint", **nouns),
    }
    cols = st.columns(2)
    plan = linked_choice(
        cols[0].radio, _("bounding.controls.plan"), plans, key=f"{PAGE}_plan", default="day by day"
    )
    selections = {
        "random": _("bounding.controls.selection.random"),
        "first": _("bounding.controls.selection.first", order=_first_order(data)),
    }
    selection = linked_choice(
        cols[1].radio,
        _("bounding.controls.selection"),
        selections,
        key=f"{PAGE}_selection",
        default="random",
    )
    toggles = st.columns(2)
    pre_aggregate = False
    if data.value is not None:
        pre_aggregate = toggles[0].toggle(
            _("bounding.controls.pre_aggregate", **nouns),
            key=f"{PAGE}_pre_aggregate",
            help=_("bounding.controls.pre_aggregate.help", **nouns),
            bind="query-params",
        )
    private = toggles[1].toggle(
        _("bounding.controls.private.both")
        if data.person is not None
        else _("bounding.controls.private.bounds"),
        key=f"{PAGE}_private",
        help=_("bounding.controls.private.help"),
        bind="query-params",
    )
    return Choices(
        mechanism, plan == "whole week at once", selection, pre_aggregate, private, secure
    )


def data_controls() -> tuple[BoundingData, Choices] | None:
    """The data, the columns, the released groups and the plan: they rerun the whole page."""
    secure = secure_toggle(PAGE)
    data = pick_data(PAGE, list(PRESETS), paths=True)
    if data is None:
        return None
    about(data)
    preset = PRESETS.get(data.source)
    words = preset.words if preset else OWN_WORDS
    if data.own and data.person is None:
        st.warning(_("bounding.data.needs_person"))
        return None
    if not data.dataset.categorical:
        st.error(_("bounding.data.no_group_column", most=formatting.count(MAX_CATEGORIES)))
        return None
    try:
        group, value = _columns(data, preset, words)
    except ValueError as error:
        st.error(_("bounding.data.cannot_read", error=translated(error)))
        return None
    person = preset.person if preset else data.person
    _rows_per_person_caption(data, person, words)
    if not data.path:
        try:
            bounding.check_bounding_frame(data.frame, person, group)
        except ValueError as error:
            st.error(_("bounding.data.cannot_bound", error=translated(error)))
            return None
    categories = _groups(data, person, group, secure)
    if categories is None:
        return None
    if len(categories.labels) < 2:
        st.error(_("bounding.data.one_group", column=group))
        return None
    if data.path:
        released = _path_data(data, person, group, value, categories, words)
        return None if released is None else (released, _choices(released, words, secure))
    frame, outside = _released(data.source, group, categories.labels, data.frame)
    if outside and categories.mode != "declared":  # declared: said where declared
        st.caption(_("bounding.data.outside", rows=formatting.count(outside)))
    if frame.empty:
        st.error(_("bounding.data.none_released"))
        return None
    value_error = _value_error(frame, person, group, value)
    natural = None if value_error else _natural(data, frame, value)
    order = preset.order if preset else None
    value = None if value_error else value
    key = (data.source, person, group, value, order, categories.labels)
    histogram = None if person is None else groups_per_person(key, frame)
    table = contribution_units(key, frame)
    fields = (person, group, value, value_error, order, categories, words, natural)
    released = BoundingData(data, frame, *fields, table, histogram)
    return released, _choices(released, words, secure)


def _path_units(data: DataChoice, person: str, group: str, labels, value, order):
    request = sources.UnitsRequest(person, group, labels, value=value, order=order)
    return sources.contribution_units(data.origin, request)


def _path_data(
    data: DataChoice,
    person: str,
    group: str,
    value: str | None,
    categories: Categories,
    words: Words,
) -> BoundingData | None:
    """A data path's released groups reduced by the engine to distinct contribution units:
    the histogram, the caps' ranges, the value's range and every trade-off come from them."""
    order = group  # "first": the earliest groups (a table read where it lies has no row order)
    labels = categories.labels
    value_error = None
    try:
        with st.spinner(_("bounding.data.counting")):
            try:
                units = _path_units(data, person, group, labels, value, order)
            except ValueError as error:
                if value is None:
                    raise
                value_error, value = translated(error), None
                units = _path_units(data, person, group, labels, None, order)
    except ValueError as error:
        st.error(_("bounding.data.cannot_bound", error=translated(error)))
        return None
    if value is None and value_error is None:
        value_error = _("bounding.data.nothing_to_sum")
    if units.rows_outside and categories.mode != "declared":  # declared: said where declared
        st.caption(_("bounding.data.outside", rows=formatting.count(units.rows_outside)))
    key = (data.source, person, group, value, order, labels)
    table = path_table(key, units)
    if table is None:
        st.caption(
            _(
                "bounding.data.too_many_units",
                limit=formatting.count(units.request.limit),
                **words.nouns(),
            )
        )
    natural = None
    if value is not None:  # as _natural: the dataset's range (here read from the data)
        natural = data.dataset.numeric.get(value) or (units.low, units.high)
        natural = (float(natural[0]), float(natural[1]))
    fields = (person, group, value, value_error, order, categories, words, natural)
    return BoundingData(data, None, *fields, table, units.histogram, units)


# --- caps and bounds (inside the page's fragment) -----------------------------------------------


def _step(low: float, high: float) -> float:
    """1 for ranges of 20 and more, else a power of ten giving about 20 to 200 steps."""
    return min(1.0, 10.0 ** np.floor(np.log10((high - low) / 20)))


def _cap_sliders(data: BoundingData, private: bool):
    """l0 (None when it is chosen with DP) and linf, from sliders; 1 and 1 without persons;
    and whether l0 is an own file's largest groups per person (its start: read from the data)."""
    words, n = data.words, len(data.labels)
    nouns = words.nouns()
    if data.person is None:
        return 1, 1, False
    link = data.data.link_key
    controls = link if not data.data.own else f"{link}_{data.group}_{n}"
    cols = st.columns(2)
    max_groups = None
    most = data.max_groups_per_person
    if private:
        cols[0].caption(_("bounding.caps.l0_private", n=formatting.count(n), **nouns))
    else:
        max_groups = cols[0].slider(
            _("bounding.caps.l0", **nouns),
            1,
            n,
            min(most, n) if data.data.own else min(4, n),
            key=f"{PAGE}_max_groups_{controls}",
            help=_("bounding.caps.l0.help", n=formatting.count(n), **nouns),
            bind="query-params",
        )
        if data.data.own:
            cols[0].caption(_("bounding.caps.l0_own", most=formatting.count(most), **nouns))
    max_per_group = cols[1].slider(
        _("bounding.caps.linf", **nouns),
        1,
        max(data.max_records_per_unit, 5),
        1,
        key=f"{PAGE}_max_per_group_{controls}",
        bind="query-params",
    )
    if data.max_records_per_unit == 1 and not presenter_mode():  # said aloud on a projector
        cols[1].caption(_("bounding.caps.linf_one", **nouns))
    # l0 = n (every released group) is public; l0 = the file's own largest below n is not
    read = data.data.own and max_groups is not None and max_groups == most < n
    return max_groups, max_per_group, read


def _bounds_slider(data: BoundingData) -> tuple[float, float, bool]:
    """The clipping bounds, and whether they are an own file's smallest and largest values
    (the slider's start: read from the data until moved)."""
    low, high = data.natural
    high = max(high, low + 1)
    lower, upper = st.slider(
        _("bounding.caps.bounds", column=data.value),
        *data.bound_range,
        (float(low), float(high)),
        step=_step(low, high),
        key=f"{PAGE}_bounds_{data.data.link_key}_{data.value}",
        bind="query-params",
    )
    if data.data.own:
        st.caption(
            _(
                "bounding.caps.bounds_own",
                low=formatting.number(low),
                high=formatting.number(high),
            )
        )
    read = data.data.own and (lower, upper) == (float(low), float(high))
    return lower, upper, read


def bounds_controls(
    data: BoundingData, choices: Choices
) -> tuple[Bounding | None, PrivateChoice | None, tuple[str, ...]]:
    """The caps and clipping bounds in use (None after a message), the DP choice if any, and
    what of them was read from the data without noise (dp_core.guarantee)."""
    max_groups, max_per_group, cap_read = _cap_sliders(data, choices.private)
    reads = ("cap",) if cap_read else ()
    private = None
    lower = upper = None
    if choices.private and data.person is None and data.value is None:
        st.caption(_("bounding.private.nothing"))
    elif choices.private:
        private = _private_choice(data, choices, max_per_group)
        if private is None:
            return None, None, reads
        if private.cap is not None:
            max_groups = private.cap.cap
        if private.bounds is not None:
            lower, upper = private.bounds.lower, private.bounds.upper
        elif data.value is not None:  # a data path too large for DP bounds
            lower, upper, bounds_read = _bounds_slider(data)
            reads += ("bounds",) if bounds_read else ()
    elif data.value is not None:
        lower, upper, bounds_read = _bounds_slider(data)
        reads += ("bounds",) if bounds_read else ()
    if data.value_error:
        name = st.session_state.get(f"{PAGE}_value_{data.data.link_key}")
        st.error(_("bounding.caps.cannot_sum", column=name, error=data.value_error))
    try:
        return (
            Bounding(
                max_groups, max_per_group, lower, upper, choices.pre_aggregate, choices.selection
            ),
            private,
            reads,
        )
    except ValueError as error:
        st.error(_("bounding.caps.cannot_clip", error=translated(error)))
        return Bounding(max_groups, max_per_group, selection=choices.selection), private, reads


# --- the DP choice of the cap and the bounds ---------------------------------------------------


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


def _shown(levels: list[float]) -> dict[float, str]:
    """Quantile levels as this run's language writes them (0,9 in German)."""
    return {level: formatting.number(level) for level in levels}


def _ask(data: BoundingData, choices: Choices, max_per_group: int) -> _Asked | None:
    """The ε and quantile inputs of the DP choice (None after a message)."""
    words, cols = data.words, st.columns(2)
    cap_alpha = bound_alphas = None
    cap_epsilon = bounds_epsilon = 0.0
    if data.person is not None:
        with cols[0]:
            cap_epsilon = epsilon_input(
                f"{PAGE}_cap_epsilon", label=_("bounding.private.cap_epsilon"), default=0.1
            )
            cap_alpha = linked_choice(
                st.select_slider,
                _("bounding.private.cap_quantile", **words.nouns()),
                _shown(CAP_QUANTILES),
                key=f"{PAGE}_cap_quantile",
                default=0.9,
            )
    if data.value is not None and data.table is None:
        cols[1].caption(_("bounding.private.too_many_units"))
    elif data.value is not None:
        with cols[1]:
            bounds_epsilon = epsilon_input(
                f"{PAGE}_bounds_epsilon", label=_("bounding.private.bounds_epsilon"), default=0.2
            )
            bound_alphas = linked_choice(
                st.select_slider,
                _("bounding.private.bounds_quantiles"),
                _shown(BOUND_QUANTILES),
                key=f"{PAGE}_bounds_quantiles",
                default=(0.05, 0.95),
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


def _private_choice(
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
