"""Contribution bounding: caps per person, clipping, pre-aggregation, and what the week costs."""

import numpy as np
import pandas as pd
import streamlit as st

from data.registry import DATASETS, MAX_CATEGORIES, load_dataset
from dp_core import (
    add_group_noise,
    best_bounds,
    best_setting,
    bounded_answers,
    cap_summary,
    cap_tradeoff,
    check_bounding_frame,
    check_bounds,
    compare_budgets,
    contribution_histogram,
    contribution_table,
    expected_group_errors,
    group_noise,
    lower_tradeoff,
    release_sensitivity,
    upper_tradeoff,
)
from ui.bounding_figures import (
    before_after_noisy_bars,
    budget_figure,
    contribution_histogram_figure,
    tradeoff_figure,
)
from ui.common.formatting import number as format_number
from ui.common.formatting import power_of_ten as format_delta
from ui.common.shell import page_header, page_rng, what_to_notice
from ui.common.widgets import delta_input, epsilon_input
from ui.own_data import own_dataset

# Per dataset: group column, value column, order for "first" selection, and the words to use.
PRESETS = {
    "restaurant": {
        "group": "day",
        "value": "money_spent",
        "order": "day",
        "person": "visitor",
        "record": "visit",
        "group_word": "day",
        "sum_word": "revenue",
    },
    "census": {
        "group": "marital_status",
        "value": "hours_per_week",
        "order": None,
        "person": "person",
        "record": "row",
        "group_word": "group",
        "sum_word": "hours worked",
    },
    "tips": {
        "group": "day",
        "value": "total_bill",
        "order": None,
        "person": "person",
        "record": "bill",
        "group_word": "day",
        "sum_word": "sales",
    },
}
OWN_CSV = "own_csv"
OWN_PRESET = {"order": None, "person": "person", "record": "row", "group_word": "group"}
NOISE_NAMES = {
    "laplace": "Laplace (L1 sensitivity, pure ε-DP)",
    "gaussian": "Gaussian, analytic (L2 sensitivity, (ε, δ)-DP)",
}

page_header(
    "Contribution bounding",
    "How many records per person should count, how far should values be clipped, and what "
    "does a week of daily statistics cost in privacy?",
    "Set the cap on days per visitor to 3: 157 visits are dropped. Then choose “All days at "
    "once” and type ε = 0.02: the best cap (the star) falls to 3, because with less budget "
    "the noise a fourth day brings costs more than the visits it keeps.",
)


def readable(value: float) -> str:
    """1,414 or 2.83: whole numbers from 100 up, three significant digits below."""
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def counted(n: int, word: str) -> str:
    """1 day, 3 days."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def plot_tradeoff(
    summary: pd.DataFrame,
    setting: str,
    values: np.ndarray,
    current: float,
    x_title: str,
    y_title: str,
    pair: tuple[float, float, str] | None = None,
) -> tuple[float, float]:
    """Chart the error at each value of one setting, star the best; return it and its RMSE."""
    best, best_rmse = best_setting(summary, values)
    st.plotly_chart(
        tradeoff_figure(
            summary,
            setting,
            best=best,
            current=current,
            x_title=x_title,
            y_title=y_title,
            pair=pair,
        ),
        width="stretch",
    )
    return best, best_rmse


@st.cache_data(show_spinner=False)
def load(key: str) -> pd.DataFrame:
    return load_dataset(key)


# ``source`` names the rows (a shipped key, or an upload's file id); ``_frame`` holds them.
@st.cache_data(show_spinner=False, max_entries=32)
def analysis_table(source: str, person: str | None, group: str, value: str | None, order, _frame):
    return contribution_table(_frame, person, group, value, order_column=order)


@st.cache_data(show_spinner=False, max_entries=32)
def histogram(source: str, person: str, group: str, _frame) -> pd.Series:
    return contribution_histogram(_frame, person, group)


def slider_step(low: float, high: float) -> float:
    """1 for ranges of 20 and more, else a power of ten giving about 20 to 200 steps."""
    return min(1.0, 10.0 ** np.floor(np.log10((high - low) / 20)))


# --- Controls ---------------------------------------------------------------------------------
key = st.selectbox(
    "Dataset",
    [*PRESETS, OWN_CSV],
    format_func=lambda k: "Your own CSV file…" if k == OWN_CSV else DATASETS[k].title,
    key="bounding_dataset",
)
if key == OWN_CSV:
    with st.container(border=True):
        own = own_dataset("bounding")
        if own is None:
            st.stop()
        dataset, frame = own
        if dataset.person_id is None:
            st.warning(
                "Bounding needs to know whose rows are whose: choose the column that identifies "
                "a person above. Caps limit what one person contributes, so without a person "
                "column there is nothing to cap."
            )
            st.stop()
    source = f"own_{st.session_state['bounding_upload'].file_id}"
    preset = OWN_PRESET
    person_column = dataset.person_id
    group_options = list(dataset.categorical)
    if not group_options:
        st.error(
            "No column to group by: a group column needs text, or whole numbers with at most "
            f"{MAX_CATEGORIES} distinct values."
        )
        st.stop()
else:
    dataset, preset, source = DATASETS[key], PRESETS[key], key
    frame = load(key)
    person_column = dataset.person_id if key == "restaurant" else None
    group_options = list(dataset.categorical)
person, record, group_word = preset["person"], preset["record"], preset["group_word"]

column_cols = st.columns(2)
group_column = column_cols[0].selectbox(
    f"Group the answers by ({group_word}s)",
    group_options,
    index=group_options.index(preset.get("group", group_options[0])),
    key=f"bounding_group_{source}",
)
value_options = [c for c in frame.columns if c not in (dataset.person_id, group_column)]
default_value = preset.get("value") or next(
    (c for c in dataset.numeric if c in value_options), value_options[0] if value_options else None
)
value_column = column_cols[1].selectbox(
    "Value to sum",
    value_options,
    index=value_options.index(default_value) if value_options else None,
    key=f"bounding_value_{source}",
)
if key == "tips":
    st.caption(
        "This page assumes each bill is a different person, so nobody has more than one bill "
        "and the caps on records remove nothing: only clipping matters. That is an "
        "assumption, not a fact: a bill is a party, and customers come back. If one person "
        "can be behind several bills, the guarantee holds per bill, not per person."
    )
elif person_column is None:
    st.caption(
        f"In this dataset each row is one {person}: nobody has more than one {record}, so the "
        "caps on records remove nothing and only clipping matters."
    )

epsilon = epsilon_input(
    "bounding_epsilon",
    label=f"ε per {group_word}, per statistic",
    default=0.5,
    minimum=0.01,
    maximum=10.0,
)
mechanism = st.radio(
    "Noise",
    list(NOISE_NAMES),
    format_func=NOISE_NAMES.get,
    horizontal=True,
    key="bounding_mechanism",
)
gaussian = mechanism == "gaussian"
delta = (
    delta_input("bounding_delta", label=f"δ per {group_word}, per statistic", default=1e-6)
    if gaussian
    else 0.0
)
plan_cols = st.columns(2)
joint = (
    plan_cols[0].radio(
        "How the budget is spent",
        ["day by day", "whole week at once"],
        format_func=lambda p: {
            "day by day": f"{group_word.capitalize()} by {group_word} (sequential composition)",
            "whole week at once": (
                f"All {group_word}s at once (cap on {group_word}s as sensitivity)"
            ),
        }[p],
        key="bounding_plan",
    )
    == "whole week at once"
)
selection = plan_cols[1].radio(
    "Which records a capped person keeps",
    ["random", "first"],
    format_func=lambda s: {
        "random": "a random choice (its spread adds to the error)",
        "first": f"the first in {'day' if preset['order'] else 'table'} order (no spread)",
    }[s],
    key="bounding_selection",
)

try:
    check_bounding_frame(frame, person_column, group_column)
except ValueError as error:
    st.error(f"Cannot bound this table: {error}")
    st.stop()
if frame[group_column].nunique() < 2:
    st.error(
        f"Cannot bound this table: the group column '{group_column}' has one category only. "
        "Contribution bounding compares groups (days, places, categories): choose a column "
        "with at least two."
    )
    st.stop()
value_error = None if value_options else "there is no other column to sum."
try:
    check_bounding_frame(frame, person_column, group_column, value_column)
except ValueError as error:
    value_error = str(error)
if value_error:
    value_column = None

table = analysis_table(source, person_column, group_column, value_column, preset["order"], frame)
max_groups_in_data = table.max_groups_per_person
max_per_group_in_data = table.max_records_per_unit
controls = source if key != OWN_CSV else f"{source}_{group_column}"
cap_cols = st.columns(2)
if max_groups_in_data > 1:
    max_groups = cap_cols[0].slider(
        f"Cap on {group_word}s per {person} (l0)",
        1,
        max_groups_in_data,
        min(4, max_groups_in_data),
        key=f"bounding_max_groups_{controls}",
    )
else:
    max_groups = 1
    cap_cols[0].caption(f"Every {person} is in one {group_word}: the cap on {group_word}s is 1.")
if person_column is not None:
    max_per_group = cap_cols[1].slider(
        f"Cap on {record}s per {person} per {group_word} (linf)",
        1,
        max(max_per_group_in_data, 5),
        1,
        key=f"bounding_max_per_group_{controls}",
    )
    if max_per_group_in_data == 1:
        cap_cols[1].caption(
            f"No {person} here has two {record}s in one {group_word}, yet a higher cap still "
            "multiplies the noise: the sensitivity must hold for any data, not just this week."
        )
else:
    max_per_group = 1

lower = upper = None
if value_error:
    st.error(f"Cannot sum '{st.session_state[f'bounding_value_{source}']}': {value_error}")
else:
    natural = dataset.numeric.get(value_column)
    values = frame[value_column]
    low, high = natural or (float(values.min()), float(values.max()))
    high = max(high, low + 1)
    bound_range = float(min(0.0, low)), float(max(2 * high, high + 1))
    lower, upper = st.slider(
        f"Clipping bounds [L, U] for {value_column}",
        *bound_range,
        (float(low), float(high)),
        step=slider_step(low, high),
        key=f"bounding_bounds_{source}_{value_column}",
    )
    if key == OWN_CSV:
        st.caption(
            f"These bounds start at [{low:g}, {high:g}], read from your file (rounded "
            "outward). Fine for exploring; a real release must fix its clipping bounds in "
            "advance, without looking at the data, since bounds read from the data reveal it "
            "(the smallest and largest values)."
        )
    pre_aggregate = st.toggle(
        f"Pre-aggregate per {person} and {group_word}",
        key="bounding_pre_aggregate",
        help=f"Sum each {person}'s values in a {group_word} first, then clip that total.",
    )
    try:
        check_bounds(lower, upper)
    except ValueError as error:
        st.error(f"Cannot clip the values: {error} Revenue is not shown until this is fixed.")
        lower = upper = None

has_sums = lower is not None
settings = {"max_groups": max_groups, "max_per_group": max_per_group}
sum_settings = (
    {**settings, "lower": lower, "upper": upper, "pre_aggregate": pre_aggregate}
    if has_sums
    else None
)
noise_plan = {
    "epsilon_per_group": epsilon,
    "joint": joint,
    "selection": selection,
    "mechanism": mechanism,
    "delta": delta,
}
n_groups = len(table.groups)

# --- Answers ----------------------------------------------------------------------------------
rng = page_rng("bounding")
answers = bounded_answers(
    rng,
    frame,
    id_column=person_column,
    group_column=group_column,
    value_column=value_column if has_sums else None,
    selection=selection,
    order_column=preset["order"],
    **(sum_settings or settings),
)
labels = [str(g) for g in table.groups]
statistics = {"count": f"{record}s per {group_word}"}
if has_sums:
    sum_word = (
        preset["sum_word"] if value_column == preset.get("value") else f"sum of {value_column}"
    )
    statistics["sum"] = f"{sum_word} per {group_word}"

st.header("Noisy answers, and the truth before and after bounding")
dropped = int(answers["true_count"].sum() - answers["bounded_count"].sum())
sensitivities = {
    name: release_sensitivity(name, **(sum_settings if name == "sum" else settings))
    for name in statistics
}
noise_settings = {"epsilon_per_group": epsilon, "max_groups": max_groups, "n_groups": n_groups}
try:
    noises = {
        name: group_noise(
            sensitivity, joint=joint, mechanism=mechanism, delta=delta, **noise_settings
        )
        for name, sensitivity in sensitivities.items()
    }
except ValueError as error:
    st.error(f"Cannot add the noise: {error}")
    st.stop()
metrics = {  # column: label, value, note under the value
    0: (
        f"{record.capitalize()}s dropped by the caps",
        f"{dropped:,}",
        f"{dropped / len(frame):.1%} of {len(frame):,}",
    )
}
if person_column is not None:
    summary = cap_summary(histogram(source, person_column, group_column, frame), [max_groups])
    metrics[1] = (
        f"{person.capitalize()}s with more than {counted(max_groups, group_word)}",
        f"{int(summary['persons_losing_records'].iloc[0]):,}",
        f"{summary['share_persons_losing_records'].iloc[0]:.1%} of {person}s",
    )
if has_sums:
    sum_sensitivity = sensitivities["sum"]
    per_record = max(abs(lower), abs(upper))
    metrics[2] = (
        f"Sensitivity of one {group_word}'s sum",
        f"{sum_sensitivity.per_group:g}",
        "one clipped total per person" if pre_aggregate else f"{max_per_group} × {per_record:g}",
    )
    metrics[3] = (
        (
            f"Sensitivity of all {group_word}s' sums (L2)",
            f"{sum_sensitivity.l2:.4g}",
            f"√{max_groups} × {sum_sensitivity.per_group:g}; L1 {sum_sensitivity.l1:g}",
        )
        if gaussian
        else (
            f"Sensitivity of all {group_word}s' sums (L1)",
            f"{sum_sensitivity.l1:g}",
            f"{max_groups} × {sum_sensitivity.per_group:g}; L2 {sum_sensitivity.l2:.4g}",
        )
    )
metric_cols = st.columns(4)
for column, (label, value, note) in metrics.items():
    metric_cols[column].metric(label, value, delta=note, delta_color="off", delta_arrow="off")


def noise_words(noise) -> str:
    """Laplace noise with scale 4 / 0.5 = 8, or Gaussian noise with σ = ..., in words."""
    whole = f" (all {group_word}s' L{2 if gaussian else 1} sensitivity, whole budget)"
    if not gaussian:
        return (
            f"Laplace noise with scale {noise.sensitivity:g} / {format_number(noise.epsilon)} "
            f"= {readable(noise.scale)} on every {group_word}" + (whole if joint else "")
        )
    return (
        f"Gaussian noise with σ = {readable(noise.scale)} on every {group_word}: the analytic "
        f"Gaussian for sensitivity {noise.sensitivity:.4g}"
        + (whole if joint else "")
        + f" at ε = {format_number(noise.epsilon)}, δ = {format_delta(noise.delta)}"
    )


for statistic, title in statistics.items():
    noise = noises[statistic]
    bounded = answers[f"bounded_{statistic}"].to_numpy(dtype=float)
    noisy = add_group_noise(rng, bounded, noise)
    st.subheader(title.capitalize())
    st.plotly_chart(
        before_after_noisy_bars(
            labels,
            answers[f"true_{statistic}"].to_numpy(dtype=float),
            bounded,
            noisy,
            noise.half_width,
            value_name=title,
        ),
        width="stretch",
    )
    errors = expected_group_errors(
        table, statistic, **noise_plan, **(sum_settings if statistic == "sum" else settings)
    )
    st.dataframe(
        pd.DataFrame(
            {
                group_word: labels,
                "true, all records": answers[f"true_{statistic}"].to_numpy(),
                "true after bounding": bounded,
                "noisy": noisy,
                "expected bias": errors["bias"].to_numpy(),
                "selection sd": errors["selection_std"].to_numpy(),
                "noise sd": errors["noise_std"].to_numpy(),
                "expected RMSE": errors["rmse"].to_numpy(),
            }
        ).round(1),
        hide_index=True,
        width="stretch",
    )
    st.caption(
        f"{noise_words(noise)}. Expected RMSE = √(bias² + selection sd² "
        "+ noise sd²), computed exactly, without sampling. "
        + (
            "The bias is averaged over the random choice of kept records, and “selection sd” "
            "is how much that choice alone moves the answer;"
            if selection == "random"
            else "Keeping the first records is deterministic, so the selection sd is 0;"
        )
        + " “true after bounding” is this draw."
    )

st.markdown(
    f"**Bounding dropped {dropped:,} of {len(frame):,} {record}s; the noise on each "
    f"{group_word} has standard deviation "
    + " and ".join(f"{readable(n.std)} for the {statistics[name]}" for name, n in noises.items())
    + ".**"
)

# --- Contribution histogram ---------------------------------------------------------------------
if person_column is not None:
    st.header(f"How many {group_word}s does each {person} contribute?")
    hist = histogram(source, person_column, group_column, frame)
    hist_cols = st.columns([1, 1])
    hist_cols[0].plotly_chart(
        contribution_histogram_figure(hist, max_groups, person=person, unit=group_word),
        width="stretch",
    )
    caps_table = cap_summary(hist)
    hist_cols[1].dataframe(
        pd.DataFrame(
            {
                f"cap on {group_word}s": caps_table["cap"],
                f"{record}s dropped": caps_table["records_dropped"],
                f"% of {record}s": (100 * caps_table["share_records_dropped"]).round(2),
                f"{person}s losing {record}s": caps_table["persons_losing_records"],
            }
        ),
        hide_index=True,
    )
    hist_cols[1].caption(
        f"From the histogram alone: {record}s kept at cap c = Σ_k n_k · min(k, c), every cap "
        "at once."
    )

# --- Trade-offs ---------------------------------------------------------------------------------
st.header("Bias against noise")
chosen = st.radio(
    "Statistic",
    list(statistics),
    format_func=lambda s: statistics[s],
    index=len(statistics) - 1,
    horizontal=True,
    key="bounding_tradeoff_statistic",
)
chosen_settings = sum_settings if chosen == "sum" else settings
without_groups_cap = {k: v for k, v in chosen_settings.items() if k != "max_groups"}
y_title = f"typical error per {group_word} (RMS over {group_word}s)"
if max_groups_in_data > 1:
    caps = np.arange(1, max_groups_in_data + 1)
    by_cap = cap_tradeoff(table, chosen, caps=caps, **noise_plan, **without_groups_cap)
    best_cap, best_rmse = plot_tradeoff(
        by_cap, "cap", caps, max_groups, f"cap on {group_word}s per {person}", y_title
    )
    st.markdown(
        f"**Best cap on {group_word}s: {best_cap}** (expected error {readable(best_rmse)} per "
        f"{group_word}); yours, {max_groups}, gives "
        f"{readable(float(by_cap.loc[by_cap['cap'] == max_groups, 'rmse'].iloc[0]))}."
    )
    if not joint:
        st.caption(
            f"{group_word.capitalize()} by {group_word}, each {group_word}'s noise depends only "
            f"on what one {person} adds to that {group_word}, so the cap on {group_word}s does "
            "not change the noise: it changes what the week really costs (see the budget "
            f"below). Choose “all {group_word}s at once” to see the trade-off."
        )
if chosen == "sum":
    # both bounds at once: a grid over the slider's range, coarser for large tables
    grid = np.linspace(*bound_range, 51 if len(table.unit_group) <= 20_000 else 21)
    without_bounds = {k: v for k, v in sum_settings.items() if k not in ("lower", "upper")}
    pair_lower, pair_upper, pair_rmse = best_bounds(
        table, lowers=grid, uppers=grid, **noise_plan, **without_bounds
    )
    bound = st.radio(
        "Clipping bound on the chart",
        ["upper", "lower"],
        format_func=lambda b: f"{b} bound {'U' if b == 'upper' else 'L'}",
        horizontal=True,
        key="bounding_tradeoff_bound",
    )
    if bound == "upper":
        values = np.linspace(lower, lower + 2 * (upper - lower), 101)[1:]
        summary = upper_tradeoff(table, uppers=values, lower=lower, **noise_plan, **without_bounds)
        current, other, pair = (
            upper,
            f"L = {lower:g}",
            (pair_upper, pair_rmse, f"L = {pair_lower:.4g}"),
        )
    else:
        values = np.linspace(upper - 2 * (upper - lower), upper, 101)[:-1]
        summary = lower_tradeoff(table, lowers=values, upper=upper, **noise_plan, **without_bounds)
        # from the largest L down, so that on a tie the narrowest bounds win
        values, summary = values[::-1], summary.iloc[::-1]
        current, other, pair = (
            lower,
            f"U = {upper:g}",
            (pair_lower, pair_rmse, f"U = {pair_upper:.4g}"),
        )
    letter = "U" if bound == "upper" else "L"
    best, best_rmse = plot_tradeoff(
        summary,
        bound,
        values,
        current,
        f"{bound} clipping bound {letter} for {value_column}",
        y_title,
        pair=(pair[0], pair[1], f"best pair: {pair[2]} too"),
    )
    st.markdown(
        f"**Best {bound} bound: {best:,.4g}** (expected error {readable(best_rmse)} per "
        f"{group_word}, with {other} and a cap of {max_groups}). **Best pair: L = "
        f"{pair_lower:,.4g}, U = {pair_upper:,.4g}** (expected error {readable(pair_rmse)}, the "
        f"diamond): both bounds moved at once, on a {grid.size} × {grid.size} grid from "
        f"{grid[0]:g} to {grid[-1]:g}. A lower bound above the smallest values adds to every "
        "sum, so it can offset what the caps drop."
    )
st.caption(
    "Expected RMSE² = bias² + selection variance + noise variance, each computed exactly "
    "(no sampling): bias = expected answer after bounding − truth; selection variance = the spread "
    "of the random choice of kept records (0 when keeping the first); noise = "
    + ("the Gaussian variance σ². " if gaussian else "the Laplace variance 2b². ")
    + "The star is the smallest RMSE on the line. Choosing the cap or the bounds by looking "
    "at the data, as here, itself leaks information: a real release fixes them in advance or "
    "spends budget on choosing them."
)

# --- Budget -------------------------------------------------------------------------------------
st.header("What the week costs" if key == "restaurant" else f"What all {group_word}s cost")
budget = compare_budgets(epsilon, n_groups=n_groups, max_groups=max_groups, delta_per_group=delta)
touched = min(max_groups, n_groups)


def spent(eps: float, dlt: float) -> str:
    """3.5, or (3.5, 7×10⁻⁶) with Gaussian noise."""
    eps_text = format_number(round(eps, 9))
    return f"({eps_text}, {format_delta(dlt)})" if gaussian else eps_text


per_group = spent(epsilon, delta)
sequential = spent(budget.sequential_total, budget.sequential_delta)
capped = spent(budget.capped_total, budget.capped_delta)
if gaussian:  # the counts' noise, one release per group against one release of all groups
    by_group, at_once = (
        group_noise(
            sensitivities["count"], joint=plan, mechanism=mechanism, delta=delta, **noise_settings
        ).std
        for plan in (False, True)
    )
    joint_note = f"σ = {readable(at_once)} on the counts, not {readable(by_group)}"
else:
    joint_note = f"noise as at ε = {budget.joint_epsilon_per_group:.3g} per {group_word}"
rows = [
    (
        f"{group_word.capitalize()} by {group_word}",
        [epsilon] * n_groups,
        f"{n_groups} × {per_group} = {sequential}",
    ),
    (
        f"Same noise, with the cap of {max_groups}",
        [epsilon] * touched,
        f"{touched} × {per_group} = {capped}",
    ),
    (f"All {group_word}s at once", [budget.sequential_total], f"{sequential}: {joint_note}"),
]
st.plotly_chart(budget_figure(rows), width="stretch")
composition = "basic composition (ε and δ both add up)" if gaussian else "sequential composition"
st.markdown(
    f"**{n_groups} {group_word}s at {'(ε, δ)' if gaussian else 'ε'} = {per_group} each cost "
    f"{sequential} for one statistic by {composition}.** Because no {person} is in more than "
    f"{counted(max_groups, group_word)} after capping, the same noisy answers cost "
    f"{'at most' if gaussian else 'only'} {capped}; or the full {sequential} spent on one "
    + (
        f"Gaussian release of all {group_word}s, at L2 sensitivity √{touched} × the "
        f"per-{group_word} sensitivity, gives {joint_note}."
        if gaussian
        else f"release buys noise as small as ε = {budget.joint_epsilon_per_group:.3g} per "
        f"{group_word}."
    )
)
if gaussian and budget.sequential_delta >= 1:
    st.warning(
        f"{n_groups} × δ = {budget.sequential_delta:g} is not below 1: composed over every "
        f"{group_word}, the guarantee says nothing. Lower δ."
    )
if gaussian:
    st.caption(
        "Basic composition is a safe bound, not the tightest: for Gaussian noise, accounting "
        "by the privacy loss distribution or zCDP gives a smaller total ε at the same δ."
    )
if len(statistics) > 1:
    both = spent(2 * budget.sequential_total, 2 * budget.sequential_delta)
    st.caption(
        f"This page publishes two statistics per {group_word} (counts and sums): each costs "
        f"this much, so the total is twice: {both} {group_word} by {group_word}."
    )

what_to_notice(
    [
        f"A lower cap drops more {record}s (bias) but lets the noise shrink: the best cap "
        "balances the two, and it moves with ε.",
        "Clipping the values does the same for sums: a low upper bound biases every "
        f"{group_word} down; a high one buys noise for a few outliers.",
        f"Pre-aggregation sums each {person}'s {record}s in a {group_word} before clipping, so "
        f"one {group_word}'s sensitivity is max(|L|, |U|) however many {record}s they have: "
        "65 for a day of three meals instead of 3 × 50 = 150 for three meals clipped at 50.",
        f"Keeping the *first* {record}s (in day order) biases late {group_word}s most; a random "
        "choice spreads the bias but adds its own spread (the selection sd), which at a low "
        "cap can exceed the noise.",
        f"The {group_word} by {group_word} total overstates the cost when each {person} is in "
        f"only a few {group_word}s: the cap is what makes the tighter accounting true.",
        f"Gaussian noise on all {group_word}s at once uses the L2 sensitivity √ℓ0 · Δ, not the "
        "L1 sensitivity ℓ0 · Δ: its noise grows with the square root of the cap, not in "
        "proportion to it as Laplace noise does, so a higher cap costs less (in return for a "
        "small δ).",
    ]
)

with st.expander("The formula"):
    st.latex(
        r"\Delta_\infty^{\text{count}} = \ell_\infty,\quad "
        r"\Delta_1^{\text{count}} = \ell_0\,\ell_\infty,\quad "
        r"\Delta_2^{\text{count}} = \sqrt{\ell_0}\,\ell_\infty"
    )
    st.latex(
        r"\Delta_\infty^{\text{sum}} = \ell_\infty \max(|L|,|U|)\ \ "
        r"(\text{pre-aggregated: } \max(|L|,|U|)),\quad "
        r"\Delta_1^{\text{sum}} = \ell_0\,\Delta_\infty^{\text{sum}}"
    )
    st.latex(
        r"\text{kept at cap } c = \sum_k n_k \min(k, c),\qquad "
        r"\mathrm{RMSE} = \sqrt{\mathrm{bias}^2 + \mathrm{Var}_{\text{sel}} + "
        r"\mathrm{Var}_{\text{noise}}},\ "
        r"\mathrm{Var}_{\text{noise}} = 2b^2,\ b = \Delta_1 / \varepsilon\ \text{(Laplace)}"
    )
    st.latex(
        r"\mathrm{Var}_{\text{noise}} = \sigma^2:\ \text{the smallest } \sigma \text{ with } "
        r"\Phi\!\left(\tfrac{\Delta_2}{2\sigma} - \tfrac{\varepsilon\sigma}{\Delta_2}\right)"
        r" - e^{\varepsilon}\,\Phi\!\left(-\tfrac{\Delta_2}{2\sigma} - "
        r"\tfrac{\varepsilon\sigma}{\Delta_2}\right) \le \delta\ \text{(analytic Gaussian)}"
    )
    st.latex(
        r"\mathrm{Var}_{\text{sel}}(g) = \sum_{u \in g} \pi_u \operatorname{Var}(Y_u) + "
        r"\pi_u (1 - \pi_u)\, E[Y_u]^2,\quad \pi_u = \min(1, \ell_0 / k_u)"
        r"\quad\Big(= \sum_{u \in g} p_u (1 - p_u)\, v_u^2 \text{ with one record per unit}\Big)"
    )
    st.latex(
        r"\varepsilon_{\text{week}} = \sum_{d=1}^{7} \varepsilon_d \ \ "
        r"\text{(sequential)},\qquad "
        r"\varepsilon_{\text{week}} = \min(\ell_0, 7)\,\varepsilon_d\ \ "
        r"\text{(a person is in at most } \ell_0 \text{ days)};\ "
        r"\delta \text{ adds up the same way}"
    )
    st.markdown(
        f"Neighbouring datasets on this page: one {person} added or removed, with all their "
        f"{record}s (not one {record} replaced). "
        "ℓ0: groups per person, ℓ∞: records per person in a group, [L, U]: clipping bounds. "
        "Sensitivities: Wilson et al., *Differentially "
        "private SQL with bounded user contribution* (PoPETs 2020); Laplace mechanism and "
        "sequential (basic) composition of ε and δ: Dwork & Roth (2014), Thm 3.6 and 3.16; "
        "analytic Gaussian mechanism: Balle & Wang, *Improving the Gaussian mechanism for "
        "differential privacy* (ICML 2018), Thm 8. Error model as in "
        "PipelineDP's utility analysis, plus the selection term. A random choice keeps each "
        "of a person's k groups with probability π = min(1, ℓ0 / k) and, in a kept group, a "
        "uniformly random ℓ∞ of their r records. A unit u is one person's records in group g, "
        "Y_u what it adds to g once ℓ∞ and clipping apply: Var(Y_u) is the variance of a "
        "simple random sample of min(r, ℓ∞) of r values (Cochran, *Sampling Techniques*, "
        "Thm 2.2), 0 for counts and for pre-aggregated totals. The formula is exact for these "
        "two caps, because a person enters a group's answer through one unit only and persons "
        "choose independently. With at most one record per person per group (the restaurant "
        "week) it is Σ p(1 − p) v², p = min(1, ℓ0 / k), v the clipped value (1 for counts). "
        "That per-record sum is not the variance when someone has several records in a "
        "group (they are kept or dropped together by ℓ0 and compete for the ℓ∞ places), so "
        "the page uses the unit formula. Restaurant week: Google's differential-privacy "
        "library examples."
    )
