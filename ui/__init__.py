"""Shared Streamlit widgets, the app shell and Vega-Lite chart builders (no privacy math here)."""
