"""The bare page bench_browser.py compares against: one slider, one metric, one plotly chart."""

import streamlit as st

x = st.slider("x", 1, 100, 50)
st.metric("value", x)
st.plotly_chart(
    {"data": [{"type": "bar", "x": list("abcdefghij"), "y": [x * i for i in range(10)]}]},
    key="bare_chart",
)
