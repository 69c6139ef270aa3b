"""DP Explorer: the entry point. The pages from ui.common.catalog and the shared sidebar."""

import streamlit as st

from ui.common.address import written
from ui.common.collector import leave_modules_out_of_collections
from ui.common.exercises import below_each_answer
from ui.common.i18n import STATE_KEY as LANGUAGE_KEY
from ui.common.i18n import start_language
from ui.common.shell import navigation_pages, sidebar, through_app, use_app_navigation
from ui.common.streamlit_internals import keep_built_downloads
from ui.common.turns import follower_turn
from ui.workshop.asking import ask_button
from ui.workshop.room import enter, url_path
from ui.workshop.room_strip import room_bar

# The tab's icon is an emoji, which the browser draws itself: a :material/…: icon made every
# page load fetch it from fonts.gstatic.com, a request to a third party (and one that fails
# in a room without the internet).
st.set_page_config(page_icon="🛡️", layout="wide")
below_each_answer(ask_button)  # a trainer leading a room puts an exercise to the room
keep_built_downloads()  # until its browser fetches it, whatever other sessions run meanwhile
use_app_navigation()
start_language(written(LANGUAGE_KEY))

page = st.navigation(navigation_pages(), position="hidden")
with through_app(), follower_turn():
    sidebar()
    enter()
    room_bar(url_path(page.url_path))
    page.run()
leave_modules_out_of_collections()
