"""DP Explorer served with its room route: ``python3 -m streamlit run serve.py``.

app.py is the app (navigation, sidebar, pages); this adds one HTTP route beside it, the room
versions a follower's browser asks for each half second (ui.workshop.versions), through
Streamlit's own ASGI entry point (``st.App``). ``streamlit run app.py`` serves the same app
without the route: a room then still follows, its strip reading the store itself at each look
(a fragment run per attendee and half second).
"""

import streamlit as st

from ui.workshop.versions import ROUTE

app = st.App("app.py", routes=[ROUTE])
