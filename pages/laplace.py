"""The Laplace mechanism: noisy vs true answers, the noise itself, error vs epsilon, averaging."""

import numpy as np
import pandas as pd
import streamlit as st

from dp_core import (
    basic_composition,
    laplace_average_std,
    laplace_expected_abs_error,
    laplace_half_width,
    laplace_mechanism,
    laplace_pdf,
    laplace_scale,
    running_average_of_releases,
    sample_laplace,
)
from ui.export import download_results
from ui.figures import (
    NOISY_COLOR,
    TRUE_COLOR,
    add_density_with_histogram,
    axis,
    figure,
    line,
    mark_band,
    mark_x,
    mark_y,
    noisy_vs_true_bars,
    styled,
)
from ui.query_picker import pick_query
from ui.shell import page_header, page_rng, what_to_notice
from ui.widgets import epsilon_input, format_number, log_grid

page_header(
    "Laplace mechanism",
    "How much noise does epsilon cost, and how wrong are the published answers?",
    "Set ε to 0.1, then to 10, and watch the error bars. Then count a small category "
    "(HIV in the diseases data) and compare its relative error with the largest one.",
)

query = pick_query("laplace")
epsilon = epsilon_input("laplace_epsilon", default=1.0)
if query is None:
    st.stop()

rng = page_rng("laplace")
# A mean spends half of epsilon on its clipped sum (and half on its count).
sum_epsilon = epsilon / 2 if query.kind == "mean" else epsilon
scale = laplace_scale(query.sensitivity, sum_epsilon)
labels = query.labels

# --- Noisy vs true -------------------------------------------------------------------------
st.header("Noisy vs true answers")
if query.kind == "mean":
    release = query.release_mean(rng, epsilon=epsilon)
    noisy, half_widths = release.noisy_mean, release.half_width
    expected_errors = release.expected_abs_error
    band_label = "95% of error, simulated"
    sentence = (
        f"With ε = {format_number(epsilon)}, split in half between a noisy sum and a noisy "
        f"count, each mean is within ±{half_widths.min():.3g} to ±{half_widths.max():.3g} of "
        "the clipped mean 95% of the time (largest groups are the most accurate; simulated "
        "from the true data, so these bands are a teaching aid, not themselves private)."
    )
else:
    noisy = laplace_mechanism(
        rng, query.true_values, sensitivity=query.sensitivity, epsilon=epsilon
    )
    half_width = laplace_half_width(scale)
    half_widths = np.full(len(labels), half_width)
    expected_errors = np.full(len(labels), laplace_expected_abs_error(scale))
    band_label = "95% of noise"
    truth = "true count" if query.kind in ("count", "predicate") else "clipped sum"
    sentence = (
        f"With ε = {format_number(epsilon)}, each answer is within ±{half_width:,.1f} of the "
        f"{truth} 95% of the time, whatever the true value."
    )
st.markdown(f"**{sentence}**")
metric_cols = st.columns(3)
if query.kind == "mean":
    metric_cols[0].metric("Sensitivity of the clipped sum", f"{query.sensitivity:g}")
    metric_cols[1].metric("Noise scale of the sum b = Δ / (ε/2)", f"{scale:,.3g}")
else:
    metric_cols[0].metric("Sensitivity (one person's effect)", f"{query.sensitivity:g}")
    metric_cols[1].metric("Noise scale b = sensitivity / ε", f"{scale:,.3g}")
metric_cols[2].metric("Expected |error|", f"{np.median(expected_errors):,.3g}")

shown = slice(0, 30)
if len(labels) > 30:
    st.caption(f"The chart shows the 30 largest of {len(labels)} groups; the table has all.")
st.plotly_chart(
    noisy_vs_true_bars(
        labels[shown],
        query.true_values[shown],
        noisy[shown],
        half_widths[shown],
        value_name=query.value_name,
        band_label=band_label,
    ),
    width="stretch",
)
error = noisy - query.true_values
with np.errstate(divide="ignore", invalid="ignore"):
    relative = np.where(query.true_values != 0, np.abs(error) / np.abs(query.true_values), np.nan)
table = {
    "group": labels,
    f"true {query.value_name}": query.true_values,
    f"noisy {query.value_name}": noisy,
    "error": error,
    "relative error": relative,
    "95% half-width": half_widths,
}
if query.kind == "sum":
    table["unclipped sum"] = query.raw_values
st.dataframe(
    table,
    hide_index=True,
    width="stretch",
    column_config={
        "relative error": st.column_config.NumberColumn(format="percent"),
        "error": st.column_config.NumberColumn(format="%.2f"),
        f"noisy {query.value_name}": st.column_config.NumberColumn(format="%.2f"),
        "95% half-width": st.column_config.NumberColumn(format="%.2f"),
    },
)
download_results(
    pd.DataFrame(table),
    name="laplace_results",
    settings={
        "mechanism": "Laplace",
        "query": query.description,
        "epsilon": format_number(epsilon),
        "sensitivity (L1)": f"{query.sensitivity:g}",
    },
    key="laplace_download",
)
if np.isnan(relative).any():
    st.caption(
        "Relative error is blank where the true answer is 0: any error is infinitely "
        "large relative to nothing."
    )
if query.kind == "sum" and not np.allclose(query.raw_values, query.true_values):
    st.caption(
        "Clipping changed the true sums (compare the last two columns): that bias is the price "
        "of a bounded sensitivity. Widen [L, U] to shrink it, at the cost of more noise."
    )

# --- The noise itself ---------------------------------------------------------------------
st.header("The noise itself")
draws = sample_laplace(rng, scale, 100_000)
x = np.linspace(-6 * scale, 6 * scale, 401)
noise_fig = add_density_with_histogram(
    figure(xaxis=axis("noise added to one answer")),
    x,
    laplace_pdf(scale, x),
    draws,
    name="Laplace noise",
)
noise_half = laplace_half_width(scale)
mark_band(noise_fig, -noise_half, noise_half, "95% of draws")
st.plotly_chart(styled(noise_fig, height=360), width="stretch")
st.caption(
    f"Scale b = {scale:,.3g}"
    + (
        " (each half of the mean's budget: the noisy sum's noise is shown)"
        if query.kind == "mean"
        else ""
    )
    + f". {np.mean(np.abs(draws) <= noise_half):.1%} of these {len(draws):,} draws fall inside "
    f"±{noise_half:,.3g}; the exact share is 95%."
)

# --- Error against epsilon ----------------------------------------------------------------
st.header("Error against epsilon")
grid = np.array(log_grid(0.01, 10))
largest, smallest = (
    int(np.argmax(np.abs(query.true_values))),
    int(np.argmin(np.abs(query.true_values))),
)
if query.kind == "mean":
    picks = [largest, smallest]
    curves = np.array(
        [
            query.release_mean(rng, epsilon=e, groups=picks, simulations=2000).expected_abs_error
            for e in grid
        ]
    )
    absolute = {"largest group (simulated)": curves[:, 0]}
    relatives = {labels[largest]: curves[:, 0] / abs(query.true_values[largest])}
    if smallest != largest:
        relatives[labels[smallest]] = curves[:, 1] / abs(query.true_values[smallest])
else:
    absolute = {"expected |error| = b": query.sensitivity / grid}
    relatives = {
        labels[i]: query.sensitivity / grid / abs(query.true_values[i])
        for i in dict.fromkeys([largest, smallest])
        if query.true_values[i] != 0
    }
abs_col, rel_col = st.columns(2)
abs_fig = figure(
    *(line(grid, values, name) for name, values in absolute.items()),
    xaxis=axis("epsilon", type="log"),
    yaxis=axis("expected absolute error", type="log"),
)
abs_col.plotly_chart(
    styled(mark_x(abs_fig, epsilon, f"ε = {format_number(epsilon)}"), height=360), width="stretch"
)
if relatives:
    rel_fig = figure(
        *(
            line(grid, values, f"relative, {name}", color=color)
            for (name, values), color in zip(
                relatives.items(), [NOISY_COLOR, TRUE_COLOR], strict=False
            )
        ),
        xaxis=axis("epsilon", type="log"),
        yaxis=axis("expected |error| / true value", type="log", tickformat=".1%"),
    )
    rel_col.plotly_chart(
        styled(mark_x(rel_fig, epsilon, f"ε = {format_number(epsilon)}"), height=360),
        width="stretch",
    )
else:
    rel_col.info("Relative error is undefined here: the true answer is 0.")
st.caption(
    "Ten times less epsilon means ten times more noise. The same noise is a rounding "
    "error for a large group and can swamp a small one."
)

# --- The averaging attack -----------------------------------------------------------------
st.header("Why each release spends budget: the averaging attack")
attacked = labels.index(
    st.selectbox(
        "Which answer does the attacker ask for again and again?", labels, key="laplace_attacked"
    )
)
target_value = (
    query.true_values[attacked] * query.counts[attacked]
    if query.kind == "mean"
    else query.true_values[attacked]
)
target_name = (
    f"clipped sum for {labels[attacked]} (released with ε/2 each time)"
    if query.kind == "mean"
    else f"{query.value_name} for {labels[attacked]}"
)
repeats = st.select_slider(
    "Ask the same question k times and average the answers",
    options=[1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 100_000],
    value=100,
    key="laplace_repeats",
    format_func=lambda k: f"{k:,}",
)
attack_scale = scale
averages = running_average_of_releases(rng, target_value, attack_scale, repeats)
steps = np.unique(np.geomspace(1, repeats, min(repeats, 300)).astype(int))
band = 2 * laplace_average_std(attack_scale, steps)
attack_fig = figure(
    line(
        steps, target_value + band, "upper", line={"width": 0}, showlegend=False, hoverinfo="skip"
    ),
    line(
        steps,
        target_value - band,
        "± 2 standard deviations of the average",
        line={"width": 0},
        fill="tonexty",
        fillcolor="rgba(237,174,73,0.25)",
    ),
    line(steps, averages[steps - 1], "average of the first k answers", mode="lines+markers"),
    xaxis=axis("number of answers averaged (k)", type="log"),
    yaxis=axis(target_name),
)
mark_y(attack_fig, target_value, "truth")
st.plotly_chart(styled(attack_fig, height=380), width="stretch")
total_epsilon, _ = basic_composition(epsilon, 0.0, repeats)
total = float(total_epsilon)
attack_cols = st.columns(3)
attack_cols[0].metric(
    f"Average of {repeats:,} answers",
    f"{averages[-1]:,.2f}",
    delta=f"{averages[-1] - target_value:+,.2f} from the truth",
    delta_color="off",
)
attack_cols[1].metric("True answer", f"{target_value:,.2f}")
attack_cols[2].metric(
    "Privacy spent",
    f"ε = {format_number(round(total, 6))}",
    delta=f"{repeats:,} × {format_number(epsilon)}",
    delta_color="off",
)
st.caption(
    "Averaging k answers shrinks the noise by √k, so a curator who answers the same "
    "question again must count every answer against the budget (sequential "
    "composition), or return the same cached answer."
)

what_to_notice(
    [
        "The noise does not depend on the data, only on the sensitivity and ε: the error bars have "
        "the same length for every count.",
        "So the *relative* error is worst for the smallest groups: the same noise blurs a small "
        "count far more, relative to its size, than a large one.",
        "Halving ε doubles the noise. There is no free lunch: the error is sensitivity / ε on "
        "average.",
        "Repeating a query and averaging wins the truth back, which is why the budget adds up.",
    ]
)

with st.expander("The formula"):
    st.latex(
        r"M(x) = f(x) + \mathrm{Lap}(b),\quad b = \frac{\Delta_1 f}{\varepsilon},\quad "
        r"p(z) = \frac{1}{2b} e^{-|z|/b}"
    )
    st.latex(
        r"E|Z| = b,\quad \mathrm{sd}(Z) = \sqrt{2}\,b,\quad "
        r"P(|Z| \le t) = 1 - e^{-t/b} \Rightarrow t_{95\%} = b \ln 20"
    )
    st.markdown(
        "Dwork, McSherry, Nissim & Smith (2006); Dwork & Roth, *The Algorithmic Foundations of "
        "Differential Privacy* (2014), Def. 3.3 and Thm. 3.6. Neighbouring datasets on this "
        "page: one person added or removed, with all their rows. Sensitivity: one row changes "
        "a count by 1 and a sum of values clipped to [L, U] by max(|L|, |U|); a person with "
        "up to m rows (the cap) changes the answers by m times that in total. The mean is a "
        "noisy clipped sum over a noisy count, ε/2 each (sequential composition, Thm. 3.16)."
    )
