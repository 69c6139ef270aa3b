"""Random sessions: a reader's steps in any order, and after each, the slider a browser shows,
the value the page computes with and the address agree (Hypothesis' stateful testing over
AppTest).

The steps: move a slider, type a value (good or bad) into a typed-value box, choose a preset,
switch among the five languages, open a section, draw new noise. At the end, the address
opened in a fresh session shows the same numbers.

AppTest sends the server's own value back for every widget; a browser does not. The model
below plays the browser's part for a select_slider, which the browser holds by its label: it
shows the value a run sent (``set_value``), keeps its label while the run's labels still hold
it, and falls back to its default stop when they do not (what chromium showed after a change
of language: 0,01 where the page computed at 0.5; a typed 0.37 moved to 0.4 keeps 0.4). On
the next step the browser sends what it shows, as it does with every rerun. Both state bugs
of issue 36 fail this test without their fixes (a change of language; a preset that left
?exponential_draws=10). tests/test_browser.py plays a few such sequences in chromium.
"""

from __future__ import annotations

import math
import os

import pytest
from apptest_helpers import browser_address, open_page, rerun
from hypothesis import HealthCheck, Phase, seed, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1.element_tree import SelectSlider

from ui.common import i18n
from ui.common.address import PUBLISHED, address_value
from ui.common.i18n import LANGUAGES

PAGES = ("laplace", "gaussian", "exponential")  # the pages of both bugs, with presets and ε
# Typed values: good ones (a stop, between stops, a decimal comma) and bad ones.
TYPED = ["0.5", "0.37", "2,5", "7", "1e-3", "0", "-1", "abc", "1e9", ""]
STEPS = 6  # per sequence
PICK = st.integers(min_value=0, max_value=1_000)
SEQUENCES = int(os.environ.get("DP_EXPLORER_SESSIONS", 70))  # per page: 210 in all
PARTS = 5  # each page's sequences in tests of their own, so that the workers share them


def _same(one: object, other: object) -> bool:
    if isinstance(one, float | int) and isinstance(other, float | int):
        return math.isclose(one, other, rel_tol=1e-12)
    return (tuple(one) if isinstance(one, list) else one) == (
        tuple(other) if isinstance(other, list) else other
    )


class _Sent(SelectSlider):
    """A select_slider whose next state is the label a browser shows (``sent``): the browser
    sends a select_slider's value by its label."""

    sent: str

    @property
    def _widget_state(self) -> WidgetState:
        state = WidgetState(id=self.id)
        state.string_array_value.data[:] = [self.sent]
        return state


def _send(slider: SelectSlider, label: str) -> None:
    slider.__class__ = _Sent
    slider.sent = label


def _numbers_shown(at) -> list[str]:
    """The main area's sentences and metrics: what a reader reads off the page."""
    return [m.value for m in at.main.markdown] + [(m.label, m.value) for m in at.main.metric]


class Session(RuleBasedStateMachine):
    """One reader on one page (``PAGE``), in a fresh session."""

    PAGE = "laplace"

    @initialize()
    def open(self) -> None:
        self.at = open_page(self.PAGE)
        self.shown: dict[str, str] = {}  # a select_slider's key -> the label the browser shows
        self._watch()

    # --- the browser's part ---------------------------------------------------------------

    def _sliders(self):
        return [s for s in self.at.main.select_slider if s.key]

    def _watch(self) -> None:
        """After a run: the label each select_slider shows in the browser."""
        for slider in self._sliders():
            proto, labels = slider.proto, list(slider.proto.options)
            held = self.shown.get(slider.key)
            if proto.set_value:  # the app assigned it: the run sends its value, by label
                held = proto.raw_value[0]
            elif held is None:  # drawn for the first time: its state's value
                held = self._label(slider, slider.value)
            elif held not in labels:  # the held label is gone: back to the default stop
                held = labels[int(proto.default[0])]
            self.shown[slider.key] = held

    def _label(self, slider: SelectSlider, value: object) -> str:
        """``value`` as the slider labels it in the session's language (its format_func,
        called here outside the session's run, would speak English)."""
        token = i18n._LATER.set(self.at.session_state["lang"])
        try:
            return slider.format_func(value)
        finally:
            i18n._LATER.reset(token)

    def _run(self) -> None:
        rerun(self.at)
        self._watch()

    def _send_what_is_shown(self) -> None:
        """The browser sends each select_slider's shown label with the next step (AppTest's
        own would format the value outside the session, in English: 0.1 where the Spanish
        slider has 0,1)."""
        for slider in self._sliders():
            _send(slider, self.shown[slider.key])

    # --- the steps -------------------------------------------------------------------------

    # Each step draws plain numbers and picks among what the page shows with them, so that
    # Hypothesis draws the same data whatever the page shows (it replays a failing example).

    @rule(which=PICK, stop=PICK)
    def move_a_slider(self, which: int, stop: int) -> None:
        self._send_what_is_shown()
        sliders = self._sliders()
        if sliders:
            slider = sliders[which % len(sliders)]
            label = slider.options[stop % len(slider.options)]
            _send(slider, label)
            self.shown[slider.key] = label  # the thumb moves in the browser before the run
            self._run()

    @rule(which=PICK, typed=st.sampled_from(TYPED))
    def type_a_value(self, which: int, typed: str) -> None:
        self._send_what_is_shown()
        boxes = [b for b in self.at.main.text_input if b.key and b.key.endswith("__text")]
        if boxes:
            boxes[which % len(boxes)].input(typed)
            self._run()

    @rule(which=PICK)
    def choose_a_preset(self, which: int) -> None:
        self._send_what_is_shown()
        buttons = [b for b in self.at.main.button if b.key and "__preset_" in b.key]
        if buttons:
            buttons[which % len(buttons)].click()
            self._run()

    @rule(lang=st.sampled_from(list(LANGUAGES)))
    def switch_language(self, lang: str) -> None:
        self._send_what_is_shown()
        self.at.sidebar.selectbox(key="lang").set_value(lang)
        self._run()

    @rule(which=PICK)
    def open_a_section(self, which: int) -> None:
        self._send_what_is_shown()
        tabs = [tab.label for tab in self.at.tabs]
        if tabs:
            self.at.session_state[f"{self.PAGE}__section"] = tabs[which % len(tabs)]
            self._run()

    @rule()
    def draw_new_noise(self) -> None:
        self._send_what_is_shown()
        self.at.sidebar.button(key="draw_new").click()
        self._run()

    # --- what must hold --------------------------------------------------------------------

    @invariant()
    def the_thumb_the_page_and_the_address_agree(self) -> None:
        if not hasattr(self, "at"):
            return
        state, address = self.at.session_state, browser_address(self.at)
        for slider in self._sliders():
            shown = self.shown[slider.key]
            assert shown == self._label(slider, state[slider.key]), (
                f"{slider.key}: the browser shows {shown}, the page computes at {state[slider.key]}"
            )
        for key, (setting, options) in state[PUBLISHED].items():
            if key not in state or not setting.in_address:
                continue
            written = address_value(setting, state[key], options)
            held = address.get(key)
            if isinstance(held, list) and len(held) == 1 and not isinstance(written, list):
                held = held[0]
            assert _same(held, written), (
                f"{key}: the page computes at {state[key]!r}, the address holds {held!r}"
            )

    def teardown(self) -> None:
        if not hasattr(self, "at"):
            return
        reopened = open_page(self.PAGE, query=browser_address(self.at))
        assert _numbers_shown(reopened) == _numbers_shown(self.at)


def _machine(page: str, part: int) -> type[Session]:
    """The sessions of one part of ``page``'s sequences: the suite's are the same each run
    (seeded by page and part), the benchmark's new each run (DP_EXPLORER_SESSIONS)."""
    machine = type(f"Session_{page}_{part}", (Session,), {"PAGE": page})
    machine.TestCase.settings = settings(
        max_examples=math.ceil(SEQUENCES / PARTS),
        stateful_step_count=STEPS,
        deadline=None,
        database=None,  # nothing kept between runs: the seed replays a failure
        phases=[Phase.explicit, Phase.generate],  # no shrinking: a failure prints its steps
        suppress_health_check=[HealthCheck.too_slow],
    )
    if "DP_EXPLORER_SESSIONS" in os.environ:
        return machine
    return seed(PAGES.index(page) * PARTS + part)(machine)


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("page", PAGES)
def test_random_sessions_keep_the_thumb_the_page_and_the_address_in_step(
    page: str, part: int
) -> None:
    _machine(page, part).TestCase().runTest()
