"""DP Explorer served with its room routes: ``python3 -m streamlit run serve.py``.

app.py is the app (navigation, sidebar, pages); this adds the room's HTTP routes beside it,
through Streamlit's own ASGI entry point (``st.App``): the push each follower's browser holds
open and the trainer's browser publishes to (ui.workshop.push), the versions a browser without the
push asks for each half second (ui.workshop.versions), and the one that sets the room cookies
HttpOnly (ui.workshop.room_cookies). ``streamlit run app.py`` serves the same app without
them: a room then still follows, its strip reading the store itself at each look (a fragment
run per attendee and half second), the trainer's view is published by nobody, and the page's
script keeps the room cookies.
"""

import streamlit as st

from ui.workshop import push, room_cookies, versions

app = st.App("app.py", routes=[*push.routes(), versions.ROUTE, room_cookies.ROUTE])
