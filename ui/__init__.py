"""Shared Streamlit widgets, the app shell and plotly figure builders (no privacy math here)."""
