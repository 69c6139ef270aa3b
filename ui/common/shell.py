"""The app shell shared by every page: navigation guard, sidebar, seeded draws, page header.

Reproducible draws: every section of a page draws its noise from
``numpy.random.default_rng([seed, draw, crc32(page), crc32(stream)])``, so the same seed, draw
number and settings give the same chart on every machine, whichever sections are open, and
"Draw new noise" moves to the next draw.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import TypeVar

import numpy as np
import streamlit as st

from ui.common.accessible import declare_page, narrow
from ui.common.address import from_address, linked, publish
from ui.common.folding import columns, folded, folded_into
from ui.common.i18n import LANGUAGES, _, language
from ui.common.i18n import STATE_KEY as LANGUAGE_KEY
from ui.common.setting import Choice, Flag, Number
from ui.common.streamlit_internals import leave_pages_directory_mode

DEFAULT_SEED = 2026
# Session state of a page in a workshop room (ui.workshop.room keeps them): the room's code
# while the page follows it, and whether the attendee explores alone meanwhile.
ROOM_FOLLOWING, ROOM_ALONE = "room__following", "room__alone"
T = TypeVar("T")
# Streamlit sizes text in rem: a larger root font scales every heading, label and table. For a
# projector the sidebar and Streamlit's own bar are hidden; the page keeps an exit button. A
# heading's tight padding goes with no negative margin under it (Streamlit's -1rem, meant to
# cancel a heading's 1rem of padding, would put the next chart over its lower half).
PRESENTER_CSS = """<style>
html { font-size: 22px; }
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
header[data-testid="stHeader"], [data-testid="stDecoration"] { display: none !important; }
[data-testid="stMainBlockContainer"] { max-width: 100%; padding: 0.6rem 2rem 2rem 2rem; }
[data-testid="stVerticalBlock"] { gap: 0.35rem; }
[data-testid="stMetricValue"], .dp-live-metric .dp-live-value { font-size: 1.6rem; }
h1 { font-size: 1.9rem !important; padding: 0 !important; }
[class*="__section__nav"] { position: fixed; right: 1.4rem; top: 0.55rem; z-index: 999990;
  width: auto !important; left: auto !important; }
h3 { font-size: 1.3rem !important; padding: 0.1rem 0 !important; }
[data-testid="stHeading"] [data-testid="stMarkdownContainer"] { margin-bottom: 0 !important; }
[data-testid="stTable"] th, [data-testid="stTable"] td { padding: 0 0.5rem !important;
  font-size: 0.75rem; }
</style>"""


def presenter_mode() -> bool:
    """Whether the page is shown for a projector (bigger text and chart fonts)."""
    return bool(st.session_state.get(PRESENT.key, False))


def chart_tables() -> bool:
    """Whether the reader asked for every chart's data as a table below it."""
    return bool(st.session_state.get(TABLES.key, False))


_APP_RUN = threading.local()  # whether this thread's run passed app.py (``through_app``)


@contextmanager
def through_app() -> Iterator[None]:
    """Around app.py's drawing of the page: a page drawn outside it ran alone."""
    _APP_RUN.on = True
    try:
        yield
    finally:
        _APP_RUN.on = False


def use_app_navigation() -> None:
    """Make a first-visit deep link run through app.py's own navigation: a server still in
    the legacy ``pages/`` mode (ui.common.streamlit_internals) is switched and the run starts
    again. The page's url_path equals its file stem, so the rerun lands on the same page, now
    with the app's navigation and shared sidebar."""
    if leave_pages_directory_mode():
        st.rerun()


def page_through_app() -> None:
    """A page's first call: its run starts again through app.py if it began without it, as a
    session does that reached a fresh server while another one's first run was switching it
    (of four pages opened at once, three stayed without sidebar, language or address)."""
    if leave_pages_directory_mode() or not getattr(_APP_RUN, "on", False):
        st.rerun()


def _next_draw() -> None:
    st.session_state["draw"] = st.session_state.get("draw", 0) + 1


# The seed and the draw are always in the address (no default to leave out): a link names
# the noise it shows.
SEED = Number("seed", None, minimum=0, maximum=2**32 - 1, integer=True)
DRAW = Number("draw", None, minimum=0, maximum=2**31, integer=True)
PRESENT = Flag("present", on="1")
TABLES = Flag("tables", on="1")  # every chart's data as a table below it (WCAG 1.1.1)
LANGUAGE = Choice(LANGUAGE_KEY, None, options=tuple(LANGUAGES))


def language_picker() -> None:
    """The language of every page, kept in the address (?lang=de), and declared on the page."""
    st.selectbox(
        _("common.sidebar.language"),
        list(LANGUAGES),
        format_func=LANGUAGES.get,
        key=LANGUAGE_KEY,
        label_visibility="collapsed",
    )
    publish(LANGUAGE, language())
    declare_page(language())


_PAGES = "shell__pages"  # session state: (language, this session's st.Page objects)


def navigation_pages() -> list[st.Page]:
    """The app's pages for ``st.navigation`` (ui.common.catalog), in this run's language.

    The home page also answers at "/" (Streamlit ignores a default page's url_path, so it is
    a second entry: /home keeps working for links and bookmarks). Made once per session and
    language: each ``st.Page`` resolves and checks its file (13 pages: 2 ms of a run). Not
    shared between sessions, as ``st.navigation`` marks the page it returns as the one to run.
    """
    from ui.common.catalog import available_pages  # the catalogue imports nothing of ours

    made = st.session_state.get(_PAGES)
    if made is not None and made[0] == language():
        return made[1]
    pages = [
        st.Page(entry.path, title=entry.title, icon=entry.icon, url_path=entry.url_path)
        for entry in available_pages()
    ]
    home = next(entry for entry in available_pages() if entry.url_path == "home")
    pages.insert(
        0, st.Page(home.path, title=home.title, icon=home.icon, url_path="start", default=True)
    )
    st.session_state[_PAGES] = (language(), pages)
    return pages


def navigation_links() -> None:
    """The app's pages in the sidebar, grouped by section (ui.common.catalog)."""
    from ui.common.catalog import available_pages  # the catalogue imports nothing of ours

    current = None
    for entry in available_pages():
        if entry.section != current:
            current = entry.section
            st.caption(current)
        st.page_link(entry.path, label=entry.title, icon=entry.icon)


def sidebar() -> None:
    """The page list, then seed and "draw new noise" controls, shown on every page (but to a
    follower of a room, whose page, seed and draw are the trainer's: a line says so, and its
    page runs draw some twenty elements fewer).

    The seed and draw number live in the address (?seed=...&draw=...), with each page's
    epsilon, so a copied link reproduces the same chart on another screen.
    """
    state = st.session_state
    if SEED.key not in state:
        state[SEED.key] = _or(from_address(SEED), DEFAULT_SEED)
        state[DRAW.key] = _or(from_address(DRAW), 0)
    with st.sidebar:
        language_picker()
        if not following():  # a follower's page, seed and draw are the trainer's
            navigation_links()
            st.divider()
        presenting = linked(
            PRESENT,
            st.toggle,
            _("common.sidebar.presenter"),
            help=_("common.sidebar.presenter.help"),
        )
        linked(TABLES, st.toggle, _("common.sidebar.tables"), help=_("common.sidebar.tables.help"))
        if following():
            st.caption(_("common.sidebar.following"))
        else:
            _draws()
    publish(SEED, state[SEED.key])
    publish(DRAW, state[DRAW.key])
    if presenting:
        st.html(PRESENTER_CSS)


def _draws() -> None:
    """The seed and "draw new noise": each draw of the page's noise, reproducible."""
    state, draws = st.session_state, _("common.sidebar.draws")
    st.markdown(f"**{draws}**")
    st.number_input(
        _("common.sidebar.seed"),
        min_value=0,
        max_value=2**32 - 1,
        step=1,
        key=SEED.key,
        help=_("common.sidebar.seed.help"),
        persist_state="session",
    )
    # A callback, not `if st.button(...)`: it runs before the script, so the new draw
    # survives the rerun that use_app_navigation() may trigger.
    st.button(
        _("common.sidebar.draw_new"),
        icon=":material/casino:",
        width="stretch",
        key="draw_new",
        on_click=_next_draw,
    )
    st.caption(_("common.sidebar.draw_caption", draw=state["draw"], seed=state["seed"]))


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def page_seed(page: str, stream: str = "") -> tuple[int, int, int, int]:
    """The seed of one stream of ``page`` at the current seed and draw, as numbers (a key for
    a cache of what it draws)."""
    seed = int(st.session_state.get("seed", DEFAULT_SEED))
    draw = int(st.session_state.get("draw", 0))
    return seed, draw, zlib.crc32(page.encode()), zlib.crc32(stream.encode())


def page_rng(page: str, stream: str = "") -> np.random.Generator:
    """The Generator for one stream of ``page`` (e.g. a section) at the current seed and draw."""
    return np.random.default_rng(list(page_seed(page, stream)))


def _leave_presenter_mode() -> None:
    st.session_state[PRESENT.key] = False


def presenter_bar(title: str) -> None:
    """In presenter mode (no sidebar): the title, the pages in a menu, and a way back."""
    from ui.common.catalog import available_pages

    # The last quarter of the row is left to the section pad (ui.common.sections), pinned there.
    heading, pages, leave, _pad = st.columns([4, 1, 2, 4], vertical_alignment="center")
    heading.title(title)
    with pages.popover(_("common.presenter.pages"), icon=":material/menu:"):
        for entry in available_pages():
            st.page_link(entry.path, label=entry.title, icon=entry.icon)
    leave.button(
        _("common.presenter.leave"),
        icon=":material/close_fullscreen:",
        key="presenter_leave",
        on_click=_leave_presenter_mode,
        shortcut="escape",
    )


def following() -> bool:
    """Whether this page follows a trainer's in a workshop room (ui.workshop.room): its
    settings are the trainer's, and it is most often read on a phone."""
    state = st.session_state
    return ROOM_FOLLOWING in state and not state.get(ROOM_ALONE, False)


def compact() -> bool:
    """Whether the page must fit few screens: on a projector, following a trainer (most often
    on a phone), or on a phone. Long boxes then say their one line, the rest in a tooltip, and
    the data controls are folded away (``settings_area``)."""
    return presenter_mode() or following() or narrow()


def page_header(title: str, question: str, try_this: str) -> None:
    """Title, the question the page answers, and a "try this" for a workshop audience.

    In presenter mode the header is compact (one screen per section on a 1920 x 1080
    projector), with the pages menu and the way out of presenter mode above it. A page that
    follows a trainer's is compact too: on a phone, what the trainer shows comes first.
    """
    page_through_app()
    if presenter_mode():
        presenter_bar(title)
        st.markdown(f"**{question}**", help=_("common.header.try_this", text=try_this))
        return
    if following():
        st.markdown(
            _("common.header.compact", title=title, question=question),
            help=_("common.header.try_this", text=try_this),
        )
        return
    st.title(title)
    st.markdown(f"#### {question}")
    st.info(_("common.header.try_this.box", text=try_this), icon=":material/lightbulb:")


@contextmanager
def settings_area() -> Iterator[None]:
    """Where a page puts its data and query controls: inline, or folded away for a projector.

    In presenter mode they sit in a closed box, so the main slider and the open section
    share one screen; the controls are one click away. So they do on a phone, and on a page
    that follows a trainer's: they are the trainer's, and a phone shows the trainer's chart
    first. While the box is closed its controls are read, not drawn (ui.common.folding):
    opening it reruns.
    """
    if not compact():
        yield
        return
    room = following() and not presenter_mode()
    label = _("common.room.settings") if room else _("common.presenter.settings")
    with _folded_box(label, "settings_area"):
        yield


def on_a_phone() -> bool:
    """Whether the page is compact for a phone (alone, or following a trainer), not for a
    projector, where a page's own controls stay on one row (presenter_row)."""
    return compact() and not presenter_mode()


@contextmanager
def phone_fold(label: str, key: str) -> Iterator[None]:
    """A page's own controls that a person alone on a phone does not need first (a training's
    settings, the caps): on a phone in a closed box of their own, read, not drawn, as in
    ``settings_area``, so that the guarantee and the open section's chart come sooner."""
    if not on_a_phone():
        yield
        return
    with _folded_box(label, key):
        yield


@contextmanager
def _folded_box(label: str, key: str) -> Iterator[None]:
    """A box of controls, closed until opened (which reruns); closed, its controls are read."""
    box = st.expander(label, icon=":material/tune:", key=key, on_change="rerun")
    with box, nullcontext() if box.open else folded_into(box):
        yield


def presenter_row(*widths: float) -> list[st.delta_generator.DeltaGenerator]:
    """Places for controls: side by side on a projector (one row, so the section's chart
    fits the screen), one below the other elsewhere (room for their labels and help): there
    one container for all, filled in order (one element, not one per place). Folded away,
    the closed box (ui.common.folding.columns)."""
    if presenter_mode() or folded() is not None:
        return columns(list(widths))
    return [st.container()] * len(widths)


def control_row(key: str) -> st.delta_generator.DeltaGenerator:
    """Controls side by side (two select boxes, radios or toggles): one element, where columns
    are one per control and one more. On a phone it wraps, a control a line (ui.common.live's
    stylesheet keeps each at least 14rem wide). Folded away, the closed box itself."""
    if (box := folded()) is not None:
        return box
    return st.container(horizontal=True, gap="medium", key=f"{key}__controls_row")


def metric_row(key: str) -> st.delta_generator.DeltaGenerator:
    """A section's metrics side by side (st.metric, or live metrics): one element, where
    columns are one per metric and one more. On a phone it wraps, two or so to a line
    (ui.common.live's stylesheet keeps a metric at least 9rem wide)."""
    return st.container(horizontal=True, key=f"{key}__metrics")


def formula_box(page: str, draw: Callable[[], None], label: str | None = None) -> None:
    """The formulas, drawn only while their box is open.

    KaTeX draws every symbol as an element, and the browser walks every element after each
    slider step: closed, the formulas cost nothing (the attacker page's step halved).
    """
    box = st.expander(
        label or _("common.formula"),
        key=f"{page}_formula",
        on_change="rerun",
        icon=":material/functions:",
    )
    if box.open:
        with box:
            draw()


def what_to_notice(points: list[str]) -> None:
    """The closing "what to notice" list of a page, under its heading: one element."""
    items = "\n".join(f"- {point}" for point in points)
    st.markdown(f"### {_('common.notice')}\n\n{items}")
