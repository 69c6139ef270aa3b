"""Home: what differential privacy trades, a tiny live example, and a card per page."""

import streamlit as st

from dp_core import laplace_half_width, laplace_mechanism, laplace_scale
from ui.common.catalog import available_pages
from ui.common.shell import page_header, page_rng
from ui.common.widgets import epsilon_input

page_header(
    "DP Explorer",
    "Differential privacy adds random noise to an answer so that it comes out almost the same "
    "whether or not any one person's data was used. The price is accuracy.",
    "Move epsilon below. Small epsilon: strong privacy, noisy answer. "
    "Large epsilon: accurate answer, weak privacy.",
)

st.markdown(
    "**Epsilon (ε)** is the privacy budget: one person's data can make any published answer "
    "at most e^ε times more or less likely. Each page of this explorer shows one part of that "
    "trade, live."
)

st.subheader("A tiny example: how many of 65 patients have HIV?")
TRUE_COUNT = 5
epsilon = epsilon_input("home_epsilon", default=1.0)
noisy = laplace_mechanism(page_rng("home"), [TRUE_COUNT], sensitivity=1, epsilon=epsilon)[0]
half_width = laplace_half_width(laplace_scale(1, epsilon))
true_column, noisy_column, band_column = st.columns(3)
true_column.metric("True answer", TRUE_COUNT)
noisy_column.metric("Published (noisy) answer", f"{noisy:.1f}")
band_column.metric("95% of answers land within", f"± {half_width:.1f}")
st.caption(
    "One person joining or leaving changes the count by at most 1; Laplace noise with scale "
    f"1/ε = {1 / epsilon:.3g} hides that change. Press **Draw new noise** in the sidebar to "
    "publish again (each new release spends another ε)."
)

st.subheader("Explore")
topics = [page for page in available_pages() if page.url_path != "home"]
for row_start in range(0, len(topics), 3):
    for column, entry in zip(st.columns(3), topics[row_start : row_start + 3], strict=False):
        with column.container(border=True):
            st.page_link(entry.path, label=entry.title, icon=entry.icon)
            st.caption(f"{entry.section}. {entry.question}")
